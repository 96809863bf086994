#include "SimulationDialog.h"

#include "RunSpecJson.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QEventLoop>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>

#include <atomic>

namespace cs::app {
namespace {

QSpinBox* spin(int lo, int hi, int value) {
    auto* s = new QSpinBox;
    s->setRange(lo, hi);
    s->setValue(value);
    return s;
}

struct Cancelled {};

} // namespace

SimulationDialog::SimulationDialog(const TopologyDocument* doc, QWidget* parent)
    : QDialog(parent), doc_(doc), model_(new QComboBox), gpu_(new QComboBox),
      placement_(new QComboBox), tp_(spin(1, 64, 8)), cp_(spin(1, 4096, 1)), pp_(spin(1, 1024, 16)),
      dp_(spin(1, 1'000'000, 128)), virtualStages_(spin(1, 64, 4)),
      seq_(spin(128, 10'000'000, 8192)), batchMTokens_(spin(1, 1024, 16)),
      steps_(spin(1, 100000, 3)), seed_(spin(0, 1'000'000, 1)), span_(new QLineEdit("54d")),
      useSpan_(new QCheckBox(tr("Simulate a wall-clock span instead of steps"))),
      failures_(new QCheckBox(tr("Failures from Llama 3 Table 5"))), gpus_(new QLabel),
      problem_(new QLabel) {
    setWindowTitle(tr("Simulate Training"));
    for (const ModelSpec& m : modelPresets())
        model_->addItem(QString::fromStdString(m.name));
    model_->setCurrentText("llama3-405b");
    for (const GpuSpec& g : gpuPresets())
        gpu_->addItem(QString::fromStdString(g.name));
    placement_->addItems({"topology", "linear"});
    auto* form = new QFormLayout;
    form->addRow(tr("Model"), model_);
    form->addRow(tr("GPU"), gpu_);
    form->addRow(tr("Tensor parallel (TP)"), tp_);
    form->addRow(tr("Context parallel (CP)"), cp_);
    form->addRow(tr("Pipeline parallel (PP)"), pp_);
    form->addRow(tr("Data parallel (DP)"), dp_);
    form->addRow(tr("Virtual stages (V)"), virtualStages_);
    form->addRow(tr("Sequence length"), seq_);
    form->addRow(tr("Batch (Mi tokens)"), batchMTokens_);
    form->addRow(tr("Placement"), placement_);
    form->addRow(QString(), gpus_);
    form->addRow(tr("Steps"), steps_);
    form->addRow(QString(), useSpan_);
    form->addRow(tr("Span"), span_);
    form->addRow(QString(), failures_);
    form->addRow(tr("Seed"), seed_);
    problem_->setWordWrap(true);
    problem_->setStyleSheet("color: #b00020");
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Run"));
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (checkSpec()) accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(problem_);
    layout->addWidget(buttons);
    for (QSpinBox* s : {tp_, cp_, pp_, dp_})
        connect(s, &QSpinBox::valueChanged, this, &SimulationDialog::updateGpuCount);
    auto spanToggled = [this](bool on) {
        span_->setEnabled(on);
        failures_->setEnabled(on);
        steps_->setEnabled(!on);
    };
    connect(useSpan_, &QCheckBox::toggled, this, spanToggled);
    spanToggled(false);
    updateGpuCount();
}

void SimulationDialog::updateGpuCount() {
    const long long n = 1LL * tp_->value() * cp_->value() * pp_->value() * dp_->value();
    const size_t have = doc_ ? doc_->topology().gpus.size() : 0;
    gpus_->setText(tr("%1 GPUs of %2 in the topology")
                       .arg(QLocale().toString(n), QLocale().toString(qulonglong(have))));
}

RunSpec SimulationDialog::spec() const {
    RunSpec s;
    s.model = model_->currentText().toStdString();
    s.gpu = gpu_->currentText().toStdString();
    ParallelConfig& c = s.parallel;
    c.tp = tp_->value(), c.cp = cp_->value(), c.pp = pp_->value(), c.dp = dp_->value();
    c.virtualStages = virtualStages_->value();
    c.seqLen = seq_->value();
    c.batchTokens = batchMTokens_->value() * 1024.0 * 1024.0;
    c.placement = placement_->currentIndex() == 1 ? Placement::Linear : Placement::TopologyAware;
    if (useSpan_->isChecked()) {
        s.spanS = parseDurationS(span_->text().toStdString()).value_or(0);
        s.failures = failures_->isChecked();
    } else {
        s.steps = steps_->value();
    }
    s.seed = uint64_t(seed_->value());
    return s;
}

bool SimulationDialog::checkSpec() {
    const RunSpec s = spec();
    try {
        if (useSpan_->isChecked() && s.spanS <= 0)
            throw InputException({{}, 0, 0, "span", "expected a duration such as 54d, 12h or 30m"});
        checkTrainingConfig(*findModel(s.model), *findGpu(s.gpu), s.parallel);
        if (doc_ && s.parallel.gpus() > (long long)doc_->topology().gpus.size())
            throw InputException({{}, 0, 0, "DP", "the job needs more GPUs than the topology has"});
    } catch (const InputException& e) {
        problem_->setText(QString::fromStdString(e.what()));
        return false;
    }
    problem_->clear();
    return true;
}

std::optional<RunResult> runWithProgress(QWidget* parent, const TopologyDocument& doc,
                                         const RunSpec& spec, const QString& storePath) {
    QProgressDialog progress(
        QObject::tr("Simulating %1...").arg(QString::fromStdString(spec.model)),
        QObject::tr("Cancel"), 0, 1000, parent);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(0);
    std::atomic<bool> cancel{false};
    std::optional<RunResult> result;
    QString error;
    QThread* worker = QThread::create([&] {
        try {
            RunStore store = RunStore::openForWriting(storePath);
            result = simulateRun(doc, spec, &store, [&](double f) {
                if (cancel) throw Cancelled{};
                QMetaObject::invokeMethod(
                    &progress, [&progress, f] { progress.setValue(int(f * 1000)); },
                    Qt::QueuedConnection);
            });
        } catch (const Cancelled&) {
            result.reset();
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
    });
    QEventLoop loop;
    QObject::connect(worker, &QThread::finished, &loop, &QEventLoop::quit);
    QObject::connect(&progress, &QProgressDialog::canceled, &loop, [&] { cancel = true; });
    worker->start();
    loop.exec();
    worker->wait();
    delete worker;
    const bool cancelled = cancel; // closing the progress dialog emits canceled()
    QObject::disconnect(&progress, nullptr, nullptr, nullptr);
    progress.close();
    if (!error.isEmpty()) QMessageBox::critical(parent, QObject::tr("Simulation failed"), error);
    return cancelled ? std::nullopt : result;
}

} // namespace cs::app
