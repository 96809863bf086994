// Durations for reading (formatElapsed): milliseconds kept under an hour, then hours, minutes
// and seconds; and formatDuration's text read back exactly by parseDurationNs.
#include "Duration.h"

#include <QtTest>

using namespace cs;

class TestDuration : public QObject {
    Q_OBJECT
private slots:
    void elapsedReadsAsPeopleWriteIt_data();
    void elapsedReadsAsPeopleWriteIt();
    void formattedDurationsParseBack_data();
    void formattedDurationsParseBack();
};

void TestDuration::elapsedReadsAsPeopleWriteIt_data() {
    QTest::addColumn<qint64>("ns");
    QTest::addColumn<QString>("text");
    QTest::newRow("zero") << qint64(0) << "0.000 s";
    QTest::newRow("a step, to the ms") << qint64(18'666'996'510) << "18.667 s";
    QTest::newRow("rounds up at half a ms") << qint64(1'999'500'000) << "2.000 s";
    QTest::newRow("minutes") << qint64(125'250'000'000) << "2m 05.250s";
    QTest::newRow("hours") << qint64(3725LL * 1'000'000'000) << "1h 02m 05s";
    QTest::newRow("days") << qint64((2 * 86400LL + 3 * 3600 + 4 * 60) * 1'000'000'000)
                          << "2d 03h 04m";
    QTest::newRow("negative") << qint64(-1'500'000'000) << "-1.500 s";
}

void TestDuration::elapsedReadsAsPeopleWriteIt() {
    QFETCH(qint64, ns);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(formatElapsed(ns)), text);
}

void TestDuration::formattedDurationsParseBack_data() {
    QTest::addColumn<qint64>("ns");
    for (qint64 ns : {qint64(0), qint64(1), qint64(100'000'000), qint64(19'884'948'078),
                      qint64(5400LL * 1'000'000'000), qint64(54LL * 86400 * 1'000'000'000)})
        QTest::newRow(qPrintable(QString::number(ns))) << ns;
}

void TestDuration::formattedDurationsParseBack() {
    QFETCH(qint64, ns);
    QCOMPARE(parseDurationNs(formatDuration(ns)), std::optional<int64_t>(ns));
}

QTEST_GUILESS_MAIN(TestDuration)
#include "tst_duration.moc"
