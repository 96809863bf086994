#include "InspectorWidget.h"

#include "StageGanttWidget.h"

#include <algorithm>

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace cs::views {

InspectorWidget::InspectorWidget(QWidget* parent)
    : QWidget(parent), title_(new QLabel(this)), table_(new QTableView(this)),
      model_(new PropertyTableModel(this)), gantt_(new StageGanttWidget(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    title_->setTextFormat(Qt::PlainText);
    title_->setWordWrap(true);
    QFont f = title_->font();
    f.setBold(true);
    title_->setFont(f);
    table_->setObjectName("inspectorTable");
    table_->setModel(model_);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->setWordWrap(false);
    layout->addWidget(title_);
    layout->addWidget(table_);
    layout->addWidget(gantt_);
    gantt_->hide();
    showEntity({EntityKind::Cluster, kNone});
}

void InspectorWidget::setDocument(const TopologyDocument* doc) {
    doc_ = doc;
    showEntity({EntityKind::Cluster, kNone});
}

void InspectorWidget::setLiveValues(PropertyList rows) {
    if (rows == live_) return;
    live_ = std::move(rows);
    showEntity(shown_);
}

void InspectorWidget::setGantt(std::shared_ptr<const StageGantt> gantt, int stages,
                               std::optional<double> nowPhase) {
    gantt_->setGantt(std::move(gantt), stages);
    gantt_->setNowPhase(nowPhase);
    gantt_->setVisible(gantt_->gantt() && shown_.kind == EntityKind::Gpu && shown_.index != kNone);
}

void InspectorWidget::showEntity(Endpoint e) {
    shown_ = e;
    gantt_->setVisible(gantt_->gantt() && e.kind == EntityKind::Gpu && e.index != kNone);
    if (!doc_ || e.index == kNone) {
        title_->setText(tr("Nothing selected"));
        model_->setProperties({});
        return;
    }
    PropertyList props = entityProperties(*doc_, e);
    // The values at now come right after the id and kind: they change as the run plays and
    // are what a short dock must show without scrolling.
    const auto at = props.begin() + std::ptrdiff_t(std::min<size_t>(2, props.size()));
    props.insert(at, live_.begin(), live_.end());
    title_->setText(props.empty() ? tr("Nothing selected")
                                  : QString::fromStdString(props.front().second));
    model_->setProperties(std::move(props));
    table_->resizeColumnToContents(0);
}

} // namespace cs::views
