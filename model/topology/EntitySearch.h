#pragma once
// What the search box finds: an exact id, a GPU by global index ("1234", "gpu 1234",
// "#1234"), or the first host, switch, rack, pod or storage server whose id ends with the
// text after a dot ("rack17.host1" finds "roce.pod0.rack17.host1"), or a link by its two ends'
// ids as the inspector names it ("<a> -- <b>").
#include "TopologyDocument.h"

#include <optional>
#include <string>

namespace cs {

std::optional<Endpoint> findEntity(const TopologyDocument& doc, const std::string& text);

} // namespace cs
