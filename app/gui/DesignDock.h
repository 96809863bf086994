#pragma once
// The Design dock: every field of the open topology's generator parameters (DesignFields.h),
// one form row each, made from the fields' table: its label and unit, its range and source in
// the tooltip. An edit regenerates the topology in place (designChanged); a value the field
// refuses, or a combination the generator refuses (with the smallest change that fits), is
// said under the form and nothing changes. Undo and redo walk the edits; Save Design As writes
// the parameters file; the Faults boxes fail or degrade parts of the design (simulations on
// it route around them: FabricFaultList.h); "Simulate on this design" asks the window to run
// the last run's settings again on the design as it is now.
#include "SiteParams.h"
#include "TopologyStats.h"

#include <QWidget>

#include <optional>

class QFormLayout;
class QLabel;
class QPushButton;
class QUndoStack;
class QVBoxLayout;

namespace cs::app {

class DesignDock : public QWidget {
    Q_OBJECT
public:
    explicit DesignDock(QWidget* parent = nullptr);

    // The design shown: the open topology's parameters and figures (none: a topology given
    // explicitly, which has no design to edit). Clears the undo history.
    void setDesign(const std::optional<SiteParams>& params, const std::string& name);
    // The figures of the design now shown, after the window regenerated it.
    void showFigures(const TopologyStats& s);
    const std::optional<SiteParams>& design() const { return params_; }
    // Sets `key` (generator.clusters[0].oversubscription) to `text` as an edit of its field
    // would; false (with the problem shown) when it is refused.
    bool edit(const std::string& key, const QString& text);
    QUndoStack* undoStack() const { return undo_; }
    QString problem() const;
    // Sets the design's failed parts (one id per line) and degraded ones (ID=FRACTION per
    // line) as the Faults boxes' Apply does; false (with the problem shown) when a line is
    // malformed or names no link, switch or NIC of the design.
    bool setFaults(const QString& failedLines, const QString& degradedLines);
    // Whether "Simulate on this design" is offered (a run was open on an earlier design).
    void setSimulateOffered(bool offered);
    // Modest: the form scrolls. A dock asking for its form's full height would take the
    // window's height from the docks beside it.
    QSize sizeHint() const override { return {320, 240}; }

signals:
    // The design to show now (regenerate the topology from it); `why`: what changed.
    void designChanged(const cs::SiteParams& params);
    void saveRequested();
    void simulateRequested();

private:
    friend class DesignEdit;
    void rebuildForm();
    void addFaultRows(QFormLayout* form);
    void refreshValues(); // the fields show params_ after an undo or redo
    // Applies `next` if the generator takes it; otherwise says why and keeps the design.
    bool apply(const SiteParams& next);
    void showProblem(const QString& text);

    std::optional<SiteParams> params_;
    std::string name_;
    QVBoxLayout* rows_;
    QWidget* form_ = nullptr;
    QLabel* figures_;
    QLabel* problem_;
    QPushButton* simulate_;
    QUndoStack* undo_;
    bool applyingUndo_ = false;
};

} // namespace cs::app
