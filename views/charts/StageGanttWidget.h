#pragma once
// The inspector's small Gantt of a GPU's pipeline stage over one step: a row of the step's
// parts (coloured as the Step Breakdown dock colours them), the forward and backward passes,
// and the stage's TP, PP and DP collectives; a line where the replay is within its step. A
// bar's tooltip says what it is and when.
#include "StageGantt.h"

#include <QWidget>

#include <memory>
#include <optional>

namespace cs::views {

class StageGanttWidget : public QWidget {
    Q_OBJECT
public:
    explicit StageGanttWidget(QWidget* parent = nullptr);
    void setGantt(std::shared_ptr<const StageGantt> gantt, int stages);
    const StageGantt* gantt() const { return gantt_.get(); }
    // How far into its step the replay is (0..1), or none.
    void setNowPhase(std::optional<double> phase);
    QString title() const;              // "Stage 3 of 16: one step, 12.247 s"
    QString describeAt(QPoint p) const; // the tooltip there; empty over no bar
    QRect rowRect(int row) const;       // row 0: parts, then the non-empty rows of GanttRow
    int rowCount() const { return int(shownRows_.size()) + 1; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* e) override;
    bool event(QEvent* e) override; // tooltips

private:
    double xOf(double s) const;
    double sOf(int x) const;
    int labelWidth() const;

    std::shared_ptr<const StageGantt> gantt_;
    int stages_ = 0;
    std::vector<GanttRow> shownRows_; // the rows that have bars
    std::optional<double> nowPhase_;
};

// The colour a Gantt row's bars are drawn in.
QColor ganttRowColor(GanttRow row);

} // namespace cs::views
