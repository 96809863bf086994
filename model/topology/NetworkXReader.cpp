// NetworkX node-link JSON (networkx.node_link_data): {"nodes": [{"id": ..., attributes}],
// "links" | "edges": [{"source", "target", attributes}]}. Attributes read: a node's "kind"
// (host | server | switch), "name", "gpus", "tier" (leaf | spine | core, or 1..3), "rack",
// "pod", "ports"; a link's "gbps", "latencyNs", "sourcePort", "targetPort" and "gpu" (the
// host-side GPU the link's NIC serves). Other attributes are ignored: graphs carry many.
#include "FabricReaders.h"
#include "JsonObjectReader.h"

#include <QRegularExpression>

#include <unordered_map>

namespace cs {
namespace {

std::string idText(const QJsonValue& v) {
    if (v.isString()) return v.toString().toStdString();
    const double d = v.toDouble();
    if (std::floor(d) == d && std::abs(d) < 1e15) return std::to_string((long long)d);
    return QString::number(d).toStdString();
}

int tierOf(const QJsonValue& v) {
    if (v.isDouble()) {
        const double d = v.toDouble();
        return d == 1 || d == 2 || d == 3 ? int(d) : 0;
    }
    const QString s = v.toString().toLower();
    if (s == "leaf" || s == "tor" || s == "rtsw") return 1;
    if (s == "spine" || s == "ctsw" || s == "aggregation") return 2;
    if (s == "core" || s == "atsw") return 3;
    return 0;
}

// A node without a kind: its name decides when it says; else a node with one link is a host.
GraphNodeKind guessKind(const std::string& name, size_t degree) {
    static const QRegularExpression switchName(
        R"((sw|switch|leaf|spine|core|tor|rtsw|ctsw|atsw|agg))",
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression hostName(R"((host|server|node|gpu|dgx|hgx|compute))",
                                             QRegularExpression::CaseInsensitiveOption);
    const QString n = QString::fromStdString(name);
    if (switchName.match(n).hasMatch()) return GraphNodeKind::Switch;
    if (hostName.match(n).hasMatch()) return GraphNodeKind::Host;
    return degree <= 1 ? GraphNodeKind::Host : GraphNodeKind::Switch;
}

FabricGraph readDocument(const QJsonDocument& doc, const std::string& file,
                         const FabricReadOptions& o) {
    const JsonPath root;
    JsonObjectReader r(doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(), root);
    for (const char* k : {"directed", "multigraph", "graph"})
        r.allow(k);
    FabricGraph g;
    g.file = file;
    g.format = "networkx";
    const QJsonObject top = doc.object();
    const QJsonObject graphAttrs = top.value("graph").toObject();
    g.name = graphAttrs.value("name").toString().toStdString();
    if (g.name.empty()) {
        const size_t slash = file.find_last_of('/');
        g.name = file.substr(slash == std::string::npos ? 0 : slash + 1);
        if (const size_t dot = g.name.find('.'); dot != std::string::npos && dot > 0)
            g.name.resize(dot);
    }
    if (const QJsonValue f = graphAttrs.value("fabric"); f.isString()) {
        g.fabric = parseFabric(f.toString().toStdString());
        if (!g.fabric)
            throw JsonFieldError(r.pathOf("graph").child("fabric"),
                                 "expected " + std::string(fabricChoices()));
    }
    g.gpuModel = graphAttrs.value("gpuModel").toString().toStdString();
    const QJsonArray nodes = r.array("nodes", qsizetype(o.maxNodes));
    const char* linksKey = r.has("links") ? "links" : "edges";
    const QJsonArray links = r.array(linksKey, qsizetype(o.maxLinks));
    r.finish();
    const JsonPath nodesPath = r.pathOf("nodes"), linksPath = r.pathOf(linksKey);

    std::unordered_map<std::string, int32_t> index;
    std::vector<size_t> degree(size_t(nodes.size()), 0);
    std::vector<bool> kindGiven(size_t(nodes.size()), false);
    g.nodes.resize(size_t(nodes.size()));
    for (qsizetype i = 0; i < nodes.size(); ++i) {
        const JsonPath at = nodesPath.child(int(i));
        if (!nodes[i].isObject())
            throw JsonFieldError(at, "expected a node object, got " + describeJson(nodes[i]));
        const QJsonObject n = nodes[i].toObject();
        const QJsonValue id = n.value("id");
        if (!id.isString() && !id.isDouble())
            throw JsonFieldError(at.child("id"), "expected the node's id (a string or number)");
        // As long as ClusterScope's own format holds (an exported copy must read again).
        for (const char* key : {"id", "name"})
            if (n.value(key).toString().size() > kMaxStringChars)
                throw JsonFieldError(at.child(key),
                                     "expected at most " + std::to_string(kMaxStringChars) +
                                         " characters, as in ClusterScope's own "
                                         "format; got " +
                                         std::to_string(n.value(key).toString().size()));
        if (!index.emplace(idText(id), int32_t(i)).second)
            throw JsonFieldError(at.child("id"), "the id \"" + idText(id) + "\" is used twice");
        GraphNode& node = g.nodes[size_t(i)];
        node.name =
            n.value("name").isString() ? n.value("name").toString().toStdString() : idText(id);
        if (const QJsonValue k = n.value("kind"); !k.isUndefined()) {
            const QString s = k.toString().toLower();
            if (s == "host" || s == "server")
                node.kind = GraphNodeKind::Host;
            else if (s == "switch")
                node.kind = GraphNodeKind::Switch;
            else
                throw JsonFieldError(at.child("kind"),
                                     "expected host | server | switch, got " + describeJson(k));
            kindGiven[size_t(i)] = true;
        }
        if (const QJsonValue v = n.value("gpus"); !v.isUndefined()) {
            const double d = v.toDouble(-1);
            if (!v.isDouble() || d < 0 || d > 64 || std::floor(d) != d)
                throw JsonFieldError(at.child("gpus"),
                                     "expected an integer from 0 to 64, got " + describeJson(v));
            node.gpus = int(d);
        }
        if (const QJsonValue v = n.value("tier"); !v.isUndefined()) {
            const int t = tierOf(v);
            if (t == 0)
                throw JsonFieldError(at.child("tier"),
                                     "expected leaf | spine | core or 1 to 3, got " +
                                         describeJson(v));
            node.tier = t;
        }
        if (const QJsonValue v = n.value("ports"); v.isDouble())
            node.ports = int(std::clamp(v.toDouble(), 0.0, 65535.0));
        node.rack = n.value("rack").toString().toStdString();
        node.pod = n.value("pod").toString().toStdString();
    }
    g.links.reserve(size_t(links.size()));
    for (qsizetype i = 0; i < links.size(); ++i) {
        const JsonPath at = linksPath.child(int(i));
        if (!links[i].isObject())
            throw JsonFieldError(at, "expected a link object, got " + describeJson(links[i]));
        const QJsonObject l = links[i].toObject();
        GraphLink link;
        for (const auto& [key, end] :
             {std::pair{"source", &link.a}, std::pair{"target", &link.b}}) {
            const QJsonValue v = l.value(key);
            const auto it = (v.isString() || v.isDouble()) ? index.find(idText(v)) : index.end();
            if (it == index.end())
                throw JsonFieldError(at.child(key), "expected the id of a node in \"nodes\", got " +
                                                        describeJson(v));
            *end = it->second;
        }
        auto number = [&](const char* key, double hi) {
            const QJsonValue v = l.value(key);
            if (v.isUndefined() || v.isNull()) return 0.0;
            if (!v.isDouble() || v.toDouble() < 0 || v.toDouble() > hi)
                throw JsonFieldError(at.child(key), "expected a number from 0 to " +
                                                        std::to_string((long long)hi) + ", got " +
                                                        describeJson(v));
            return v.toDouble();
        };
        link.gbps = float(number("gbps", 1e7));
        link.latencyNs = float(number("latencyNs", 1e9));
        link.portA = uint16_t(number("sourcePort", 65535));
        link.portB = uint16_t(number("targetPort", 65535));
        if (l.contains("gpu")) {
            const int gpu = int(number("gpu", 63));
            GraphNode& host = g.nodes[size_t(link.a)].kind == GraphNodeKind::Host
                                  ? g.nodes[size_t(link.a)]
                                  : g.nodes[size_t(link.b)];
            const uint16_t port = &host == &g.nodes[size_t(link.a)] ? link.portA : link.portB;
            if (port > 0) {
                if (host.nicGpu.size() < port) host.nicGpu.resize(port, -1);
                host.nicGpu[port - 1u] = gpu;
            }
        }
        ++degree[size_t(link.a)];
        ++degree[size_t(link.b)];
        g.links.push_back(link);
    }
    long long guessed = 0;
    for (size_t i = 0; i < g.nodes.size(); ++i)
        if (!kindGiven[i]) {
            g.nodes[i].kind = guessKind(g.nodes[i].name, degree[i]);
            g.nodes[i].kindInferred = true;
            ++guessed;
        }
    if (guessed > 0)
        g.readerNotes.push_back(std::to_string(guessed) +
                                " nodes have no \"kind\": host or switch from the name, else a "
                                "node with one link is a host");
    return g;
}

} // namespace

FabricGraph readNetworkX(const QByteArray& text, const std::string& file,
                         const FabricReadOptions& o) {
    return readJsonDocument(text, file,
                            [&](const QJsonDocument& doc) { return readDocument(doc, file, o); });
}

} // namespace cs
