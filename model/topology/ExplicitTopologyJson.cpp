#include "ExplicitTopologyJson.h"

#include "NvlinkDomains.h"

#include <QJsonDocument>

#include <unordered_map>

namespace cs {
namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}
QString q(std::string_view s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

class ArrayWriter {
public:
    ArrayWriter(QByteArray& out, const char* indent) : out_(out), indent_(indent) {}
    void begin(const char* key) {
        out_ += indent_;
        out_ += "  \"";
        out_ += key;
        out_ += "\": [";
        first_ = true;
    }
    void item(const QJsonObject& o) {
        out_ += first_ ? "\n" : ",\n";
        out_ += indent_;
        out_ += "    ";
        out_ += QJsonDocument(o).toJson(QJsonDocument::Compact);
        first_ = false;
    }
    void end(bool last) {
        if (!first_) {
            out_ += "\n";
            out_ += indent_;
            out_ += "  ";
        }
        out_ += last ? "]\n" : "],\n";
    }

private:
    QByteArray& out_;
    const char* indent_;
    bool first_ = true;
};

void putRef(QJsonObject& o, const char* key, int32_t index, const auto& array) {
    if (index != kNone) o.insert(QLatin1String(key), q(array[size_t(index)].name));
}

// Resolves ids while reading; ids are unique over all kinds of entity.
class IdTable {
public:
    struct Entry {
        Endpoint e;
        JsonPath where;
    };
    void add(JsonObjectReader& r, const std::string& id, Endpoint e) {
        if (id.empty()) r.fail("id", "expected a non-empty id");
        auto [it, fresh] = ids_.try_emplace(id, Entry{e, r.path()});
        if (!fresh)
            r.fail("id", "duplicate id \"" + id + "\": already used by the " +
                             std::string(toString(it->second.e.kind)) + " at " +
                             it->second.where.toString());
    }
    int32_t find(JsonObjectReader& r, const char* key, EntityKind kind, bool required) {
        const std::optional<std::string> id =
            required ? std::optional<std::string>(r.string(key)) : r.optionalString(key);
        if (!id) return kNone;
        const auto it = ids_.find(*id);
        if (it == ids_.end())
            r.fail(key, "expected the id of a " + std::string(toString(kind)) +
                            ", but no entity has the id \"" + *id + "\"");
        if (it->second.e.kind != kind)
            r.fail(key, "expected the id of a " + std::string(toString(kind)) + ", but \"" + *id +
                            "\" is a " + std::string(toString(it->second.e.kind)));
        return it->second.e.index;
    }
    Endpoint findEndpoint(JsonObjectReader& r, const char* key) {
        const std::string id = r.string(key);
        const auto it = ids_.find(id);
        if (it == ids_.end())
            r.fail(key, "expected the id of a GPU, NIC, switch or storage server; no entity "
                        "has the id \"" +
                            id + "\"");
        const EntityKind k = it->second.e.kind;
        if (k != EntityKind::Gpu && k != EntityKind::Nic && k != EntityKind::Switch &&
            k != EntityKind::Storage)
            r.fail(key, "expected the id of a GPU, NIC, switch or storage server; \"" + id +
                            "\" is a " + std::string(toString(k)));
        return it->second.e;
    }
    void reserve(size_t n) { ids_.reserve(n); }

private:
    std::unordered_map<std::string, Entry> ids_;
};

template <typename E, typename Parse>
E enumField(JsonObjectReader& r, const char* key, Parse parse, std::string_view choices) {
    const std::string s = r.string(key);
    const std::optional<E> v = parse(s);
    if (!v) r.fail(key, "expected " + std::string(choices) + ", got \"" + s + "\"");
    return *v;
}

} // namespace

QByteArray explicitTopologyJson(const Topology& t, const char* indent) {
    QByteArray out;
    out.reserve(qsizetype(t.links.size() * 110 + t.nics.size() * 80 + 4096));
    out += "{\n";
    ArrayWriter w(out, indent);
    w.begin("clusters");
    for (const Cluster& c : t.clusters) {
        // The transport's settings only where a design chose them: auto is the fabric's.
        QJsonObject o{{"id", q(c.name)}, {"fabric", q(toString(c.fabric))}};
        const TransportSettings& s = c.transport;
        if (s.loadBalancing != LoadBalancing::Auto)
            o["loadBalancing"] = q(namesOf(s.loadBalancing).name(s.loadBalancing));
        if (s.qpsPerConnection > 0) o["qpsPerConnection"] = s.qpsPerConnection;
        if (s.congestionControl != CongestionControl::Auto)
            o["congestionControl"] = q(namesOf(s.congestionControl).name(s.congestionControl));
        if (s.switchBufferMiB > 0) o["switchBufferMiB"] = s.switchBufferMiB;
        if (s.inNetworkReduction != InNetworkReduction::Auto)
            o["inNetworkReduction"] = q(namesOf(s.inNetworkReduction).name(s.inNetworkReduction));
        w.item(o);
    }
    w.end(false);
    w.begin("pods");
    for (const Pod& p : t.pods)
        w.item({{"id", q(p.name)}, {"cluster", q(t.clusters[size_t(p.cluster)].name)}});
    w.end(false);
    w.begin("rows");
    for (const Row& r : t.rows) {
        QJsonObject o{{"id", q(r.name)}};
        putRef(o, "cluster", r.cluster, t.clusters);
        putRef(o, "pod", r.pod, t.pods);
        w.item(o);
    }
    w.end(false);
    w.begin("racks");
    for (const Rack& r : t.racks)
        w.item({{"id", q(r.name)},
                {"row", q(t.rows[size_t(r.row)].name)},
                {"position", r.position},
                {"role", q(toString(r.role))}});
    w.end(false);
    w.begin("hosts");
    for (const Host& h : t.hosts)
        w.item({{"id", q(h.name)},
                {"rack", q(t.racks[size_t(h.rack)].name)},
                {"slot", h.slot},
                {"gpus", h.gpuCount},
                {"cpus", h.cpuCount}});
    w.end(false);
    w.begin("nics");
    for (const Nic& n : t.nics) {
        QJsonObject o{{"id", q(n.name)},
                      {"host", q(t.hosts[size_t(n.host)].name)},
                      {"role", q(toString(n.role))},
                      {"gbps", double(n.gbps)}};
        if (n.gpu != kNone) o.insert("gpu", t.gpus[size_t(n.gpu)].local);
        w.item(o);
    }
    w.end(false);
    w.begin("switches");
    for (const Switch& s : t.switches) {
        QJsonObject o{{"id", q(s.name)}, {"role", q(toString(s.role))}, {"ports", s.ports}};
        putRef(o, "rack", s.rack, t.racks);
        putRef(o, "host", s.host, t.hosts);
        putRef(o, "cluster", s.cluster, t.clusters);
        putRef(o, "pod", s.pod, t.pods);
        if (s.plane != kNone) o.insert("plane", s.plane);
        w.item(o);
    }
    w.end(false);
    w.begin("storage");
    for (const StorageServer& s : t.storage) {
        QJsonObject o{{"id", q(s.name)}, {"kind", q(toString(s.kind))}, {"gbps", double(s.gbps)}};
        putRef(o, "rack", s.rack, t.racks);
        w.item(o);
    }
    w.end(false);
    w.begin("links");
    for (const Link& l : t.links)
        w.item({{"a", q(t.nameOf(l.a))},
                {"b", q(t.nameOf(l.b))},
                {"portA", l.portA},
                {"portB", l.portB},
                {"medium", q(toString(l.medium))},
                {"gbps", double(l.gbps)},
                {"latencyNs", double(l.latencyNs)}});
    w.end(true);
    out += indent;
    out += "}";
    return out;
}

void explicitTopologyFromJson(const QJsonValue& v, const JsonPath& path, Topology& t,
                              const ExplicitLimits& limits) {
    JsonObjectReader top(v, path);
    IdTable ids;
    auto each = [&](const char* key, qsizetype max, auto&& fn) {
        const QJsonArray a = top.array(key, max);
        for (qsizetype i = 0; i < a.size(); ++i) {
            JsonObjectReader r(a[i], top.pathOf(key).child(int(i)));
            fn(r);
            r.finish();
        }
        return a.size();
    };
    each("clusters", limits.clusters, [&](JsonObjectReader& r) {
        Cluster c;
        c.name = r.string("id");
        c.fabric = enumField<Fabric>(r, "fabric", parseFabric, fabricChoices());
        TransportSettings& s = c.transport;
        s.loadBalancing = r.choice("loadBalancing", kLoadBalancingNames, LoadBalancing::Auto);
        s.qpsPerConnection = int(r.integer("qpsPerConnection", 0, kMaxQpsPerConnection, 0));
        s.congestionControl =
            r.choice("congestionControl", kCongestionControlNames, CongestionControl::Auto);
        s.switchBufferMiB = r.number("switchBufferMiB", 0, kMaxSwitchBufferMiB, 0.0);
        s.inNetworkReduction =
            r.choice("inNetworkReduction", kInNetworkReductionNames, InNetworkReduction::Auto);
        if (const auto conflict = transportConflict(c.fabric, s))
            r.fail(conflict->field.c_str(), conflict->message);
        ids.add(r, c.name, {EntityKind::Cluster, int32_t(t.clusters.size())});
        t.clusters.push_back(std::move(c));
    });
    each("pods", limits.pods, [&](JsonObjectReader& r) {
        Pod p;
        p.name = r.string("id");
        p.cluster = ids.find(r, "cluster", EntityKind::Cluster, true);
        ids.add(r, p.name, {EntityKind::Pod, int32_t(t.pods.size())});
        t.pods.push_back(std::move(p));
    });
    each("rows", limits.rows, [&](JsonObjectReader& r) {
        Row row;
        row.name = r.string("id");
        row.cluster = ids.find(r, "cluster", EntityKind::Cluster, false);
        row.pod = ids.find(r, "pod", EntityKind::Pod, false);
        if (row.pod != kNone && row.cluster != t.pods[size_t(row.pod)].cluster)
            r.fail("cluster",
                   "expected the cluster of pod \"" + t.pods[size_t(row.pod)].name + "\"");
        ids.add(r, row.name, {EntityKind::Row, int32_t(t.rows.size())});
        t.rows.push_back(std::move(row));
    });
    each("racks", limits.racks, [&](JsonObjectReader& r) {
        Rack k;
        k.name = r.string("id");
        k.row = ids.find(r, "row", EntityKind::Row, true);
        k.position = int32_t(r.integer("position", 0, 1'000'000, 0));
        k.role = enumField<RackRole>(r, "role", parseRackRole, rackRoleChoices());
        ids.add(r, k.name, {EntityKind::Rack, int32_t(t.racks.size())});
        t.racks.push_back(std::move(k));
    });
    each("hosts", limits.hosts, [&](JsonObjectReader& r) {
        Host h;
        h.name = r.string("id");
        h.rack = ids.find(r, "rack", EntityKind::Rack, true);
        h.slot = uint8_t(r.integer("slot", 0, 255, 0));
        h.gpuCount = uint8_t(r.integer("gpus", 0, 16));
        h.cpuCount = uint8_t(r.integer("cpus", 0, 64, 0));
        h.firstGpu = int32_t(t.gpus.size());
        if ((long long)t.gpus.size() + h.gpuCount > limits.gpus)
            r.fail("gpus",
                   "the file would hold more than " + std::to_string(limits.gpus) + " GPUs");
        const auto host = int32_t(t.hosts.size());
        ids.add(r, h.name, {EntityKind::Host, host});
        for (int g = 0; g < h.gpuCount; ++g) {
            t.gpus.push_back({host, uint8_t(g)});
            ids.add(r, h.name + ".gpu" + std::to_string(g),
                    {EntityKind::Gpu, int32_t(t.gpus.size() - 1)});
        }
        t.hosts.push_back(std::move(h));
    });
    each("nics", limits.nics, [&](JsonObjectReader& r) {
        Nic n;
        n.name = r.string("id");
        n.host = ids.find(r, "host", EntityKind::Host, true);
        n.role = enumField<NicRole>(r, "role", parseNicRole, nicRoleChoices());
        n.gbps = float(r.number("gbps", 1e-3, 1e7));
        const Host& h = t.hosts[size_t(n.host)];
        if (r.has("gpu")) {
            if (h.gpuCount == 0) r.fail("gpu", "host \"" + h.name + "\" has no GPUs");
            n.gpu = h.firstGpu + int32_t(r.integer("gpu", 0, h.gpuCount - 1));
        } else {
            r.allow("gpu"); // absent or null: a NIC without a GPU (frontend)
        }
        ids.add(r, n.name, {EntityKind::Nic, int32_t(t.nics.size())});
        t.nics.push_back(std::move(n));
    });
    each("switches", limits.switches, [&](JsonObjectReader& r) {
        Switch s;
        s.name = r.string("id");
        s.role = enumField<SwitchRole>(r, "role", parseSwitchRole, switchRoleChoices());
        s.ports = uint16_t(r.integer("ports", 0, 65535));
        s.rack = ids.find(r, "rack", EntityKind::Rack, false);
        s.host = ids.find(r, "host", EntityKind::Host, false);
        s.cluster = ids.find(r, "cluster", EntityKind::Cluster, false);
        s.pod = ids.find(r, "pod", EntityKind::Pod, false);
        s.plane = int16_t(r.integer("plane", 0, 32767, kNone));
        ids.add(r, s.name, {EntityKind::Switch, int32_t(t.switches.size())});
        t.switches.push_back(std::move(s));
    });
    each("storage", limits.storage, [&](JsonObjectReader& r) {
        StorageServer s;
        s.name = r.string("id");
        s.kind = enumField<StorageKind>(r, "kind", parseStorageKind, storageKindChoices());
        s.gbps = float(r.number("gbps", 1e-3, 1e7));
        s.rack = ids.find(r, "rack", EntityKind::Rack, false);
        ids.add(r, s.name, {EntityKind::Storage, int32_t(t.storage.size())});
        t.storage.push_back(std::move(s));
    });
    each("links", limits.links, [&](JsonObjectReader& r) {
        Link l;
        l.a = ids.findEndpoint(r, "a");
        l.b = ids.findEndpoint(r, "b");
        if (l.a == l.b) r.fail("b", "a link must join two different entities");
        l.portA = uint16_t(r.integer("portA", 0, 65535, 0));
        l.portB = uint16_t(r.integer("portB", 0, 65535, 0));
        l.medium = enumField<LinkMedium>(r, "medium", parseLinkMedium, linkMediumChoices());
        l.gbps = float(r.number("gbps", 1e-3, 1e7));
        l.latencyNs = float(r.number("latencyNs", 0, 1e10, 0));
        t.links.push_back(l);
    });
    top.finish();
    assignNvlinkDomains(t); // an NVL72 rack's switch trays join its hosts
}

} // namespace cs
