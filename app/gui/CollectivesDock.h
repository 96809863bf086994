#pragma once
// The Collectives dock: nccl-tests on the open design. One collective over a group of its GPUs
// (op, GPUs, GPUs per host, placement) simulated at sizes from 1 KiB to 16 GiB and drawn as bus
// bandwidth against size (CollectiveChart); with a comparison open, the same on its design B
// beside it; a measured nccl-tests log (File > Import nccl-tests Log) as points over them, its
// op and group taken from it, with the mean and largest error from 1 MiB up. Runs on the GUI
// thread: a collective of the sizes takes well under a second (an all-to-all of thousands of
// GPUs, seconds).
#include "CollectiveBench.h"
#include "CollectiveChart.h"
#include "NcclTestsLog.h"
#include "TopologyDocument.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace cs::app {

class CollectivesDock : public QWidget {
    Q_OBJECT
public:
    explicit CollectivesDock(QWidget* parent = nullptr);
    // The designs to run on: A, the open one, and B, a comparison's (null: none). Runs again
    // when a collective was run before.
    void setDesigns(const TopologyDocument* a, const TopologyDocument* b);
    // Reads an nccl-tests log: its op, ranks and GPUs per host become the form's, its sizes the
    // sizes run, its points drawn. False when it cannot be read (the problem shown).
    bool importLog(const QString& path);
    // Simulates the form's collective on A (and B); false when refused (the problem shown).
    bool run();
    views::CollectiveChart* chart() const { return chart_; }
    QString problem() const; // the last refusal, or the error against the log
    // Form access, as a user sets it.
    void setOp(BenchOp op);
    void setGroup(int gpus, int perHost, bool fragmented);
    QSize sizeHint() const override { return {360, 320}; }

private:
    BenchResult runOn(const TopologyDocument& doc) const;

    const TopologyDocument* a_ = nullptr;
    const TopologyDocument* b_ = nullptr;
    std::optional<NcclTestsLog> log_;
    bool ranOnce_ = false;
    QComboBox* op_;
    QSpinBox* gpus_;
    QSpinBox* perHost_;
    QComboBox* placement_;
    QPushButton* run_;
    QPushButton* import_;
    QLabel* status_;
    views::CollectiveChart* chart_;
};

} // namespace cs::app
