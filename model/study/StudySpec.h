#pragma once
// A design study: one topology and run, the axes along which they vary, the figures to
// record. The study file:
//   {"format": "clusterscope-study", "version": 1,
//    "topology": {"preset": NAME} | {"file": PATH},
//    "design": {FIELD: VALUE, ...},               design fields changed for every variant
//    "run": {a run-file object},                  "format"/"version" may be left out
//    "axes": {AXIS: [VALUE, ...], ...},           combined (cartesian)
//    "variants": [{AXIS: VALUE, ...}, ...],       added after the combinations
//    "record": [FIGURE, ...], "keepRuns": false, "tokenBudget": TOKENS}
// AXIS is "topology" (preset names or files), "design.FIELD" (DesignFields.h keys) or
// "run.FIELD" (RunOptions.h keys). A FIGURE is a key of `simulate --json` or `bom --json`,
// nested keys joined by dots ("cost.perGpu"), or one the study derives from a token budget
// ("daysToTrain", "energyMWh"). Every value is checked here, with its place in the file.
#include "RunSpecJson.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace cs {

enum class StudyAxisKind { Topology, Design, Run };

struct StudyAxis {
    std::string name; // as the file writes it: "design.generator.clusters[0].oversubscription"
    StudyAxisKind kind = StudyAxisKind::Run;
    std::string key; // the design field's or run option's key; empty for "topology"
    std::vector<QJsonValue> values;
};

struct StudySpec {
    std::string fileName; // for messages
    QString dir;          // topology files are relative to the study's folder
    QJsonObject topology; // {"preset": NAME} or {"file": PATH}
    QJsonObject design;   // FIELD -> value, for every variant
    RunSpec run;
    std::vector<StudyAxis> axes;    // in name order: the first varies slowest
    std::vector<QJsonObject> extra; // the file's "variants", each AXIS -> value
    std::vector<std::string> record;
    bool keepRuns = false;
    double tokenBudget = 0; // tokens; 0: none (no daysToTrain, energyMWh)
    // The study as read, keys sorted: a result file holds it, and resumes only the same study.
    QJsonObject canonical;
};

constexpr int kStudyFileVersion = 1;
constexpr size_t kMaxStudyVariants = 100000;

// Throws InputException naming file, line, column and field.
StudySpec parseStudy(const QByteArray& text, const std::string& fileName,
                     const QString& dir = QString());
StudySpec loadStudy(const QString& path);

// The figures a variant records unless the study says: step time, MFU, throughput, the
// switches of the backend fabric, power and cost per GPU.
const std::vector<std::string>& defaultStudyFigures();
// The top-level keys a figure may start with: those of `simulate --json`, of `bom --json`,
// and the derived ones.
const std::vector<std::string>& studyFigureRoots();
bool figureNeedsBom(const std::string& figure);

// The variants in order: every combination of the axes (the last axis varying fastest),
// then the file's explicit variants that are not among them. Each is AXIS -> value.
std::vector<QJsonObject> studyVariants(const StudySpec& s);

// A variant as text for people: "topology=meta-ib-24k, run.parallel.placement=fragmented".
std::string variantText(const QJsonObject& params);

} // namespace cs
