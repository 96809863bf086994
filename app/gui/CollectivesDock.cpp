#include "CollectivesDock.h"

#include "ByteSize.h"
#include "CollectiveRun.h"
#include "InputError.h"

#include <QApplication>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace cs::app {
namespace {

constexpr BenchOp kOps[] = {BenchOp::AllReduce, BenchOp::AllGather,   BenchOp::ReduceScatter,
                            BenchOp::AllToAll,  BenchOp::SendRecv,    BenchOp::Broadcast,
                            BenchOp::Reduce,    BenchOp::Permutation, BenchOp::Incast};

QString nameOf(const TopologyDocument& d) {
    return QString::fromStdString(d.topology().name);
}

} // namespace

CollectivesDock::CollectivesDock(QWidget* parent)
    : QWidget(parent), op_(new QComboBox), gpus_(new QSpinBox), perHost_(new QSpinBox),
      placement_(new QComboBox), run_(new QPushButton(tr("Run"))),
      import_(new QPushButton(tr("Import nccl-tests Log..."))), status_(new QLabel),
      chart_(new views::CollectiveChart) {
    setObjectName("collectivesDockWidget");
    for (BenchOp op : kOps)
        op_->addItem(toString(op), int(op));
    op_->setObjectName("collectiveOp");
    gpus_->setRange(2, 2'000'000);
    gpus_->setValue(32);
    gpus_->setObjectName("collectiveGpus");
    perHost_->setRange(1, 72);
    perHost_->setValue(8);
    perHost_->setObjectName("collectivePerHost");
    placement_->addItem(tr("topology (hosts in order)"), "topology");
    placement_->addItem(tr("fragmented (racks scattered)"), "fragmented");
    placement_->setObjectName("collectivePlacement");
    status_->setWordWrap(true);
    // Room for its four lines: a wrapped label in a layout with a stretching chart below is
    // otherwise given one line's height and clipped.
    status_->setMinimumHeight(status_->fontMetrics().lineSpacing() * 4 + 4);
    status_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    status_->setObjectName("collectiveStatus");
    auto* form = new QFormLayout;
    form->addRow(tr("Collective"), op_);
    form->addRow(tr("GPUs"), gpus_);
    form->addRow(tr("GPUs per host"), perHost_);
    form->addRow(tr("Placement"), placement_);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(run_);
    buttons->addWidget(import_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(status_);
    layout->addWidget(chart_, 1);
    connect(run_, &QPushButton::clicked, this, [this] { run(); });
    connect(import_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Import nccl-tests Log"), {}, tr("nccl-tests output (*.txt *.log);;All (*)"));
        if (!path.isEmpty()) importLog(path);
    });
}

void CollectivesDock::setOp(BenchOp op) {
    op_->setCurrentIndex(op_->findData(int(op)));
}

void CollectivesDock::setGroup(int gpus, int perHost, bool fragmented) {
    gpus_->setValue(gpus);
    perHost_->setValue(perHost);
    placement_->setCurrentIndex(fragmented ? 1 : 0);
}

void CollectivesDock::setDesigns(const TopologyDocument* a, const TopologyDocument* b) {
    a_ = a;
    b_ = b;
    if (a_ && ranOnce_) run();
}

QString CollectivesDock::problem() const {
    return status_->text();
}

bool CollectivesDock::importLog(const QString& path) {
    try {
        log_ = readNcclTestsLog(path.toStdString());
    } catch (const InputException& e) {
        log_.reset();
        status_->setText(QString::fromStdString(e.what()));
        return false;
    }
    if (const auto op = benchOpOfLog(log_->op)) setOp(*op);
    if (log_->ranks > 1) gpus_->setValue(log_->ranks);
    if (log_->gpusPerHost() > 0) perHost_->setValue(log_->gpusPerHost());
    return run();
}

BenchResult CollectivesDock::runOn(const TopologyDocument& doc) const {
    CollectiveRequest r;
    r.op = BenchOp(op_->currentData().toInt());
    r.gpus = gpus_->value();
    r.perHost = perHost_->value();
    r.placement = placement_->currentData().toString() == "fragmented" ? GroupPlacement::Fragmented
                                                                       : GroupPlacement::Packed;
    r.sizes = log_ ? logSizes(*log_) : benchSizes(1024, 16.0 * (1ULL << 30), 2);
    return runCollective(doc.topology(), doc.index(), r);
}

bool CollectivesDock::run() {
    if (!a_) return false;
    ranOnce_ = true;
    std::vector<views::CollectiveCurve> curves;
    QString title;
    try {
        QApplication::setOverrideCursor(Qt::WaitCursor);
        for (const TopologyDocument* d : {a_, b_}) {
            if (!d) continue;
            const BenchResult r = runOn(*d);
            views::CollectiveCurve c;
            c.label = tr("%1 (%2)").arg(nameOf(*d), d == a_ && b_ ? "A" : d == b_ ? "B" : "");
            if (!b_) c.label = nameOf(*d);
            for (const BenchRow& row : r.rows) {
                c.bytes.push_back(row.bytes);
                c.busbwGBs.push_back(row.busbwGBs);
            }
            curves.push_back(std::move(c));
            if (d == a_) {
                title =
                    tr("%1 on %2 GPUs (%3 hosts)").arg(toString(r.op)).arg(r.ranks).arg(r.nodes);
                const QString simulated = tr("Simulated: average bus bandwidth %1 GB/s, %2 GB/s "
                                             "per rail's NIC.")
                                              .arg(r.avgBusbwGBs, 0, 'f', 1)
                                              .arg(r.perNicGBs, 0, 'f', 1);
                if (log_) {
                    const LogComparison cmp = compareWithLog(*log_, r);
                    status_->setText(
                        simulated + " " +
                        tr("Against %1 from 1M up, %2 sizes: off by %3 % on average, %4 % at "
                           "most.")
                            .arg(QFileInfo(QString::fromStdString(log_->file)).fileName())
                            .arg(cmp.compared)
                            .arg(cmp.meanAbsErrorPct, 0, 'f', 1)
                            .arg(cmp.maxAbsErrorPct, 0, 'f', 1));
                } else {
                    status_->setText(simulated);
                }
            }
        }
        QApplication::restoreOverrideCursor();
    } catch (const InputException& e) {
        QApplication::restoreOverrideCursor();
        status_->setText(QString::fromStdString(e.what()));
        chart_->setCurves({}, tr("Not simulated"));
        return false;
    }
    if (log_) {
        views::CollectiveCurve m;
        m.label = tr("measured: %1").arg(QFileInfo(QString::fromStdString(log_->file)).fileName());
        m.measured = true;
        for (const NcclTestsRow& x : log_->rows) {
            m.bytes.push_back(x.bytes);
            m.busbwGBs.push_back(x.busbwGBs);
        }
        curves.push_back(std::move(m));
    }
    chart_->setCurves(std::move(curves), title);
    return true;
}

} // namespace cs::app
