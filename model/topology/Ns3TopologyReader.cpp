// The ns-3 text topology of SimAI and ASTRA-sim: a header line `nodes gpusPerServer
// nvswitches switches links gpuType`, a line with the ids of every switch (NVSwitches first),
// then one line per link `src dst bandwidth latency errorRate` (`400Gbps 0.0005ms 0`).
// Node ids below the switches' are GPUs, gpusPerServer to a server in id order; a GPU's link
// to a switch that is not an NVSwitch is its NIC. Parallel links are kept: fabrics have them.
#include "FabricReaders.h"
#include "InputError.h"
#include "TextCursor.h"

namespace cs {
namespace {

// "400Gbps", "2.4Tbps", "100000Mbps" -> Gb/s; nullopt when not a rate.
std::optional<double> rateGbps(std::string_view s) {
    TextCursor c(s);
    const auto v = c.number();
    if (!v || *v < 0) return std::nullopt;
    const std::string_view unit = c.rest();
    if (unit == "Gbps" || unit == "Gb/s") return *v;
    if (unit == "Tbps") return *v * 1e3;
    if (unit == "Mbps") return *v * 1e-3;
    if (unit == "Kbps") return *v * 1e-6;
    if (unit == "bps") return *v * 1e-9;
    return std::nullopt;
}

// "0.0005ms", "500ns", "1us" -> ns.
std::optional<double> delayNs(std::string_view s) {
    TextCursor c(s);
    const auto v = c.number();
    if (!v || *v < 0) return std::nullopt;
    const std::string_view unit = c.rest();
    if (unit == "ns") return *v;
    if (unit == "us") return *v * 1e3;
    if (unit == "ms") return *v * 1e6;
    if (unit == "s") return *v * 1e9;
    return std::nullopt;
}

std::string gpuModelOf(std::string_view type) {
    if (type == "A100") return "A100-SXM-80GB";
    if (type == "H100" || type == "H800") return "H100-SXM-80GB";
    return std::string(type);
}

} // namespace

FabricGraph readNs3Topology(const QByteArray& text, const std::string& file,
                            const FabricReadOptions& o) {
    auto fail = [&](int line, int column, const std::string& msg) {
        throw InputException({file, line, column, {}, msg});
    };
    LineReader lines(text);
    std::string_view line;
    auto nextLine = [&]() {
        while (lines.next(line)) {
            TextCursor c(line);
            c.skipSpace();
            if (!c.atEnd()) return true;
        }
        return false;
    };
    if (!nextLine()) fail(1, 1, "the file is empty (expected an ns-3 topology header)");
    TextCursor h(line);
    long long head[5] = {};
    const char* names[5] = {"nodes", "gpus per server", "NVSwitches", "switches", "links"};
    for (int i = 0; i < 5; ++i) {
        h.skipSpace();
        const auto v = h.integer();
        if (!v)
            fail(lines.number(), int(h.column()),
                 std::string("expected the header `nodes gpusPerServer nvswitches switches "
                             "links gpuType`; the ") +
                     names[i] + " count is missing");
        head[i] = *v;
    }
    h.skipSpace();
    const std::string gpuType(h.word());
    const long long nodes = head[0], perServer = head[1], nvswitches = head[2], switches = head[3],
                    links = head[4];
    if (nodes > o.maxNodes || links > o.maxLinks)
        fail(lines.number(), 1,
             "the header asks for " + std::to_string(nodes) + " nodes and " +
                 std::to_string(links) + " links; at most " + std::to_string(o.maxNodes) + " and " +
                 std::to_string(o.maxLinks) + " are read");
    const long long gpus = nodes - nvswitches - switches;
    // A server is an NVLink domain: 8 GPUs in a host, 72 in a GB200 NVL72 rack; a host holds
    // at most 255.
    if (perServer < 1 || perServer > 255 || gpus < 1 || gpus % perServer != 0)
        fail(lines.number(), 1,
             "the header gives " + std::to_string(gpus) +
                 " GPUs (nodes - NVSwitches - switches) "
                 "and " +
                 std::to_string(perServer) +
                 " per server; expected a whole number of servers of 1 to 255 GPUs");

    // The switch line: which ids are switches, NVSwitches first.
    if (!nextLine()) fail(lines.number() + 1, 1, "expected the line of switch ids");
    std::vector<uint8_t> kindOf(size_t(nodes), 0); // 0 GPU, 1 NVSwitch, 2 switch
    {
        TextCursor c(line);
        for (long long k = 0; k < nvswitches + switches; ++k) {
            c.skipSpace();
            const auto id = c.integer();
            if (!id || *id < gpus || *id >= nodes || kindOf[size_t(*id)] != 0)
                fail(lines.number(), int(c.column()),
                     "expected " + std::to_string(nvswitches + switches) +
                         " distinct switch ids from " + std::to_string(gpus) + " to " +
                         std::to_string(nodes - 1) + " (got " + std::to_string(k) + ")");
            kindOf[size_t(*id)] = k < nvswitches ? 1 : 2;
        }
        c.skipSpace();
        if (!c.atEnd())
            fail(lines.number(), int(c.column()),
                 "more switch ids than the header's " + std::to_string(nvswitches + switches));
    }

    FabricGraph g;
    g.file = file;
    g.format = "ns-3";
    g.gpuModel = gpuModelOf(gpuType);
    const size_t slash = file.find_last_of('/');
    g.name = file.substr(slash == std::string::npos ? 0 : slash + 1);
    const long long servers = gpus / perServer;
    std::vector<int32_t> nodeOfId(size_t(nodes), kNone);
    for (long long s = 0; s < servers; ++s) {
        GraphNode host;
        host.name = "server" + std::to_string(s);
        host.gpus = int(perServer);
        host.line = 1;
        g.nodes.push_back(std::move(host));
    }
    for (long long id = gpus; id < nodes; ++id)
        if (kindOf[size_t(id)] == 2) {
            nodeOfId[size_t(id)] = int32_t(g.nodes.size());
            GraphNode s;
            s.name = "switch" + std::to_string(id);
            s.kind = GraphNodeKind::Switch;
            s.line = 2;
            g.nodes.push_back(std::move(s));
        }
    std::vector<int> hostPorts(size_t(servers), 0);
    long long read = 0, scaleUp = 0;
    while (nextLine()) {
        TextCursor c(line);
        long long end[2];
        for (long long& e : end) {
            c.skipSpace();
            const auto v = c.integer();
            if (!v || *v >= nodes)
                fail(lines.number(), int(c.column()),
                     "expected `src dst bandwidth latency errorRate` with ids below " +
                         std::to_string(nodes) + ", got \"" + excerpt(line) + "\"");
            e = *v;
        }
        c.skipSpace();
        const auto gbps = rateGbps(c.word());
        c.skipSpace();
        const auto ns = delayNs(c.word());
        c.skipSpace();
        const auto errorRate = c.number();
        if (!gbps || !ns || !errorRate)
            fail(lines.number(), int(c.column()),
                 "expected a bandwidth (400Gbps), a latency (0.0005ms) and an error rate, got \"" +
                     excerpt(line) + "\"");
        if (++read > links)
            fail(lines.number(), 1, "more link lines than the header's " + std::to_string(links));
        const bool nv = kindOf[size_t(end[0])] == 1 || kindOf[size_t(end[1])] == 1;
        if (nv) {
            ++scaleUp; // GPU to NVSwitch: the host's scale-up network
            continue;
        }
        GraphLink l;
        l.gbps = float(*gbps);
        l.latencyNs = float(*ns);
        l.line = lines.number();
        int32_t* ends[2] = {&l.a, &l.b};
        uint16_t* ports[2] = {&l.portA, &l.portB};
        for (int k = 0; k < 2; ++k) {
            const long long id = end[k];
            if (kindOf[size_t(id)] == 2) {
                *ends[k] = nodeOfId[size_t(id)];
                continue;
            }
            const long long server = id / perServer;
            *ends[k] = int32_t(server);
            GraphNode& host = g.nodes[size_t(server)];
            *ports[k] = uint16_t(++hostPorts[size_t(server)]);
            host.nicGpu.push_back(int(id % perServer));
        }
        g.links.push_back(l);
    }
    if (read != links)
        fail(lines.number(), 0,
             "the header promises " + std::to_string(links) + " links; the file holds " +
                 std::to_string(read) + " (is it cut short?)");
    if (scaleUp > 0)
        g.readerNotes.push_back(std::to_string(scaleUp) +
                                " GPU-NVSwitch links read as each server's scale-up network");
    return g;
}

} // namespace cs
