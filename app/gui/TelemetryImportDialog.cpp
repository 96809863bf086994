#include "TelemetryImportDialog.h"

#include "Duration.h"
#include "ProgressTask.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <set>

namespace cs::app {
namespace {
constexpr const char* kAsideName = "preview.sqlite";
} // namespace

TelemetryImportDialog::TelemetryImportDialog(const TopologyDocument& doc, QWidget* parent)
    : QDialog(parent), doc_(doc), files_(new QListWidget), map_(new QLineEdit),
      tree_(new QTreeWidget), summary_(new QLabel), problem_(new QLabel) {
    setWindowTitle(tr("Import Telemetry"));
    files_->setObjectName("importFiles");
    files_->setMaximumHeight(110);
    auto* add = new QPushButton(tr("Add Files..."));
    auto* remove = new QPushButton(tr("Remove"));
    auto* fileButtons = new QVBoxLayout;
    fileButtons->addWidget(add);
    fileButtons->addWidget(remove);
    fileButtons->addStretch();
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(files_, 1);
    fileRow->addLayout(fileButtons);
    map_->setObjectName("importMapFile");
    map_->setPlaceholderText(
        tr("optional: {\"names\": {\"name in the telemetry\": \"topology id\"}}"));
    auto* browse = new QPushButton(tr("Browse..."));
    auto* mapRow = new QHBoxLayout;
    mapRow->addWidget(map_, 1);
    mapRow->addWidget(browse);
    auto* form = new QFormLayout;
    form->addRow(tr("Files"), fileRow);
    form->addRow(tr("Mapping file"), mapRow);

    tree_->setObjectName("importPreview");
    tree_->setColumnCount(3);
    tree_->setHeaderLabels({tr("Metric"), tr("Mapped"), tr("Not mapped")});
    tree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    tree_->setMinimumHeight(220);
    summary_->setObjectName("importSummary");
    summary_->setWordWrap(true);
    problem_->setObjectName("importProblem");
    problem_->setWordWrap(true);
    problem_->setStyleSheet("color: #b00020");

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    auto* previewButton = buttons->addButton(tr("Preview"), QDialogButtonBox::ActionRole);
    import_ = buttons->addButton(tr("Import"), QDialogButtonBox::AcceptRole);
    import_->setEnabled(false); // after a good preview
    connect(previewButton, &QPushButton::clicked, this, [this] { preview(); });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(add, &QPushButton::clicked, this, &TelemetryImportDialog::addFiles);
    connect(remove, &QPushButton::clicked, this, [this] {
        qDeleteAll(files_->selectedItems());
        import_->setEnabled(false);
    });
    connect(browse, &QPushButton::clicked, this, &TelemetryImportDialog::chooseMapFile);
    connect(map_, &QLineEdit::textChanged, this, [this] { import_->setEnabled(false); });

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(tree_, 1);
    layout->addWidget(summary_);
    layout->addWidget(problem_);
    layout->addWidget(buttons);
    resize(720, 560);
}

void TelemetryImportDialog::setFiles(const QStringList& files) {
    files_->clear();
    files_->addItems(files);
    import_->setEnabled(false);
}

void TelemetryImportDialog::setMapFile(const QString& path) {
    map_->setText(path);
}

void TelemetryImportDialog::addFiles() {
    const QStringList chosen = QFileDialog::getOpenFileNames(
        this, tr("Telemetry Files"), {},
        tr("Telemetry (*.prom *.txt *.csv *.json *.log);;All files (*)"));
    files_->addItems(chosen);
    if (!chosen.isEmpty()) import_->setEnabled(false);
}

void TelemetryImportDialog::chooseMapFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Mapping File"), {},
                                                      tr("Mapping files (*.json);;All files (*)"));
    if (!path.isEmpty()) map_->setText(path);
}

bool TelemetryImportDialog::preview() {
    import_->setEnabled(false);
    tree_->clear();
    summary_->clear();
    problem_->clear();
    report_.reset();
    QStringList files;
    for (int i = 0; i < files_->count(); ++i)
        files << files_->item(i)->text();
    if (files.isEmpty()) {
        problem_->setText(tr("Files: add the telemetry files to import"));
        return false;
    }
    const QString aside = aside_.filePath(kAsideName);
    for (const char* suffix : {"", "-wal", "-shm", "-journal"})
        QFile::remove(aside + suffix);
    ImportOptions options;
    options.mapFile = map_->text().trimmed();
    ImportReport report;
    const ProgressOutcome o =
        runWithProgressDialog(this, tr("Reading %n file(s)...", nullptr, int(files.size())),
                              [&](std::function<void(double)>) {
                                  RunStore store = RunStore::openForWriting(aside);
                                  report = importTelemetry(doc_, files, options, store);
                              });
    if (!o.done || o.cancelled) {
        for (const char* suffix : {"", "-wal", "-shm", "-journal"})
            QFile::remove(aside + suffix);
        problem_->setText(o.error.isEmpty() ? tr("Cancelled") : o.error);
        return false;
    }
    report_ = report;
    showReport(report);
    import_->setEnabled(report.frames > 0);
    return true;
}

// One row per metric: its mapped and unmapped series; under it, why series did not map.
void TelemetryImportDialog::showReport(const ImportReport& r) {
    std::set<std::string> metrics;
    for (const auto& [m, n] : r.mappedByMetric)
        metrics.insert(m);
    for (const auto& [m, n] : r.unmappedByMetric)
        metrics.insert(m);
    for (const std::string& m : metrics) {
        const long long mapped = r.mappedByMetric.count(m) ? r.mappedByMetric.at(m) : 0;
        const long long unmapped = r.unmappedByMetric.count(m) ? r.unmappedByMetric.at(m) : 0;
        auto* row = new QTreeWidgetItem(
            tree_, {QString::fromStdString(m), QString::number(mapped), QString::number(unmapped)});
        if (unmapped > 0 && mapped == 0) row->setForeground(0, QColor(176, 0, 32));
        if (r.unmappedWhy.count(m))
            for (const auto& [why, n] : r.unmappedWhy.at(m))
                new QTreeWidgetItem(row,
                                    {QString::fromStdString(why), QString(), QString::number(n)});
    }
    tree_->expandAll();
    QStringList lines;
    lines << tr("%1 series: %2 mapped, %3 not mapped; %4 samples, %5 frames every %6 over %7")
                 .arg(r.series)
                 .arg(r.mappedSeries)
                 .arg(r.unmappedSeries)
                 .arg(r.samples)
                 .arg(r.frames)
                 .arg(QString::fromStdString(formatElapsed(r.tickNs)),
                      QString::fromStdString(formatElapsed(r.lastNs - r.firstNs)));
    if (r.rejectedCount > 0) lines << tr("%1 lines could not be read").arg(r.rejectedCount);
    for (const std::string& w : r.warnings)
        lines << QString::fromStdString(w);
    summary_->setText(lines.join('\n'));
}

bool TelemetryImportDialog::keepAt(const QString& path, QString* error) {
    if (!report_) {
        if (error) *error = tr("nothing previewed");
        return false;
    }
    const QString aside = aside_.filePath(kAsideName);
    if (QFile::exists(path)) QFile::remove(path);
    if (!QFile::rename(aside, path) && !QFile::copy(aside, path)) {
        if (error) *error = tr("cannot write %1").arg(path);
        return false;
    }
    report_.reset(); // the file aside is gone: a second keep would find nothing
    import_->setEnabled(false);
    return true;
}

} // namespace cs::app
