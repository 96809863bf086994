#include "SummaryPanel.h"

#include "BillOfMaterials.h"
#include "BomReport.h"
#include "PriceTable.h"
#include "TopologyDocument.h"
#include "TopologyStatsJson.h"

#include <QPlainTextEdit>
#include <QThread>

namespace cs::app {

SummaryPanel::SummaryPanel(QPlainTextEdit* view, QObject* parent) : QObject(parent), view_(view) {}

SummaryPanel::~SummaryPanel() {
    finishBillOfMaterials();
}

void SummaryPanel::show(const TopologyDocument& doc) {
    stats_ = QString::fromStdString(statsToText(doc.topology(), doc.stats()) +
                                    inferredToText(doc.inferred()));
    bom_ = tr("bill of materials: counting...\n");
    notes_.clear();
    compose();
    finishBillOfMaterials();
    const TopologyDocument* counted = &doc;
    const int generation = ++bomGeneration_;
    bomThread_ = QThread::create([this, counted, generation] {
        QString text;
        try {
            text = QString::fromStdString(
                bomToText(billOfMaterials(counted->topology(), counted->index(), shippedPrices())));
        } catch (const std::exception& e) {
            text = tr("bill of materials: %1\n").arg(QString::fromUtf8(e.what()));
        }
        QMetaObject::invokeMethod(
            this,
            [this, generation, text] {
                if (generation != bomGeneration_) return; // a later document's is coming
                bom_ = text;
                compose();
            },
            Qt::QueuedConnection);
    });
    bomThread_->start();
}

void SummaryPanel::addNote(const QString& note) {
    notes_ << "\n" + note + "\n";
    compose();
}

void SummaryPanel::finishBillOfMaterials() {
    if (!bomThread_) return;
    bomThread_->wait();
    delete bomThread_;
    bomThread_ = nullptr;
}

void SummaryPanel::compose() {
    view_->setPlainText(stats_ + "\n" + bom_ + notes_.join(""));
    emit textChanged();
}

} // namespace cs::app
