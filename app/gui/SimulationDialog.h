#pragma once
// Sets up a simulated run (model, GPU, parallelism, steps or span, failures), runs it off the
// GUI thread with progress and cancel, and hands back the result. The form is built from the
// RunOptions table: one field per option, named (objectName) by its run-file key; below them
// the fabric's faults, one part per line ("fabric.failed": ids; "fabric.degraded":
// ID=FRACTION), checked against the open topology.
#include "SimulationRun.h"

#include <QDialog>

#include <utility>
#include <vector>

class QCheckBox;
class QLabel;
class QPlainTextEdit;

namespace cs {
struct RunOption;
}

namespace cs::app {

class SimulationDialog : public QDialog {
    Q_OBJECT
public:
    SimulationDialog(const TopologyDocument* doc, QWidget* parent = nullptr);
    // The run as last accepted by checkSpec (the Run button).
    RunSpec spec() const { return spec_; }
    void setSpec(const RunSpec& spec);
    // Validates the form; on problems marks every field that does not parse (or that a check
    // across fields names), lists each under the form by its option's label, and returns false.
    bool checkSpec();
    QStringList markedFields() const; // the keys of the fields marked now
    // Fills the form from a run file; `error` says where a bad one is wrong (file, line,
    // column, field).
    bool loadRunFile(const QString& path, QString* error);
    // Writes the form as a run file, atomically; fails when a field does not parse.
    bool saveRunFile(const QString& path, QString* error);

private:
    RunSpec parseForm() const;        // throws InputException naming the field by its key
    FabricFaults parseFaults() const; // throws InputException, field "fabric.*"
    QWidget* field(const char* key) const;
    void markField(QWidget* w, const QString& message); // red border, the message as tooltip
    void markFaults(QWidget* w, const QString& message);
    void clearMarks();
    void updateGpuCount();
    void openRunFile();
    void saveRunFileAs();

    const TopologyDocument* doc_;
    RunSpec spec_;
    std::vector<std::pair<const RunOption*, QWidget*>> fields_; // in table order
    QCheckBox* useSpan_;
    QPlainTextEdit* failed_;
    QPlainTextEdit* degraded_;
    QLabel* gpus_;
    QLabel* problem_;
};

// Runs the simulation with a progress dialog; writes the series to `storePath`. Returns
// nothing when cancelled or failed (the error shown to the user).
std::optional<RunResult> runWithProgress(QWidget* parent, const TopologyDocument& doc,
                                         const RunSpec& spec, const QString& storePath);

} // namespace cs::app
