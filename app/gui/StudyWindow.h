#pragma once
// A design study's results in a window of their own (File → Open Study): the chart of its
// variants, a status line counting them, File → Export Chart. Clicking a variant asks the
// main window to open it (variantActivated); the window stays, so that others can follow.
#include "StudySpec.h"
#include "StudyStore.h"

#include <QMainWindow>

class QLabel;

namespace cs::views {
class StudyChartWidget;
}

namespace cs::app {

class StudyWindow : public QMainWindow {
    Q_OBJECT
public:
    // `variantCount`: how many the study has, run or not (StudyStore::variantCount).
    StudyWindow(QString resultPath, StudySpec spec, std::vector<VariantResult> results,
                int variantCount, QWidget* parent = nullptr);

    const QString& resultPath() const { return resultPath_; }
    const StudySpec& spec() const { return spec_; }
    const VariantResult* result(int index) const; // null: no such finished variant
    views::StudyChartWidget* chart() const { return chart_; }
    QString statusText() const; // "6 variants: 5 ok, 1 failed"
    void exportDialog();

    int openedVariant() const { return opened_; } // the last clicked; -1: none yet

signals:
    void variantActivated(int index);
    // Ctrl- or Shift-click on another variant: `a` (opened last) beside `b`.
    void variantsCompared(int a, int b);

private:
    QString resultPath_;
    StudySpec spec_;
    int variantCount_;
    int opened_ = -1;
    views::StudyChartWidget* chart_;
    QLabel* status_;
};

// "6 variants: 5 ok, 1 failed" (", 2 not run" when the study was stopped; ", 1 without
// these figures" when ok variants lack the chart's figures).
QString studyStatusText(int variantCount, int ok, int failed, int missing);

} // namespace cs::app
