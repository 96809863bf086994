// The Collectives dock as a user meets it: Run draws the open design's bus bandwidth against
// size; File > Import nccl-tests Log takes a real log's op and group, draws its points over the
// curve and says how far off the simulation is; with a comparison open, design B's curve
// beside A's.
#include "CollectiveChart.h"
#include "CollectivesDock.h"
#include "MainWindow.h"

#include <QDockWidget>
#include <QLabel>
#include <QTemporaryFile>
#include <QTest>
#include <qcustomplot.h>

using namespace cs;
using cs::app::MainWindow;

class TestCollectivesDock : public QObject {
    Q_OBJECT
private slots:
    void runDrawsTheDesignsCurve();
    void aMeasuredLogIsDrawnOverTheSimulation();
    void aBadLogIsRefusedByItsFileAndLine();
};

namespace {

const QString kLog =
    CS_SOURCE_DIR "/tests/fixtures/real/nccl-tests/vpbench-4x8xH100-ib-all_reduce.txt";

QString statusText(MainWindow& w) {
    return w.findChild<QLabel*>("collectiveStatus")->text();
}

} // namespace

void TestCollectivesDock::runDrawsTheDesignsCurve() {
    MainWindow w;
    w.show();
    QVERIFY(w.openSource("preset:meta-ib-24k", false));
    app::CollectivesDock* dock = w.collectives();
    dock->setOp(BenchOp::AllReduce);
    dock->setGroup(32, 8, false);
    QVERIFY(dock->run());
    views::CollectiveChart* chart = dock->chart();
    QCOMPARE(chart->plot()->graphCount(), 1);
    QCOMPARE(chart->plot()->graph(0)->name(), QString("meta-ib-24k"));
    // 1K to 16G, doubling: 25 sizes, the bus bandwidth rising with the size.
    QCOMPARE(chart->plot()->graph(0)->dataCount(), 25);
    const auto& c = chart->curves().front();
    QVERIFY(c.busbwGBs.back() > 10 * c.busbwGBs.front());
    QVERIFY(chart->title().contains("all_reduce on 32 GPUs (4 hosts)"));
    QVERIFY(statusText(w).contains("GB/s per rail's NIC"));
    QVERIFY(statusText(w).contains("average bus bandwidth"));
    // The dock is one of the docks a user brings to the front by name.
    QVERIFY(w.findChild<QDockWidget*>("collectivesDock"));
}

void TestCollectivesDock::aMeasuredLogIsDrawnOverTheSimulation() {
    MainWindow w;
    w.resize(1600, 900);
    w.show();
    QVERIFY(w.openSource("preset:meta-ib-24k", false));
    QVERIFY(w.importNcclTestsLog(kLog));
    views::CollectiveChart* chart = w.collectives()->chart();
    QCOMPARE(chart->plot()->graphCount(), 2);
    const auto& measured = chart->curves().back();
    QVERIFY(measured.measured);
    QCOMPARE(measured.bytes.size(), size_t(31)); // the log's sizes, 8 B to 8 GiB
    QCOMPARE(measured.busbwGBs.back(), 330.93);
    // The group is the log's: 32 ranks on 4 hosts.
    QVERIFY(chart->title().contains("on 32 GPUs (4 hosts)"));
    const QString status = statusText(w);
    QVERIFY2(status.contains("from 1M up, 14 sizes"), qPrintable(status));
    // What the user reads: mean and largest error, in percent.
    QVERIFY(status.contains("on average") && status.contains("at most"));
    if (qEnvironmentVariableIsSet("CS_SCREENSHOT_DIR")) {
        auto* dock = w.findChild<QDockWidget*>("collectivesDock");
        dock->grab().save(qEnvironmentVariable("CS_SCREENSHOT_DIR") + "/collectives-dock.png");
        w.grab().save(qEnvironmentVariable("CS_SCREENSHOT_DIR") + "/collectives-window.png");
    }
}

void TestCollectivesDock::aBadLogIsRefusedByItsFileAndLine() {
    QTemporaryFile f;
    QVERIFY(f.open());
    f.write(
        "#       size         count      type   redop    root     time   algbw   busbw  #wrong\n"
        "     1048576        262144     float     sum      -1    92.47   11.34    oops       0\n");
    f.close();
    MainWindow w;
    QVERIFY(w.openSource("preset:meta-ib-24k", false));
    QVERIFY(!w.importNcclTestsLog(f.fileName()));
    const QString status = statusText(w);
    QVERIFY2(status.contains(f.fileName() + ":2") && status.contains("busbw"), qPrintable(status));
}

QTEST_MAIN(TestCollectivesDock)
#include "tst_collectives_dock.moc"
