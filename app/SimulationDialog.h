#pragma once
// Sets up a simulated run (model, GPU, parallelism, steps or span, failures), runs it off the
// GUI thread with progress and cancel, and hands back the result.
#include "SimulationRun.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace cs::app {

class SimulationDialog : public QDialog {
    Q_OBJECT
public:
    SimulationDialog(const TopologyDocument* doc, QWidget* parent = nullptr);
    RunSpec spec() const;
    // Validates the form; on a problem shows it under the form and returns false.
    bool checkSpec();

private:
    void updateGpuCount();

    const TopologyDocument* doc_;
    QComboBox *model_, *gpu_, *placement_;
    QSpinBox *tp_, *cp_, *pp_, *dp_, *virtualStages_, *seq_, *batchMTokens_, *steps_, *seed_;
    QLineEdit* span_;
    QCheckBox* useSpan_;
    QCheckBox* failures_;
    QLabel* gpus_;
    QLabel* problem_;
};

// Runs the simulation with a progress dialog; writes the series to `storePath`. Returns
// nothing when cancelled or failed (the error shown to the user).
std::optional<RunResult> runWithProgress(QWidget* parent, const TopologyDocument& doc,
                                         const RunSpec& spec, const QString& storePath);

} // namespace cs::app
