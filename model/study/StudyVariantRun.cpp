#include "StudyVariantRun.h"

#include "BillOfMaterials.h"
#include "BomReport.h"
#include "DesignFields.h"
#include "Presets.h"
#include "RunOptions.h"
#include "SimulationRun.h"
#include "SitePower.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace cs {
namespace {

std::string jsonText(const QJsonValue& v) {
    if (v.isString()) return v.toString().toStdString();
    if (v.isDouble()) {
        const double d = v.toDouble();
        if (d == double(static_cast<long long>(d)))
            return std::to_string(static_cast<long long>(d));
        return QString::number(d, 'g', 17).toStdString();
    }
    return QJsonDocument(QJsonArray{v})
        .toJson(QJsonDocument::Compact)
        .mid(1)
        .chopped(1)
        .toStdString();
}

// A design value as --set writes it: the field parses it through the same table.
std::string setOf(const QString& key, const QJsonValue& v) {
    return key.toStdString() + "=" + jsonText(v);
}

std::unique_ptr<TopologyDocument> variantTopology(const StudySpec& s, const QJsonObject& params) {
    QString source = s.topology.contains("preset") ? s.topology.value("preset").toString()
                                                   : s.topology.value("file").toString();
    bool preset = s.topology.contains("preset");
    if (params.contains("topology")) {
        source = params.value("topology").toString();
        preset = presetParams(source.toStdString()).has_value();
    }
    TopologyReadOptions o;
    for (auto it = s.design.begin(); it != s.design.end(); ++it)
        o.sets.push_back(setOf(it.key(), it.value()));
    for (auto it = params.begin(); it != params.end(); ++it)
        if (it.key().startsWith("design.")) o.sets.push_back(setOf(it.key().mid(7), it.value()));
    if (preset) return openTopology(source.toStdString(), {}, o);
    return openTopology({}, QDir(s.dir).filePath(source).toStdString(), o);
}

RunSpec variantRun(const StudySpec& s, const QJsonObject& params) {
    RunSpec spec = s.run;
    for (auto it = params.begin(); it != params.end(); ++it) {
        if (!it.key().startsWith("run.")) continue;
        const std::string key = it.key().mid(4).toStdString();
        // The study's reader has checked both the key and the value.
        if (const auto error = setRunOptionJson(spec, *findRunOption(key), it.value()))
            throw InputException({s.fileName, 0, 0, it.key().toStdString(), *error});
    }
    validateRunSpec(spec);
    return spec;
}

// Figures the study derives: the mean site power over a step (the job's GPUs busy for their
// compute, every other GPU idle), and with a token budget the days and energy to train it.
void insertDerived(QJsonObject& summary, const StudySpec& s, const RunSpec& spec,
                   const Topology& t) {
    const std::optional<SitePowerModel> power = sitePowerModel(t);
    const double stepS = summary.value("stepTimeS").toDouble();
    if (power && stepS > 0) {
        const ParallelConfig& p = spec.parallel;
        const double jobGpus = double(p.tp) * p.cp * p.pp * p.dp;
        // Busy: each stage's compute over the step (StepBreakdown), averaged over the stages.
        const QJsonArray stages = summary.value("stages").toArray();
        double computeS = 0;
        for (const QJsonValue& st : stages)
            computeS += st.toObject().value("computeS").toDouble();
        const double busy =
            stages.isEmpty() ? 0 : std::min(1.0, computeS / double(stages.size()) / stepS);
        summary.insert("meanPowerW", power->withGpuLimit(p.gpuPowerLimitW).powerW(jobGpus * busy));
    }
    const double tokensPerS = summary.value("tokensPerS").toDouble();
    if (s.tokenBudget > 0 && tokensPerS > 0) {
        const double kept = summary.value("effectiveTrainingTime").toDouble(1);
        const double days = s.tokenBudget / tokensPerS / kept / 86400;
        summary.insert("daysToTrain", days);
        if (summary.contains("meanPowerW"))
            summary.insert("energyMWh", summary.value("meanPowerW").toDouble() * days * 24 / 1e6);
    }
}

} // namespace

std::unique_ptr<TopologyDocument> studyVariantTopology(const StudySpec& s,
                                                       const QJsonObject& params) {
    return variantTopology(s, params);
}

RunSpec studyVariantRunSpec(const StudySpec& s, const QJsonObject& params) {
    return variantRun(s, params);
}

std::optional<double> figureAt(const QJsonObject& o, const std::string& path) {
    QJsonValue v = o;
    for (const QString& part : QString::fromStdString(path).split('.')) {
        if (!v.isObject()) return std::nullopt;
        v = v.toObject().value(part);
    }
    // A figure that is not a finite number (a division by a zero time) is no figure: JSON
    // would store it as null, read back as 0.
    if (!v.isDouble() || !std::isfinite(v.toDouble())) return std::nullopt;
    return v.toDouble();
}

VariantFigures runStudyVariant(const StudySpec& s, const QJsonObject& params,
                               const QString& keepRunAt) {
    const std::unique_ptr<TopologyDocument> doc = variantTopology(s, params);
    const RunSpec spec = variantRun(s, params);
    VariantFigures out;
    QJsonObject summary;
    if (!keepRunAt.isEmpty()) {
        RunStore store = RunStore::openForWriting(keepRunAt);
        summary = runSummaryJson(simulateRun(*doc, spec, &store), spec);
        out.runPath = keepRunAt;
    } else {
        summary = runSummaryJson(simulateRun(*doc, spec, nullptr), spec);
    }
    insertDerived(summary, s, spec, doc->topology());
    QJsonObject bom;
    for (const std::string& f : s.record)
        if (figureNeedsBom(f) && bom.isEmpty())
            bom = bomToJson(billOfMaterials(doc->topology(), doc->index(), shippedPrices()));
    for (const std::string& f : s.record) {
        const std::optional<double> v = figureAt(figureNeedsBom(f) ? bom : summary, f);
        if (!v)
            throw InputException({s.fileName, 0, 0, "record",
                                  "this variant has no figure \"" + f +
                                      "\" (not a finite number in its simulate or bom output)"});
        out.figures.insert(QString::fromStdString(f), *v);
    }
    return out;
}

} // namespace cs
