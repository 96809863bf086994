// The run store's one door: what RunWriter writes, RunReader hands back — patterns along a
// timeline, key frames and changes, histories and statistics at a point budget, failures
// until the restart — and the files it refuses.
#include "RunReader.h"
#include "RunWriter.h"
#include "TopologyDocument.h"

#include <sqlite3.h>

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>
#include <random>

using namespace cs;

namespace {

constexpr int64_t kMs = 1'000'000;

// GPU g's busy value in frame k of pattern "a": a pattern that changes a few GPUs per frame.
float patternA(size_t g, int k) {
    return (g + size_t(k)) % 7 == 0 ? 1.f : float(k) / 10.f;
}

} // namespace

class TestRunStore : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void patternsRepeatAlongTheTimeline();
    void framesReadBackInAnyOrder();
    void historyIsTheMinAndMaxOfEachBucket();
    void statisticsFollowTheFrames();
    void composedTrafficReadsBack();
    void composedGpuBusyReadsAsItsFrames();
    void schemaTwoFilesStillRead();
    void failedUntilTheRestart();
    void abandonedWriterLeavesTheFileAsItWas();
    void refusesOtherTopologies();
    void refusesForeignOlderAndNewerFiles_data();
    void refusesForeignOlderAndNewerFiles();
    void refusesStoresHoldingCode_data();
    void refusesStoresHoldingCode();
    void refusesFramesOutOfTimeOrder_data();
    void refusesFramesOutOfTimeOrder();

private:
    // Pattern a: 4 frames, 10 ms apart, playing every 40 ms over [0, 400 ms) and
    // [500, 1000 ms); pattern b (one frame, all 0.5) over [400, 500 ms).
    QString writeTwoPatterns();
    std::unique_ptr<TopologyDocument> doc_;
    QTemporaryDir dir_;
};

void TestRunStore::initTestCase() {
    doc_ = openTopology("small-256", {});
}

QString TestRunStore::writeTwoPatterns() {
    static int files = 0;
    const QString path = dir_.filePath(QString("two-%1.sqlite").arg(++files));
    const Topology& t = doc_->topology();
    RunStore store = RunStore::openForWriting(path);
    RunWriter w(store, t, {"simulated", "two patterns", "{}", 0});
    const int32_t a = w.addPattern("a", 40 * kMs), b = w.addPattern("b", 100 * kMs);
    std::vector<float> v(t.gpus.size());
    for (int k = 0; k < 4; ++k) {
        for (size_t g = 0; g < v.size(); ++g)
            v[g] = patternA(g, k);
        w.addFrame(a, Metric::GpuBusy, k * 10 * kMs, v);
    }
    w.addFrame(b, Metric::GpuBusy, 0, std::vector<float>(t.gpus.size(), 0.5f));
    w.addSegment(0, 400 * kMs, a, 40 * kMs);
    w.addSegment(400 * kMs, 500 * kMs, b, 0);
    w.addSegment(500 * kMs, 1000 * kMs, a, 40 * kMs);
    w.finish(1000 * kMs, "{}");
    return path;
}

void TestRunStore::patternsRepeatAlongTheTimeline() {
    RunReader r(writeTwoPatterns(), doc_->topology());
    QCOMPARE(r.info().endNs, 1000 * kMs);
    for (int64_t ms : {0, 9, 10, 35, 41, 399, 400, 450, 499, 500, 515, 999, 1000}) {
        const std::vector<float> f = r.frame(Metric::GpuBusy, ms * kMs);
        QCOMPARE(f.size(), doc_->topology().gpus.size());
        for (size_t g : {size_t(0), size_t(3), size_t(200)}) {
            const bool inB = ms >= 400 && ms < 500;
            const int64_t into = ms >= 500 ? ms - 500 : ms;
            const float want = inB ? 0.5f : patternA(g, int((into % 40) / 10));
            QCOMPARE(f[g], want);
        }
    }
    QVERIFY(std::isnan(r.frame(Metric::GpuBusy, 1001 * kMs)[0])); // after the run: no data
    QVERIFY(r.frame(Metric::LinkBytesPerS, 0).empty());           // a metric it does not hold
}

void TestRunStore::framesReadBackInAnyOrder() {
    const Topology& t = doc_->topology();
    const QString path = dir_.filePath("random.sqlite");
    std::mt19937 rng(7);
    std::vector<std::vector<float>> written;
    long long keys = 0;
    {
        RunStore store = RunStore::openForWriting(path);
        RunWriter w(store, t, {"recorded", "random", "{}", 0});
        const int32_t p = w.addPattern("recording", 600 * kMs);
        std::vector<float> v(t.links.size(), 0.f);
        for (int k = 0; k < 600; ++k) {
            // Mostly a few changes; now and then every value (forcing a key frame).
            const int changes = k % 97 == 0 ? int(v.size()) : int(rng() % 40);
            for (int c = 0; c < changes; ++c)
                v[changes == int(v.size()) ? size_t(c) : rng() % v.size()] =
                    float(rng() % 1000) * 1e6f;
            if (k % 50 == 3) v[5] = NAN;
            w.addFrame(p, Metric::LinkBytesPerS, k * kMs, v);
            written.push_back(v);
        }
        w.addSegment(0, 600 * kMs, p, 0);
        w.finish(600 * kMs, "{}");
        keys = w.counts().keyFrames;
    }
    QVERIFY2(keys > 6 && keys < 60, qPrintable(QString::number(keys))); // keys only when worth it
    RunReader r(path, t);
    std::vector<int> order(600);
    for (int i = 0; i < 600; ++i)
        order[size_t(i)] = i;
    std::shuffle(order.begin(), order.end(), rng);
    order.insert(order.end(), {10, 11, 12, 13, 300, 299, 301}); // forward steps and back
    for (int k : order) {
        const std::vector<float> got = r.frame(Metric::LinkBytesPerS, k * kMs + kMs / 2);
        QCOMPARE(got.size(), written[size_t(k)].size());
        QVERIFY2(std::memcmp(got.data(), written[size_t(k)].data(), got.size() * 4) == 0,
                 qPrintable(QString("frame %1 differs").arg(k)));
    }
}

void TestRunStore::historyIsTheMinAndMaxOfEachBucket() {
    RunReader r(writeTwoPatterns(), doc_->topology());
    for (int points : {40, 200, 2000}) {
        for (auto [from, to] : {std::pair<int64_t, int64_t>{0, 999}, {385, 520}, {12, 17}}) {
            const Series s = r.history(Metric::GpuBusy, 3, from * kMs, to * kMs, points);
            QVERIFY(!s.tsNs.empty());
            QVERIFY(s.tsNs.size() <= size_t(points));
            // Brute force: sample every 0.5 ms of each bucket (frames are 10 ms apart).
            const int buckets = std::max(1, points / 2);
            const double width = std::max(1.0, double((to - from) * kMs + 1) / buckets);
            size_t i = 0;
            for (int b = 0; b < buckets; ++b) {
                const auto b0 = int64_t(double(from * kMs) + b * width);
                const int64_t b1 =
                    b + 1 == buckets ? to * kMs + 1 : int64_t(double(from * kMs) + (b + 1) * width);
                if (b1 <= b0) continue;
                double lo = INFINITY, hi = -INFINITY;
                for (int64_t t = b0; t < b1; t += kMs / 2) {
                    const float v = r.frame(Metric::GpuBusy, t)[3];
                    lo = std::min(lo, double(v));
                    hi = std::max(hi, double(v));
                }
                const float last = r.frame(Metric::GpuBusy, b1 - 1)[3];
                lo = std::min(lo, double(last));
                hi = std::max(hi, double(last));
                QVERIFY(i < s.tsNs.size());
                QCOMPARE(s.tsNs[i], b0);
                QCOMPARE(s.value[i], lo);
                ++i;
                if (hi != lo) {
                    QCOMPARE(s.value[i], hi);
                    ++i;
                }
            }
            QCOMPARE(i, s.tsNs.size());
        }
    }
}

void TestRunStore::statisticsFollowTheFrames() {
    RunReader r(writeTwoPatterns(), doc_->topology());
    // 100 buckets of 10 ms, aligned with the frames: one value each.
    const Series mean = r.statHistory(Metric::GpuBusy, FrameStat::Mean, 0, 1000 * kMs - 1, 200);
    QCOMPARE(mean.tsNs.size(), size_t(100));
    for (size_t i = 0; i < mean.tsNs.size(); ++i) {
        const std::vector<float> f = r.frame(Metric::GpuBusy, mean.tsNs[i]);
        double sum = 0;
        for (float v : f)
            sum += v;
        QCOMPARE(float(mean.value[i]), float(sum / double(f.size())));
    }
}

void TestRunStore::composedTrafficReadsBack() {
    const Topology& t = doc_->topology();
    const QString path = dir_.filePath("composed.sqlite");
    // Two sources over a few links; frames turn them on and off; link 3's second direction
    // is loaded past its capacity when both are on.
    const auto cap3 = float(capacityOf(Metric::LinkBytesPerS, t, 3));
    ComposedTraffic traffic;
    traffic.sources = {TrafficSource{{{6, 1e9f}, {7, 0.7f * cap3}, {20, 5e8f}}},
                       TrafficSource{{{7, 0.6f * cap3}, {40, 2e9f}}}};
    traffic.noData = {0, 1};
    const std::vector<std::vector<float>> weights{{0, 0}, {1, 0}, {1, 1}, {0, 0.5f}};
    {
        RunStore store = RunStore::openForWriting(path);
        RunWriter w(store, t, {"simulated", "composed", "{}", 0});
        const int32_t p = w.addPattern("step", 40 * kMs);
        w.setComposedTraffic(p, Metric::LinkBytesPerS, traffic);
        for (size_t k = 0; k < weights.size(); ++k)
            w.addComposedFrame(p, Metric::LinkBytesPerS, int64_t(k) * 10 * kMs, weights[k]);
        w.addSegment(0, 200 * kMs, p, 40 * kMs);
        w.finish(200 * kMs, "{}");
    }
    RunReader r(path, t);
    for (int64_t ms : {0, 15, 25, 35, 55, 199}) {
        const std::vector<float> f = r.frame(Metric::LinkBytesPerS, ms * kMs);
        const std::vector<float>& w = weights[size_t((ms % 40) / 10)];
        QVERIFY(std::isnan(f[0]) && std::isnan(f[1]));
        QCOMPARE(f[3], std::min(cap3, w[0] * 0.7f * cap3 + w[1] * 0.6f * cap3)); // at most full
        QCOMPARE(f[10], w[0] * 5e8f);
        QCOMPARE(f[20], w[1] * 2e9f);
        QCOMPARE(f[5], 0.f);
    }
    // A link's history is its frames.
    const Series h = r.history(Metric::LinkBytesPerS, 3, 0, 200 * kMs - 1, 400);
    QVERIFY(!h.tsNs.empty());
    for (size_t i = 0; i < h.tsNs.size(); ++i)
        if (i + 1 == h.tsNs.size() || h.tsNs[i + 1] != h.tsNs[i])
            QVERIFY(h.value[i] == r.frame(Metric::LinkBytesPerS, h.tsNs[i])[3] ||
                    (i > 0 && h.tsNs[i - 1] == h.tsNs[i]));
    // Statistics per frame, as for stored frames.
    const Series most = r.statHistory(Metric::LinkBytesPerS, FrameStat::Max, 0, 40 * kMs - 1, 8);
    QCOMPARE(most.value.size(), size_t(4));
    QCOMPARE(most.value[2], double(cap3));
}

// A GPU's busy stored as sources (one per stage, on its GPUs) and weights reads back as the
// same frames, histories and statistics as the frames themselves, GPUs outside the job
// without a value.
void TestRunStore::composedGpuBusyReadsAsItsFrames() {
    const Topology& t = doc_->topology();
    ComposedTraffic stages;
    stages.sources.resize(3);
    std::vector<int> stageOf(t.gpus.size(), -1);
    for (size_t g = 0; g < t.gpus.size(); ++g) {
        if (g % 7 == 6) {
            stages.noData.push_back(uint32_t(g));
            continue;
        }
        stageOf[g] = int(g % 3);
        stages.sources[g % 3].rates.push_back({uint32_t(g), 1.f});
    }
    const std::vector<std::vector<float>> weights{{0, 0.5f, 1}, {1, 0.25f, 0}, {0.75f, 0, 0.5f}};
    auto frameOf = [&](const std::vector<float>& w) {
        std::vector<float> v(t.gpus.size(), NAN);
        for (size_t g = 0; g < v.size(); ++g)
            if (stageOf[g] >= 0) v[g] = w[size_t(stageOf[g])];
        return v;
    };
    const QString composed = dir_.filePath("busy-composed.sqlite"),
                  plain = dir_.filePath("busy-plain.sqlite");
    for (const QString& path : {composed, plain}) {
        RunStore store = RunStore::openForWriting(path);
        RunWriter w(store, t, {"simulated", "busy", "{}", 0});
        const int32_t p = w.addPattern("step", 30 * kMs);
        if (path == composed) w.setComposedTraffic(p, Metric::GpuBusy, stages);
        for (size_t k = 0; k < weights.size(); ++k) {
            if (path == composed)
                w.addComposedFrame(p, Metric::GpuBusy, int64_t(k) * 10 * kMs, weights[k]);
            else
                w.addFrame(p, Metric::GpuBusy, int64_t(k) * 10 * kMs, frameOf(weights[k]));
        }
        w.addSegment(0, 90 * kMs, p, 30 * kMs);
        w.finish(90 * kMs, "{}");
    }
    RunReader a(composed, t), b(plain, t);
    for (int64_t ms : {0, 12, 25, 31, 89}) {
        const std::vector<float> fa = a.frame(Metric::GpuBusy, ms * kMs),
                                 fb = b.frame(Metric::GpuBusy, ms * kMs);
        QCOMPARE(fa.size(), fb.size());
        for (size_t g = 0; g < fa.size(); ++g)
            QVERIFY2(fa[g] == fb[g] || (std::isnan(fa[g]) && std::isnan(fb[g])),
                     qPrintable(QString("GPU %1 at %2 ms").arg(g).arg(ms)));
    }
    for (int32_t g : {0, 1, 2, 6}) {
        const Series ha = a.history(Metric::GpuBusy, g, 0, 90 * kMs - 1, 200),
                     hb = b.history(Metric::GpuBusy, g, 0, 90 * kMs - 1, 200);
        QCOMPARE(ha.tsNs, hb.tsNs);
        QCOMPARE(ha.value.size(), hb.value.size());
        for (size_t i = 0; i < ha.value.size(); ++i)
            QVERIFY(ha.value[i] == hb.value[i] ||
                    (std::isnan(ha.value[i]) && std::isnan(hb.value[i])));
    }
    for (FrameStat stat : {FrameStat::Mean, FrameStat::Max, FrameStat::P95}) {
        const Series sa = a.statHistory(Metric::GpuBusy, stat, 0, 30 * kMs - 1, 8),
                     sb = b.statHistory(Metric::GpuBusy, stat, 0, 30 * kMs - 1, 8);
        QCOMPARE(sa.value, sb.value);
    }
}

// A file of the schema before (2) reads; a writer adding a run to it marks it with this
// build's schema, so that older builds refuse it rather than misread a composed GPU metric.
void TestRunStore::schemaTwoFilesStillRead() {
    const QString path = writeTwoPatterns();
    auto userVersion = [&] {
        sqlite3* db = nullptr;
        sqlite3_open(path.toUtf8().constData(), &db);
        sqlite3_stmt* s = nullptr;
        sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &s, nullptr);
        sqlite3_step(s);
        const int v = sqlite3_column_int(s, 0);
        sqlite3_finalize(s);
        sqlite3_close(db);
        return v;
    };
    QCOMPARE(userVersion(), kRunStoreSchemaVersion);
    {
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "PRAGMA user_version=2;", nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
    }
    {
        RunReader r(path, doc_->topology());
        QCOMPARE(r.frame(Metric::GpuBusy, 450 * kMs)[0], 0.5f);
    }
    QCOMPARE(userVersion(), 2);
    {
        RunStore store = RunStore::openForWriting(path);
        RunWriter w(store, doc_->topology(), {"simulated", "second", "{}", 0});
        const int32_t p = w.addPattern("idle", 10 * kMs);
        w.addFrame(p, Metric::GpuBusy, 0, std::vector<float>(doc_->topology().gpus.size(), 0.f));
        w.addSegment(0, 10 * kMs, p, 0);
        w.finish(10 * kMs, "{}");
    }
    QCOMPARE(userVersion(), kRunStoreSchemaVersion);
    QCOMPARE(RunReader::runsIn(path).size(), size_t(2));
}

void TestRunStore::failedUntilTheRestart() {
    const Topology& t = doc_->topology();
    const QString path = dir_.filePath("failures.sqlite");
    {
        RunStore store = RunStore::openForWriting(path);
        RunWriter w(store, t, {"recorded", "failures", "{}", 0});
        const int32_t p = w.addPattern("idle", 100);
        w.addFrame(p, Metric::GpuBusy, 0, std::vector<float>(t.gpus.size(), 0.f));
        w.addSegment(0, 100, p, 0);
        w.addEvent(10, EventKind::Failure, Endpoint{EntityKind::Gpu, 4}, "XID 79");
        w.addEvent(20, EventKind::Failure, Endpoint{EntityKind::Host, 2}, "host");
        w.addEvent(30, EventKind::Restart, std::nullopt, "");
        w.addEvent(40, EventKind::Failure, Endpoint{EntityKind::Gpu, 9}, "XID 48");
        w.addEvent(45, EventKind::Checkpoint, std::nullopt, "");
        w.finish(100, "{}");
    }
    RunReader r(path, t);
    QCOMPARE(r.events().size(), size_t(5));
    QVERIFY(r.failedAt(5).empty());
    QCOMPARE(r.failedAt(10), (std::vector<Endpoint>{{EntityKind::Gpu, 4}}));
    QCOMPARE(r.failedAt(25), (std::vector<Endpoint>{{EntityKind::Gpu, 4}, {EntityKind::Host, 2}}));
    QVERIFY(r.failedAt(30).empty());
    QCOMPARE(r.failedAt(99), (std::vector<Endpoint>{{EntityKind::Gpu, 9}}));
}

void TestRunStore::abandonedWriterLeavesTheFileAsItWas() {
    const QString path = writeTwoPatterns();
    {
        RunStore store = RunStore::openForWriting(path);
        RunWriter w(store, doc_->topology(), {"simulated", "abandoned", "{}", 0});
        const int32_t p = w.addPattern("x", 10);
        w.addFrame(p, Metric::GpuBusy, 0, std::vector<float>(doc_->topology().gpus.size(), 1.f));
    } // no finish(): rolled back
    RunReader r(path, doc_->topology());
    QCOMPARE(QString::fromStdString(r.info().name), QString("two patterns"));
}

void TestRunStore::refusesOtherTopologies() {
    const QString path = writeTwoPatterns();
    const auto other = openTopology("small-ib-256", {});
    try {
        RunReader r(path, other->topology());
        QFAIL("expected a refusal");
    } catch (const InputException& e) {
        const QString m = e.what();
        QVERIFY2(m.contains(QString::fromStdString(doc_->topology().name)) &&
                     m.contains(QString::fromStdString(other->topology().name)),
                 e.what());
    }
    // Same name and counts, one link slower: still another topology.
    Topology changed = doc_->topology();
    changed.links[17].gbps /= 2;
    QVERIFY_THROWS_EXCEPTION(InputException, RunReader(path, changed));
}

void TestRunStore::refusesForeignOlderAndNewerFiles_data() {
    QTest::addColumn<QString>("sql");
    QTest::addColumn<QString>("expected");
    QTest::newRow("foreign SQLite") << "PRAGMA application_id=7; CREATE TABLE t(x);"
                                    << "foreign";
    QTest::newRow("schema 1") << "PRAGMA user_version=1;"
                              << "re-create it";
    QTest::newRow("schema 99") << "PRAGMA user_version=99;"
                               << "newer";
    QTest::newRow("no runs") << "DELETE FROM runs;"
                             << "holds no runs";
    QTest::newRow("not SQLite") << "garbage"
                                << "not a ClusterScope run store";
}

void TestRunStore::refusesForeignOlderAndNewerFiles() {
    QFETCH(QString, sql);
    QFETCH(QString, expected);
    const QString path = writeTwoPatterns();
    if (sql == "garbage") {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QByteArray(8192, 'x'));
    } else {
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, sql.toUtf8().constData(), nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
    }
    try {
        RunReader r(path, doc_->topology());
        QFAIL("expected a refusal");
    } catch (const InputException& e) {
        QVERIFY2(QString(e.what()).contains(expected), e.what());
        QVERIFY2(QString(e.what()).contains(path), e.what());
    }
}

void TestRunStore::refusesStoresHoldingCode_data() {
    QTest::addColumn<QString>("sql");
    QTest::addColumn<QString>("expected");
    QTest::newRow("trigger on meta deleting the runs")
        << "CREATE TRIGGER wipe BEFORE INSERT ON meta BEGIN DELETE FROM runs; END;"
        << "a trigger `wipe`";
    QTest::newRow("trigger on runs deleting run 1")
        << "CREATE TRIGGER drop1 AFTER INSERT ON runs BEGIN DELETE FROM runs WHERE id = 1; END;"
        << "a trigger `drop1`";
    QTest::newRow("a view in place of events")
        << "DROP TABLE events; CREATE VIEW events AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL "
           "SELECT x + 1 FROM n) SELECT 1 AS run, x AS ts_ns, 'failure' AS kind, 'gpu' AS "
           "entity_kind, 0 AS entity, '' AS detail FROM n;"
        << "a view `events`";
    QTest::newRow("a view in place of runs")
        << "ALTER TABLE runs RENAME TO old_runs; CREATE VIEW runs AS SELECT * FROM old_runs;"
        << "a view `runs`";
}

void TestRunStore::refusesStoresHoldingCode() {
    // Planted code in a store must not run, nor stand in for the data: reading and writing
    // are refused with the name of what was planted, and the runs already there stay.
    QFETCH(QString, sql);
    QFETCH(QString, expected);
    const QString path = writeTwoPatterns();
    auto runsInFile = [&] {
        sqlite3* db = nullptr;
        sqlite3_open(path.toUtf8().constData(), &db);
        sqlite3_stmt* s = nullptr;
        int n = -1;
        if (sqlite3_prepare_v2(db, "SELECT count(*) FROM runs", -1, &s, nullptr) == SQLITE_OK &&
            sqlite3_step(s) == SQLITE_ROW)
            n = sqlite3_column_int(s, 0);
        sqlite3_finalize(s);
        sqlite3_close(db);
        return n;
    };
    {
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, sql.toUtf8().constData(), nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
    }
    QCOMPARE(runsInFile(), 1);
    for (const bool writing : {true, false}) {
        try {
            if (writing) {
                RunStore store = RunStore::openForWriting(path);
                RunWriter w(store, doc_->topology(), {"simulated", "second", "{}", 0});
                const int32_t p = w.addPattern("idle", 10 * kMs);
                w.addFrame(p, Metric::GpuBusy, 0,
                           std::vector<float>(doc_->topology().gpus.size(), 0.f));
                w.addSegment(0, 10 * kMs, p, 0);
                w.finish(10 * kMs, "{}");
            } else {
                RunReader r(path, doc_->topology());
                (void)r.events();
            }
            QFAIL("expected a refusal");
        } catch (const InputException& e) {
            QVERIFY2(QString(e.what()).contains(expected), e.what());
            QVERIFY2(QString(e.what()).contains(path), e.what());
        }
    }
    QCOMPARE(runsInFile(), 1);
}

void TestRunStore::refusesFramesOutOfTimeOrder_data() {
    QTest::addColumn<QString>("sql");
    QTest::addColumn<QString>("expected");
    QTest::newRow("negative offset")
        << "UPDATE frames SET offset_ns = -5 WHERE frame = 0 AND pattern = 0;"
        << "frame 0 of pattern 0 is at -5 ns, before the pattern's";
    QTest::newRow("backward offset")
        << "UPDATE frames SET offset_ns = 1 WHERE frame = 2 AND pattern = 0;"
        << "frame 2 of pattern 0 is at 1 ns, before the frame before it";
}

void TestRunStore::refusesFramesOutOfTimeOrder() {
    // Damaged offsets would read as frames that never show (all zero): refused, saying which.
    QFETCH(QString, sql);
    QFETCH(QString, expected);
    const QString path = writeTwoPatterns();
    {
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, sql.toUtf8().constData(), nullptr, nullptr, nullptr), SQLITE_OK);
        QCOMPARE(sqlite3_changes(db), 1);
        sqlite3_close(db);
    }
    try {
        RunReader r(path, doc_->topology());
        (void)r.frame(Metric::GpuBusy, 15 * kMs);
        QFAIL("expected a refusal");
    } catch (const InputException& e) {
        QVERIFY2(QString(e.what()).contains(expected), e.what());
        QVERIFY2(QString(e.what()).contains(path), e.what());
    }
}

QTEST_GUILESS_MAIN(TestRunStore)
#include "tst_run_store.moc"
