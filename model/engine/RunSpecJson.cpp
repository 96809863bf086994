#include "RunSpecJson.h"

#include "BoundedFileRead.h"
#include "FabricFaults.h"

#include "JsonObjectReader.h"
#include "RunOptions.h"
#include "TrainingEnumNames.h"
#include "ValueText.h"

#include <QFile>
#include <QJsonDocument>

#include <functional>
#include <map>

namespace cs {

namespace {

// The member `name` of `r` through its option.
void readOption(JsonObjectReader& r, const char* name, const RunOption& o, RunSpec& s) {
    const QJsonValue v = r.value(name);
    if (v.isUndefined()) return; // absent: the default
    if (const std::optional<std::string> error = setRunOptionJson(s, o, v)) r.fail(name, *error);
}

// A mixture of experts: {"experts", "activeExperts", "sharedExperts", "expertFfnHidden",
// "firstDenseLayers", "nodeLimit", "groups", "groupLimit", "routing": "balanced" | {"skew": x}}.
MoeSpec readMoe(JsonObjectReader r, int layers) {
    MoeSpec x;
    x.experts = int(r.integer("experts", 2, 65536));
    x.activeExperts = int(r.integer("activeExperts", 1, x.experts));
    x.sharedExperts = int(r.integer("sharedExperts", 0, 64, 0));
    x.expertFfnDim = int(r.integer("expertFfnHidden", 1, 1 << 22));
    x.firstDenseLayers = int(r.integer("firstDenseLayers", 0, layers - 1, 0));
    x.nodeLimit = int(r.integer("nodeLimit", 0, 65536, 0));
    x.groups = int(r.integer("groups", 0, x.experts, 0));
    if (x.groups > 0 && x.experts % x.groups != 0)
        r.fail("groups", "expected a divisor of the " + std::to_string(x.experts) +
                             " experts, got " + std::to_string(x.groups));
    if (!r.value("groupLimit").isUndefined() && x.groups == 0)
        r.fail("groupLimit", "needs \"groups\", the blocks it limits a token to");
    x.groupLimit = int(r.integer("groupLimit", 1, std::max(1, x.groups), x.groups));
    if (x.groups > 0 && x.groupLimit * (x.experts / x.groups) < x.activeExperts)
        r.fail("groupLimit", std::to_string(x.groupLimit) + " groups of " +
                                 std::to_string(x.experts / x.groups) +
                                 " experts hold fewer than the " + std::to_string(x.activeExperts) +
                                 " active experts");
    const QJsonValue routing = r.value("routing");
    if (routing.isObject()) {
        JsonObjectReader skew = r.object("routing");
        x.routingSkew = skew.number("skew", 1, 100);
        skew.finish();
    } else if (!routing.isUndefined() && routing != QJsonValue("balanced")) {
        r.fail("routing", "expected \"balanced\" or {\"skew\": a number from 1 to 100}, got " +
                              describeJson(routing));
    }
    r.finish();
    return x;
}

// Attention besides its heads: {"kind": "mha" | "gqa" | "mla", "headDim", "qLoraRank",
// "kvLoraRank", "ropeHeadDim", "slidingWindow", "slidingLayerFraction"}.
AttentionSpec readAttention(JsonObjectReader r) {
    AttentionSpec x;
    const std::string kind = r.string("kind", "gqa");
    if (kind != "mha" && kind != "gqa" && kind != "mla")
        r.fail("kind", "expected mha, gqa or mla, got \"" + kind + "\"");
    x.headDim = int(r.integer("headDim", 1, 4096, 0));
    if (kind == "mla") {
        x.qLoraRank = int(r.integer("qLoraRank", 0, 1 << 20, 0));
        x.kvLoraRank = int(r.integer("kvLoraRank", 1, 1 << 20));
        x.ropeHeadDim = int(r.integer("ropeHeadDim", 0, 4096, 0));
    }
    x.slidingWindow = int(r.integer("slidingWindow", 0, 1 << 24, 0));
    x.slidingLayerFraction = r.number("slidingLayerFraction", 0, 1, x.slidingWindow > 0 ? 0.5 : 0);
    r.finish();
    return x;
}

// A model shape given in the file, every field checked with its place.
ModelSpec readModel(JsonObjectReader m) {
    ModelSpec x;
    x.name = m.string("name");
    if (x.name.empty() || x.name.size() > 64)
        m.fail("name", "expected a name of 1 to 64 characters");
    x.layers = int(m.integer("layers", 1, 10000));
    x.modelDim = int(m.integer("hidden", 1, 1 << 20));
    if (m.has("moe")) x.moe = readMoe(m.object("moe"), x.layers);
    x.mtpDepth = int(m.integer("mtpDepth", 0, 16, 0));
    // A MoE model without dense layers has no dense MLP width.
    const bool needsFfn = !x.moe.present() || x.moe.firstDenseLayers > 0;
    x.ffnDim = int(m.integer("ffnHidden", needsFfn ? 1 : 0, 1 << 22,
                             needsFfn ? std::nullopt : std::optional<long long>(0)));
    const auto ffn = enumFromName<FfnKind>(m.string("ffnKind", enumName(ModelSpec{}.ffn)));
    if (!ffn) m.fail("ffnKind", "expected " + choicesText(enumChoices<FfnKind>()));
    x.ffn = *ffn;
    x.heads = int(m.integer("heads", 1, 1 << 16));
    x.kvHeads = int(m.integer("kvHeads", 1, x.heads, x.heads));
    if (x.heads % x.kvHeads != 0) m.fail("kvHeads", "expected a divisor of heads");
    if (m.has("attention")) x.attention = readAttention(m.object("attention"));
    if (x.attention.headDim == 0 && x.modelDim % x.heads != 0)
        m.fail("heads", "expected a divisor of hidden (or give attention.headDim)");
    x.vocab = int(m.integer("vocab", 1, 1 << 24));
    const QJsonValue tied = m.value("tiedEmbeddings");
    if (!tied.isUndefined() && !tied.isBool())
        m.fail("tiedEmbeddings", "expected true or false, got " + describeJson(tied));
    x.tiedEmbeddings = tied.toBool(false);
    m.finish();
    return x;
}

RunSpec readSpec(const QJsonValue& value, const JsonPath& at, bool formatRequired) {
    JsonObjectReader r(value, at);
    if (formatRequired || r.has("format"))
        if (r.string("format") != "clusterscope-run")
            r.fail("format", "expected \"clusterscope-run\"");
    if (formatRequired || r.has("version"))
        if (r.integer("version", 1, 1000) > kRunFileVersion)
            r.fail("version",
                   "newer than this build reads (" + std::to_string(kRunFileVersion) + ")");
    // Setting steps clears a span and the other way round: both given is an error here.
    if (r.has("steps") && r.has("span"))
        r.fail("span", stepsOrSpanProblem(true, true, "\"steps\"", "\"span\""));
    RunSpec s;
    // Objects on the way to dotted keys ("parallel.overlap.tpComm"), opened once each.
    std::map<std::string, JsonObjectReader> objects;
    std::function<JsonObjectReader*(const std::string&)> objectAt =
        [&](const std::string& path) -> JsonObjectReader* {
        if (path.empty()) return &r;
        if (auto it = objects.find(path); it != objects.end()) return &it->second;
        const size_t dot = path.rfind('.');
        JsonObjectReader* parent = objectAt(dot == std::string::npos ? "" : path.substr(0, dot));
        const std::string name = dot == std::string::npos ? path : path.substr(dot + 1);
        if (!parent || parent->value(name.c_str()).isUndefined()) return nullptr;
        return &objects.emplace(path, parent->object(name.c_str())).first->second;
    };
    for (const RunOption& o : runOptions()) {
        const size_t dot = o.key.rfind('.');
        JsonObjectReader* in = objectAt(dot == std::string::npos ? "" : o.key.substr(0, dot));
        if (!in) continue;
        const std::string name = dot == std::string::npos ? o.key : o.key.substr(dot + 1);
        if (o.key == "model" && r.value("model").isObject()) {
            s.customModel = readModel(r.object("model"));
            s.model = s.customModel->name;
            continue;
        }
        readOption(*in, name.c_str(), o, s);
    }
    if (r.has("fabric")) s.fabric = fabricFaultsOfJson(r.object("fabric"));
    // Innermost first: a nested object's unknown fields are reported before its parent's.
    for (auto it = objects.rbegin(); it != objects.rend(); ++it)
        it->second.finish();
    r.finish();
    if (const std::string p = stepsOrSpanProblem(s.steps > 0, s.spanS > 0, "\"steps\"", "\"span\"");
        !p.empty())
        r.fail("steps", p);
    return s;
}

} // namespace

std::optional<std::string> setRunOptionJson(RunSpec& spec, const RunOption& o,
                                            const QJsonValue& v) {
    // Errors quote the value as the file writes it (the number 2000, the string "8").
    const std::string message = "expected " +
                                (o.type == FieldType::Bool ? "true or false" : fieldExpected(o)) +
                                ", got " + describeJson(v);
    const std::optional<QString> text = fieldTextOfJson(o, v);
    if (!text) return message;
    try {
        setRunOption(spec, o, *text);
    } catch (const InputException&) {
        return message;
    }
    return std::nullopt;
}

RunSpec runSpecOfJson(const QJsonValue& value, const JsonPath& at) {
    return readSpec(value, at, false);
}

RunSpec parseRunSpec(const QByteArray& text, const std::string& fileName) {
    if (text.size() > 1024 * 1024)
        throw InputException({fileName, 0, 0, {}, "a run description is at most 1 MiB"});
    return readJsonDocument(text, fileName, [](const QJsonDocument& doc) {
        return readSpec(doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(), JsonPath(), true);
    });
}

RunSpec loadRunSpec(const QString& path) {
    return parseRunSpec(readFileBounded(path, 1024 * 1024), path.toStdString());
}

QJsonObject modelToJson(const ModelSpec& m) {
    QJsonObject o{{"name", QString::fromStdString(m.name)},
                  {"layers", m.layers},
                  {"hidden", m.modelDim},
                  {"ffnHidden", m.ffnDim},
                  {"ffnKind", QString::fromStdString(enumName(m.ffn))},
                  {"heads", m.heads},
                  {"kvHeads", m.kvHeads},
                  {"vocab", m.vocab},
                  {"tiedEmbeddings", m.tiedEmbeddings}};
    if (m.mtpDepth > 0) o.insert("mtpDepth", m.mtpDepth);
    const AttentionSpec& a = m.attention;
    if (a.headDim > 0 || a.latent() || a.slidingWindow > 0) {
        QJsonObject attention{{"kind", a.latent() ? "mla" : m.kvHeads < m.heads ? "gqa" : "mha"}};
        if (a.headDim > 0) attention.insert("headDim", a.headDim);
        if (a.latent()) {
            attention.insert("qLoraRank", a.qLoraRank);
            attention.insert("kvLoraRank", a.kvLoraRank);
            attention.insert("ropeHeadDim", a.ropeHeadDim);
        }
        if (a.slidingWindow > 0) {
            attention.insert("slidingWindow", a.slidingWindow);
            attention.insert("slidingLayerFraction", a.slidingLayerFraction);
        }
        o.insert("attention", attention);
    }
    if (m.moe.present()) {
        const MoeSpec& x = m.moe;
        QJsonObject moe{{"experts", x.experts},
                        {"activeExperts", x.activeExperts},
                        {"sharedExperts", x.sharedExperts},
                        {"expertFfnHidden", x.expertFfnDim},
                        {"firstDenseLayers", x.firstDenseLayers},
                        {"nodeLimit", x.nodeLimit},
                        {"routing", x.routingSkew > 1
                                        ? QJsonValue(QJsonObject{{"skew", x.routingSkew}})
                                        : QJsonValue("balanced")}};
        if (x.groups > 0) {
            moe.insert("groups", x.groups);
            moe.insert("groupLimit", x.groupLimit);
        }
        o.insert("moe", moe);
    }
    return o;
}

namespace {

// Sets `value` at the dotted path inside `root`, creating the objects on the way.
void insertAt(QJsonObject& root, const std::string& path, const QJsonValue& value) {
    const size_t dot = path.find('.');
    const QString head = QString::fromStdString(path.substr(0, dot));
    if (dot == std::string::npos) {
        root.insert(head, value);
        return;
    }
    QJsonObject child = root.value(head).toObject();
    insertAt(child, path.substr(dot + 1), value);
    root.insert(head, child);
}

} // namespace

QJsonObject runSpecToJson(const RunSpec& spec) {
    QJsonObject root{{"format", "clusterscope-run"}, {"version", kRunFileVersion}};
    for (const RunOption& o : runOptions()) {
        const QString text = runOptionText(spec, o);
        if (text.isEmpty() && (isStepsOrSpan(o) || o.type == FieldType::Text)) continue;
        const FieldValue v = o.get(spec);
        QJsonValue json;
        switch (o.type) {
        case FieldType::Integer:
            json = double(std::get<long long>(v)); // exact up to 2^53, the largest range
            break;
        case FieldType::Number:
            json = std::get<double>(v);
            break;
        case FieldType::Bool:
            json = std::get<bool>(v);
            break;
        case FieldType::Choice:
        case FieldType::Duration:
        case FieldType::Text:
            json = text;
            break;
        }
        if (o.key == "model" && spec.customModel) json = modelToJson(*spec.customModel);
        insertAt(root, o.key, json);
    }
    if (!spec.fabric.empty()) root.insert("fabric", fabricFaultsToJson(spec.fabric));
    return root;
}

} // namespace cs
