// What crosses a link (RunReader::linkUse): the sources a stored simulated step puts on a link,
// measured from the stored frames, against the bytes the engine routed on it; a link only
// pipeline sends cross lists only PP; the peak and the time above 80 % from the link's frames.
#include "EngineTestSupport.h"
#include "RunReader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

using namespace cs;
using namespace cs::test;

namespace {

struct Stored {
    RunResult result;
    QJsonObject summary;
};

Stored simulateStep(const TopologyDocument& doc, const ParallelConfig& c, const QString& path) {
    RunSpec spec;
    spec.model = "llama3-8b";
    spec.parallel = c;
    spec.steps = 1;
    Stored s{simulateToStore(doc, spec, path), {}};
    s.summary = QJsonDocument::fromJson(
                    QByteArray::fromStdString(RunReader::runsIn(path).back().summaryJson))
                    .object();
    return s;
}

// Bytes the engine routed over link l (both directions) per kind of traffic.
QMap<QString, double> engineBytes(const StepEstimate& e, size_t l) {
    QMap<QString, double> out;
    auto add = [&](const char* kind, const std::vector<std::vector<float>>& perClass) {
        for (const auto& v : perClass)
            if (2 * l + 1 < v.size()) out[kind] += double(v[2 * l]) + v[2 * l + 1];
    };
    add("DP", e.dpLinkBytes);
    add("PP", e.ppLinkBytes);
    add("TP", e.tpLinkBytes);
    add("CP", e.cpLinkBytes);
    add("EP", e.epLinkBytes);
    for (auto it = out.begin(); it != out.end();)
        it = it.value() > 0 ? std::next(it) : out.erase(it);
    return out;
}

QMap<QString, double> readBytes(const LinkUse& use, const QJsonObject& summary) {
    QMap<QString, double> out;
    const QJsonArray names = summary.value("trafficSources").toArray();
    for (const LinkSourceUse& s : use.sources)
        out[names.at(s.source).toObject().value("kind").toString()] += s.bytes;
    return out;
}

} // namespace

class TestLinkUse : public QObject {
    Q_OBJECT
private slots:
    void eachSourceOnALinkIsWhatTheEngineRouted();
    void aLinkOnlyPipelineSendsCrossListsOnlyPp();
    void hottestLinksComeFirst();
};

void TestLinkUse::eachSourceOnALinkIsWhatTheEngineRouted() {
    const auto doc = openTopology("small-256", {});
    QTemporaryDir dir;
    ParallelConfig c = config(8, 1, 4, 8, 8192);
    const Stored run = simulateStep(*doc, c, dir.filePath("run.sqlite"));
    const StepEstimate& e = run.result.step;
    RunReader reader(dir.filePath("run.sqlite"), doc->topology());
    const int64_t midNs = int64_t(e.stepS / 2 * 1e9);
    int checked = 0, mixed = 0;
    for (size_t l = 0; l < doc->topology().links.size(); ++l) {
        const QMap<QString, double> routed = engineBytes(e, l);
        const std::optional<LinkUse> use = reader.linkUse(int32_t(l), midNs);
        QVERIFY(use);
        QCOMPARE(QString::fromStdString(use->pattern), QString("step"));
        const QMap<QString, double> read = readBytes(*use, run.summary);
        QCOMPARE(read.keys(), routed.keys());
        for (const QString& kind : routed.keys())
            QVERIFY2(std::fabs(read[kind] - routed[kind]) <= 0.01 * routed[kind],
                     qPrintable(QStringLiteral("link %1 %2: read %3, routed %4")
                                    .arg(l)
                                    .arg(kind)
                                    .arg(read[kind])
                                    .arg(routed[kind])));
        for (const LinkSourceUse& s : use->sources)
            QVERIFY(s.activeS > 0 && s.activeS <= use->patternS * 1.0001);
        QVERIFY(use->peakBps <= use->capacityBps * 1.0001);
        QVERIFY(use->aboveS >= 0 && use->aboveS <= use->patternS * 1.0001);
        checked += routed.isEmpty() ? 0 : 1;
        mixed += routed.size() > 1 ? 1 : 0;
    }
    QVERIFY(checked > 10);
    QVERIFY(mixed > 0); // some links carry DP and PP at once: each is listed
}

void TestLinkUse::aLinkOnlyPipelineSendsCrossListsOnlyPp() {
    // One replica: no DP; TP stays in hosts; only PP sends reach the fabric.
    const auto doc = openTopology("small-256", {});
    QTemporaryDir dir;
    ParallelConfig c = config(8, 1, 4, 1, 8192);
    c.batchTokens = 8192.0 * 16;
    const Stored run = simulateStep(*doc, c, dir.filePath("pp.sqlite"));
    RunReader reader(dir.filePath("pp.sqlite"), doc->topology());
    const int64_t midNs = int64_t(run.result.step.stepS / 2 * 1e9);
    int crossed = 0;
    for (size_t l = 0; l < doc->topology().links.size(); ++l) {
        const std::optional<LinkUse> use = reader.linkUse(int32_t(l), midNs);
        QVERIFY(use);
        QSet<QString> kinds;
        for (const auto& [kind, bytes] : readBytes(*use, run.summary).toStdMap())
            kinds.insert(kind);
        if (use->sources.empty()) continue;
        ++crossed;
        QCOMPARE(kinds, QSet<QString>{"PP"});
        // The inspector's words: the peak, the time above 80 %, then each send by name.
        const auto lines = linkUseLines(*use, run.summary);
        QVERIFY(lines.size() == 2 + use->sources.size());
        QCOMPARE(QString::fromStdString(lines[0].first), QString("peak (step)"));
        QVERIFY(QString::fromStdString(lines[2].first).startsWith("PP "));
    }
    QVERIFY(crossed > 0);
}

void TestLinkUse::hottestLinksComeFirst() {
    const auto doc = openTopology("small-256", {});
    QTemporaryDir dir;
    const Stored run = simulateStep(*doc, config(8, 1, 4, 8, 8192), dir.filePath("run.sqlite"));
    RunReader reader(dir.filePath("run.sqlite"), doc->topology());
    const int64_t midNs = int64_t(run.result.step.stepS / 2 * 1e9);
    // Every link's peak and time above 80 %, one link at a time, to rank against.
    double hottestPeak = 0, longestAboveS = 0;
    int loaded = 0;
    for (size_t l = 0; l < doc->topology().links.size(); ++l) {
        const LinkUse use = *reader.linkUse(int32_t(l), midNs);
        if (use.peakBps <= 0) continue;
        ++loaded;
        hottestPeak = std::max(hottestPeak, use.peakBps / use.capacityBps);
        longestAboveS = std::max(longestAboveS, use.aboveS);
    }
    const std::vector<LinkHeat> byPeak = reader.hottestLinks(midNs, 10, HotBy::Peak);
    QCOMPARE(int(byPeak.size()), std::min(10, loaded));
    QVERIFY(std::fabs(byPeak.front().peakFraction - hottestPeak) < 1e-6);
    for (size_t i = 1; i < byPeak.size(); ++i)
        QVERIFY(byPeak[i - 1].peakFraction >= byPeak[i].peakFraction);
    const std::vector<LinkHeat> byTime = reader.hottestLinks(midNs, 10, HotBy::TimeAbove);
    QVERIFY(std::fabs(byTime.front().aboveS - longestAboveS) < 1e-9);
    for (size_t i = 1; i < byTime.size(); ++i)
        QVERIFY(byTime[i - 1].aboveS >= byTime[i].aboveS);
    // The list's figures are the link's own.
    const LinkUse top = *reader.linkUse(byPeak.front().link, midNs);
    QVERIFY(std::fabs(top.aboveS - byPeak.front().aboveS) < 1e-9);
}

QTEST_GUILESS_MAIN(TestLinkUse)
#include "tst_link_use.moc"
