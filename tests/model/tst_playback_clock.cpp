// The playback clock: range, seeking, rate limits, loop and end of play.
#include "PlaybackClock.h"

#include <QSignalSpy>
#include <QTest>

#include <limits>

using cs::PlaybackClock;

class TestPlaybackClock : public QObject {
    Q_OBJECT
private slots:
    void seekClampsToTheRange();
    void rateStaysWithinLimits_data();
    void rateStaysWithinLimits();
    void playingAdvancesAtTheRate();
    void stopsAtTheEndOrLoops();
    void runsOnItsTimer();
    void extremeRangesDoNotOverflow_data();
    void extremeRangesDoNotOverflow();
};

void TestPlaybackClock::seekClampsToTheRange() {
    PlaybackClock c;
    QSignalSpy now(&c, &PlaybackClock::nowChanged);
    c.setRange(100, 1000);
    QCOMPARE(c.nowNs(), 100);
    c.seek(5000);
    QCOMPARE(c.nowNs(), 1000);
    c.seek(-5);
    QCOMPARE(c.nowNs(), 100);
    c.step(250);
    QCOMPARE(c.nowNs(), 350);
    QCOMPARE(now.size(), 4);
}

void TestPlaybackClock::rateStaysWithinLimits_data() {
    QTest::addColumn<double>("asked");
    QTest::addColumn<double>("got");
    QTest::newRow("quarter") << 0.25 << 0.25;
    QTest::newRow("too slow") << 0.01 << 0.25;
    QTest::newRow("normal") << 1.0 << 1.0;
    QTest::newRow("ten thousand") << 10000.0 << 10000.0;
    QTest::newRow("too fast") << 1e6 << 16384.0;
}

void TestPlaybackClock::rateStaysWithinLimits() {
    QFETCH(double, asked);
    QFETCH(double, got);
    PlaybackClock c;
    c.setRate(asked);
    QCOMPARE(c.rate(), got);
    c.setRate(8192);
    c.faster();
    c.faster();
    QCOMPARE(c.rate(), 16384.0);
}

void TestPlaybackClock::playingAdvancesAtTheRate() {
    PlaybackClock c;
    c.setRange(0, 10'000'000'000);
    c.setRate(4);
    c.advance(1'000'000'000); // paused: nothing happens
    QCOMPARE(c.nowNs(), 0);
    c.play();
    c.advance(1'000'000'000);
    QCOMPARE(c.nowNs(), 4'000'000'000);
    c.slower();
    c.advance(1'000'000'000);
    QCOMPARE(c.nowNs(), 6'000'000'000);
}

void TestPlaybackClock::stopsAtTheEndOrLoops() {
    PlaybackClock c;
    c.setRange(0, 1000);
    c.play();
    c.advance(1500);
    QCOMPARE(c.nowNs(), 1000);
    QVERIFY(!c.playing());
    c.setLoop(true);
    c.play(); // from the end: starts over
    QCOMPARE(c.nowNs(), 0);
    c.advance(1300);
    QCOMPARE(c.nowNs(), 300);
    QVERIFY(c.playing());
}

void TestPlaybackClock::runsOnItsTimer() {
    PlaybackClock c;
    c.setRange(0, 60'000'000'000);
    c.setRate(64);
    c.play();
    QTRY_VERIFY_WITH_TIMEOUT(c.nowNs() > 1'000'000'000, 3000); // 64x: a second of run in ~16 ms
}

void TestPlaybackClock::extremeRangesDoNotOverflow_data() {
    // A hostile store's range, as wide as int64 allows; every move ends inside it.
    constexpr qint64 kMax = std::numeric_limits<qint64>::max(),
                     kMin = std::numeric_limits<qint64>::min();
    QTest::addColumn<qint64>("start");
    QTest::addColumn<qint64>("end");
    QTest::addColumn<bool>("loop");
    QTest::newRow("0 to int64 max") << qint64(0) << kMax << false;
    QTest::newRow("0 to int64 max, looping") << qint64(0) << kMax << true;
    QTest::newRow("int64 min to max") << kMin << kMax << false;
    QTest::newRow("int64 min to max, looping") << kMin << kMax << true;
    QTest::newRow("near the top") << kMax - 1000 << kMax << true;
}

void TestPlaybackClock::extremeRangesDoNotOverflow() {
    QFETCH(qint64, start);
    QFETCH(qint64, end);
    QFETCH(bool, loop);
    PlaybackClock c;
    c.setRange(start, end);
    c.setLoop(loop);
    c.seek(end);
    c.step(std::numeric_limits<int64_t>::max()); // past the end: stays at it
    QCOMPARE(c.nowNs(), end);
    c.step(std::numeric_limits<int64_t>::min()); // twice: before any start, stays at it
    c.step(std::numeric_limits<int64_t>::min());
    QCOMPARE(c.nowNs(), start);
    c.seek(end - 1);
    c.setRate(64);
    c.play();
    c.advance(std::numeric_limits<int64_t>::max()); // 64 x the longest wall time
    QVERIFY(c.nowNs() >= start && c.nowNs() <= end);
    QCOMPARE(c.playing(), loop);
    if (!loop) QCOMPARE(c.nowNs(), end);
}

QTEST_GUILESS_MAIN(TestPlaybackClock)
#include "tst_playback_clock.moc"
