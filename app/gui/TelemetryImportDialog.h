#pragma once
// File → Import Telemetry...: recorded telemetry files (Prometheus text, DCGM CSV, nvidia-smi
// captures, ...) and an optional mapping file. Preview imports them off the GUI thread, with
// progress, into a file aside and lists what maps and what does not, metric by metric, with
// the series counts and the reason; Import then keeps that run (no second import).
#include "TelemetryImporter.h"

#include <QDialog>
#include <QTemporaryDir>

#include <optional>

class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTreeWidget;

namespace cs::app {

class TelemetryImportDialog : public QDialog {
    Q_OBJECT
public:
    TelemetryImportDialog(const TopologyDocument& doc, QWidget* parent = nullptr);
    void setFiles(const QStringList& files);
    void setMapFile(const QString& path);
    // Imports into the file aside and fills the preview; false (the reason shown) when the
    // import is refused or cancelled.
    bool preview();
    // After a good preview: the imported run, moved to `path`; false when it cannot be.
    bool keepAt(const QString& path, QString* error);
    const std::optional<ImportReport>& report() const { return report_; }
    QTreeWidget* previewTree() const { return tree_; }
    QLabel* problemLabel() const { return problem_; }

private:
    void showReport(const ImportReport& r);
    void addFiles();
    void chooseMapFile();

    const TopologyDocument& doc_;
    QListWidget* files_;
    QLineEdit* map_;
    QTreeWidget* tree_;
    QLabel* summary_;
    QLabel* problem_;
    QPushButton* import_;
    QTemporaryDir aside_;
    std::optional<ImportReport> report_;
};

} // namespace cs::app
