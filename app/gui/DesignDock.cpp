#include "DesignDock.h"

#include "DesignFields.h"
#include "FabricFaults.h"
#include "FieldEditor.h"
#include "InputError.h"
#include "SiteGenerator.h"
#include "TopologyDocument.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QUndoStack>
#include <QVBoxLayout>

namespace cs::app {

// One edit of the design: the parameters before and after, so that undo and redo restore
// them whole (an edit that a check refused never enters the stack).
class DesignEdit : public QUndoCommand {
public:
    DesignEdit(DesignDock* dock, SiteParams before, SiteParams after, const QString& text)
        : QUndoCommand(text), dock_(dock), before_(std::move(before)), after_(std::move(after)) {}
    void undo() override { show(before_); }
    void redo() override { show(after_); }

private:
    void show(const SiteParams& p) {
        dock_->params_ = p;
        dock_->refreshValues();
        dock_->showProblem({});
        emit dock_->designChanged(p);
    }
    DesignDock* dock_;
    SiteParams before_, after_;
};

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString heading(const DesignFieldRef& r, const SiteParams& p) {
    switch (r.field->scope) {
    case DesignScope::Site:
        return DesignDock::tr("Site");
    case DesignScope::Cluster:
        return DesignDock::tr("Cluster %1").arg(qs(p.clusters[size_t(r.cluster)].name));
    case DesignScope::Storage:
        return DesignDock::tr("Storage");
    }
    return {};
}

} // namespace

DesignDock::DesignDock(QWidget* parent)
    : QWidget(parent), rows_(new QVBoxLayout), figures_(new QLabel), problem_(new QLabel),
      simulate_(new QPushButton(tr("Simulate on This Design"))), undo_(new QUndoStack(this)) {
    auto* layout = new QVBoxLayout(this);
    auto* buttons = new QHBoxLayout;
    auto* undo = new QPushButton(tr("Undo"));
    auto* redo = new QPushButton(tr("Redo"));
    auto* save = new QPushButton(tr("Save Design As..."));
    undo->setObjectName("designUndo");
    redo->setObjectName("designRedo");
    simulate_->setObjectName("designSimulate");
    save->setObjectName("designSave");
    connect(undo, &QPushButton::clicked, undo_, &QUndoStack::undo);
    connect(redo, &QPushButton::clicked, undo_, &QUndoStack::redo);
    connect(undo_, &QUndoStack::canUndoChanged, undo, &QPushButton::setEnabled);
    connect(undo_, &QUndoStack::canRedoChanged, redo, &QPushButton::setEnabled);
    connect(save, &QPushButton::clicked, this, &DesignDock::saveRequested);
    connect(simulate_, &QPushButton::clicked, this, &DesignDock::simulateRequested);
    undo->setEnabled(false);
    redo->setEnabled(false);
    simulate_->setVisible(false);
    simulate_->setToolTip(tr("Runs the last run's settings on the design as it is now and "
                             "compares the two runs"));
    for (QPushButton* b : {undo, redo, save})
        buttons->addWidget(b);
    buttons->addStretch();
    layout->addLayout(buttons);
    layout->addWidget(simulate_);
    figures_->setObjectName("designFigures");
    figures_->setWordWrap(true);
    figures_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(figures_);
    problem_->setObjectName("designProblem");
    problem_->setWordWrap(true);
    problem_->setStyleSheet("color: #c0392b");
    layout->addWidget(problem_);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* inner = new QWidget;
    inner->setLayout(rows_);
    scroll->setWidget(inner);
    layout->addWidget(scroll, 1);
    setDesign(std::nullopt, {});
}

void DesignDock::setDesign(const std::optional<SiteParams>& params, const std::string& name) {
    params_ = params;
    name_ = name;
    undo_->clear();
    showProblem({});
    setSimulateOffered(false);
    rebuildForm();
}

void DesignDock::rebuildForm() {
    delete form_;
    form_ = new QWidget;
    auto* form = new QFormLayout(form_);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    // A narrow dock puts a long label above its field rather than squeezing the field.
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    rows_->addWidget(form_);
    if (!params_) {
        form->addRow(new QLabel(tr("This topology was given entity by entity: it has no "
                                   "generator parameters to edit. Open a preset or a "
                                   "parameters file to explore designs.")));
        figures_->clear();
        return;
    }
    QString group;
    for (const DesignFieldRef& r : designFieldRefs(*params_)) {
        const DesignField& f = *r.field;
        if (const QString h = heading(r, *params_); h != group) {
            group = h;
            auto* title = new QLabel("<b>" + h.toHtmlEscaped() + "</b>");
            form->addRow(title);
        }
        const QString key = qs(designFieldKey(f, r.cluster));
        QWidget* editor = views::makeFieldEditor(f, key);
        views::onFieldEdited(editor,
                             [this, key](const QString& text) { edit(key.toStdString(), text); });
        editor->setMinimumWidth(110);
        form->addRow(views::fieldRowLabel(f), editor);
    }
    addFaultRows(form);
    refreshValues();
}

// Failed and degraded parts, typed as the simulation dialog takes them, applied together.
void DesignDock::addFaultRows(QFormLayout* form) {
    form->addRow(new QLabel("<b>" + tr("Faults") + "</b>"));
    auto box = [](const char* name, const QString& tip) {
        auto* edit = new QPlainTextEdit;
        edit->setObjectName(name);
        edit->setToolTip(tip);
        edit->setMaximumHeight(70);
        return edit;
    };
    auto* failed = box("design.fabric.failed",
                       tr("Links, switches and NICs that are down, one id per line (a link as "
                          "\"<end a> -- <end b>\"): simulations on this design route around "
                          "them\nfabric.failed"));
    auto* degraded = box("design.fabric.degraded",
                         tr("Parts that keep a fraction of their capacity, one ID=FRACTION per "
                            "line (above 0, at most 1)\nfabric.degraded"));
    failed->setPlaceholderText(tr("none"));
    degraded->setPlaceholderText(tr("none"));
    form->addRow(tr("Failed parts"), failed);
    form->addRow(tr("Degraded parts"), degraded);
    auto* apply = new QPushButton(tr("Apply Faults"));
    apply->setObjectName("designApplyFaults");
    connect(apply, &QPushButton::clicked, this, [this, failed, degraded] {
        setFaults(failed->toPlainText(), degraded->toPlainText());
    });
    form->addRow(QString(), apply);
}

bool DesignDock::setFaults(const QString& failedLines, const QString& degradedLines) {
    if (!params_) return false;
    SiteParams next = *params_;
    next.faults = {};
    for (const QString& line : failedLines.split('\n')) {
        const QString id = line.trimmed();
        if (!id.isEmpty()) next.faults.failed.push_back(id.toStdString());
    }
    const QStringList lines = degradedLines.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        if (line.isEmpty()) continue;
        try {
            next.faults.degraded.push_back(parseDegradeFlag(line.toStdString()));
        } catch (const InputException& e) {
            showProblem(tr("Degraded parts, line %1: %2").arg(i + 1).arg(qs(e.error().message)));
            return false;
        }
    }
    if (next.faults.failed.size() > kMaxFaults || next.faults.degraded.size() > kMaxFaults) {
        showProblem(tr("Faults: at most %1 parts in each list").arg(kMaxFaults));
        return false;
    }
    if (next == *params_) return true;
    // The ids must name parts of the site this design generates.
    try {
        const TopologyDocument site(generateSite(next), next, {});
        checkFaultIds(site, next.faults);
    } catch (const InputException& e) {
        showProblem(qs(e.error().field + ": " + e.error().message));
        return false;
    }
    undo_->push(new DesignEdit(this, *params_, next, tr("faults")));
    return true;
}

void DesignDock::refreshValues() {
    if (!params_ || !form_) return;
    for (const DesignFieldRef& r : designFieldRefs(*params_)) {
        const QString key = qs(designFieldKey(*r.field, r.cluster));
        const QString text = designFieldText(*params_, *r.field, r.cluster);
        QWidget* editor = form_->findChild<QWidget*>(key);
        if (!editor) continue;
        views::setFieldEditorText(editor, text);
        if (auto* line = qobject_cast<QLineEdit*>(editor)) {
            line->setModified(false);
            line->setStyleSheet({});
        }
    }
    QStringList failed, degraded;
    for (const std::string& id : params_->faults.failed)
        failed << qs(id);
    for (const auto& [id, fraction] : params_->faults.degraded)
        degraded << qs(id) + "=" + QString::number(fraction);
    if (auto* box = form_->findChild<QPlainTextEdit*>("design.fabric.failed"))
        box->setPlainText(failed.join('\n'));
    if (auto* box = form_->findChild<QPlainTextEdit*>("design.fabric.degraded"))
        box->setPlainText(degraded.join('\n'));
}

bool DesignDock::edit(const std::string& key, const QString& text) {
    if (!params_) return false;
    const std::optional<DesignFieldRef> ref = parseDesignFieldKey(key);
    if (!ref || size_t(ref->cluster) >= std::max<size_t>(1, params_->clusters.size())) {
        showProblem(tr("%1: no such design field").arg(qs(key)));
        return false;
    }
    SiteParams next = *params_;
    try {
        setDesignField(next, *ref->field, ref->cluster, text);
    } catch (const InputException& e) {
        showProblem(qs(ref->field->label + ": " + e.error().message));
        if (auto* line = form_->findChild<QLineEdit*>(qs(key)))
            line->setStyleSheet("background: #f6d5d1");
        return false;
    }
    if (next == *params_) return true;
    return apply(next);
}

bool DesignDock::apply(const SiteParams& next) {
    if (const std::optional<InputError> e = checkSiteParams(next)) {
        // The generator refuses the combination; its message says what would fit.
        showProblem(qs(e->field + ": " + e->message));
        refreshValues();
        return false;
    }
    undo_->push(new DesignEdit(this, *params_, next, tr("design change")));
    return true;
}

void DesignDock::showProblem(const QString& text) {
    problem_->setText(text);
    problem_->setVisible(!text.isEmpty());
}

QString DesignDock::problem() const {
    return problem_->text();
}

void DesignDock::setSimulateOffered(bool offered) {
    simulate_->setVisible(offered);
}

void DesignDock::showFigures(const TopologyStats& s) {
    const QLocale l;
    QStringList switches;
    for (int r = 0; r < kSwitchRoleCount; ++r)
        if (s.switchesByRole[size_t(r)] > 0 && SwitchRole(r) != SwitchRole::NvSwitch)
            switches << QString("%1 %2").arg(l.toString(s.switchesByRole[size_t(r)]),
                                             QString::fromUtf8(toString(SwitchRole(r)).data()));
    double worst = 0, bisectionGbps = 0;
    for (const PodStats& p : s.podStats) {
        if (std::isfinite(p.oversubscription)) worst = std::max(worst, p.oversubscription);
        bisectionGbps += p.bisectionGbps;
    }
    QString text =
        tr("%1 GPUs in %2 pods, %3 hosts\nswitches: %4\n%5 links\npod oversubscription %6 "
           "(worst pod), pod bisection %7 Tb/s in all")
            .arg(l.toString(s.gpus), l.toString(s.pods), l.toString(s.hosts), switches.join(", "),
                 l.toString(s.links),
                 worst > 0 ? QString("%1:1").arg(worst, 0, 'f', 2) : tr("not applicable"),
                 l.toString(bisectionGbps / 1000, 'f', 0));
    if (params_ && !params_->faults.empty()) {
        const size_t failed = params_->faults.failed.size(),
                     degraded = params_->faults.degraded.size();
        text += tr("\nfaults: %1 %2 failed, %3 degraded (simulations route around them)")
                    .arg(failed)
                    .arg(failed == 1 ? tr("part") : tr("parts"))
                    .arg(degraded);
    }
    figures_->setText(text);
}

} // namespace cs::app
