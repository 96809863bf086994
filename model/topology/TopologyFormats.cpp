#include "TopologyFormats.h"

#include "TextCursor.h"

#include <algorithm>

namespace cs {
namespace {

bool startsWith(std::string_view s, std::string_view p) {
    return s.substr(0, p.size()) == p;
}

// Five counts and a GPU type: the ns-3 header.
bool isNs3Header(std::string_view line) {
    TextCursor c(line);
    for (int i = 0; i < 5; ++i) {
        c.skipSpace();
        if (!c.integer()) return false;
    }
    c.skipSpace();
    return !c.word().empty();
}

} // namespace

const std::vector<TopologyFormatInfo>& topologyFormats() {
    static const std::vector<TopologyFormatInfo> formats = {
        {TopologyFormat::Native, "ClusterScope topology JSON", "*.json"},
        {TopologyFormat::IbNetDiscover, "ibnetdiscover or ibsim output",
         "*.txt *.topo *.net *.ibnd"},
        {TopologyFormat::InfraGraph, "InfraGraph YAML or JSON", "*.yaml *.yml *.json"},
        {TopologyFormat::NetworkX, "NetworkX node-link JSON", "*.json"},
        {TopologyFormat::Ns3, "SimAI / ASTRA-sim ns-3 topology", "*.txt *.topo"},
    };
    return formats;
}

std::string_view topologyFormatName(TopologyFormat f) {
    for (const TopologyFormatInfo& i : topologyFormats())
        if (i.format == f) return i.name;
    return "?";
}

std::string topologyOpenFilter() {
    std::vector<std::string> all;
    std::string each;
    for (const TopologyFormatInfo& f : topologyFormats()) {
        each += ";;" + std::string(f.name) + " (" + std::string(f.patterns) + ")";
        TextCursor c(f.patterns);
        for (std::string_view p = c.word(); !p.empty(); c.skipSpace(), p = c.word())
            if (std::find(all.begin(), all.end(), p) == all.end()) all.emplace_back(p);
    }
    std::string joined;
    for (const std::string& p : all)
        joined += (joined.empty() ? "" : " ") + p;
    return "Fabric descriptions (" + joined + ")" + each + ";;All files (*)";
}

std::optional<TopologyFormat> detectTopologyFormat(const QByteArray& text) {
    const QByteArray head = text.left(1 << 16);
    qsizetype i = 0;
    if (head.startsWith("\xEF\xBB\xBF")) i = 3;
    while (i < head.size() && std::isspace((unsigned char)head[i]))
        ++i;
    if (i < head.size() && (head[i] == '{' || head[i] == '[')) {
        // Ours names its format; its reader then says what is wrong with the field.
        if (head.contains("\"format\"")) return TopologyFormat::Native;
        if (head.contains("\"infrastructure\"") ||
            (head.contains("\"instances\"") && head.contains("\"devices\"")))
            return TopologyFormat::InfraGraph;
        // Qt and Python may write "links" (or "edges") before "nodes": any of them will do.
        if (head.contains("\"nodes\"") || head.contains("\"links\"") ||
            (head.contains("\"edges\"") && head.contains("\"source\"")))
            return TopologyFormat::NetworkX;
        return std::nullopt;
    }
    LineReader lines(head);
    std::string_view line;
    int meaningful = 0;
    bool yamlKeys = false;
    while (lines.next(line) && meaningful < 50) {
        TextCursor c(line);
        c.skipSpace();
        if (c.atEnd() || c.peek() == '#') continue;
        const std::string_view s = c.rest();
        ++meaningful;
        if (meaningful == 1 && isNs3Header(s)) return TopologyFormat::Ns3;
        for (const char* p : {"Switch", "Ca ", "Ca\t", "Hca", "vendid=", "switchguid=", "caguid=",
                              "sysimgguid=", "Non-Chassis", "Chassis"})
            if (startsWith(s, p) && (p[0] != 'S' || s.find('"') != std::string_view::npos))
                return TopologyFormat::IbNetDiscover;
        if (line.size() == s.size()) // a top-level YAML key
            for (const char* k : {"infrastructure:", "devices:", "instances:", "connections:"})
                yamlKeys = yamlKeys || startsWith(s, k);
        if (yamlKeys) return TopologyFormat::InfraGraph;
    }
    return std::nullopt;
}

std::string unknownTopologyFormatMessage(const QByteArray& text) {
    const QByteArray head = text.left(4096);
    LineReader lines(head);
    std::string_view line, first;
    while (lines.next(line))
        if (line.find_first_not_of(" \t") != std::string_view::npos) {
            first = line;
            break;
        }
    std::string formats;
    for (const TopologyFormatInfo& f : topologyFormats())
        formats += (formats.empty() ? "" : "; ") + std::string(f.name);
    // Enough of the start to recognise the file, not its values: a file named by mistake (or
    // by a hostile session) may hold secrets, as KEY=VALUE or key: value.
    const size_t cut = std::min(first.find_first_of("=:"), size_t(24));
    std::string looks = first.empty() ? "the file is empty"
                                      : "it starts with \"" + excerpt(first.substr(0, cut)) +
                                            (cut < first.size() ? "...\"" : "\"");
    if (startsWith(first, "Nodes "))
        looks += " (ASTRA-sim htsim fat-tree parameters, which list no links)";
    return "not a fabric description ClusterScope reads: " + looks + ". Read are: " + formats;
}

} // namespace cs
