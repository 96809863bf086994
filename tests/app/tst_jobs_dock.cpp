// The Jobs dock and colour by job, as a user sees them: a stored cluster run lists its jobs
// with their waits and slowdowns, colours each GPU by the job on it at the time shown (each
// job's colour beside its name), and a click on a job goes to it; a recording whose series name
// their jobs lists both jobs.
#include "ClusterRunRecorder.h"
#include "ClusterSimulation.h"
#include "Duration.h"
#include "GuiOptions.h"
#include "JobsGanttWidget.h"
#include "JobsModel.h"
#include "MainWindow.h"
#include "ReplayController.h"
#include "RunChartsWidget.h"
#include "RunJobs.h"
#include "RunReader.h"
#include "TelemetryImporter.h"
#include "ViewControls.h"
#include "VtkViewWidget.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFile>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace cs;
using cs::app::MainWindow;

class TestJobsDock : public QObject {
    Q_OBJECT
private slots:
    void aClusterRunListsItsJobsAndColoursGpusByJob();
    void aRecordingWithJobLabelsListsBothJobs();
};

namespace {

QTableView* jobsTable(MainWindow& w) {
    return w.findChild<QTableView*>("jobsTable");
}

float gpuValue(MainWindow& w, int32_t gpu) {
    const auto& v = w.view()->scene().values().gpu;
    return size_t(gpu) < v.size() ? v[size_t(gpu)] : -2.f;
}

} // namespace

void TestJobsDock::aClusterRunListsItsJobsAndColoursGpusByJob() {
    // a and b start at once in a pod each; c waits for a pod with room.
    const auto doc = openTopology("small-256", {});
    const Workload workload = loadWorkload(CS_SOURCE_DIR "/resources/workloads/pod-crossing.json");
    ClusterRunRecorder recorder(doc->topology(), "cluster: pod-crossing.json");
    const ClusterRunResult r = simulateCluster(
        *doc, workload, 0, {}, [&](double atS, const std::vector<ClusterFrameJob>& running) {
            recorder.frame(atS, running);
        });
    QTemporaryDir dir;
    const QString path = dir.filePath("cluster.sqlite");
    {
        RunStore store = RunStore::openForWriting(path);
        recorder.write(store, r);
    }
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(w.openSource("preset:small-256", false));
    QVERIFY(w.openRun(path, false));
    QTableView* table = jobsTable(w);
    QVERIFY(table);
    QVERIFY(table->isVisibleTo(&w));
    QAbstractItemModelTester tester(table->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModel* m = table->model();
    QCOMPARE(m->rowCount(), 3);
    const ClusterJobResult& c = r.jobs[2];
    QCOMPARE(m->index(0, views::JobsModel::NameColumn).data().toString(), QString("a"));
    QCOMPARE(m->index(2, views::JobsModel::NameColumn).data().toString(), QString("c"));
    QCOMPARE(m->index(0, views::JobsModel::GpusColumn).data().toString(), QString("96"));
    QCOMPARE(m->index(2, views::JobsModel::StateColumn).data().toString(), QString("done"));
    QCOMPARE(m->index(2, views::JobsModel::WaitColumn).data().toString(),
             QString::fromStdString(formatElapsed(int64_t(std::llround(c.waitS * 1e9)))));
    QCOMPARE(m->index(0, views::JobsModel::SlowdownColumn).data().toString(), QString("×1.000"));
    // Each job's colour beside its name.
    QCOMPARE(m->index(1, views::JobsModel::NameColumn).data(Qt::DecorationRole).value<QColor>(),
             [] {
                 const views::Rgba x = views::valueColor(float(jobColourFraction(1)));
                 return QColor(x[0], x[1], x[2]);
             }());

    // Colour by job: at the start a's and b's GPUs take their jobs' colours, c's none.
    QComboBox* colour = w.viewControls()->colourBox();
    const int byJob = colour->findText("Run: Job");
    QVERIFY(byJob >= 0);
    colour->setCurrentIndex(byJob);
    QCOMPARE(w.view()->scene().state().role, views::GpuRole::Job);
    const Topology& t = doc->topology();
    auto firstGpu = [&](const ClusterJobResult& j) {
        return t.hosts[size_t(j.hosts.front())].firstGpu;
    };
    QTRY_COMPARE(gpuValue(w, firstGpu(r.jobs[0])), float(jobColourFraction(0)));
    QCOMPARE(gpuValue(w, firstGpu(r.jobs[1])), float(jobColourFraction(1)));
    // c runs on hosts a or b held (it took the pod of the one that ended first): in that job's
    // colour for now. A host no job holds has none.
    const int before =
        std::count(r.jobs[0].hosts.begin(), r.jobs[0].hosts.end(), c.hosts.front()) ? 0 : 1;
    QVERIFY(std::count(r.jobs[size_t(before)].hosts.begin(), r.jobs[size_t(before)].hosts.end(),
                       c.hosts.front()));
    QCOMPARE(gpuValue(w, firstGpu(c)), float(jobColourFraction(before)));
    int32_t unheld = -1;
    for (int32_t h = 0; h < int32_t(t.hosts.size()) && unheld < 0; ++h)
        if (t.hosts[size_t(h)].gpuCount > 0 &&
            std::none_of(r.jobs.begin(), r.jobs.begin() + 2, [&](const ClusterJobResult& j) {
                return std::count(j.hosts.begin(), j.hosts.end(), h) > 0;
            }))
            unheld = h;
    QVERIFY(unheld >= 0);
    QVERIFY(std::isnan(gpuValue(w, t.hosts[size_t(unheld)].firstGpu)));

    // A click on c: the replay goes to c's start and selects its first host, now in c's colour.
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                      table->visualRect(m->index(2, 0)).center());
    QVERIFY(w.view()->scene().selection().has_value());
    QCOMPARE(w.view()->scene().selection()->entity, (Endpoint{EntityKind::Host, c.hosts.front()}));
    QTRY_VERIFY(w.replay()->shownNs().has_value() &&
                std::abs(double(*w.replay()->shownNs()) / 1e9 - c.startS) < 0.01);
    QTRY_COMPARE(gpuValue(w, firstGpu(c)), float(jobColourFraction(2)));
    // c is selected: its racks (or its hosts, in a rack it shares) outlined, nothing else's; the
    // GPU chart plots its GPUs' mean busy over the time it ran, as the run stored it.
    std::set<int32_t> litHosts, litLinks;
    for (const Endpoint& e : w.view()->scene().highlighted()) {
        if (e.kind == EntityKind::Link) litLinks.insert(e.index);
        if (e.kind == EntityKind::Host) litHosts.insert(e.index);
        if (e.kind == EntityKind::Rack)
            for (int32_t h = 0; h < int32_t(t.hosts.size()); ++h)
                if (t.hosts[size_t(h)].rack == e.index && t.hosts[size_t(h)].gpuCount > 0)
                    litHosts.insert(h);
    }
    QCOMPARE(litHosts, std::set<int32_t>(c.hosts.begin(), c.hosts.end()));
    QVERIFY(std::any_of(w.view()->scene().highlighted().begin(),
                        w.view()->scene().highlighted().end(),
                        [](const Endpoint& e) { return e.kind == EntityKind::Rack; }));
    std::set<int32_t> cGpus;
    for (int32_t h : c.hosts)
        for (int g = 0; g < t.hosts[size_t(h)].gpuCount; ++g)
            cGpus.insert(t.hosts[size_t(h)].firstGpu + g);
    QCOMPARE(qint64(cGpus.size()), qint64(c.gpus));
    QVERIFY(litLinks.empty()); // alone in its pod, it met no other job
    // Drawn as listed: a box per rack and host, no rack added around a host.
    QCOMPARE(w.view()->scene().highlightedLines(), 12 * w.view()->scene().highlighted().size());
    const views::RunChartsWidget* charts = w.replay()->charts();
    const auto jobSeries = [&]() -> const Series* {
        for (const views::ChartSeries& s : charts->seriesOf(0))
            if (s.name == "job c: mean") return s.source;
        return nullptr;
    };
    QTRY_VERIFY(jobSeries() != nullptr);
    RunReader reader(path, t);
    const int64_t midNs = int64_t(std::llround((c.startS + c.endS) / 2 * 1e9));
    const float stored = reader.frame(Metric::GpuBusy, midNs)[size_t(firstGpu(c))];
    QVERIFY(stored > 0);
    const std::optional<double> charted = views::valueAtNs(*jobSeries(), midNs);
    QVERIFY(charted.has_value());
    QVERIFY2(std::abs(*charted - stored) < 1e-4,
             qPrintable(QString("%1 vs %2").arg(*charted).arg(stored)));
    QVERIFY(jobSeries()->tsNs.front() >= int64_t(std::llround(c.startS * 1e9)) - 1);
    // The Network chart adds c's traffic over the tiers: some, and no more than all jobs'.
    const auto jobTraffic = [&]() -> const Series* {
        for (const views::ChartSeries& s : charts->seriesOf(1))
            if (s.name == "job c: all tiers") return s.source;
        return nullptr;
    };
    QVERIFY(jobTraffic() != nullptr);
    const std::optional<double> cBps = views::valueAtNs(*jobTraffic(), midNs);
    double allBps = 0;
    for (float v : reader.frame(Metric::TierBytesPerS, midNs))
        allBps += v;
    QVERIFY(cBps.has_value());
    QVERIFY2(*cBps > 0 && *cBps <= allBps * (1 + 1e-5),
             qPrintable(QString("%1 of %2").arg(*cBps).arg(allBps)));
    // A GPU chosen in the view ends the job's selection.
    QVERIFY(w.selectById(QString::fromStdString(t.nameOf({EntityKind::Gpu, 0}))));
    QVERIFY(w.view()->scene().highlighted().empty());
    QVERIFY(jobSeries() == nullptr);
    QVERIFY(jobTraffic() == nullptr);
    QCOMPARE(w.replay()->selectedJob(), -1);

    // --select job:b opens the run with b selected; a job the run lacks is refused by name.
    app::GuiOptions o;
    o.source = "preset:small-256";
    o.run = path;
    o.selectId = "job:b";
    MainWindow opened;
    QCOMPARE(app::openFromOptions(opened, o), QString());
    QCOMPARE(opened.replay()->selectedJob(), 1);
    QVERIFY(!opened.view()->scene().highlighted().empty());
    o.selectId = "job:nope";
    MainWindow refused;
    QVERIFY(app::openFromOptions(refused, o).contains("no job named \"nope\""));
    o.run.clear();
    MainWindow withoutRun;
    QVERIFY(app::openFromOptions(withoutRun, o).contains("give --run"));

    // The Gantt above the list: c's bar starts where a's ends (c took a's pod), after its wait;
    // a click on b's row goes to b.
    auto* gantt = w.findChild<views::JobsGanttWidget*>("jobsGantt");
    QVERIFY(gantt && gantt->isVisibleTo(&w));
    const QRect barA = gantt->barRect(0), barC = gantt->barRect(2);
    QVERIFY(!barA.isEmpty() && !barC.isEmpty());
    QVERIFY(qAbs(barA.right() - barC.left()) <= 2);
    QVERIFY(barC.left() > barA.left() + barA.width() / 2);
    QVERIFY2(gantt->describe(2).startsWith("c: 64 GPUs") && gantt->describe(2).contains("waited"),
             qPrintable(gantt->describe(2)));
    QTest::mouseClick(gantt, Qt::LeftButton, {}, gantt->barRect(1).center());
    QCOMPARE(table->currentIndex().row(), 1);
    QCOMPARE(w.view()->scene().selection()->entity,
             (Endpoint{EntityKind::Host, r.jobs[1].hosts.front()}));
}

void TestJobsDock::aRecordingWithJobLabelsListsBothJobs() {
    // A DCGM capture whose series carry hpc_job: 4101 on two hosts, 4102 on one.
    const auto doc = openTopology("small-256", {});
    QTemporaryDir dir;
    QFile f(dir.filePath("two-jobs.prom"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n");
    for (int k = 0; k <= 4; ++k)
        for (int g = 0; g < 8; ++g) {
            const QString ts = QString::number(1717200000000LL + k * 15000);
            for (const char* host : {"demo.pod0.rack0.host0", "demo.pod0.rack0.host1"})
                f.write(QString("DCGM_FI_DEV_GPU_UTIL{gpu=\"%1\",Hostname=\"%2\",hpc_job=\"4101\"} "
                                "95 %3\n")
                            .arg(g)
                            .arg(host, ts)
                            .toUtf8());
            f.write(QString("DCGM_FI_DEV_GPU_UTIL{gpu=\"%1\",Hostname=\"demo.pod1.rack0.host0\","
                            "hpc_job=\"4102\"} 60 %2\n")
                        .arg(g)
                        .arg(ts)
                        .toUtf8());
        }
    f.close();
    const QString path = dir.filePath("recorded.sqlite");
    {
        RunStore store = RunStore::openForWriting(path);
        importTelemetry(*doc, {f.fileName()}, {}, store);
    }
    MainWindow w;
    w.show();
    QVERIFY(w.openSource("preset:small-256", false));
    QVERIFY(w.openRun(path, false));
    QTableView* table = jobsTable(w);
    QVERIFY(table && table->isVisibleTo(&w));
    QAbstractItemModelTester tester(table->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(table->model()->rowCount(), 2);
    QCOMPARE(table->model()->index(0, 0).data().toString(), QString("4101"));
    QCOMPARE(table->model()->index(0, views::JobsModel::GpusColumn).data().toString(),
             QString("16"));
    QCOMPARE(table->model()->index(1, 0).data().toString(), QString("4102"));
    QCOMPARE(table->model()->index(1, views::JobsModel::GpusColumn).data().toString(),
             QString("8"));
    QVERIFY(w.viewControls()->colourBox()->findText("Run: Job") >= 0);
    // Chosen, 4102 outlines its host (or its rack) and charts its GPUs' busy: 60 %.
    QVERIFY(w.replay()->goToJobNamed("4102"));
    const int32_t host = doc->index().find("demo.pod1.rack0.host0")->index;
    const Topology& t = doc->topology();
    const auto& lit = w.view()->scene().highlighted();
    QVERIFY(std::count(lit.begin(), lit.end(), Endpoint{EntityKind::Host, host}) +
                std::count(lit.begin(), lit.end(),
                           Endpoint{EntityKind::Rack, t.hosts[size_t(host)].rack}) ==
            1);
    const auto jobSeries = [&]() -> const Series* {
        for (const views::ChartSeries& s : w.replay()->charts()->seriesOf(0))
            if (s.name == "job 4102: mean") return s.source;
        return nullptr;
    };
    QTRY_VERIFY(jobSeries() != nullptr);
    QVERIFY(!jobSeries()->value.empty());
    for (double v : jobSeries()->value)
        QVERIFY2(std::abs(v - 0.6) < 1e-6, qPrintable(QString::number(v)));
}

QTEST_MAIN(TestJobsDock)
#include "tst_jobs_dock.moc"
