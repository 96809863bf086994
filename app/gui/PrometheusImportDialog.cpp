#include "PrometheusImportDialog.h"

#include "Duration.h"
#include "NewStoreFile.h"
#include "ProgressTask.h"
#include "SimulationDialog.h"

#include <QCheckBox>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QDir>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QVBoxLayout>

#include <cmath>

namespace cs::app {

PrometheusImportDialog::PrometheusImportDialog(QWidget* parent)
    : QDialog(parent), url_(new QLineEdit("http://localhost:9090")), step_(new QLineEdit("15s")),
      store_(new QLineEdit(QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                               .filePath("prometheus-import.sqlite"))),
      start_(new QDateTimeEdit), end_(new QDateTimeEdit),
      live_(new QCheckBox(tr("Live: go on recording up to now, every step"))),
      problem_(new QLabel) {
    setWindowTitle(tr("Import from Prometheus"));
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (QDateTimeEdit* e : {start_, end_}) {
        e->setTimeSpec(Qt::UTC);
        e->setDisplayFormat("yyyy-MM-dd HH:mm:ss 'UTC'");
        e->setCalendarPopup(true);
    }
    start_->setDateTime(now.addSecs(-3600));
    end_->setDateTime(now);
    url_->setToolTip(tr("Prometheus, Thanos, Mimir or VictoriaMetrics: the base URL of its API"));
    step_->setToolTip(tr("The server-side step of the range query, such as 15s or 1m"));
    problem_->setStyleSheet("color: #b00020");
    problem_->setWordWrap(true);
    auto* form = new QFormLayout;
    form->addRow(tr("Server URL"), url_);
    form->addRow(tr("From"), start_);
    form->addRow(tr("To"), end_);
    form->addRow(tr("Step"), step_);
    form->addRow({}, live_);
    live_->setToolTip(tr("Import From to now, then poll the server every step and append what "
                         "it has; the timeline follows the newest frame"));
    form->addRow(tr("Save run as"), store_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Import"));
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (query() && !storePath().isEmpty()) accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(live_, &QCheckBox::toggled, this, [this, buttons](bool on) {
        end_->setEnabled(!on); // a live recording runs to now
        buttons->button(QDialogButtonBox::Ok)->setText(on ? tr("Start Live") : tr("Import"));
    });
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(problem_);
    layout->addWidget(buttons);
}

std::optional<PrometheusQuery> PrometheusImportDialog::query() {
    PrometheusQuery q;
    q.server = QUrl(url_->text().trimmed());
    q.startS = start_->dateTime().toSecsSinceEpoch();
    q.endS = live() ? QDateTime::currentSecsSinceEpoch() : end_->dateTime().toSecsSinceEpoch();
    const auto step = parseDurationS(step_->text().trimmed().toStdString());
    QString problem;
    if (!q.server.isValid() || (q.server.scheme() != "http" && q.server.scheme() != "https"))
        problem = tr("Server URL: expected an http:// or https:// URL");
    else if (q.endS <= q.startS)
        problem = tr("To: expected a time after From");
    else if (!step || *step < 0.001)
        problem = tr("Step: expected a duration such as 15s");
    else if (live() && (*step < 1 || *step != std::floor(*step)))
        problem =
            tr("Step: a live recording polls every step: expected whole seconds, such as 15s");
    else if (storePath().isEmpty())
        problem = tr("Save run as: expected a file name");
    problem_->setText(problem);
    if (!problem.isEmpty()) return std::nullopt;
    q.stepS = *step;
    return q;
}

bool PrometheusImportDialog::live() const {
    return live_->isChecked();
}

QString PrometheusImportDialog::storePath() const {
    return store_->text().trimmed();
}

bool importPrometheusWithProgress(QWidget* parent, const TopologyDocument& doc,
                                  const PrometheusQuery& query, const QString& storePath) {
    const ProgressOutcome o = runWithProgressDialog(
        parent, QObject::tr("Importing from %1...").arg(query.server.toString()),
        [&](std::function<void(double)> progress) {
            NewStoreFile created(storePath); // a cancelled or failed import leaves no file
            RunStore store = RunStore::openForWriting(storePath);
            importPrometheus(doc, query, {}, store, std::move(progress));
            created.keep();
        });
    if (!o.error.isEmpty()) QMessageBox::critical(parent, QObject::tr("Import failed"), o.error);
    return o.done && !o.cancelled;
}

} // namespace cs::app

namespace cs::app {

std::shared_ptr<PrometheusLive> startLiveWithProgress(QWidget* parent, const TopologyDocument& doc,
                                                      const PrometheusQuery& query,
                                                      const QString& storePath) {
    std::shared_ptr<PrometheusLive> live;
    const ProgressOutcome o = runWithProgressDialog(
        parent, QObject::tr("Recording live from %1...").arg(query.server.toString()),
        [&](std::function<void(double)> progress) {
            NewStoreFile created(storePath); // a cancelled or failed start leaves no file
            auto recording =
                std::make_shared<PrometheusLive>(doc, query, ImportOptions{}, storePath);
            recording->start(std::move(progress));
            created.keep();
            live = std::move(recording);
        });
    if (!o.error.isEmpty())
        QMessageBox::critical(parent, QObject::tr("Live recording failed"), o.error);
    return o.done && !o.cancelled ? live : nullptr;
}

} // namespace cs::app
