#pragma once
// Bus bandwidth against message size, as nccl-tests' results are read: one curve per design
// simulated (`clusterscope collective`, the Collectives dock), a measured nccl-tests log as
// points over them. The size axis is logarithmic (powers of two labelled 1K, 1M, 1G); the legend
// sits in a row of its own under the title, so it covers no point.
#include <QString>
#include <QWidget>

#include <vector>

class QCustomPlot;
class QCPTextElement;

namespace cs::views {

struct CollectiveCurve {
    QString label;                       // "meta-roce-24k: all_reduce, 32 GPUs"
    std::vector<double> bytes, busbwGBs; // the same length, ascending bytes
    bool measured = false;               // a log's points (drawn as points, dark)
};

class CollectiveChart : public QWidget {
    Q_OBJECT
public:
    explicit CollectiveChart(QWidget* parent = nullptr);
    void setCurves(std::vector<CollectiveCurve> curves, const QString& title);
    const std::vector<CollectiveCurve>& curves() const { return curves_; }
    QCustomPlot* plot() const { return plot_; }
    QString title() const;

private:
    void rebuild();

    QCustomPlot* plot_;
    QCPTextElement* title_;
    std::vector<CollectiveCurve> curves_;
};

// "8", "1K", "256M", "4G": a size axis's tick label.
QString byteSizeLabel(double bytes);

} // namespace cs::views
