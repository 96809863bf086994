#pragma once
// The jobs of a run over its time, one row each: the wait from submission to start as a thin
// grey line, the run as a bar in the job's colour (as the view colours GPUs by job), and the
// time shown as a vertical line. A click on a row says which job; the tooltip names it.
#include "RunJobs.h"

#include <QWidget>

#include <optional>
#include <vector>

namespace cs::views {

class JobsGanttWidget : public QWidget {
    Q_OBJECT
public:
    explicit JobsGanttWidget(QWidget* parent = nullptr);
    // `endS`: the run's length (a bar of a job still running ends there).
    void setJobs(std::vector<RunJob> jobs, double endS);
    void setNow(std::optional<double> nowS);
    // The bar of job `row` (empty when it never ran), and the row under a point (-1: none).
    QRect barRect(int row) const;
    int rowAt(QPoint p) const;
    QString describe(int row) const;
    QSize sizeHint() const override;

signals:
    void jobClicked(int row);

protected:
    void paintEvent(QPaintEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    bool event(QEvent* e) override; // tooltips

private:
    QRect plotRect() const;
    double rowHeight() const;
    double xOf(double s) const;

    std::vector<RunJob> jobs_;
    double endS_ = 1;
    std::optional<double> nowS_;
};

} // namespace cs::views
