#include "FabricFaults.h"

#include "EntitySearch.h"
#include "InputError.h"

#include <algorithm>
#include <cmath>

namespace cs {
namespace {

// The links of the part an id names; throws with `field` for ids that name none.
std::vector<int32_t> linksOfPart(const TopologyDocument& doc, const std::string& id,
                                 const std::string& field) {
    const std::optional<Endpoint> e = findEntity(doc, id);
    if (!e || (e->kind != EntityKind::Link && e->kind != EntityKind::Switch &&
               e->kind != EntityKind::Nic))
        throw InputException({{},
                              0,
                              0,
                              field,
                              "expected the id of a link (\"<end a> -- <end b>\"), switch or NIC "
                              "of the topology, got \"" +
                                  id + "\""});
    if (e->kind == EntityKind::Link) return {e->index};
    const auto links = doc.index().linksOf(*e);
    return {links.begin(), links.end()};
}

} // namespace

Topology topologyWithFaults(const TopologyDocument& doc, const FabricFaults& faults) {
    Topology t = doc.topology();
    for (const auto& [id, fraction] : faults.degraded)
        for (int32_t l : linksOfPart(doc, id, "fabric.degraded." + id))
            t.links[size_t(l)].gbps *= float(fraction);
    for (const int32_t l : failedLinks(doc, faults))
        t.links[size_t(l)].gbps = 0;
    return t;
}

std::vector<Endpoint> failedParts(const TopologyDocument& doc, const FabricFaults& faults) {
    std::vector<Endpoint> out;
    for (const std::string& id : faults.failed)
        if (const std::optional<Endpoint> e = findEntity(doc, id)) out.push_back(*e);
    return out;
}

void checkFaultIds(const TopologyDocument& doc, const FabricFaults& faults) {
    failedLinks(doc, faults);
    for (const auto& [id, fraction] : faults.degraded)
        linksOfPart(doc, id, "fabric.degraded." + id);
}

std::vector<int32_t> failedLinks(const TopologyDocument& doc, const FabricFaults& faults) {
    std::vector<int32_t> out;
    for (size_t i = 0; i < faults.failed.size(); ++i)
        for (int32_t l :
             linksOfPart(doc, faults.failed[i], "fabric.failed[" + std::to_string(i) + "]"))
            out.push_back(l);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

} // namespace cs
