// ibnetdiscover topology files (infiniband-diags) and ibsim's fabric description: records of
// a header line (`Switch 36 "S-guid" # "description" ...`, `Ca 2 "H-guid" # ...`, ibsim's
// `Hca`) followed by one line per connected port (`[local](portguid) "peer"[peerport] ...`).
// Each link appears from both of its ends; it becomes one link.
#include "FabricReaders.h"
#include "InputError.h"
#include "TextCursor.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <unordered_map>

namespace cs {
namespace {

struct IbPort {
    uint16_t local = 0, peerPort = 0;
    std::string peer;
    double gbps = 0;
    int line = 0;
};
struct IbRecord {
    bool isSwitch = false;
    int ports = 0;
    std::string id, description;
    int line = 0;
    std::vector<IbPort> links;
};

bool isHex(char c) {
    return std::isxdigit((unsigned char)c) != 0;
}

// "S-0008f10400410015" or "0x0008f10400410015" -> the GUID; nullopt when not one.
std::optional<uint64_t> guidOf(std::string_view id) {
    if (id.size() > 2 && (id[0] == 'S' || id[0] == 'H' || id[0] == 'R') && id[1] == '-')
        id.remove_prefix(2);
    if (id.size() > 2 && id[0] == '0' && (id[1] == 'x' || id[1] == 'X')) id.remove_prefix(2);
    if (id.empty() || id.size() > 16 || !std::all_of(id.begin(), id.end(), isHex))
        return std::nullopt;
    return std::stoull(std::string(id), nullptr, 16);
}

class Reader {
public:
    Reader(const std::string& file, const FabricReadOptions& o) : file_(file), o_(o) {}

    FabricGraph read(const QByteArray& text) {
        parse(text);
        readNameMap();
        return graph();
    }

private:
    [[noreturn]] void fail(int line, int column, const std::string& msg) const {
        throw InputException({file_, line, column, {}, msg});
    }

    // "[12]", "[12][ext 3]" and "(guid)" after a port number.
    std::optional<uint16_t> portNumber(TextCursor& c) {
        if (!c.eat('[')) return std::nullopt;
        const auto n = c.integer();
        if (!n || *n < 0 || *n > 65535 || !c.eat(']')) return std::nullopt;
        if (c.eat("[ext ")) {
            c.integer();
            if (!c.eat(']')) return std::nullopt;
        }
        if (c.eat('(')) {
            c.span(isHex);
            if (!c.eat(')')) return std::nullopt;
        }
        return uint16_t(*n);
    }

    void portLine(std::string_view line, int number, IbRecord& r) {
        TextCursor c(line);
        c.skipSpace();
        IbPort p;
        p.line = number;
        const auto local = portNumber(c);
        c.skipSpace();
        const auto peer = c.quoted();
        const auto peerPort = peer ? portNumber(c) : std::nullopt;
        if (!local || !peer || !peerPort || *local == 0)
            fail(number, int(c.column()),
                 "expected a port line `[port] \"peer\"[peer port]` of " + r.id + ", got \"" +
                     excerpt(line) + "\"");
        p.local = *local;
        p.peer = std::string(*peer);
        p.peerPort = *peerPort;
        // The rest: `# "peer description" lid N 4xNDR` (ibnetdiscover) or `w=4` (ibsim).
        const std::string_view rest = c.rest();
        for (size_t at = rest.find('x'); at != std::string_view::npos;
             at = rest.find('x', at + 1)) {
            size_t from = at;
            while (from > 0 && std::isdigit((unsigned char)rest[from - 1]))
                --from;
            size_t to = at + 1;
            while (to < rest.size() && std::isalnum((unsigned char)rest[to]))
                ++to;
            if (const double g = infinibandGbps(rest.substr(from, to - from)); g > 0) p.gbps = g;
        }
        r.links.push_back(std::move(p));
    }

    void parse(const QByteArray& text) {
        LineReader lines(text);
        std::string_view line;
        IbRecord* open = nullptr;
        while (lines.next(line)) {
            const int n = lines.number();
            TextCursor c(line);
            c.skipSpace();
            if (c.atEnd()) {
                open = nullptr;
                continue;
            }
            if (c.peek() == '#') continue;
            if (c.peek() == '[') {
                if (!open) fail(n, int(c.column()), "a port line outside a Switch or Ca record");
                portLine(line, n, *open);
                if (++portLines_ > o_.maxLinks * 2)
                    fail(n, 0, "more than " + std::to_string(o_.maxLinks) + " links");
                continue;
            }
            const std::string_view kind = c.word();
            const bool sw = kind == "Switch", ca = kind == "Ca" || kind == "Hca",
                       rt = kind == "Rt" || kind == "Router";
            if (sw || ca || rt) {
                IbRecord r;
                r.isSwitch = sw || rt;
                r.line = n;
                c.skipSpace();
                const auto ports = c.integer();
                c.skipSpace();
                const auto id = c.quoted();
                if (!ports || *ports < 1 || *ports > 65535 || !id || id->empty())
                    fail(n, int(c.column()),
                         "expected `" + std::string(kind) +
                             " PORTS \"id\"` with PORTS from 1 to 65535, got \"" + excerpt(line) +
                             "\"");
                r.ports = int(*ports);
                r.id = std::string(*id);
                c.skipSpace();
                if (c.eat('#')) {
                    c.skipSpace();
                    if (const auto d = c.quoted()) r.description = std::string(*d);
                }
                if (!index_.emplace(r.id, int32_t(records_.size())).second)
                    fail(n, 0, "node \"" + r.id + "\" is declared twice");
                if (int64_t(records_.size()) >= o_.maxNodes)
                    fail(n, 0, "more than " + std::to_string(o_.maxNodes) + " nodes");
                hasCa_ = hasCa_ || kind == "Ca";
                records_.push_back(std::move(r));
                open = &records_.back();
                continue;
            }
            if (open)
                fail(n, int(c.column()),
                     "expected a port line `[port] \"peer\"[peer port]` of " + open->id +
                         " or an empty line, got \"" + excerpt(line) + "\"");
            // Between records: vendid=, devid=, sysimgguid=, switchguid=, caguid=, chassis
            // headings. Anything else is prose (a manual's excerpt): skipped, and said so.
            const bool known = line.find('=') != std::string_view::npos || kind == "Chassis" ||
                               kind == "Non-Chassis" || kind == "NodeGUID";
            hasGuidLines_ = hasGuidLines_ || line.find("guid=") != std::string_view::npos;
            if (!known && skippedFirst_ == 0) skippedFirst_ = n;
            skipped_ += !known;
        }
        if (records_.empty())
            fail(0, 0, "no Switch or Ca record (expected ibnetdiscover or ibsim output)");
    }

    // `0x0008f10403960558 "name"` lines; the name of a node in place of its GUID.
    void readNameMap() {
        if (o_.nodeNameMap.isEmpty()) return;
        LineReader lines(o_.nodeNameMap);
        std::string_view line;
        while (lines.next(line)) {
            TextCursor c(line);
            c.skipSpace();
            if (c.atEnd() || c.peek() == '#') continue;
            const std::string_view guid = c.word();
            c.skipSpace();
            const auto g = guidOf(guid);
            const auto name = c.quoted();
            if (!g || !name || name->empty())
                throw InputException(
                    {o_.nodeNameMapFile,
                     lines.number(),
                     1,
                     {},
                     "expected `GUID \"name\"` (a node-name map), got \"" + excerpt(line) + "\""});
            nameOfGuid_[*g] = std::string(*name);
        }
    }

    // What a node is called: the node-name map's name, else its description when no other
    // node shares it, else its id.
    std::vector<std::string> names() const {
        std::unordered_map<std::string, int> descriptionUses;
        for (const IbRecord& r : records_)
            ++descriptionUses[r.description];
        std::vector<std::string> out;
        out.reserve(records_.size());
        for (const IbRecord& r : records_) {
            const auto g = guidOf(r.id);
            const auto mapped = g ? nameOfGuid_.find(*g) : nameOfGuid_.end();
            if (mapped != nameOfGuid_.end())
                out.push_back(mapped->second);
            else if (!r.description.empty() && descriptionUses[r.description] == 1)
                out.push_back(r.description);
            else
                out.push_back(r.id);
        }
        return out;
    }

    // "node01 HCA-1", "dgx3 mlx5_0": the host "node01" / "dgx3", one HCA of several.
    static std::string hostOfAdapter(const std::string& name) {
        const size_t space = name.find(' ');
        if (space == std::string::npos || space == 0) return name;
        std::string second = name.substr(space + 1);
        for (char& ch : second)
            ch = char(std::tolower((unsigned char)ch));
        const bool adapter = second.rfind("hca", 0) == 0 || second.rfind("mlx", 0) == 0;
        return adapter ? name.substr(0, space) : name;
    }

    FabricGraph graph() const {
        FabricGraph g;
        g.file = file_;
        g.format = hasCa_ || hasGuidLines_ ? "ibnetdiscover" : "ibsim";
        g.fabric = Fabric::InfiniBand;
        const std::vector<std::string> name = names();
        // Nodes: switches as they are; adapters grouped into their hosts.
        std::vector<int32_t> nodeOf(records_.size());
        std::vector<int> portBase(records_.size(), 0);
        std::map<std::string, int32_t> hostIndex;
        std::vector<int> hostPorts;
        for (size_t i = 0; i < records_.size(); ++i) {
            const IbRecord& r = records_[i];
            if (r.isSwitch) {
                nodeOf[i] = int32_t(g.nodes.size());
                GraphNode s;
                s.name = name[i];
                s.kind = GraphNodeKind::Switch;
                s.ports = r.ports;
                s.line = r.line;
                g.nodes.push_back(std::move(s));
                hostPorts.push_back(0);
                continue;
            }
            const std::string host = hostOfAdapter(name[i]);
            auto [it, fresh] = hostIndex.emplace(host, int32_t(g.nodes.size()));
            if (fresh) {
                GraphNode h;
                h.name = host;
                h.line = r.line;
                g.nodes.push_back(std::move(h));
                hostPorts.push_back(0);
            }
            nodeOf[i] = it->second;
            portBase[i] = hostPorts[size_t(it->second)];
            hostPorts[size_t(it->second)] += r.ports;
        }
        // Links, once each: the end seen first keeps it; the other end must agree.
        std::unordered_map<uint64_t, std::pair<uint64_t, int>> seen; // end -> (other end, line)
        auto endKey = [](size_t record, uint16_t port) { return (uint64_t(record) << 16) | port; };
        for (size_t i = 0; i < records_.size(); ++i)
            for (const IbPort& p : records_[i].links) {
                const auto peer = index_.find(p.peer);
                if (peer == index_.end())
                    fail(p.line, 0,
                         "the peer \"" + p.peer + "\" of " + records_[i].id +
                             " has no record in the file (is the file cut short?)");
                const uint64_t self = endKey(i, p.local),
                               other = endKey(size_t(peer->second), p.peerPort);
                if (p.local > records_[i].ports)
                    fail(p.line, 0,
                         "port " + std::to_string(p.local) + " of " + records_[i].id +
                             ", which has " + std::to_string(records_[i].ports) + " ports");
                if (const auto it = seen.find(self); it != seen.end()) {
                    if (it->second.first != other)
                        fail(p.line, 0,
                             "port " + std::to_string(p.local) + " of " + records_[i].id +
                                 " joins " + p.peer + "[" + std::to_string(p.peerPort) +
                                 "], but line " + std::to_string(it->second.second) +
                                 " joins it elsewhere");
                    continue; // the far end's view of a link already read
                }
                seen.emplace(self, std::pair{other, p.line});
                seen.emplace(other, std::pair{self, p.line});
                GraphLink l;
                const auto pi = size_t(peer->second);
                l.a = nodeOf[i];
                l.b = nodeOf[pi];
                l.portA = uint16_t(records_[i].isSwitch ? p.local : portBase[i] + p.local);
                l.portB = uint16_t(records_[pi].isSwitch ? p.peerPort : portBase[pi] + p.peerPort);
                l.gbps = float(p.gbps);
                l.line = p.line;
                g.links.push_back(l);
            }
        if (skipped_ > 0)
            g.readerNotes.push_back(std::to_string(skipped_) +
                                    " lines that are neither records nor ibnetdiscover "
                                    "headings were skipped (the first is line " +
                                    std::to_string(skippedFirst_) + ")");
        const size_t slash = file_.find_last_of('/');
        g.name = file_.substr(slash == std::string::npos ? 0 : slash + 1);
        if (const size_t dot = g.name.find('.'); dot != std::string::npos && dot > 0)
            g.name.resize(dot);
        return g;
    }

    const std::string& file_;
    const FabricReadOptions& o_;
    std::vector<IbRecord> records_;
    std::unordered_map<std::string, int32_t> index_;
    std::unordered_map<uint64_t, std::string> nameOfGuid_;
    long long portLines_ = 0, skipped_ = 0;
    int skippedFirst_ = 0;
    bool hasCa_ = false, hasGuidLines_ = false;
};

} // namespace

double infinibandGbps(std::string_view s) {
    const size_t x = s.find('x');
    if (x == 0 || x > 2 || x == std::string_view::npos) return 0; // widths 1x .. 12x
    int width = 0;
    for (size_t i = 0; i < x; ++i) {
        if (!std::isdigit((unsigned char)s[i])) return 0;
        width = width * 10 + (s[i] - '0');
    }
    if (width != 1 && width != 2 && width != 4 && width != 8 && width != 12) return 0;
    // Nominal data rate per lane, as the generations are marketed (4x NDR = 400G).
    static const std::pair<std::string_view, double> lane[] = {
        {"SDR", 2.5}, {"DDR", 5},  {"QDR", 10},  {"FDR10", 10}, {"FDR", 14},
        {"EDR", 25},  {"HDR", 50}, {"NDR", 100}, {"XDR", 200}};
    const std::string_view speed = s.substr(x + 1);
    for (const auto& [n, gbps] : lane)
        if (speed == n) return width * gbps;
    return 0;
}

FabricGraph readIbNetDiscover(const QByteArray& text, const std::string& file,
                              const FabricReadOptions& o) {
    return Reader(file, o).read(text);
}

} // namespace cs
