// The playback clock: range, seeking, rate limits, loop and end of play.
#include "PlaybackClock.h"

#include <QSignalSpy>
#include <QTest>

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
    QTest::newRow("too fast") << 1000.0 << 64.0;
}

void TestPlaybackClock::rateStaysWithinLimits() {
    QFETCH(double, asked);
    QFETCH(double, got);
    PlaybackClock c;
    c.setRate(asked);
    QCOMPARE(c.rate(), got);
    c.setRate(32);
    c.faster();
    c.faster();
    QCOMPARE(c.rate(), 64.0);
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

QTEST_GUILESS_MAIN(TestPlaybackClock)
#include "tst_playback_clock.moc"
