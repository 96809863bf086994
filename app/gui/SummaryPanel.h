#pragma once
// The Summary tab's text: the topology's figures, its bill of materials (counted on a thread of
// its own, a few tenths of a second on a 24K-GPU site, shown when done) and notes of the runs
// made on it.
#include <QObject>
#include <QString>
#include <QStringList>

class QPlainTextEdit;
class QThread;

namespace cs {
class TopologyDocument;
}

namespace cs::app {

class SummaryPanel : public QObject {
    Q_OBJECT
public:
    SummaryPanel(QPlainTextEdit* view, QObject* parent);
    ~SummaryPanel() override;
    // The document's figures now, its bill of materials when counted; the notes start over.
    void show(const TopologyDocument& doc);
    void addNote(const QString& note);
    // Waits for the count: the document it reads is about to go.
    void finishBillOfMaterials();

signals:
    void textChanged(); // the window fits the Summary dock to it

private:
    void compose();

    QPlainTextEdit* view_;
    QString stats_, bom_;
    QStringList notes_;
    QThread* bomThread_ = nullptr;
    int bomGeneration_ = 0; // a later document's count replaces an earlier one's
};

} // namespace cs::app
