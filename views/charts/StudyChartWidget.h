#pragma once
// A design study's variants on one chart: any recorded figure against any axis or another
// figure (cost per GPU), one series per value of a second axis, each in its own colour and
// marker. With two figures the Pareto front is drawn as a staircase with rings on its
// variants. The legend sits beside the axis rect, never on the data. Hovering a point shows
// its variant's parameters and figures; clicking it asks to open the variant; the chart
// saves as PNG, SVG or CSV. It draws the results it is handed: no store, no SQL.
#include "StudyChartData.h"
#include "StudySpec.h"

#include <QWidget>

class QComboBox;
class QCustomPlot;
class QCPItemText;
class QCPItemTracer;
class QCPLayoutGrid;
class QCPTextElement;

class QLabel;

namespace cs::views {

class StudyChartWidget : public QWidget {
    Q_OBJECT
public:
    explicit StudyChartWidget(QWidget* parent = nullptr);

    // The study's axes and recorded figures fill the choices; the chart starts on
    // defaultStudyChart.
    void setStudy(const StudySpec& spec, std::vector<VariantResult> results);
    void setRequest(const StudyChartRequest& r); // names not offered are ignored
    StudyChartRequest request() const;
    const StudyChartData& data() const { return data_; }
    const std::vector<VariantResult>& results() const { return results_; }
    QCustomPlot* plot() const { return plot_; }

    // Where a variant's point is drawn (widget pixels of the plot); none when not plotted.
    std::optional<QPointF> pixelOf(int variant) const;
    // The variant whose point is within a few pixels of `pos` (plot pixels); -1: none.
    int variantAt(QPointF pos) const;
    QString hoverText() const { return hoverText_; } // the tooltip now; empty: none
    // The hovered variant's box: drawn inside the plot (a tooltip would be cut by the window's
    // edge beside a point at the chart's border).
    QLabel* hoverLabel() const { return hoverLabel_; }
    // Saves the chart to path (.png, .svg, .csv); the error, or an empty string.
    QString exportChart(const QString& path, QSize sizePx = {}) const;

signals:
    void variantActivated(int index);
    void variantCompared(int index); // Ctrl- or Shift-clicked

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    void hover(QPointF pos);
    double drawnX(size_t series, double x) const; // categorical points side by side
    QComboBox* combo(const QString& name);

    QComboBox* x_;
    QComboBox* y_;
    QComboBox* series_;
    QCustomPlot* plot_;
    QCPTextElement* title_;
    QCPTextElement* legendTitle_;
    QCPItemText* empty_;
    QCPItemTracer* hovered_;
    QLabel* hoverLabel_;
    std::vector<VariantResult> results_;
    StudyChartData data_;
    QString hoverText_;
    bool filling_ = false; // combos being filled: no rebuild per item
};

} // namespace cs::views
