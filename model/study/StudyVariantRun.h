#pragma once
// One variant of a study, run: its topology generated with the study's and the variant's
// design values, its run simulated, its figures read from the run's summary and (when a
// figure needs it) the bill of materials.
#include "StudySpec.h"
#include "TopologyDocument.h"

#include <QJsonObject>
#include <QString>

#include <memory>

namespace cs {

struct VariantFigures {
    QJsonObject figures; // FIGURE -> number, for each recorded figure
    QString runPath;     // where the run was kept; empty when not kept
};

// Throws InputException (a design or run the engine refuses: too big for memory, parallel
// sizes that do not multiply up, a cluster index the topology lacks) or std::runtime_error.
// `keepRunAt`: a new run store to simulate into; empty: the run is not kept.
VariantFigures runStudyVariant(const StudySpec& s, const QJsonObject& params,
                               const QString& keepRunAt = QString());

// The variant's topology (the study's and the variant's design values applied) and its run,
// as runStudyVariant makes them: for the window, which opens a variant's design and run.
std::unique_ptr<TopologyDocument> studyVariantTopology(const StudySpec& s,
                                                       const QJsonObject& params);
RunSpec studyVariantRunSpec(const StudySpec& s, const QJsonObject& params);

// The figure at a dotted path of `o` ("cost.perGpu"); nothing when absent or not a number.
std::optional<double> figureAt(const QJsonObject& o, const std::string& path);

} // namespace cs
