#pragma once
// Every field of the topology generator (SiteParams.h), described once: its key as errors and
// --set name it, a dialog label, type, range or choices, unit, default, help and the source of
// the default. The "generator" object of topology files is read and written through this
// table, --set FIELD=VALUE parses through it, and a dialog can be made from it, so all of them
// take the same values and refuse the others with the same "expected ...".
#include "SiteParams.h"

#include <QJsonValue>
#include <QString>

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace cs {

enum class DesignFieldType { Integer, Number, Choice, Text };
// Where the field lives: generator.NAME, generator.clusters[N].NAME, generator.storage.NAME.
enum class DesignScope { Site, Cluster, Storage };

// A value as the accessors hold it: Integer (long long), Number (double), Choice and Text
// (std::string; a choice by its name).
using DesignValue = std::variant<long long, double, std::string>;

struct DesignField {
    DesignScope scope = DesignScope::Cluster;        // set by the accessors' binding
    std::string name;                                // the JSON member: "oversubscription"
    std::string label;                               // dialog: "Oversubscription"
    DesignFieldType type = DesignFieldType::Integer; // from the member's C++ type
    // Integer and Number: the range; Text: the length in characters.
    double min = 0, max = 0;
    bool aboveMin = false;            // Number: min itself excluded (a speed above 0)
    bool identifier = false;          // Text: no spaces or dots (a prefix of entity ids)
    std::vector<std::string> choices; // Choice: the enum table's names
    std::string unit;                 // "Gb/s", "ns", "ports"; empty for plain counts
    std::string help;                 // one line
    std::string source;               // of the default: "[paper]", "[2nd]", "[assumption]"...
    std::string defaultText;          // designFieldText of the default site (meta-roce-24k)
    DesignValue (*get)(const SiteParams&, int cluster) = nullptr;
    void (*set)(SiteParams&, int cluster, const DesignValue&) = nullptr;
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

// What the field takes: "an integer from 1 to 4096", "a number above 0 and at most 1000000",
// "roce or infiniband", "a name of 1 to 4096 characters without spaces or dots".
std::string designFieldExpected(const DesignField& f);
// Whether the field takes the value (the alternative of its type, in range, a known choice).
bool designValueAllowed(const DesignField& f, const DesignValue& v);

// The current value as text that setDesignField reads back.
QString designFieldText(const SiteParams& p, const DesignField& f, int cluster = 0);
// Parses `text` strictly (no spaces, integers without fractions) and sets the field; throws
// InputException with field = the key and "expected ..., got \"text\"".
void setDesignField(SiteParams& p, const DesignField& f, int cluster, const QString& text);

// The value a JSON member holds for the field; nothing when its JSON type is not the field's.
std::optional<DesignValue> designValueOfJson(const DesignField& f, const QJsonValue& v);
QJsonValue designValueToJson(const DesignValue& v);

// A site with one default cluster: what a "generator" object with an empty cluster reads as,
// and where the table's defaults come from.
SiteParams defaultDesign();

} // namespace cs
