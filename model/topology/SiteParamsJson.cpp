#include "SiteParamsJson.h"

#include "DesignFields.h"

namespace cs {
namespace {

// A member through its field of the table: the JSON type the field takes, then its range or
// choices, refused with the "expected ..." that --set gives for the same value.
void readField(JsonObjectReader& r, const DesignField& f, SiteParams& p, int cluster) {
    const QJsonValue v = r.value(f.key.c_str());
    if (v.isUndefined()) return; // absent: the default
    const std::optional<FieldValue> value = fieldValueOfJson(f, v);
    if (!value || !fieldValueAllowed(f, *value))
        r.fail(f.key.c_str(), "expected " + fieldExpected(f) + ", got " + describeJson(v));
    f.set(p, cluster, *value);
}

void readScope(JsonObjectReader& r, DesignScope scope, SiteParams& p, int cluster) {
    for (const DesignField& f : designFields())
        if (f.scope == scope) readField(r, f, p, cluster);
}

QJsonObject scopeToJson(DesignScope scope, const SiteParams& p, int cluster) {
    QJsonObject o;
    for (const DesignField& f : designFields())
        if (f.scope == scope)
            o.insert(QString::fromStdString(f.key), fieldValueToJson(f, f.get(p, cluster)));
    return o;
}

} // namespace

QJsonObject siteParamsToJson(const SiteParams& p) {
    QJsonObject o = scopeToJson(DesignScope::Site, p, 0);
    QJsonArray clusters;
    for (size_t c = 0; c < p.clusters.size(); ++c)
        clusters.append(scopeToJson(DesignScope::Cluster, p, int(c)));
    o.insert("clusters", clusters);
    o.insert("storage", scopeToJson(DesignScope::Storage, p, 0));
    return o;
}

SiteParams siteParamsFromJson(const QJsonValue& v, const JsonPath& path) {
    JsonObjectReader r(v, path);
    SiteParams p;
    readScope(r, DesignScope::Site, p, 0);
    const QJsonArray clusters = r.array("clusters", kMaxClusters);
    for (qsizetype i = 0; i < clusters.size(); ++i) {
        JsonObjectReader cr(clusters[i], r.pathOf("clusters").child(int(i)));
        p.clusters.emplace_back();
        readScope(cr, DesignScope::Cluster, p, int(i));
        cr.finish();
    }
    if (r.has("storage")) {
        JsonObjectReader sr = r.object("storage");
        readScope(sr, DesignScope::Storage, p, 0);
        sr.finish();
    }
    r.finish();
    return p;
}

} // namespace cs
