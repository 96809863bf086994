#pragma once
// Every field of the topology generator (SiteParams.h), described once: its key as errors and
// --set name it, a dialog label, type, range or choices, unit, default, help and the source of
// the default. The "generator" object of topology files is read and written through this
// table, --set FIELD=VALUE parses through it, and a dialog can be made from it, so all of them
// take the same values and refuse the others with the same "expected ...". The rows are
// FieldTable.h's, as run options' are: what a field takes and how its text and JSON read are
// written there once.
#include "FieldTable.h"
#include "SiteParams.h"

#include <QJsonValue>
#include <QString>

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace cs {

// Where the field lives: generator.NAME, generator.clusters[N].NAME, generator.storage.NAME.
enum class DesignScope { Site, Cluster, Storage };

// A design field's description (FieldTable.h; its key is the JSON member, "oversubscription")
// with the accessors of its member in a site.
struct DesignField : FieldInfo {
    DesignScope scope = DesignScope::Cluster; // set by the accessors' binding
    FieldValue (*get)(const SiteParams&, int cluster) = nullptr;
    void (*set)(SiteParams&, int cluster, const FieldValue&) = nullptr;
};

// Site fields, then a cluster's (in SiteParams.h order), then the storage's.
const std::vector<DesignField>& designFields();
const DesignField* findDesignField(DesignScope scope, const std::string& name);

// The field's key as errors name it: "generator.clusters[0].oversubscription" (cluster is
// ignored outside DesignScope::Cluster).
std::string designFieldKey(const DesignField& f, int cluster = 0);
struct DesignFieldRef {
    const DesignField* field = nullptr;
    int cluster = 0;
};
// The field a key names; nothing when it names none. The cluster index is not checked
// against a site: designFieldRefs lists the keys a given site has.
std::optional<DesignFieldRef> parseDesignFieldKey(const std::string& key);
// Every field of `p`: its site and storage fields and each cluster's.
std::vector<DesignFieldRef> designFieldRefs(const SiteParams& p);

// The current value as text that setDesignField reads back.
QString designFieldText(const SiteParams& p, const DesignField& f, int cluster = 0);
// Parses `text` strictly (no spaces, integers without fractions) and sets the field; throws
// InputException with field = the key and "expected ..., got \"text\"".
void setDesignField(SiteParams& p, const DesignField& f, int cluster, const QString& text);

// A site with one default cluster: what a "generator" object with an empty cluster reads as,
// and where the table's defaults come from.
SiteParams defaultDesign();

} // namespace cs
