// Two runs compared: the rows from their summaries in the table's units, the difference B - A,
// NaN (null) where a side does not know a figure; and the difference frame of two topologies,
// entity by entity where they name their entities alike, else pod by pod and tier by tier.
#include "FrameDifference.h"
#include "MetricCatalogue.h"
#include "RunComparison.h"
#include "TopologyDocument.h"

#include <QJsonArray>
#include <QTest>
#include <cmath>

using namespace cs;

class TestRunComparison : public QObject {
    Q_OBJECT
private slots:
    void rowsComeFromTheSummaries();
    void unknownFiguresStayUnknown();
    void figuresReadInTheirUnits_data();
    void figuresReadInTheirUnits();
    void sameIdsCompareEntityByEntity();
    void otherTopologiesCompareByPodAndTier();
    void theCaptionSaysWhatDiffers();
};

void TestRunComparison::rowsComeFromTheSummaries() {
    const QJsonObject a{{"stepTimeS", 6.0},
                        {"mfu", 0.4},
                        {"stepTimeDistribution", QJsonObject{{"p99", 6.1}}},
                        {"breakdown", QJsonObject{{"exposedTpS", 0.5}, {"exposedDpS", 0.1}}}};
    const QJsonObject b{{"stepTimeS", 6.6},
                        {"mfu", 0.36},
                        {"breakdown", QJsonObject{{"exposedTpS", 0.5}, {"exposedDpS", 0.7}}}};
    DesignFigures da, db;
    da.switches = 100, db.switches = 80;
    const RunComparison c = compareRuns("A", a, "B", b, da, db);
    const ComparisonRow* step = c.find("stepTimeS");
    QVERIFY(step);
    QCOMPARE(step->a, 6.0);
    QVERIFY(std::fabs(step->delta() - 0.6) < 1e-12);
    QVERIFY(std::fabs(step->relative() - 0.1) < 1e-12);
    QCOMPARE(c.find("mfu")->a, 40.0); // a fraction shown in %
    QVERIFY(!c.find("mfu")->lowerIsBetter);
    QVERIFY(std::fabs(c.find("breakdown.exposedDpS")->delta() - 0.6) < 1e-12);
    QCOMPARE(c.find("design.switches")->delta(), -20.0);
    // The spread of the steps: a row of its own, unknown for a run without it.
    const ComparisonRow* p99 = c.find("stepTimeDistribution.p99");
    QVERIFY(p99);
    QCOMPARE(p99->a, 6.1);
    QVERIFY(std::isnan(p99->b));
    // The JSON holds the same rows.
    const QJsonArray rows = comparisonToJson(c)["rows"].toArray();
    QCOMPARE(rows.size(), qsizetype(c.rows.size()));
    QCOMPARE(rows[0].toObject()["key"].toString(), QString("stepTimeS"));
    QCOMPARE(rows[0].toObject()["b"].toDouble(), 6.6);
    QVERIFY(QString::fromStdString(comparisonToText(c)).contains("Step time"));
    // The difference as the table shows it: signed, with its share of A; none where it rounds
    // to nothing.
    QCOMPARE(QString::fromStdString(formatDelta(*step)), QString("+0.600 s (+10.0 %)"));
    QCOMPARE(QString::fromStdString(formatDelta(*c.find("design.switches"))),
             QString("-20 (-20.0 %)"));
    QCOMPARE(QString::fromStdString(formatDelta(*c.find("breakdown.exposedTpS"))),
             QString("0.000 s"));
    QVERIFY(deltaShown(*step) && !deltaShown(*c.find("breakdown.exposedTpS")));
    // A difference below the rounding, either way: zero, unsigned, not shown as one.
    for (double tiny : {1e-12, -1e-12}) {
        const RunComparison t =
            compareRuns("A", {{"stepTimeS", 6.4}}, "B", {{"stepTimeS", 6.4 + tiny}});
        const ComparisonRow& r = *t.find("stepTimeS");
        QVERIFY(r.delta() != 0);
        QVERIFY(!deltaShown(r));
        QCOMPARE(QString::fromStdString(formatDelta(r)), QString("0.000 s"));
    }
}

void TestRunComparison::unknownFiguresStayUnknown() {
    const RunComparison c = compareRuns("recorded", {}, "simulated", {{"stepTimeS", 2.0}});
    QVERIFY(std::isnan(c.find("stepTimeS")->a));
    QVERIFY(std::isnan(c.find("stepTimeS")->delta()));
    QVERIFY(std::isnan(c.find("design.costPerGpu")->b));
    const QJsonObject row = comparisonToJson(c)["rows"].toArray()[0].toObject();
    QVERIFY(row["a"].isNull() && row["delta"].isNull());
    QCOMPARE(row["b"].toDouble(), 2.0);
}

void TestRunComparison::figuresReadInTheirUnits_data() {
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("unit");
    QTest::addColumn<QString>("text");
    QTest::newRow("seconds") << 6.6312 << "s"
                             << "6.63 s";
    QTest::newRow("short") << 0.0123 << "s"
                           << "0.012 s";
    QTest::newRow("percent") << 41.24 << "%"
                             << "41.2 %";
    QTest::newRow("megawatts") << 24.6e6 << "W"
                               << "24.60 MW";
    QTest::newRow("kilowatts") << -1500.0 << "W"
                               << "-1.5 kW";
    QTest::newRow("dollars") << 41300.4 << "$"
                             << "$41,300";
    QTest::newRow("negative dollars") << -250.0 << "$"
                                      << "-$250";
    QTest::newRow("count") << 1536.0 << ""
                           << "1,536";
    QTest::newRow("unknown") << double(NAN) << "s"
                             << "-";
}

void TestRunComparison::figuresReadInTheirUnits() {
    QFETCH(double, value);
    QFETCH(QString, unit);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(formatFigure(value, unit.toStdString())), text);
}

void TestRunComparison::sameIdsCompareEntityByEntity() {
    const auto doc = openTopology("small-256", {});
    const Topology& t = doc->topology();
    const EntityMatch m = matchEntities(t, t);
    QVERIFY(m.byName);
    for (size_t g = 0; g < t.gpus.size(); ++g)
        QCOMPARE(m.gpu[g], int32_t(g));
    FrameValues a, b;
    a.gpu.assign(t.gpus.size(), 0.5f);
    b.gpu = a.gpu;
    b.gpu[7] = 0.25f;
    a.link.assign(t.links.size(), 0.f);
    b.link = a.link;
    b.link[3] = std::nanf(""); // no data on one side: no difference
    const FrameValues d = frameDifference(t, a, t, b, m);
    QCOMPARE(d.gpu[7], 0.25f);
    QCOMPARE(d.gpu[8], 0.f);
    QVERIFY(std::isnan(d.link[3]));
    QCOMPARE(d.link[4], 0.f);
}

void TestRunComparison::otherTopologiesCompareByPodAndTier() {
    const auto roce = openTopology("small-256", {});
    const auto ib = openTopology("small-ib-256", {});
    const Topology &a = roce->topology(), &b = ib->topology();
    const EntityMatch m = matchEntities(a, b);
    QVERIFY(!m.byName); // other cluster names: other ids
    FrameValues va, vb;
    va.gpu.assign(a.gpus.size(), 0.8f);
    vb.gpu.assign(b.gpus.size(), 0.5f);
    vb.gpu[0] = 0.1f; // one GPU of B's first pod lower: that pod's mean lower
    va.link.assign(a.links.size(), 0.3f);
    vb.link.assign(b.links.size(), 0.3f);
    for (size_t l = 0; l < b.links.size(); ++l)
        if (tierOfLink(b, int32_t(l)) == 1) vb.link[l] = 0.1f; // B's rack uplinks quieter
    const FrameValues d = frameDifference(a, va, b, vb, m);
    const size_t perPod = b.gpus.size() / b.pods.size();
    const float firstPod = 0.8f - (0.5f * float(perPod - 1) + 0.1f) / float(perPod);
    QVERIFY(std::fabs(d.gpu[0] - firstPod) < 1e-5f);
    QVERIFY(std::fabs(d.gpu[a.gpus.size() - 1] - 0.3f) < 1e-5f); // the last pod: 0.8 - 0.5
    for (size_t l = 0; l < a.links.size(); ++l) {
        const int tier = tierOfLink(a, int32_t(l));
        if (tier == 1) QVERIFY(std::fabs(d.link[l] - 0.2f) < 1e-5f);
        if (tier == 0) QVERIFY(std::fabs(d.link[l]) < 1e-5f);
        if (tier < 0) QVERIFY(std::isnan(d.link[l]));
    }
}

QTEST_GUILESS_MAIN(TestRunComparison)
// Under two pictures: step time, cost and power first, then the rest in the table's order,
// only what differs at the table's rounding, at most `most` of them.
void TestRunComparison::theCaptionSaysWhatDiffers() {
    const QJsonObject a{{"stepTimeS", 6.59}, {"mfu", 0.396}, {"checkpointS", 3.2}};
    const QJsonObject b{{"stepTimeS", 6.45}, {"mfu", 0.405}, {"checkpointS", 3.2}};
    DesignFigures da, db;
    da.switches = db.switches = 3643;
    da.costPerGpu = 41267, db.costPerGpu = 41588;
    da.transceivers = 72520, db.transceivers = 81880;
    const RunComparison c = compareRuns("A", a, "B", b, da, db);
    const QString all = QString::fromStdString(differencesCaption(c, 10));
    QVERIFY2(all.startsWith("Step time 6.59 s \u2192 6.45 s (-2.1 %) \u00b7 Cost per GPU "
                            "$41,267 \u2192 $41,588 (+0.8 %)"),
             qPrintable(all));
    QVERIFY(all.contains("MFU 39.6 % \u2192 40.5 %"));
    QVERIFY(all.contains("Optical transceivers 72,520 \u2192 81,880"));
    QVERIFY(!all.contains("Switches") && !all.contains("Checkpoint")); // unchanged
    QCOMPARE(QString::fromStdString(differencesCaption(c, 1)).count("\u2192"), 1);
    QCOMPARE(differencesCaption(compareRuns("A", a, "A", a, da, da)), std::string());
}

#include "tst_run_comparison.moc"
