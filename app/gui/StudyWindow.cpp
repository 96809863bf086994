#include "StudyWindow.h"

#include "ChartExport.h"
#include "StudyChartWidget.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>

#include <qcustomplot.h>

namespace cs::app {

QString studyStatusText(int variantCount, int ok, int failed, int missing) {
    QString text =
        QObject::tr("%1 variants: %2 ok, %3 failed").arg(variantCount).arg(ok).arg(failed);
    if (const int notRun = variantCount - ok - failed; notRun > 0)
        text += QObject::tr(", %1 not run").arg(notRun);
    if (missing > 0) text += QObject::tr(", %1 without these figures").arg(missing);
    return text;
}

StudyWindow::StudyWindow(QString resultPath, StudySpec spec, std::vector<VariantResult> results,
                         int variantCount, QWidget* parent)
    : QMainWindow(parent, Qt::Window), resultPath_(std::move(resultPath)), spec_(std::move(spec)),
      variantCount_(variantCount), chart_(new views::StudyChartWidget), status_(new QLabel) {
    setObjectName("studyWindow");
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("%1 - Study - ClusterScope").arg(QFileInfo(resultPath_).fileName()));
    resize(1100, 700);
    setCentralWidget(chart_);
    status_->setObjectName("studyStatus");
    statusBar()->addWidget(status_, 1);
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Export Chart..."), QKeySequence(tr("Ctrl+E")), this,
                    &StudyWindow::exportDialog);
    file->addSeparator();
    file->addAction(tr("&Close"), QKeySequence::Close, this, &QWidget::close);
    connect(chart_, &views::StudyChartWidget::variantActivated, this, [this](int index) {
        opened_ = index;
        emit variantActivated(index);
    });
    // The second of two: beside the one opened last; with none opened yet, opened alone.
    connect(chart_, &views::StudyChartWidget::variantCompared, this, [this](int index) {
        if (opened_ >= 0 && opened_ != index) {
            emit variantsCompared(opened_, index);
            return;
        }
        opened_ = index;
        emit variantActivated(index);
    });
    // The status line follows the chart: how many ran, and how many it cannot place.
    auto update = [this] { status_->setText(statusText()); };
    connect(chart_->plot(), &QCustomPlot::afterReplot, this, update);
    chart_->setStudy(spec_, std::move(results));
    update();
}

const VariantResult* StudyWindow::result(int index) const {
    for (const VariantResult& r : chart_->results())
        if (r.index == index) return &r;
    return nullptr;
}

QString StudyWindow::statusText() const {
    const views::StudyChartData& d = chart_->data();
    return studyStatusText(variantCount_, d.ok, d.failed, d.missing) +
           tr("  -  hover a point for its variant, click to open it, Ctrl+click another to "
              "compare the two");
}

void StudyWindow::exportDialog() {
    const QString png = tr("PNG image (*.png)"), svg = tr("SVG drawing (*.svg)");
    QString filter;
    QString path = QFileDialog::getSaveFileName(
        this, tr("Export Chart"), QFileInfo(resultPath_).completeBaseName() + ".png",
        png + ";;" + svg + ";;" + tr("CSV table (*.csv)"), &filter);
    if (path.isEmpty()) return;
    if (!views::chartFileKindOf(path))
        path += filter == png ? ".png" : filter == svg ? ".svg" : ".csv";
    const QString error = chart_->exportChart(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Export Chart"), error);
    else
        statusBar()->showMessage(tr("Saved %1").arg(path), 8000);
}

} // namespace cs::app
