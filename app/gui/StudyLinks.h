#pragma once
// File → Open Study: a study's result file in a window of its own (the chart of its variants),
// linked to the main window: a variant clicked there opens here, its design in the views and
// the Design dock and its run replayed; two variants chosen there open side by side.
#include "RunSpec.h"

#include <QHash>
#include <QObject>

namespace cs {
class TopologyDocument;
}

namespace cs::app {

class MainWindow;
class StudyWindow;

class StudyLinks : public QObject {
    Q_OBJECT
public:
    explicit StudyLinks(MainWindow* window);
    // The study's window, shown; null when refused (the error shown unless told not to).
    StudyWindow* open(const QString& path, bool showErrors = true);
    // A variant in the main window: its design (the study's and the variant's design values),
    // then its kept run, or else its run simulated now (progress and cancel; later clicks
    // reopen it). False when refused or the run failed.
    bool openVariant(const StudyWindow& study, int index, bool showErrors = true);
    // Variant `a` opened as openVariant does, `b`'s run beside it (View → Compare).
    bool compareVariants(const StudyWindow& study, int a, int b, bool showErrors = true);

private:
    // A variant's run: kept by the study, simulated for it before, else simulated now (with
    // progress, which says why it failed) on `doc`; empty when stopped or failed.
    QString variantRun(const StudyWindow& study, int index, const TopologyDocument& doc,
                       const RunSpec& spec);

    MainWindow* window_;
    QHash<QString, QString> runs_; // "RESULTS#INDEX" -> the run simulated for a variant
};

} // namespace cs::app
