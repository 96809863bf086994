#include "TopologyFile.h"

#include "BoundedFileRead.h"

#include "DesignSets.h"
#include "ExplicitTopologyJson.h"
#include "FabricFaultList.h"
#include "JsonObjectReader.h"
#include "SiteGenerator.h"
#include "SiteParamsJson.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

namespace cs {
namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

// "generator.clusters[0].pods" -> path, for errors found after parsing.
JsonPath parseFieldPath(const std::string& field) {
    JsonPath p;
    std::string key;
    for (size_t i = 0; i <= field.size(); ++i) {
        const char c = i < field.size() ? field[i] : '.';
        if (c == '.' || c == '[') {
            if (!key.empty()) p = p.child(key);
            key.clear();
            if (c == '[') {
                const size_t close = field.find(']', i);
                p = p.child(std::stoi(field.substr(i + 1, close - i - 1)));
                i = close;
            }
        } else {
            key += c;
        }
    }
    return p;
}

[[noreturn]] void refuseSets(const std::string& fileName, const std::string& what) {
    throw InputException({fileName,
                          0,
                          0,
                          {},
                          "--set changes generator parameters, and " + what +
                              " has none; give a preset or a parameters file (export --params "
                              "writes one)"});
}

LoadedTopology parseDocument(const QJsonDocument& doc, long long maxGpus,
                             const std::string& fileName, const std::vector<std::string>& sets) {
    const JsonPath root;
    JsonObjectReader r(doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(), root);
    const std::string format = r.string("format");
    if (format != kTopologyFormat)
        r.fail("format", "expected \"" + std::string(kTopologyFormat) + "\", got \"" + format +
                             "\" (not a ClusterScope topology file)");
    const long long version = r.integer("version", 1, 1'000'000);
    if (version > kTopologyFormatVersion)
        r.fail("version", "this file has format version " + std::to_string(version) +
                              ", newer than this build reads (" +
                              std::to_string(kTopologyFormatVersion) + "); update ClusterScope");
    LoadedTopology out;
    const std::string name = r.string("name", "unnamed");
    const std::string description = r.string("description", "");
    const bool hasGenerator = r.has("generator"), hasExplicit = r.has("explicit");
    if (hasGenerator == hasExplicit)
        r.fail(nullptr, "expected exactly one of the fields \"generator\" (parameters) or "
                        "\"explicit\" (entity and link lists)");
    if (hasExplicit && r.has("fabric"))
        r.fail("fabric", "faults are part of a design (a file of generator parameters); for a "
                         "topology given entity by entity, give them in a run file");
    if (hasGenerator) {
        r.allow("generator");
        FabricFaults faults;
        if (r.has("fabric")) faults = fabricFaultsOfJson(r.object("fabric"));
        SiteParams p = siteParamsFromJson(doc.object().value("generator"), r.pathOf("generator"));
        p.faults = std::move(faults);
        r.finish();
        // Changed by --set, a refused combination is not a place in the file.
        applyDesignSets(p, sets);
        if (!sets.empty()) checkDesignWithSets(p, fileName);
        if (auto e = checkSiteParams(p, "generator"))
            throw JsonFieldError(parseFieldPath(e->field), e->message);
        long long gpus = 0;
        for (const ClusterParams& c : p.clusters)
            gpus += 1LL * c.pods * c.racksPerPod * c.hostsPerRack * c.gpusPerHost;
        if (gpus > maxGpus)
            throw JsonFieldError(parseFieldPath("generator.clusters"),
                                 "the site would hold " + std::to_string(gpus) + " GPUs; at most " +
                                     std::to_string(maxGpus) + " are read here");
        out.topology = generateSite(p);
        out.params = std::move(p);
    } else {
        if (!sets.empty()) refuseSets(fileName, "a topology listing its entities explicitly");
        r.allow("explicit");
        out.topology.gpuModel = r.string("gpuModel", out.topology.gpuModel);
        r.finish();
        explicitTopologyFromJson(doc.object().value("explicit"), r.pathOf("explicit"),
                                 out.topology);
    }
    out.topology.name = out.params ? designVariantName(name, *out.params, sets) : name;
    // A --set variant is not the design the words describe (its name says what changed).
    out.topology.description = sets.empty() ? description : std::string();
    return out;
}

void checkSize(const QByteArray& text, const std::string& fileName) {
    if (text.size() > kMaxTopologyFileBytes)
        throw InputException({fileName,
                              0,
                              0,
                              {},
                              "file is " + std::to_string(text.size()) + " bytes; at most " +
                                  std::to_string(kMaxTopologyFileBytes) + " are read"});
}

TopologyFormat formatOf(const QByteArray& text, const std::string& fileName) {
    const auto format = detectTopologyFormat(text);
    if (!format) throw InputException({fileName, 1, 1, {}, unknownTopologyFormatMessage(text)});
    return *format;
}

LoadedTopology parseNative(const QByteArray& text, const std::string& fileName, long long maxGpus,
                           const std::vector<std::string>& sets = {}) {
    return readJsonDocument(text, fileName, [&](const QJsonDocument& doc) {
        return parseDocument(doc, maxGpus, fileName, sets);
    });
}

} // namespace

LoadedTopology parseForeignTopology(const QByteArray& text, const std::string& fileName,
                                    TopologyFormat format, const FabricReadOptions& read,
                                    const StructureOverrides& overrides, long long maxGpus) {
    FabricGraph g;
    switch (format) {
    case TopologyFormat::Native:
        return parseNative(text, fileName, maxGpus);
    case TopologyFormat::IbNetDiscover:
        g = readIbNetDiscover(text, fileName, read);
        break;
    case TopologyFormat::InfraGraph:
        g = readInfraGraph(text, fileName, read);
        break;
    case TopologyFormat::NetworkX:
        g = readNetworkX(text, fileName, read);
        break;
    case TopologyFormat::Ns3:
        g = readNs3Topology(text, fileName, read);
        break;
    }
    InferredTopology t = inferFabricStructure(g, overrides);
    if ((long long)t.topology.gpus.size() > maxGpus)
        throw InputException({fileName,
                              0,
                              0,
                              {},
                              "the fabric holds " + std::to_string(t.topology.gpus.size()) +
                                  " GPUs; at most " + std::to_string(maxGpus) + " are read"});
    LoadedTopology out;
    out.topology = std::move(t.topology);
    out.format = format;
    out.inferred = std::move(t.inferred);
    return out;
}

LoadedTopology parseTopologyText(const QByteArray& text, const std::string& fileName,
                                 long long maxGpus) {
    checkSize(text, fileName);
    const TopologyFormat format = formatOf(text, fileName);
    if (format == TopologyFormat::Native) return parseNative(text, fileName, maxGpus);
    FabricReadOptions read;
    read.maxNodes = std::min<long long>(read.maxNodes, maxGpus * 4 + 1000);
    return parseForeignTopology(text, fileName, format, read, {}, maxGpus);
}

LoadedTopology loadTopologyFile(const QString& path, const TopologyReadOptions& o) {
    const std::string fileName = path.toStdString();
    const QByteArray text = readFileBounded(path, kMaxTopologyFileBytes);
    const TopologyFormat format = formatOf(text, fileName);
    if (format == TopologyFormat::Native) {
        if (!o.nodeNameMap.empty() || !o.structureFile.empty())
            throw InputException({fileName,
                                  0,
                                  0,
                                  {},
                                  "--node-name-map and --structure apply to foreign fabric "
                                  "formats; this is a ClusterScope topology file"});
        return parseNative(text, fileName, kMaxGpus, o.sets);
    }
    if (!o.sets.empty())
        refuseSets(fileName,
                   std::string("a fabric file (") + std::string(topologyFormatName(format)) + ")");
    FabricReadOptions read;
    read.directory = QFileInfo(path).absolutePath().toStdString();
    if (!o.nodeNameMap.empty()) {
        read.nodeNameMap = readFileBounded(QString::fromStdString(o.nodeNameMap), 64 << 20);
        read.nodeNameMapFile = o.nodeNameMap;
    }
    StructureOverrides overrides;
    QString sidecar = QString::fromStdString(o.structureFile);
    if (sidecar.isEmpty() && QFileInfo::exists(path + ".structure.json"))
        sidecar = path + ".structure.json";
    if (!sidecar.isEmpty())
        overrides =
            parseStructureOverrides(readFileBounded(sidecar, 64 << 20), sidecar.toStdString());
    LoadedTopology out = parseForeignTopology(text, fileName, format, read, overrides, kMaxGpus);
    if (!sidecar.isEmpty())
        out.inferred.push_back({"source", "facts stated in " + sidecar.toStdString(), 1});
    return out;
}

namespace {
QByteArray jsonString(const std::string& s) {
    return QJsonDocument(QJsonArray{q(s)}).toJson(QJsonDocument::Compact).mid(1).chopped(1);
}

QByteArray header(const std::string& name, const std::string& description) {
    QByteArray out = "{\n  \"format\": \"";
    out += kTopologyFormat;
    out += "\",\n  \"version\": " + QByteArray::number(kTopologyFormatVersion) + ",\n";
    out += "  \"name\": " + jsonString(name) + ",\n";
    if (!description.empty()) out += "  \"description\": " + jsonString(description) + ",\n";
    return out;
}
} // namespace

QByteArray explicitTopologyDocument(const Topology& t) {
    QByteArray out = header(t.name, t.description);
    out += "  \"gpuModel\": " + jsonString(t.gpuModel) + ",\n";
    out += "  \"explicit\": " + explicitTopologyJson(t, "  ") + "\n}\n";
    return out;
}

qint64 explicitTopologyDocumentMinBytes(const Topology& t) {
    // {"a": "", "b": "", "portA": , "portB": , "medium": "", "gbps": , "latencyNs": }
    constexpr qint64 kLinkKeysBytes = 60;
    qint64 bytes = 0;
    for (const Link& l : t.links)
        bytes += kLinkKeysBytes + qint64(t.nameOf(l.a).size() + t.nameOf(l.b).size());
    return bytes;
}

QByteArray paramsTopologyDocument(const std::string& name, const SiteParams& p,
                                  const std::string& description) {
    QByteArray body = QJsonDocument(siteParamsToJson(p)).toJson(QJsonDocument::Indented);
    body.replace("\n", "\n  ");
    body = body.trimmed();
    QByteArray out = header(name, description) + "  \"generator\": " + body;
    if (!p.faults.empty()) {
        QByteArray faults =
            QJsonDocument(fabricFaultsToJson(p.faults)).toJson(QJsonDocument::Indented);
        faults.replace("\n", "\n  ");
        out += ",\n  \"fabric\": " + faults.trimmed();
    }
    return out + "\n}\n";
}

} // namespace cs
