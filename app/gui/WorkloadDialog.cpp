#include "WorkloadDialog.h"

#include "BoundedFileRead.h"
#include "Duration.h"
#include "JsonObjectReader.h"
#include "WorkloadMix.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QSpinBox>
#include <QVBoxLayout>

namespace cs::app {
namespace {

template <typename E, size_t N>
QComboBox* choiceBox(const EnumNames<E, N>& names, const char* objectName) {
    auto* box = new QComboBox;
    for (const std::string& n : names.names()) {
        const std::string_view label = names.label(*names.parse(n));
        box->addItem(QString::fromUtf8(label.data(), qsizetype(label.size())),
                     QString::fromStdString(n));
    }
    box->setObjectName(objectName);
    return box;
}

QLineEdit* lineField(const char* name, const QString& text, const QString& help) {
    auto* e = new QLineEdit(text);
    e->setObjectName(name);
    e->setToolTip(help);
    return e;
}

QSpinBox* spinField(const char* name, int min, int max, int value, const QString& help) {
    auto* box = new QSpinBox;
    box->setObjectName(name);
    box->setRange(min, max);
    box->setValue(value);
    box->setToolTip(help);
    return box;
}

QString sizesText(const std::vector<MixSize>& sizes) {
    QStringList parts;
    for (const MixSize& s : sizes)
        parts << QStringLiteral("%1:%2").arg(s.gpus).arg(s.weight);
    return parts.join(", ");
}

QString durationText(double s) {
    return QString::fromStdString(formatDuration(int64_t(std::llround(s * 1e9))));
}

// A duration field's seconds; throws JsonFieldError at `path`.
double durationOf(const QLineEdit* e, const JsonPath& path) {
    const auto s = parseDurationS(e->text().trimmed().toStdString());
    if (!s)
        throw JsonFieldError(path, "expected a duration such as 2d, 12h or 90m, got \"" +
                                       e->text().toStdString() + "\"");
    return *s;
}

// A seed field's value, 0 to 2^53 as the file takes it; throws JsonFieldError at `path`.
double seedOf(const QLineEdit* e, const JsonPath& path) {
    bool ok = false;
    const qulonglong v = e->text().trimmed().toULongLong(&ok);
    if (!ok || v > (1ULL << 53))
        throw JsonFieldError(path, "expected a whole number from 0 to 2^53, got \"" +
                                       e->text().toStdString() + "\"");
    return double(v);
}

} // namespace

WorkloadDialog::WorkloadDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Simulate Cluster Workload"));
    setMinimumWidth(620); // the default sizes list reads whole
    const WorkloadMix defaults;
    const Workload plain;
    auto* form = new QFormLayout;
    file_ = lineField("workloadFile", {},
                      tr("A clusterscope-workload file: its jobs, mix and failures. Empty: the "
                         "generated mix below only."));
    auto* browse = new QPushButton(tr("Browse..."));
    connect(browse, &QPushButton::clicked, this, &WorkloadDialog::browse);
    // A typed path fills the form as a browsed one does, once the field is left.
    connect(file_, &QLineEdit::editingFinished, this, [this] {
        const QString path = file_->text().trimmed();
        if (path.isEmpty() || path == filePath_) return;
        clearMarks();
        QString error;
        if (!loadFile(path, &error)) {
            markField(file_, error);
            problem_->setText(error);
            return;
        }
        problem_->clear();
    });
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(file_, 1);
    fileRow->addWidget(browse);
    form->addRow(tr("Workload file"), fileRow);
    scheduler_ = choiceBox(kSchedulerPolicyNames, "scheduler");
    scheduler_->setToolTip(tr("Topology-aware: as few racks and pods as a job fits in; first fit: "
                              "free hosts in order; fragmented: free hosts at random (seeded)"));
    form->addRow(tr("Scheduler"), scheduler_);
    podCrossing_ = choiceBox(kPodCrossingNames, "podCrossing");
    podCrossing_->setToolTip(tr("A job that fits in one pod but finds none with room: take GPUs "
                                "of several pods, or wait for one (topology-aware only)"));
    form->addRow(tr("Pod crossing"), podCrossing_);
    backfill_ = new QCheckBox(tr("Later jobs start when an earlier one does not fit"));
    backfill_->setObjectName("backfill");
    backfill_->setChecked(plain.backfill);
    form->addRow(tr("Backfill"), backfill_);
    seed_ = lineField("seed", QString::number(plain.seed),
                      tr("The fragmented scheduler's draws (0 to 2^53)"));
    form->addRow(tr("Scheduler seed"), seed_);
    span_ = lineField("span", {},
                      tr("How long to simulate (2d, 12h); empty: until every job has ended"));
    span_->setPlaceholderText(tr("until every job has ended"));
    form->addRow(tr("Simulate for"), span_);

    mix_ = new QGroupBox(tr("Generated job mix"));
    mix_->setObjectName("mix");
    mix_->setCheckable(true);
    mix_->setChecked(true);
    auto* mixForm = new QFormLayout(mix_);
    mixJobs_ = spinField("mix.jobs", 1, int(kMaxWorkloadJobs), defaults.jobs,
                         tr("How many jobs the mix draws"));
    mixForm->addRow(tr("Jobs"), mixJobs_);
    mixSeed_ = lineField("mix.seed", QString::number(defaults.seed),
                         tr("The draws of arrivals, durations and sizes (0 to 2^53)"));
    mixForm->addRow(tr("Mix seed"), mixSeed_);
    arrivalSpan_ = lineField("mix.arrivalSpanS", durationText(defaults.arrivalSpanS),
                             tr("Jobs arrive uniformly over this time"));
    mixForm->addRow(tr("Arrivals over"), arrivalSpan_);
    minDuration_ = lineField("mix.minDurationS", durationText(defaults.minDurationS),
                             tr("Shortest run time (durations are log-uniform)"));
    maxDuration_ =
        lineField("mix.maxDurationS", durationText(defaults.maxDurationS), tr("Longest run time"));
    auto* durations = new QHBoxLayout;
    durations->addWidget(minDuration_);
    durations->addWidget(new QLabel(tr("to")));
    durations->addWidget(maxDuration_);
    mixForm->addRow(tr("Run times"), durations);
    sizes_ = lineField("mix.sizes", sizesText(defaults.sizes),
                       tr("GPUs:weight, ... (whole hosts); 8B up to 256 GPUs, 70B up to 2,048, "
                          "else 405B"));
    mixForm->addRow(tr("Sizes (GPUs:weight)"), sizes_);

    problem_ = new QLabel;
    problem_->setObjectName("problem");
    problem_->setWordWrap(true);
    problem_->setStyleSheet("color: #b00020");
    problem_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Run"));
    auto* save = buttons->addButton(tr("Save Workload As..."), QDialogButtonBox::ActionRole);
    connect(save, &QPushButton::clicked, this, &WorkloadDialog::saveAs);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (check()) accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(mix_);
    layout->addWidget(problem_);
    layout->addWidget(buttons);
}

QString WorkloadDialog::workloadName() const {
    const QString f = file_->text().trimmed();
    return f.isEmpty() ? tr("generated mix") : QFileInfo(f).fileName();
}

std::optional<Workload> WorkloadDialog::readFile(const QString& path, QString* error) {
    try {
        const QByteArray text = readFileBounded(path, kMaxWorkloadFileBytes);
        Workload w = parseWorkload(text, path.toStdString()); // every field, with its line
        fileJson_ = QJsonDocument::fromJson(text).object();
        filePath_ = path;
        return w;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return std::nullopt;
    }
}

bool WorkloadDialog::loadFile(const QString& path, QString* error) {
    const std::optional<Workload> read = readFile(path, error);
    if (!read) return false;
    try {
        const Workload& w = *read;
        file_->setText(path);
        scheduler_->setCurrentIndex(scheduler_->findData(
            QString::fromStdString(std::string(kSchedulerPolicyNames.name(w.scheduler)))));
        podCrossing_->setCurrentIndex(podCrossing_->findData(
            QString::fromStdString(std::string(kPodCrossingNames.name(w.podCrossing)))));
        backfill_->setChecked(w.backfill);
        seed_->setText(QString::number(w.seed));
        mix_->setChecked(fileJson_.contains("mix"));
        if (fileJson_.contains("mix")) {
            JsonObjectReader r(fileJson_.value("mix"), JsonPath().child("mix"));
            const WorkloadMix m = readWorkloadMix(r);
            mixJobs_->setValue(m.jobs);
            mixSeed_->setText(QString::number(m.seed));
            arrivalSpan_->setText(durationText(m.arrivalSpanS));
            minDuration_->setText(durationText(m.minDurationS));
            maxDuration_->setText(durationText(m.maxDurationS));
            sizes_->setText(sizesText(m.sizes));
        }
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
}

QJsonObject WorkloadDialog::mixJson() const {
    const JsonPath at = JsonPath().child("mix");
    QJsonArray sizes;
    int k = 0;
    for (const QString& part : sizes_->text().split(',', Qt::SkipEmptyParts)) {
        const QStringList gw = part.trimmed().split(':');
        bool okG = false, okW = gw.size() == 2;
        const int gpus = gw.value(0).trimmed().toInt(&okG);
        const double weight = okW ? gw[1].trimmed().toDouble(&okW) : 0;
        if (!okG || !okW)
            throw JsonFieldError(at.child("sizes").child(k),
                                 "expected GPUs:weight (such as 64:15), got \"" +
                                     part.trimmed().toStdString() + "\"");
        sizes.append(QJsonObject{{"gpus", gpus}, {"weight", weight}});
        ++k;
    }
    return {{"jobs", mixJobs_->value()},
            {"seed", seedOf(mixSeed_, at.child("seed"))},
            {"arrivalSpanS", durationOf(arrivalSpan_, at.child("arrivalSpanS"))},
            {"minDurationS", durationOf(minDuration_, at.child("minDurationS"))},
            {"maxDurationS", durationOf(maxDuration_, at.child("maxDurationS"))},
            {"sizes", sizes}};
}

QJsonObject WorkloadDialog::workloadJson() const {
    QJsonObject o = file_->text().trimmed().isEmpty() ? QJsonObject{} : fileJson_;
    o.insert("format", "clusterscope-workload");
    o.insert("version", kWorkloadFileVersion);
    o.insert("scheduler", scheduler_->currentData().toString());
    o.insert("podCrossing", podCrossing_->currentData().toString());
    o.insert("backfill", backfill_->isChecked());
    o.insert("seed", seedOf(seed_, JsonPath().child("seed")));
    if (mix_->isChecked())
        o.insert("mix", mixJson());
    else
        o.remove("mix");
    return o;
}

bool WorkloadDialog::check() {
    clearMarks();
    QStringList problems;
    spanS_ = 0;
    if (!span_->text().trimmed().isEmpty()) {
        const auto s = parseDurationS(span_->text().trimmed().toStdString());
        if (!s || *s < 1 || *s > 366 * 86400.0) {
            const QString m = tr("Simulate for: expected a duration from 1s to 366d (such as 2d "
                                 "or 12h), got \"%1\"")
                                  .arg(span_->text());
            markField(span_, m);
            problems << m;
        } else {
            spanS_ = *s;
        }
    }
    try {
        (void)seedOf(seed_, JsonPath().child("seed"));
    } catch (const JsonFieldError& e) {
        const QString m = tr("Scheduler seed: %1").arg(e.what());
        markField(seed_, m);
        problems << m;
    }
    if (mix_->isChecked()) {
        try {
            JsonObjectReader r(mixJson(), JsonPath().child("mix"));
            (void)readWorkloadMix(r);
        } catch (const JsonFieldError& e) {
            const auto& parts = e.path().parts();
            const std::string key = parts.size() > 1 ? parts[1].key : std::string();
            QWidget* w = key == "jobs"           ? static_cast<QWidget*>(mixJobs_)
                         : key == "seed"         ? mixSeed_
                         : key == "arrivalSpanS" ? arrivalSpan_
                         : key == "minDurationS" ? minDuration_
                         : key == "maxDurationS" ? maxDuration_
                         : key == "sizes"        ? sizes_
                                                 : static_cast<QWidget*>(mix_);
            const QString m = tr("Generated job mix, %1: %2")
                                  .arg(QString::fromStdString(e.path().toString()), e.what());
            markField(w, m);
            problems << m;
        }
    }
    const QString file = file_->text().trimmed();
    if (!file.isEmpty() && file != filePath_) { // typed, not browsed: into the form as browsed
        QString error;
        if (!loadFile(file, &error)) {
            markField(file_, error);
            problems << error;
        }
    }
    if (file.isEmpty() && !mix_->isChecked()) {
        const QString m = tr("Give a workload file, a generated job mix, or both");
        markField(mix_, m);
        problems << m;
    }
    if (!problems.isEmpty()) {
        problem_->setText(problems.join("\n"));
        return false;
    }
    try {
        workload_ = parseWorkload(QJsonDocument(workloadJson()).toJson(),
                                  file.isEmpty() ? "workload dialog" : file.toStdString());
    } catch (const InputException& e) {
        // The form's own document: its lines are nobody's, its field says what is wrong.
        problem_->setText(QString::fromStdString(e.error().field + ": " + e.error().message));
        return false;
    }
    problem_->clear();
    return true;
}

QStringList WorkloadDialog::markedFields() const {
    QStringList out;
    for (const QWidget* w : findChildren<QWidget*>())
        if (w->property("invalid").toBool()) out << w->objectName();
    return out;
}

bool WorkloadDialog::saveFile(const QString& path, QString* error) {
    if (!check()) {
        if (error) *error = problem_->text();
        return false;
    }
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) ||
        f.write(QJsonDocument(workloadJson()).toJson(QJsonDocument::Indented)) < 0 || !f.commit()) {
        if (error) *error = tr("cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

void WorkloadDialog::markField(QWidget* w, const QString& message) {
    w->setProperty("invalid", true);
    w->setStyleSheet(QStringLiteral("border: 2px solid #b00020"));
    w->setToolTip(message);
}

void WorkloadDialog::clearMarks() {
    for (QWidget* w : findChildren<QWidget*>())
        if (w->property("invalid").toBool()) {
            w->setProperty("invalid", false);
            w->setStyleSheet({});
        }
}

void WorkloadDialog::browse() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Workload"), {},
                                                      tr("Workload files (*.json);;All files (*)"));
    if (path.isEmpty()) return;
    clearMarks();
    QString error;
    if (!loadFile(path, &error)) {
        file_->setText(path);
        markField(file_, error);
        problem_->setText(error);
        return;
    }
    problem_->clear();
}

void WorkloadDialog::saveAs() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Workload"), "workload.json",
                                                      tr("Workload files (*.json)"));
    if (path.isEmpty()) return;
    QString error;
    if (!saveFile(path, &error)) problem_->setText(error);
}

} // namespace cs::app
