// nccl-tests' output as operators have it: real logs of four clusters, with MPI and srun
// prefixes, older column layouts, and what is refused with its file and line.
#include "InputError.h"
#include "NcclTestsLog.h"

#include <QTest>

#include <cmath>

using namespace cs;

class TestNcclTestsLog : public QObject {
    Q_OBJECT
private slots:
    void readsRealLogs_data();
    void readsRealLogs();
    void launcherPrefixesAreRemoved_data();
    void launcherPrefixesAreRemoved();
    void olderLayoutsReadByTheirHeader();
    void theOpComesFromTheTableWhenNotPrinted();
    void badLogsAreRefusedWithTheirLine_data();
    void badLogsAreRefusedWithTheirLine();
};

namespace {
const std::string kDir = CS_SOURCE_DIR "/tests/fixtures/real/nccl-tests/";

const char* kTable =
    "# nccl-tests version 2.17.9 nccl-headers=22403 nccl-library=22403\n"
    "# Collective test starting: all_reduce_perf\n"
    "#  Rank  0 Group  0 Pid 1 on     hostA device  0 [0000:19:00] NVIDIA H100 80GB HBM3\n"
    "#  Rank  1 Group  0 Pid 2 on     hostB device  0 [0000:19:00] NVIDIA H100 80GB HBM3\n"
    "#       size         count      type   redop    root     time   algbw   busbw  #wrong     "
    "time   algbw   busbw  #wrong\n"
    "     1048576        262144     float     sum      -1    92.47   11.34   21.97       0    "
    "92.01   11.40   22.08       0\n"
    "     2097152        524288     float     sum      -1   154.66   13.56   26.27       0   "
    "136.55   15.36   29.76       0\n"
    "# Avg bus bandwidth    : 24.12\n";
} // namespace

void TestNcclTestsLog::readsRealLogs_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("op");
    QTest::addColumn<int>("ranks");
    QTest::addColumn<int>("hosts");
    QTest::addColumn<int>("rows");
    QTest::addColumn<double>("lastBusbw");
    QTest::newRow("4 x 8 H100, all_reduce") << "vpbench-4x8xH100-ib-all_reduce.txt"
                                            << "all_reduce" << 32 << 4 << 31 << 330.93;
    QTest::newRow("4 x 8 H100, all_gather") << "vpbench-4x8xH100-ib-all_gather.txt"
                                            << "all_gather" << 32 << 4 << 31 << 323.53;
    QTest::newRow("8 x 8 H100, no header line") << "issue309-8x8xH100-ib-all_reduce.txt"
                                                << "all_reduce" << 64 << 8 << 14 << 320.70;
    QTest::newRow("2 x 8 H200, RoCE") << "dell-2x8xH200-roce-all_reduce.txt"
                                      << "all_reduce" << 16 << 2 << 25 << 485.66;
}

void TestNcclTestsLog::readsRealLogs() {
    QFETCH(QString, file);
    QFETCH(QString, op);
    QFETCH(int, ranks);
    QFETCH(int, hosts);
    QFETCH(int, rows);
    QFETCH(double, lastBusbw);
    const NcclTestsLog log = readNcclTestsLog(kDir + file.toStdString());
    QCOMPARE(QString::fromStdString(log.op), op);
    QCOMPARE(log.ranks, ranks);
    QCOMPARE(int(log.hosts.size()), hosts);
    QCOMPARE(log.gpusPerHost(), ranks / hosts);
    QCOMPARE(int(log.rows.size()), rows);
    QCOMPARE(log.rows.back().busbwGBs, lastBusbw);
    QVERIFY(QString::fromStdString(log.gpu).contains("H"));
    // Each row's algbw is its size over its time, as nccl-tests computes it.
    for (const NcclTestsRow& r : log.rows)
        if (r.timeUs > 100)
            QVERIFY2(std::fabs(r.bytes / r.timeUs / 1e3 - r.algbwGBs) < 0.01 * r.algbwGBs + 0.01,
                     qPrintable(QString::number(r.bytes)));
}

void TestNcclTestsLog::launcherPrefixesAreRemoved_data() {
    QTest::addColumn<QString>("prefix");
    QTest::newRow("Open MPI --tag-output") << "[1,0]<stdout>:";
    QTest::newRow("srun -l") << "0: ";
    QTest::newRow("pdsh") << "node-17: ";
    QTest::newRow("none") << "";
}

void TestNcclTestsLog::launcherPrefixesAreRemoved() {
    QFETCH(QString, prefix);
    std::string text;
    for (const QString& line : QString(kTable).split('\n', Qt::SkipEmptyParts))
        text += prefix.toStdString() + line.toStdString() + "\n";
    const NcclTestsLog log = parseNcclTestsLog(text, "prefixed.txt");
    QCOMPARE(log.op, std::string("all_reduce"));
    QCOMPARE(log.ranks, 2);
    QCOMPARE(int(log.rows.size()), 2);
    QCOMPARE(log.rows[1].busbwGBs, 26.27);
    QCOMPARE(log.rows[1].inPlaceBusbwGBs, 29.76);
    QCOMPARE(log.avgBusbwGBs, 24.12);
}

void TestNcclTestsLog::olderLayoutsReadByTheirHeader() {
    // Before `root` and `#wrong`: the columns are found by the header's names.
    const std::string text =
        "#       size         count    type   redop     time   algbw   busbw  error     time   "
        "algbw   busbw  error\n"
        "           8             2   float     sum    36.75    0.00    0.00  0e+00    36.09    "
        "0.00    0.00  0e+00\n"
        "     1048576        262144   float     sum   100.00   10.49   19.66  0e+00   101.00   "
        "10.38   19.46  0e+00\n";
    const NcclTestsLog log = parseNcclTestsLog(text, "old.txt");
    QCOMPARE(int(log.rows.size()), 2);
    QCOMPARE(log.rows[1].timeUs, 100.0);
    QCOMPARE(log.rows[1].busbwGBs, 19.66);
    QCOMPARE(log.rows[1].inPlaceTimeUs, 101.0);
}

void TestNcclTestsLog::theOpComesFromTheTableWhenNotPrinted() {
    // No "Collective test starting" and no command line: a reduction without a root over the
    // whole buffer is an all-reduce; with a root, a reduce; no reduction with a root, a
    // broadcast.
    auto opOf = [](const char* redop, const char* root, const char* count) {
        const std::string text =
            std::string("#  Rank  0 Group  0 Pid 1 on a device 0 [0] GPU\n"
                        "#  Rank  1 Group  0 Pid 2 on b device 0 [0] GPU\n"
                        "#       size         count      type   redop    root     time   algbw   "
                        "busbw  #wrong\n     1048576 ") +
            count + " float " + redop + " " + root + " 92.47 11.34 21.97 0\n";
        return parseNcclTestsLog(text, "t.txt").op;
    };
    QCOMPARE(opOf("sum", "-1", "262144"), std::string("all_reduce"));
    QCOMPARE(opOf("sum", "-1", "131072"), std::string("reduce_scatter"));
    QCOMPARE(opOf("sum", "0", "262144"), std::string("reduce"));
    QCOMPARE(opOf("none", "0", "262144"), std::string("broadcast"));
    QCOMPARE(opOf("none", "-1", "131072"), std::string()); // all-gather or all-to-all: unsaid
}

void TestNcclTestsLog::badLogsAreRefusedWithTheirLine_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("says");
    QTest::newRow("no table") << "hello\nworld\n" << 0 << "expected nccl-tests output";
    QTest::newRow("a word for a number")
        << "#  size count type redop root time algbw busbw #wrong\n"
           "1048576 262144 float sum -1 92.47 11.34 fast 0\n"
        << 2 << "busbw";
    QTest::newRow("too few columns")
        << "#  size count type redop root time algbw busbw #wrong\n1048576 262144 float sum\n"
        << 2 << "expected a row of 9 columns";
    QTest::newRow("a negative time") << "#  size count type redop root time algbw busbw #wrong\n"
                                        "1048576 262144 float sum -1 -92.47 11.34 21.97 0\n"
                                     << 2 << "time";
    // Found by fuzz_nccl_tests_log: the first algbw misspelt, so the header's algbw is the
    // in-place one, past the end of an out-of-place-only row.
    QTest::newRow("a column past a short row")
        << "#  size count type redop root time alwgb busbw #wrong time algbw busbw #wrong\n"
           "1048576 262144 float sum -1 92.47 11.34 21.97 0\n"
        << 2 << "algbw in GB/s in column 11, as the header names it";
    QTest::newRow("header without rows")
        << "#  size count type redop root time algbw busbw #wrong\n# Avg bus bandwidth : 0\n"
        << 0 << "no rows";
}

void TestNcclTestsLog::badLogsAreRefusedWithTheirLine() {
    QFETCH(QString, text);
    QFETCH(int, line);
    QFETCH(QString, says);
    try {
        (void)parseNcclTestsLog(text.toStdString(), "bad.txt");
        QFAIL("accepted");
    } catch (const InputException& e) {
        QCOMPARE(e.error().file, std::string("bad.txt"));
        QCOMPARE(e.error().line, line);
        QVERIFY2(QString(e.what()).contains(says), e.what());
    }
}

QTEST_GUILESS_MAIN(TestNcclTestsLog)
#include "tst_nccl_tests_log.moc"
