// The sidecar file that states what the importer would otherwise infer.
#include "FabricInference.h"

#include "JsonObjectReader.h"

namespace cs {
namespace {

constexpr qsizetype kMaxOverrideEntries = 1'000'000;

int tierOfName(const std::string& s) {
    if (s == "leaf") return 1;
    if (s == "spine") return 2;
    if (s == "core") return 3;
    return 0;
}

StructureOverrides parseDocument(const QJsonDocument& doc, const std::string& fileName) {
    const JsonPath root;
    JsonObjectReader r(doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(), root);
    StructureOverrides o;
    o.file = fileName;
    if (auto f = r.optionalString("fabric")) {
        o.fabric = parseFabric(*f);
        if (!o.fabric)
            r.fail("fabric", "expected " + std::string(fabricChoices()) + ", got \"" + *f + "\"");
    }
    o.gpuModel = r.optionalString("gpuModel").value_or("");
    o.gpusPerHost = int(r.integer("gpusPerHost", 1, 64, 0));
    o.linkGbps = r.number("linkGbps", 1, 1e6, 0);
    for (const char* key : {"switchTiers", "hostRacks"}) {
        if (!r.has(key)) continue;
        const QJsonValue v = r.value(key);
        if (!v.isObject()) r.fail(key, "expected an object {name: value}, got " + describeJson(v));
        const QJsonObject obj = v.toObject();
        if (obj.size() > kMaxOverrideEntries)
            r.fail(key, "more than " + std::to_string(kMaxOverrideEntries) + " entries");
        for (auto it = obj.begin(); it != obj.end(); ++it) {
            const std::string name = it.key().toStdString();
            if (!it.value().isString())
                throw JsonFieldError(r.pathOf(key).child(name),
                                     "expected a string, got " + describeJson(it.value()));
            const std::string value = it.value().toString().toStdString();
            if (std::string(key) == "hostRacks") {
                if (value.empty())
                    throw JsonFieldError(r.pathOf(key).child(name), "expected a rack name");
                o.hostRacks[name] = value;
            } else {
                const int t = tierOfName(value);
                if (t == 0)
                    throw JsonFieldError(r.pathOf(key).child(name),
                                         "expected leaf | spine | core, got \"" + value + "\"");
                o.switchTiers[name] = t;
            }
        }
    }
    r.finish();
    return o;
}

} // namespace

StructureOverrides parseStructureOverrides(const QByteArray& text, const std::string& fileName) {
    return readJsonDocument(text, fileName,
                            [&](const QJsonDocument& doc) { return parseDocument(doc, fileName); });
}

} // namespace cs
