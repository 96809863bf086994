#pragma once
// Where a simulated step's time goes, per pipeline stage: one horizontal stacked bar per stage
// (compute, bubble, exposed TP / CP / PP / DP / EP, optimizer, data loading, other), read from
// the run's summary ("stages", "slowestStage", "stepTimeS"); under the title, the spread of the
// run's steps ("stepTimeDistribution"). The legend sits above the bars and
// lists only the parts that take time; the slowest stage is marked ▸. A recorded run has
// no breakdown: the chart says so.
#include "StepBreakdown.h"

#include <QJsonObject>
#include <QWidget>

class QCustomPlot;
class QCPTextElement;

namespace cs::views {

// The summary's breakdown as numbers: seconds per stage and part.
struct StepBreakdownData {
    std::vector<StepParts> stages;
    int slowestStage = 0;
    double stepS = 0;
    // The run's steps as a distribution ("stepTimeDistribution"); 0 where a summary has none.
    double p50S = 0, p99S = 0, maxS = 0, slowestGpuShare = 0;
    long long steps = 0;
    bool empty() const { return stages.empty(); }
    static StepBreakdownData fromSummary(const QJsonObject& summary);
};

class StepBreakdownChart : public QWidget {
    Q_OBJECT
public:
    explicit StepBreakdownChart(QWidget* parent = nullptr);
    void setSummary(const QJsonObject& summary);
    const StepBreakdownData& data() const { return data_; }
    QCustomPlot* plot() const { return plot_; }
    QString title() const;      // what the chart's title says now
    QString spreadText() const; // the line under it: the spread of the run's steps

protected:
    void resizeEvent(QResizeEvent* e) override; // stage labels as many as the height holds

private:
    void rebuild();
    void labelStages();

    QCustomPlot* plot_;
    QCPTextElement* title_;
    QCPTextElement* spread_;
    StepBreakdownData data_;
};

// The colour a part is drawn in, the same wherever parts are shown.
QColor stepPartColor(StepPart p);

} // namespace cs::views
