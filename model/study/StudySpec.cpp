#include "StudySpec.h"

#include "BoundedFileRead.h"
#include "DesignFields.h"
#include "JsonObjectReader.h"
#include "Presets.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <set>

namespace cs {
namespace {

constexpr size_t kMaxAxes = 16;
constexpr qsizetype kMaxAxisValues = 1000;
constexpr qsizetype kMaxExtraVariants = 10000;
constexpr qsizetype kMaxFigures = 64;

const std::vector<std::string> kDerivedFigures = {"daysToTrain", "energyMWh", "meanPowerW"};
const std::vector<std::string> kBomRoots = {"gpus",
                                            "hosts",
                                            "racks",
                                            "networkRacks",
                                            "storageRacks",
                                            "nics",
                                            "storageServers",
                                            "backendEndpoints",
                                            "switches",
                                            "links",
                                            "transceivers",
                                            "cables",
                                            "powerW",
                                            "rackKw",
                                            "cost"};
const std::vector<std::string> kRunRoots = {"stepTimeS",
                                            "tokensPerS",
                                            "tflopsPerGpu",
                                            "mfu",
                                            "bubbleFraction",
                                            "peakMemoryGiB",
                                            "memoryGiB",
                                            "breakdown",
                                            "slowestStage",
                                            "pipelineS",
                                            "optimizerS",
                                            "dpAllGatherS",
                                            "dpReduceScatterS",
                                            "microBatches",
                                            "checkpointTimeS",
                                            "checkpointBytes",
                                            "simulatedS",
                                            "steps",
                                            "interruptions",
                                            "interruptionsByCause",
                                            "lostHours",
                                            "effectiveTrainingTime",
                                            "degradedHours",
                                            "dpBucketLayers",
                                            "stragglerSlowdown",
                                            "tpSizeFraction",
                                            "stepTimeDistribution",
                                            "computeLosses"};

std::string rootOf(const std::string& figure) {
    return figure.substr(0, figure.find('.'));
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

// The preset a topology value names, else a file relative to the study's folder that exists.
std::optional<std::string> topologyValueError(const QJsonValue& v, const QString& dir) {
    if (!v.isString()) return "expected a preset name or a topology file, got " + describeJson(v);
    const std::string s = v.toString().toStdString();
    if (presetParams(s)) return std::nullopt;
    if (QFileInfo(QDir(dir).filePath(v.toString())).isFile()) return std::nullopt;
    return "expected a preset (" + presetNamesJoined() + ") or an existing file, got \"" + s + "\"";
}

std::optional<std::string> designValueError(const std::string& key, const QJsonValue& v) {
    const std::optional<DesignFieldRef> ref = parseDesignFieldKey(key);
    if (!ref) return "no design field \"" + key + "\" (the keys of `clusterscope --help` fields)";
    const std::optional<FieldValue> value = fieldValueOfJson(*ref->field, v);
    if (!value || !fieldValueAllowed(*ref->field, *value))
        return "expected " + fieldExpected(*ref->field) + ", got " + describeJson(v);
    return std::nullopt;
}

class StudyReader {
public:
    StudyReader(const QJsonDocument& doc, const std::string& fileName, const QString& dir)
        : r_(doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(), JsonPath()) {
        s_.fileName = fileName;
        s_.dir = dir;
        s_.canonical = doc.object();
    }

    StudySpec read() {
        if (r_.string("format") != "clusterscope-study")
            r_.fail("format", "expected \"clusterscope-study\"");
        if (r_.integer("version", 1, 1000) > kStudyFileVersion)
            r_.fail("version",
                    "newer than this build reads (" + std::to_string(kStudyFileVersion) + ")");
        readTopology();
        readDesign();
        s_.run =
            r_.has("run") ? runSpecOfJson(r_.value("run"), r_.pathOf("run")) : defaultRunSpec();
        readAxes();
        readExtra();
        readRecord();
        const QJsonValue keep = r_.value("keepRuns");
        if (!keep.isUndefined() && !keep.isBool())
            r_.fail("keepRuns", "expected true or false, got " + describeJson(keep));
        s_.keepRuns = keep.toBool(false);
        s_.tokenBudget = r_.number("tokenBudget", 0, 1e18, 0);
        for (const std::string& f : s_.record)
            if (contains({"daysToTrain", "energyMWh"}, f) && s_.tokenBudget <= 0)
                r_.fail("record", "\"" + f + "\" needs a \"tokenBudget\" (tokens) in the study");
        r_.finish();
        const size_t n = studyVariants(s_).size();
        if (n == 0) r_.fail("axes", "expected at least one variant: every axis needs a value");
        if (n > kMaxStudyVariants)
            r_.fail("axes", std::to_string(n) + " variants; a study holds at most " +
                                std::to_string(kMaxStudyVariants));
        return std::move(s_);
    }

private:
    void readTopology() {
        JsonObjectReader t = r_.object("topology");
        if (t.has("preset") == t.has("file"))
            t.fail("preset", "expected either \"preset\" or \"file\"");
        const char* key = t.has("preset") ? "preset" : "file";
        const QJsonValue v = t.value(key);
        if (const auto error = topologyValueError(v, s_.dir)) t.fail(key, *error);
        if (std::string(key) == "preset" && !presetParams(v.toString().toStdString()))
            t.fail(key, "expected a preset (" + presetNamesJoined() + ")");
        if (std::string(key) == "file" && !QFileInfo(QDir(s_.dir).filePath(v.toString())).isFile())
            t.fail(key, "expected a topology file (beside the study), got \"" +
                            v.toString().toStdString() + "\"");
        t.finish();
        s_.topology = QJsonObject{{key, v}};
    }

    void readDesign() {
        if (!r_.has("design")) return;
        JsonObjectReader d = r_.object("design");
        const QJsonObject o = r_.value("design").toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            const std::string key = it.key().toStdString();
            if (const auto error = designValueError(key, d.value(key.c_str())))
                d.fail(key.c_str(), *error);
            s_.design.insert(it.key(), it.value());
        }
        d.finish();
    }

    // The axis a name gives, or a message saying what names are.
    std::optional<StudyAxis> axisOfName(const std::string& name, std::string& error) const {
        StudyAxis a;
        a.name = name;
        if (name == "topology") {
            a.kind = StudyAxisKind::Topology;
        } else if (name.rfind("design.", 0) == 0) {
            a.kind = StudyAxisKind::Design;
            a.key = name.substr(7);
            if (!parseDesignFieldKey(a.key)) {
                error = "no design field \"" + a.key + "\"";
                return std::nullopt;
            }
        } else if (name.rfind("run.", 0) == 0) {
            a.kind = StudyAxisKind::Run;
            a.key = name.substr(4);
            if (!findRunOption(a.key)) {
                error = "no run option \"" + a.key + "\"";
                return std::nullopt;
            }
        } else {
            error = "expected \"topology\", \"design.FIELD\" or \"run.FIELD\"";
            return std::nullopt;
        }
        return a;
    }

    std::optional<std::string> valueError(const StudyAxis& a, const QJsonValue& v) const {
        switch (a.kind) {
        case StudyAxisKind::Topology:
            return topologyValueError(v, s_.dir);
        case StudyAxisKind::Design:
            return designValueError(a.key, v);
        case StudyAxisKind::Run: {
            RunSpec scratch = s_.run;
            return setRunOptionJson(scratch, *findRunOption(a.key), v);
        }
        }
        return std::nullopt;
    }

    void readAxes() {
        if (!r_.has("axes")) return;
        JsonObjectReader axes = r_.object("axes");
        const QJsonObject o = r_.value("axes").toObject();
        if (size_t(o.size()) > kMaxAxes)
            r_.fail("axes", "a study has at most " + std::to_string(kMaxAxes) + " axes");
        for (auto it = o.begin(); it != o.end(); ++it) { // QJsonObject: in name order
            const std::string name = it.key().toStdString();
            std::string error;
            std::optional<StudyAxis> a = axisOfName(name, error);
            if (!a) axes.fail(name.c_str(), error);
            const QJsonArray values = axes.array(name.c_str(), kMaxAxisValues);
            if (values.isEmpty()) axes.fail(name.c_str(), "expected at least one value");
            std::set<QString> seen;
            for (qsizetype i = 0; i < values.size(); ++i) {
                const JsonPath at = axes.pathOf(name.c_str()).child(int(i));
                if (const auto e = valueError(*a, values[i])) throw JsonFieldError(at, *e);
                if (!seen.insert(QJsonDocument(QJsonArray{values[i]}).toJson()).second)
                    throw JsonFieldError(at, "a value the axis already has");
                a->values.push_back(values[i]);
            }
            s_.axes.push_back(std::move(*a));
        }
        axes.finish();
    }

    void readExtra() {
        if (!r_.has("variants")) return;
        const QJsonArray list = r_.array("variants", kMaxExtraVariants);
        for (qsizetype i = 0; i < list.size(); ++i) {
            JsonObjectReader v(list[i], r_.pathOf("variants").child(int(i)));
            const QJsonObject o = list[i].toObject();
            for (auto it = o.begin(); it != o.end(); ++it) {
                const std::string name = it.key().toStdString();
                std::string error;
                const std::optional<StudyAxis> a = axisOfName(name, error);
                if (!a) v.fail(name.c_str(), error);
                if (const auto e = valueError(*a, v.value(name.c_str()))) v.fail(name.c_str(), *e);
            }
            v.finish();
            s_.extra.push_back(o);
        }
    }

    void readRecord() {
        if (!r_.has("record")) {
            s_.record = defaultStudyFigures();
            return;
        }
        const QJsonArray list = r_.array("record", kMaxFigures);
        for (qsizetype i = 0; i < list.size(); ++i) {
            const JsonPath at = r_.pathOf("record").child(int(i));
            if (!list[i].isString())
                throw JsonFieldError(at, "expected a figure's name, got " + describeJson(list[i]));
            const std::string f = list[i].toString().toStdString();
            if (!contains(studyFigureRoots(), rootOf(f)))
                throw JsonFieldError(at, "no figure \"" + f +
                                             "\": expected a key of `simulate --json` or `bom "
                                             "--json` (\"stepTimeS\", \"cost.perGpu\"), or "
                                             "daysToTrain, energyMWh, meanPowerW");
            if (contains(s_.record, f)) throw JsonFieldError(at, "a figure already recorded");
            s_.record.push_back(f);
        }
        if (s_.record.empty()) r_.fail("record", "expected at least one figure");
    }

    JsonObjectReader r_;
    StudySpec s_;
};

QString canonicalText(const QJsonValue& v) {
    return QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact));
}

} // namespace

const std::vector<std::string>& defaultStudyFigures() {
    static const std::vector<std::string> f = {"stepTimeS",        "mfu",          "tokensPerS",
                                               "switches.backend", "powerW.total", "cost.perGpu"};
    return f;
}

const std::vector<std::string>& studyFigureRoots() {
    static const std::vector<std::string> all = [] {
        std::vector<std::string> v = kRunRoots;
        v.insert(v.end(), kBomRoots.begin(), kBomRoots.end());
        v.insert(v.end(), kDerivedFigures.begin(), kDerivedFigures.end());
        return v;
    }();
    return all;
}

bool figureNeedsBom(const std::string& figure) {
    return contains(kBomRoots, rootOf(figure));
}

StudySpec parseStudy(const QByteArray& text, const std::string& fileName, const QString& dir) {
    if (text.size() > 4 * 1024 * 1024)
        throw InputException({fileName, 0, 0, {}, "a study file is at most 4 MiB"});
    return readJsonDocument(text, fileName, [&](const QJsonDocument& doc) {
        return StudyReader(doc, fileName, dir).read();
    });
}

StudySpec loadStudy(const QString& path) {
    return parseStudy(readFileBounded(path, 4 * 1024 * 1024), path.toStdString(),
                      QFileInfo(path).absolutePath());
}

std::vector<QJsonObject> studyVariants(const StudySpec& s) {
    std::vector<QJsonObject> out;
    size_t combinations = s.axes.empty() ? 0 : 1;
    for (const StudyAxis& a : s.axes) {
        combinations *= a.values.size();
        if (combinations > kMaxStudyVariants)
            return std::vector<QJsonObject>(kMaxStudyVariants + 1);
    }
    std::set<QString> seen;
    for (size_t n = 0; n < combinations; ++n) {
        QJsonObject v;
        size_t rest = n; // mixed radix, the last axis the lowest digit
        for (size_t i = s.axes.size(); i-- > 0;) {
            const StudyAxis& a = s.axes[i];
            v.insert(QString::fromStdString(a.name), a.values[rest % a.values.size()]);
            rest /= a.values.size();
        }
        seen.insert(canonicalText(v));
        out.push_back(v);
    }
    for (const QJsonObject& v : s.extra)
        if (seen.insert(canonicalText(v)).second) out.push_back(v);
    // No axes and no variants: the study's own topology and run, once.
    if (s.axes.empty() && s.extra.empty()) out.push_back(QJsonObject());
    return out;
}

std::string variantText(const QJsonObject& params) {
    std::string out;
    for (auto it = params.begin(); it != params.end(); ++it) {
        if (!out.empty()) out += ", ";
        const QJsonValue v = it.value();
        out += it.key().toStdString() + "=" +
               (v.isString() ? v.toString().toStdString()
                             : QJsonDocument(QJsonArray{v})
                                   .toJson(QJsonDocument::Compact)
                                   .mid(1)
                                   .chopped(1)
                                   .toStdString());
    }
    return out.empty() ? "(the study's own design and run)" : out;
}

} // namespace cs
