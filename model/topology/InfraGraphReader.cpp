// InfraGraph (Keysight's vendor-neutral infrastructure schema, read by ASTRA-sim 3.0), YAML
// or JSON. An infrastructure has devices (components with counts, their own links and
// connections), instances of devices, links with a bandwidth, and connections between
// instances' components, either as strings `host.0.nic.1.eth.leaf.0.port.3` or as edges
// `{ep1: {instance: host[0:2], component: nic}, ep2: ..., link, scheme: one2one|many2many}`.
// A device with NPUs/XPUs/GPUs is a host (its external NICs are its ports); other devices
// are switches. Devices not defined in the file are looked for beside it (DEVICE.yaml).
#include "FabricReaders.h"
#include "InputError.h"

#include <yaml-cpp/yaml.h>

#include <QFile>
#include <QFileInfo>

#include <map>
#include <set>
#include <unordered_map>

namespace cs {
namespace {

constexpr long long kMaxSliceLength = 10'000'000;

struct Device {
    std::string name;
    bool defined = false;
    bool host = false;
    int gpus = -1;
    std::map<std::string, long long> counts;  // component -> count
    std::map<std::string, std::string> types; // component -> type
    std::map<long long, int> nicGpu;          // nic index -> npu index (host devices)
    std::string nicComponent;                 // the component whose index nicGpu uses
};

struct Instance {
    std::string name, device;
    long long count = -1; // -1: not given
    int line = 0;
    int32_t firstNode = kNone;
};

struct Ref { // one component of one instance
    std::string instance;
    long long index = 0;
    std::string component;
    long long componentIndex = 0;
};

std::string lower(std::string s) {
    for (char& c : s)
        c = char(std::tolower((unsigned char)c));
    return s;
}

bool isComputeType(const std::string& type, const std::string& name) {
    const std::string t = lower(type), n = lower(name);
    return t == "npu" || t == "xpu" || t == "gpu" || n == "npu" || n == "xpu" || n == "gpu";
}

bool looksLikeSwitch(const std::string& name) {
    const std::string n = lower(name);
    for (const char* w : {"switch", "sw", "leaf", "spine", "core", "tor"})
        if (n.find(w) != std::string::npos) return true;
    return false;
}

class Reader {
public:
    Reader(const std::string& file, const FabricReadOptions& o) : file_(file), o_(o) {}

    FabricGraph read(const QByteArray& text) {
        const YAML::Node doc = load(text, file_);
        if (!doc.IsMap()) fail(doc, "", "expected an InfraGraph document (a mapping)");
        YAML::Node infra = doc["infrastructure"] ? doc["infrastructure"] : doc;
        if (!infra.IsMap()) fail(infra, "infrastructure", "expected a mapping");
        g_.file = file_;
        g_.format = "infragraph";
        g_.name = scalar(infra, "name", "");
        if (g_.name.empty())
            g_.name = QFileInfo(QString::fromStdString(file_)).baseName().toStdString();
        readDevices(infra["devices"]);
        readLinks(infra["links"]);
        readInstances(infra["instances"]);
        const YAML::Node connections = infra["connections"], edges = infra["edges"];
        if (!connections && !edges)
            fail(infra, "connections", "expected \"connections\" or \"edges\" between instances");
        std::vector<std::pair<Ref, Ref>> pairs;
        std::vector<std::pair<std::string, int>> linkOf; // link name, line
        readConnections(connections, pairs, linkOf);
        readEdges(edges, pairs, linkOf);
        resolveDevices();
        makeNodes();
        makeLinks(pairs, linkOf);
        return std::move(g_);
    }

private:
    static YAML::Node load(const QByteArray& text, const std::string& file) {
        try {
            return YAML::Load(text.toStdString());
        } catch (const YAML::Exception& e) {
            throw InputException(
                {file, e.mark.line + 1, e.mark.column + 1, {}, "not valid YAML or JSON: " + e.msg});
        }
    }
    [[noreturn]] void fail(const YAML::Node& at, const std::string& field,
                           const std::string& msg) const {
        const YAML::Mark m = at.Mark();
        throw InputException(
            {file_, m.line >= 0 ? m.line + 1 : 0, m.column >= 0 ? m.column + 1 : 0, field, msg});
    }
    std::string scalar(const YAML::Node& map, const char* key, const std::string& fallback) const {
        const YAML::Node v = map[key];
        if (!v) return fallback;
        if (!v.IsScalar()) fail(v, key, "expected a text value");
        return v.Scalar();
    }
    long long integer(const YAML::Node& map, const char* key, long long lo, long long hi,
                      long long fallback) const {
        const YAML::Node v = map[key];
        if (!v) return fallback;
        try {
            const long long x = v.as<long long>();
            if (x < lo || x > hi) throw YAML::Exception(v.Mark(), "out of range");
            return x;
        } catch (const YAML::Exception&) {
            fail(v, key,
                 "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
        }
    }
    static int lineOf(const YAML::Node& n) { return n.Mark().line + 1; }

    void readDevices(const YAML::Node& list) {
        if (!list) return;
        if (!list.IsSequence()) fail(list, "devices", "expected a list of devices");
        for (const YAML::Node& d : list) {
            if (!d.IsMap()) fail(d, "devices", "expected a device (a mapping)");
            Device dev;
            dev.name = scalar(d, "name", "");
            if (dev.name.empty()) fail(d, "devices.name", "expected the device's name");
            dev.defined = true;
            if (const YAML::Node cs = d["components"]) {
                if (!cs.IsSequence()) fail(cs, "components", "expected a list of components");
                for (const YAML::Node& c : cs) {
                    if (!c.IsMap()) fail(c, "components", "expected a component (a mapping)");
                    const std::string name = scalar(c, "name", "");
                    if (name.empty()) fail(c, "components.name", "expected the component's name");
                    const std::string type = scalar(c, "type", scalar(c, "choice", "custom"));
                    const long long count = integer(c, "count", 1, o_.maxNodes, 1);
                    dev.counts[name] = count;
                    dev.types[name] = lower(type);
                    if (isComputeType(type, name)) dev.gpus = int(std::min<long long>(count, 1000));
                }
            }
            dev.host = dev.gpus > 0;
            // NPU k wired to NIC j inside the device: NIC j serves GPU k.
            auto wire = [&](const std::string& ca, long long ia, const std::string& cb,
                            long long ib) {
                const bool aGpu = isComputeType(dev.types[ca], ca),
                           bGpu = isComputeType(dev.types[cb], cb);
                if (aGpu == bGpu) return;
                const std::string& nic = aGpu ? cb : ca;
                if (dev.types[nic] != "nic" && lower(nic) != "nic") return;
                dev.nicComponent = nic;
                dev.nicGpu[aGpu ? ib : ia] = int(aGpu ? ia : ib);
            };
            if (const YAML::Node conns = d["connections"]) {
                if (!conns.IsSequence()) fail(conns, "connections", "expected a list");
                for (const YAML::Node& c : conns) {
                    const std::vector<std::string> p = split(c);
                    if (p.size() != 5)
                        fail(c, "connections",
                             "expected `component.index.link.component.index`, got \"" +
                                 c.Scalar() + "\"");
                    wire(p[0], index(c, p[1]), p[3], index(c, p[4]));
                }
            }
            if (const YAML::Node edges = d["edges"]; edges && edges.IsSequence())
                for (const YAML::Node& e : edges) {
                    const auto a = slice(e["ep1"], "component", dev.counts);
                    const auto b = slice(e["ep2"], "component", dev.counts);
                    if (scalar(e, "scheme", "one2one") == "one2one" &&
                        a.indices.size() == b.indices.size())
                        for (size_t k = 0; k < a.indices.size(); ++k)
                            wire(a.name, a.indices[k], b.name, b.indices[k]);
                }
            if (dev.gpus > 64)
                fail(d, "components",
                     "device " + dev.name + " has " + std::to_string(dev.gpus) +
                         " NPUs; at most 64 per host are read");
            devices_[dev.name] = std::move(dev);
        }
    }

    std::vector<std::string> split(const YAML::Node& n) const {
        if (!n.IsScalar()) fail(n, "connections", "expected a connection string");
        std::vector<std::string> parts;
        const std::string& s = n.Scalar();
        size_t from = 0;
        for (size_t i = 0; i <= s.size(); ++i)
            if (i == s.size() || s[i] == '.') {
                parts.push_back(s.substr(from, i - from));
                from = i + 1;
            }
        return parts;
    }
    long long index(const YAML::Node& at, const std::string& s) const {
        if (s.empty() || s.size() > 12 || s.find_first_not_of("0123456789") != std::string::npos)
            fail(at, "connections", "expected an index (a number), got \"" + s + "\"");
        return std::stoll(s);
    }

    struct Slice {
        std::string name;
        std::vector<long long> indices;
    };
    // "nic[0:2]", "nic[3]", "nic" (every one of count).
    Slice slice(const YAML::Node& ep, const char* key,
                const std::map<std::string, long long>& counts) const {
        if (!ep || !ep.IsMap()) fail(ep, "edges", "expected an endpoint {instance, component}");
        const std::string text = scalar(ep, key, "");
        Slice s;
        const size_t open = text.find('[');
        s.name = text.substr(0, open);
        if (s.name.empty()) fail(ep, key, "expected a name, optionally with [start:stop]");
        const auto it = counts.find(s.name);
        long long lo = 0, hi = it == counts.end() ? 1 : it->second;
        if (open != std::string::npos) {
            const size_t close = text.find(']', open);
            const std::string inner = text.substr(open + 1, close - open - 1);
            const size_t colon = inner.find(':');
            try {
                if (close == std::string::npos) throw std::invalid_argument("]");
                if (colon == std::string::npos) {
                    lo = std::stoll(inner);
                    hi = lo + 1;
                } else {
                    if (colon > 0) lo = std::stoll(inner.substr(0, colon));
                    if (colon + 1 < inner.size()) hi = std::stoll(inner.substr(colon + 1));
                }
            } catch (const std::exception&) {
                fail(ep, key, "expected name[start:stop] with integers, got \"" + text + "\"");
            }
        }
        if (lo < 0 || hi < lo || hi - lo > kMaxSliceLength)
            fail(ep, key, "the slice of \"" + text + "\" is empty, negative or too long");
        for (long long i = lo; i < hi; ++i)
            s.indices.push_back(i);
        return s;
    }

    void readLinks(const YAML::Node& list) {
        if (!list) return;
        if (!list.IsSequence()) fail(list, "links", "expected a list of links");
        for (const YAML::Node& l : list) {
            const std::string name = scalar(l, "name", "");
            if (name.empty()) fail(l, "links.name", "expected the link's name");
            YAML::Node bw = l["bandwidth"];
            if (!bw && l["physical"]) bw = l["physical"]["bandwidth"];
            double gbps = 0;
            if (bw) {
                if (!bw.IsMap()) fail(bw, "bandwidth", "expected a mapping of unit: value");
                static const std::pair<const char*, double> units[] = {
                    {"gigabits_per_second", 1},    {"gbps", 1},
                    {"gigabytes_per_second", 8},   {"giga_bytes_per_second", 8},
                    {"megabits_per_second", 1e-3}, {"terabits_per_second", 1e3}};
                bool found = false;
                for (const auto& [key, scale] : units)
                    if (const YAML::Node v = bw[key]) {
                        try {
                            gbps = v.as<double>() * scale;
                        } catch (const YAML::Exception&) {
                            fail(v, key, "expected a number");
                        }
                        if (!(gbps >= 0 && gbps <= 1e7)) fail(v, key, "expected 0 to 10^7 Gb/s");
                        found = true;
                    }
                if (!found)
                    fail(bw, "bandwidth", "expected gigabits_per_second or gigabytes_per_second");
            }
            linkGbps_[name] = gbps;
        }
    }

    void readInstances(const YAML::Node& list) {
        if (!list || !list.IsSequence())
            fail(list ? list : YAML::Node(), "instances", "expected a list of instances");
        for (const YAML::Node& i : list) {
            Instance in;
            in.name = scalar(i, "name", "");
            in.device = scalar(i, "device", "");
            if (in.name.empty() || in.device.empty())
                fail(i, "instances", "expected an instance {name, device, count}");
            in.count = integer(i, "count", 1, o_.maxNodes, -1);
            in.line = lineOf(i);
            if (!instanceIndex_.emplace(in.name, instances_.size()).second)
                fail(i, "instances.name", "the instance \"" + in.name + "\" is declared twice");
            instances_.push_back(std::move(in));
        }
    }

    Instance& instance(const YAML::Node& at, const std::string& name) {
        const auto it = instanceIndex_.find(name);
        if (it == instanceIndex_.end())
            fail(at, "connections", "\"" + name + "\" is not one of the instances");
        return instances_[it->second];
    }

    void readConnections(const YAML::Node& list, std::vector<std::pair<Ref, Ref>>& pairs,
                         std::vector<std::pair<std::string, int>>& linkOf) {
        if (!list) return;
        if (!list.IsSequence()) fail(list, "connections", "expected a list of connections");
        for (const YAML::Node& c : list) {
            const std::vector<std::string> p = split(c);
            if (p.size() != 9)
                fail(c, "connections",
                     "expected `instance.index.component.index.link.instance.index.component."
                     "index`, got \"" +
                         c.Scalar() + "\"");
            Ref a{p[0], index(c, p[1]), p[2], index(c, p[3])};
            Ref b{p[5], index(c, p[6]), p[7], index(c, p[8])};
            for (const Ref* r : {&a, &b})
                note(c, *r);
            if (!linkGbps_.count(p[4]))
                fail(c, "connections", "the link \"" + p[4] + "\" is not one of the links");
            pairs.emplace_back(std::move(a), std::move(b));
            linkOf.emplace_back(p[4], lineOf(c));
            if ((long long)pairs.size() > o_.maxLinks)
                fail(c, "connections", "more than " + std::to_string(o_.maxLinks) + " links");
        }
    }

    void readEdges(const YAML::Node& list, std::vector<std::pair<Ref, Ref>>& pairs,
                   std::vector<std::pair<std::string, int>>& linkOf) {
        if (!list) return;
        if (!list.IsSequence()) fail(list, "edges", "expected a list of edges");
        std::map<std::string, long long> instanceCounts;
        for (const Instance& in : instances_)
            instanceCounts[in.name] = std::max(in.count, 1LL);
        for (const YAML::Node& e : list) {
            std::vector<Ref> ends[2];
            int k = 0;
            for (const char* key : {"ep1", "ep2"}) {
                const YAML::Node ep = e[key];
                const Slice is = slice(ep, "instance", instanceCounts);
                const Instance& in = instance(ep, is.name);
                const auto dev = devices_.find(in.device);
                const Slice cs = slice(ep, "component",
                                       dev == devices_.end() ? std::map<std::string, long long>{}
                                                             : dev->second.counts);
                for (long long i : is.indices)
                    for (long long c : cs.indices)
                        ends[k].push_back({is.name, i, cs.name, c});
                ++k;
            }
            const std::string link = scalar(e, "link", "");
            if (!linkGbps_.count(link))
                fail(e, "link", "the link \"" + link + "\" is not one of the links");
            const bool many = scalar(e, "scheme", "") == "many2many" ||
                              (e["many2many"] && e["many2many"].as<bool>(false));
            if (!many && ends[0].size() != ends[1].size())
                fail(e, "scheme",
                     "one2one joins endpoints in order, but ep1 names " +
                         std::to_string(ends[0].size()) + " and ep2 " +
                         std::to_string(ends[1].size()));
            auto add = [&](const Ref& a, const Ref& b) {
                note(e, a);
                note(e, b);
                pairs.emplace_back(a, b);
                linkOf.emplace_back(link, lineOf(e));
                if ((long long)pairs.size() > o_.maxLinks)
                    fail(e, "edges", "more than " + std::to_string(o_.maxLinks) + " links");
            };
            if (many)
                for (const Ref& a : ends[0])
                    for (const Ref& b : ends[1])
                        add(a, b);
            else
                for (size_t i = 0; i < ends[0].size(); ++i)
                    add(ends[0][i], ends[1][i]);
        }
    }

    // Keeps the highest index seen per instance (its count when the file gives none).
    void note(const YAML::Node& at, const Ref& r) {
        Instance& in = instance(at, r.instance);
        if (in.count >= 0 && r.index >= in.count)
            fail(at, "connections",
                 r.instance + "." + std::to_string(r.index) + ": the instance has only " +
                     std::to_string(in.count));
        maxIndex_[r.instance] = std::max(maxIndex_[r.instance], r.index);
    }

    // Devices not in the file: DEVICE.yaml / .yml / .json beside it, else inferred from names.
    void resolveDevices() {
        for (const Instance& in : instances_) {
            if (devices_.count(in.device)) continue;
            bool found = false;
            for (const char* ext : {".yaml", ".yml", ".json"}) {
                const QString path = QString::fromStdString(o_.directory + "/" + in.device + ext);
                if (o_.directory.empty() || !QFileInfo::exists(path)) continue;
                QFile f(path);
                if (!f.open(QIODevice::ReadOnly) || f.size() > 16 * 1024 * 1024) continue;
                const std::string file = path.toStdString();
                const YAML::Node doc = load(f.readAll(), file);
                const YAML::Node root = doc["infrastructure"] ? doc["infrastructure"] : doc;
                Reader sub(file, o_);
                sub.readDevices(root["devices"]);
                for (auto& [name, d] : sub.devices_)
                    devices_.emplace(name, std::move(d));
                found = devices_.count(in.device) > 0;
                if (found) g_.readerNotes.push_back("device " + in.device + " read from " + file);
                break;
            }
            if (found) continue;
            Device d;
            d.name = in.device;
            d.host = !looksLikeSwitch(in.device) && !looksLikeSwitch(in.name);
            devices_[in.device] = d;
            g_.readerNotes.push_back("device " + in.device +
                                     " is defined neither in the file nor beside it: a " +
                                     (d.host ? "host" : "switch") + " by its name");
        }
    }

    void makeNodes() {
        long long countsInferred = 0;
        for (Instance& in : instances_) {
            if (in.count < 0) {
                in.count = maxIndex_.count(in.name) ? maxIndex_[in.name] + 1 : 0;
                ++countsInferred;
            }
            const Device& d = devices_[in.device];
            if ((long long)g_.nodes.size() + in.count > o_.maxNodes)
                throw InputException({file_, in.line, 0, "instances.count",
                                      "more than " + std::to_string(o_.maxNodes) + " nodes"});
            in.firstNode = int32_t(g_.nodes.size());
            for (long long k = 0; k < in.count; ++k) {
                GraphNode n;
                n.name = in.name + "." + std::to_string(k);
                n.kind = d.host ? GraphNodeKind::Host : GraphNodeKind::Switch;
                n.kindInferred = !d.defined;
                n.gpus = d.host ? d.gpus : -1;
                n.line = in.line;
                if (!d.host && d.defined) {
                    long long ports = 0;
                    for (const auto& [c, count] : d.counts)
                        if (d.types.at(c) == "nic" || d.types.at(c) == "port") ports += count;
                    n.ports = int(std::min<long long>(ports, 65535));
                }
                g_.nodes.push_back(std::move(n));
            }
        }
        if (countsInferred > 0)
            g_.readerNotes.push_back(std::to_string(countsInferred) +
                                     " instances have no count: the highest index connected, "
                                     "plus one");
    }

    void makeLinks(const std::vector<std::pair<Ref, Ref>>& pairs,
                   const std::vector<std::pair<std::string, int>>& linkOf) {
        std::vector<std::unordered_map<std::string, uint16_t>> ports(g_.nodes.size());
        auto end = [&](const Ref& r, int line, uint16_t& port) {
            const Instance& in = instances_[instanceIndex_.at(r.instance)];
            const int32_t node = in.firstNode + int32_t(r.index);
            auto& used = ports[size_t(node)];
            const std::string key = r.component + "#" + std::to_string(r.componentIndex);
            auto [it, fresh] = used.emplace(key, uint16_t(used.size() + 1));
            if (!fresh)
                throw InputException({file_, line, 0, "connections",
                                      r.instance + "." + std::to_string(r.index) + "." +
                                          r.component + "." + std::to_string(r.componentIndex) +
                                          " is connected twice"});
            port = it->second;
            const Device& d = devices_[in.device];
            if (d.host && r.component == d.nicComponent) {
                const auto gpu = d.nicGpu.find(r.componentIndex);
                if (gpu != d.nicGpu.end()) {
                    std::vector<int>& map = g_.nodes[size_t(node)].nicGpu;
                    if (map.size() < port) map.resize(port, -1);
                    map[port - 1u] = gpu->second;
                }
            }
            return node;
        };
        g_.links.reserve(pairs.size());
        for (size_t i = 0; i < pairs.size(); ++i) {
            GraphLink l;
            l.line = linkOf[i].second;
            l.a = end(pairs[i].first, l.line, l.portA);
            l.b = end(pairs[i].second, l.line, l.portB);
            l.gbps = float(linkGbps_[linkOf[i].first]);
            g_.links.push_back(l);
        }
    }

    std::string file_;
    const FabricReadOptions& o_;
    FabricGraph g_;
    std::map<std::string, Device> devices_;
    std::map<std::string, double> linkGbps_;
    std::vector<Instance> instances_;
    std::unordered_map<std::string, size_t> instanceIndex_;
    std::unordered_map<std::string, long long> maxIndex_;
};

} // namespace

FabricGraph readInfraGraph(const QByteArray& text, const std::string& file,
                           const FabricReadOptions& o) {
    try {
        return Reader(file, o).read(text);
    } catch (const YAML::Exception& e) {
        // A key asked of a list, a text where a number belongs: yaml-cpp's own refusals.
        throw InputException({file,
                              e.mark.is_null() ? 0 : e.mark.line + 1,
                              e.mark.is_null() ? 0 : e.mark.column + 1,
                              {},
                              "not an InfraGraph infrastructure: " + e.msg});
    }
}

} // namespace cs
