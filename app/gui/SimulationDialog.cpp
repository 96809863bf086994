#include "SimulationDialog.h"

#include "DialogMessage.h"
#include "FabricFaults.h"
#include "FieldEditor.h"
#include "SimulationRun.h"

#include "NewStoreFile.h"
#include "ProgressTask.h"

#include "RankPlacement.h"
#include "RunOptions.h"
#include "RunSpecJson.h"
#include "TopologyFile.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QEventLoop>
#include <QFileDialog>
#include <QFormLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QVBoxLayout>

#include <algorithm>

namespace cs::app {

using views::fieldEditorText;
using views::setFieldEditorText;

SimulationDialog::SimulationDialog(const TopologyDocument* doc, QWidget* parent)
    : QDialog(parent), doc_(doc), spec_(defaultRunSpec()),
      useSpan_(new QCheckBox(tr("Simulate a wall-clock span instead of steps"))),
      failed_(new QPlainTextEdit), degraded_(new QPlainTextEdit), gpus_(new QLabel),
      problem_(new QLabel) {
    setWindowTitle(tr("Simulate Training"));
    useSpan_->setObjectName("useSpan");
    auto* form = new QFormLayout;
    std::vector<QLabel*> units;
    for (const RunOption& o : runOptions()) {
        QWidget* w = views::makeFieldEditor(o, QString::fromStdString(o.key));
        fields_.emplace_back(&o, w);
        if (o.key == "span") form->addRow(QString(), useSpan_);
        if (o.type == FieldType::Bool) {
            form->addRow(QString(), w);
        } else {
            auto* row = new QHBoxLayout;
            row->addWidget(w, 1);
            units.push_back(new QLabel(QString::fromStdString(o.unit)));
            row->addWidget(units.back());
            form->addRow(views::fieldRowLabel(o, false), row);
        }
        if (o.key == "parallel.placement") form->addRow(QString(), gpus_);
    }
    // The fabric's faults: a few lines each, one part per line.
    failed_->setObjectName("fabric.failed");
    degraded_->setObjectName("fabric.degraded");
    for (QPlainTextEdit* e : {failed_, degraded_}) {
        e->setTabChangesFocus(true);
        e->setFixedHeight(e->fontMetrics().lineSpacing() * 3 + 12);
    }
    failed_->setPlaceholderText(tr("one link (<end a> -- <end b>), switch or NIC per line"));
    degraded_->setPlaceholderText(tr("ID=FRACTION per line: a part keeping that capacity"));
    failed_->setToolTip(tr("Parts down for the whole run: routes go around them"));
    degraded_->setToolTip(tr("Parts keeping a fraction of their capacity for the whole run"));
    form->addRow(tr("Failed parts"), failed_);
    form->addRow(tr("Degraded parts"), degraded_);
    int unitWidth = 0; // one width, so that the fields line up
    for (QLabel* u : units)
        unitWidth = std::max(unitWidth, u->sizeHint().width());
    for (QLabel* u : units)
        u->setFixedWidth(unitWidth);
    problem_->setObjectName("problem");
    problem_->setWordWrap(true);
    problem_->setStyleSheet("color: #b00020");
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    QPushButton* run = buttons->button(QDialogButtonBox::Ok);
    run->setText(tr("Run"));
    run->setObjectName("run");
    QPushButton* open = buttons->addButton(tr("Open\u2026"), QDialogButtonBox::ActionRole);
    open->setObjectName("open");
    QPushButton* save = buttons->addButton(tr("Save\u2026"), QDialogButtonBox::ActionRole);
    save->setObjectName("save");
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (checkSpec()) accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(open, &QPushButton::clicked, this, &SimulationDialog::openRunFile);
    connect(save, &QPushButton::clicked, this, &SimulationDialog::saveRunFileAs);
    // The form scrolls where the screen is shorter than it; the problem and the buttons stay.
    auto* formWidget = new QWidget;
    formWidget->setLayout(form);
    auto* scroll = new QScrollArea;
    scroll->setObjectName("formScroll");
    scroll->setWidget(formWidget);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(formWidget->sizeHint().width() +
                            scroll->verticalScrollBar()->sizeHint().width());
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(scroll, 1);
    layout->addWidget(problem_);
    layout->addWidget(buttons);
    const QScreen* screen = parent ? parent->screen() : QGuiApplication::primaryScreen();
    const int availableHeight = screen ? screen->availableGeometry().height() * 9 / 10 : 800;
    const int wantedHeight = formWidget->sizeHint().height() + buttons->sizeHint().height() +
                             problem_->sizeHint().height() + 4 * layout->spacing() +
                             layout->contentsMargins().top() + layout->contentsMargins().bottom();
    resize(sizeHint().width(), std::min(wantedHeight, availableHeight));
    for (const char* key : {"parallel.tp", "parallel.cp", "parallel.pp", "parallel.dp"})
        connect(static_cast<QLineEdit*>(field(key)), &QLineEdit::textChanged, this,
                &SimulationDialog::updateGpuCount);
    // Failures and the span only apply to a span; steps only without one.
    auto spanToggled = [this](bool on) {
        field("span")->setEnabled(on);
        field("failures")->setEnabled(on);
        field("steps")->setEnabled(!on);
    };
    connect(useSpan_, &QCheckBox::toggled, this, spanToggled);
    setSpec(spec_);
    setFieldEditorText(field("span"), "54d"); // Llama 3's snapshot, ready when a span is chosen
    spanToggled(false);
    updateGpuCount();
}

QWidget* SimulationDialog::field(const char* key) const {
    for (const auto& [o, w] : fields_)
        if (o->key == key) return w;
    return nullptr;
}

void SimulationDialog::setSpec(const RunSpec& spec) {
    for (const auto& [o, w] : fields_) {
        const QString text = runOptionText(spec, *o);
        if (!text.isEmpty()) setFieldEditorText(w, text); // the unused one of steps and span stays
    }
    useSpan_->setChecked(spec.spanS > 0);
    QStringList failed, degraded;
    for (const std::string& id : spec.fabric.failed)
        failed << QString::fromStdString(id);
    for (const auto& [id, fraction] : spec.fabric.degraded)
        degraded << QString::fromStdString(id) + "=" + QString::number(fraction);
    failed_->setPlainText(failed.join('\n'));
    degraded_->setPlainText(degraded.join('\n'));
}

FabricFaults SimulationDialog::parseFaults() const {
    FabricFaults f;
    for (const QString& line : failed_->toPlainText().split('\n', Qt::SkipEmptyParts))
        if (!line.trimmed().isEmpty()) f.failed.push_back(line.trimmed().toStdString());
    const QStringList lines = degraded_->toPlainText().split('\n');
    for (int i = 0; i < lines.size(); ++i) {
        if (lines[i].trimmed().isEmpty()) continue;
        try {
            f.degraded.push_back(parseDegradeFlag(lines[i].trimmed().toStdString()));
        } catch (const InputException& e) {
            throw InputException({{},
                                  0,
                                  0,
                                  "fabric.degraded",
                                  "line " + std::to_string(i + 1) + ": " + e.error().message});
        }
    }
    if (f.failed.size() > kMaxFaults || f.degraded.size() > kMaxFaults)
        throw InputException({{},
                              0,
                              0,
                              "fabric.failed",
                              "expected at most " + std::to_string(kMaxFaults) + " parts"});
    return f;
}

RunSpec SimulationDialog::parseForm() const {
    RunSpec s = defaultRunSpec();
    const char* unused = useSpan_->isChecked() ? "steps" : "span";
    for (const auto& [o, w] : fields_)
        if (o->key != unused) setRunOption(s, *o, fieldEditorText(w));
    s.fabric = parseFaults();
    return s;
}

void SimulationDialog::updateGpuCount() {
    RunSpec s;
    QString count = "?";
    try {
        for (const char* key : {"parallel.tp", "parallel.cp", "parallel.pp", "parallel.dp"})
            setRunOption(s, *findRunOption(key), fieldEditorText(field(key)));
        count = QLocale().toString(s.parallel.gpus());
    } catch (const InputException&) {
        // a field half typed: the count shows "?" until it parses
    }
    if (!doc_) {
        gpus_->setText(tr("%1 GPUs").arg(count));
        return;
    }
    gpus_->setText(tr("%1 GPUs of %2 in the topology")
                       .arg(count, QLocale().toString(qulonglong(doc_->topology().gpus.size()))));
}

void SimulationDialog::markField(QWidget* w, const QString& message) {
    w->setProperty("invalid", true);
    w->setStyleSheet(QStringLiteral("border: 2px solid #b00020"));
    w->setToolTip(message);
}

void SimulationDialog::markFaults(QWidget* w, const QString& message) {
    markField(w, message);
    problem_->setText(message);
}

void SimulationDialog::clearMarks() {
    for (QWidget* w : {static_cast<QWidget*>(failed_), static_cast<QWidget*>(degraded_)})
        if (w->property("invalid").toBool()) {
            w->setProperty("invalid", false);
            w->setStyleSheet({});
        }
    for (const auto& [o, w] : fields_) {
        if (!w->property("invalid").toBool()) continue;
        w->setProperty("invalid", false);
        w->setStyleSheet({});
        w->setToolTip(views::fieldToolTip(*o, w->objectName()));
    }
}

QStringList SimulationDialog::markedFields() const {
    QStringList keys;
    for (const auto& [o, w] : fields_)
        if (w->property("invalid").toBool()) keys << QString::fromStdString(o->key);
    for (QWidget* w : {static_cast<QWidget*>(failed_), static_cast<QWidget*>(degraded_)})
        if (w->property("invalid").toBool()) keys << w->objectName();
    return keys;
}

bool SimulationDialog::checkSpec() {
    clearMarks();
    // Every field on its own first: all that do not parse are marked and listed at once.
    QStringList problems;
    const char* unused = useSpan_->isChecked() ? "steps" : "span";
    RunSpec probe = defaultRunSpec();
    for (const auto& [o, w] : fields_) {
        if (o->key == unused) continue;
        try {
            setRunOption(probe, *o, fieldEditorText(w));
        } catch (const InputException& e) {
            const QString message = dialogMessage(e);
            markField(w, message);
            problems << message;
        }
    }
    if (!problems.isEmpty()) {
        problem_->setText(problems.join('\n'));
        return false;
    }
    try {
        const RunSpec s = parseForm();
        validateRunSpec(s);
        checkTrainingConfig(*findModel(s.model), *findGpu(s.gpu), s.parallel);
        if (doc_) placeRanks(doc_->topology(), doc_->index(), s.parallel); // enough GPUs?
        if (doc_) topologyWithFaults(*doc_, s.fabric); // every part named is there
        spec_ = s;
    } catch (const InputException& e) {
        // A check across fields names the one to change: that one is marked.
        for (const auto& [o, w] : fields_)
            if (o->key == e.error().field) markField(w, dialogMessage(e));
        const std::string& field = e.error().field;
        if (field.rfind("fabric.failed", 0) == 0)
            markFaults(failed_, QString::fromStdString(field + ": " + e.error().message));
        if (field.rfind("fabric.degraded", 0) == 0)
            markFaults(degraded_, QString::fromStdString(field + ": " + e.error().message));
        problem_->setText(dialogMessage(e));
        return false;
    }
    problem_->clear();
    return true;
}

bool SimulationDialog::loadRunFile(const QString& path, QString* error) {
    try {
        setSpec(loadRunSpec(path));
    } catch (const InputException& e) {
        if (error) *error = dialogMessage(e);
        return false;
    }
    problem_->clear();
    return true;
}

bool SimulationDialog::saveRunFile(const QString& path, QString* error) {
    try {
        const RunSpec s = parseForm();
        validateRunSpec(s);
        writeFileAtomically(path, QJsonDocument(runSpecToJson(s)).toJson());
    } catch (const std::exception& e) {
        if (error) *error = dialogMessage(e);
        return false;
    }
    return true;
}

void SimulationDialog::openRunFile() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Run Description"), {}, tr("Run descriptions (*.json);;All files (*)"));
    QString error;
    if (!path.isEmpty() && !loadRunFile(path, &error)) problem_->setText(error);
}

void SimulationDialog::saveRunFileAs() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Run Description"), {},
                                                      tr("Run descriptions (*.json)"));
    QString error;
    if (!path.isEmpty() && !saveRunFile(path, &error)) problem_->setText(error);
}

std::optional<RunResult> runWithProgress(QWidget* parent, const TopologyDocument& doc,
                                         const RunSpec& spec, const QString& storePath) {
    std::optional<RunResult> result;
    const ProgressOutcome o = runWithProgressDialog(
        parent, QObject::tr("Simulating %1...").arg(QString::fromStdString(spec.model)),
        [&](std::function<void(double)> progress) {
            NewStoreFile created(storePath); // a cancelled or refused run leaves no file
            RunStore store = RunStore::openForWriting(storePath);
            result = simulateRun(doc, spec, &store, progress);
            created.keep();
        });
    if (!o.error.isEmpty())
        QMessageBox::critical(parent, QObject::tr("Simulation failed"), o.error);
    if (!o.done || o.cancelled) return std::nullopt;
    return result;
}

} // namespace cs::app
