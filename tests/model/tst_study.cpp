// Design studies (model/study): the study file read through the design and run tables with
// errors located, the variants enumerated, a variant's figures equal to simulating and
// counting it directly, the result file resuming and merging, and the Pareto front against
// a brute-force check.
#include "BillOfMaterials.h"
#include "BomReport.h"
#include "ParetoFront.h"
#include "SimulationRun.h"
#include "SitePower.h"
#include "StudySpec.h"
#include "StudyStore.h"
#include "StudyVariantRun.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace cs;

namespace {

// A small job on small-256: llama3-8b, TP 8 x DP 32, one step.
QByteArray study(const QByteArray& members) {
    return R"({"format": "clusterscope-study", "version": 1,
  "topology": {"preset": "small-256"},
  "run": {"model": "llama3-8b", "parallel": {"tp": 8, "pp": 1, "virtualStages": 1, "dp": 32,
                       "batchTokens": 2097152},
          "steps": 1})" +
           (members.isEmpty() ? QByteArray() : ",\n  " + members) + "}";
}

StudySpec parse(const QByteArray& members) {
    return parseStudy(study(members), "study.json");
}

} // namespace

class TestStudy : public QObject {
    Q_OBJECT
private slots:
    void enumeratesAxesThenVariants();
    void refusesWithThePlace_data();
    void refusesWithThePlace();
    void variantFiguresAreTheSimulationsAndTheBom();
    void variantTheEngineRefusesThrows();
    void transportFieldsAreAxes();
    void aPowerLimitSlowsTheStepAndLowersThePower();
    void figureRootsAreTheOutputsKeys();
    void storeResumesAndMerges();
    void storeRefusesAnotherStudy();
    void paretoFrontMatchesBruteForce();
    void topologyFilesAreBesideTheStudy();
    void readmeExampleIsAStudy();
};

void TestStudy::enumeratesAxesThenVariants() {
    const StudySpec s = parse(R"("axes": {"run.parallel.placement": ["topology", "fragmented"],
    "design.generator.clusters[0].oversubscription": [1, 2, 4]},
  "variants": [{"run.parallel.placement": "fragmented",
                "design.generator.clusters[0].oversubscription": 2},
               {"topology": "small-ib-256"}])");
    QCOMPARE(s.axes.size(), size_t(2));
    // Axes in name order: design.* before run.*; the last varies fastest.
    QCOMPARE(QString::fromStdString(s.axes[0].name),
             QString("design.generator.clusters[0].oversubscription"));
    const std::vector<QJsonObject> v = studyVariants(s);
    QCOMPARE(v.size(), size_t(2 * 3 + 1)); // the first explicit variant is a combination
    QCOMPARE(v[0].value("design.generator.clusters[0].oversubscription").toInt(), 1);
    QCOMPARE(v[0].value("run.parallel.placement").toString(), QString("topology"));
    QCOMPARE(v[1].value("run.parallel.placement").toString(), QString("fragmented"));
    QCOMPARE(v[2].value("design.generator.clusters[0].oversubscription").toInt(), 2);
    QCOMPARE(v[6], (QJsonObject{{"topology", "small-ib-256"}}));
    std::set<QByteArray> distinct;
    for (const QJsonObject& o : v)
        distinct.insert(QJsonDocument(o).toJson());
    QCOMPARE(distinct.size(), v.size());
    // No axes: the study's own design and run, once.
    QCOMPARE(studyVariants(parse("")).size(), size_t(1));
    QCOMPARE(parse("").record, defaultStudyFigures());
}

void TestStudy::refusesWithThePlace_data() {
    QTest::addColumn<QByteArray>("members");
    QTest::addColumn<QString>("expected"); // in the message
    QTest::newRow("axis kind") << QByteArray(R"("axes": {"placement": ["topology"]})")
                               << "axes.placement: expected \"topology\", \"design.FIELD\"";
    QTest::newRow("design field") << QByteArray(
                                         R"("axes": {"design.generator.clusters[0].oversub": [1]})")
                                  << "no design field \"generator.clusters[0].oversub\"";
    QTest::newRow("design value")
        << QByteArray(R"("axes": {"design.generator.clusters[0].oversubscription": [1, "x"]})")
        << "oversubscription[1]: expected a number";
    QTest::newRow("transport value")
        << QByteArray(R"("axes": {"design.generator.clusters[0].loadBalancing": ["ecmp", "hash"]})")
        << "loadBalancing[1]: expected";
    QTest::newRow("run option") << QByteArray(R"("axes": {"run.parallel.zero": [1]})")
                                << "no run option \"parallel.zero\"";
    QTest::newRow("run value") << QByteArray(R"("axes": {"run.parallel.placement": ["best"]})")
                               << "run.parallel.placement[0]: expected";
    QTest::newRow("repeated value") << QByteArray(R"("axes": {"run.parallel.tp": [8, 8]})")
                                    << "tp[1]: a value the axis already has";
    QTest::newRow("topology value") << QByteArray(R"("axes": {"topology": ["meta-roce-25k"]})")
                                    << "axes.topology[0]: expected a preset";
    QTest::newRow("figure") << QByteArray(R"("record": ["stepTime"])")
                            << "record[0]: no figure \"stepTime\"";
    QTest::newRow("days without budget")
        << QByteArray(R"("record": ["daysToTrain"])") << "needs a \"tokenBudget\"";
    QTest::newRow("variant axis") << QByteArray(R"("variants": [{"run.seed": "x"}])")
                                  << "variants[0].run.seed: expected";
    QTest::newRow("design") << QByteArray(R"("design": {"generator.clusters[0].pods": 0})")
                            << "design.generator.clusters[0].pods: expected an integer";
    QTest::newRow("run") << QByteArray(R"("keepRuns": 1)") << "keepRuns: expected true or false";
    QTest::newRow("unknown member") << QByteArray(R"("axis": {})") << "axis";
    QTest::newRow("empty axis") << QByteArray(R"("axes": {"run.seed": []})")
                                << "axes.run.seed: expected at least one value";
}

void TestStudy::refusesWithThePlace() {
    QFETCH(QByteArray, members);
    QFETCH(QString, expected);
    try {
        parse(members);
        QFAIL("accepted");
    } catch (const InputException& e) {
        const QString what = QString::fromStdString(e.what());
        QVERIFY2(what.contains(expected), qPrintable(what));
        QVERIFY2(e.error().line > 0, qPrintable(what)); // located in the file
        QCOMPARE(QString::fromStdString(e.error().file), QString("study.json"));
    }
}

void TestStudy::variantFiguresAreTheSimulationsAndTheBom() {
    const StudySpec s = parse(R"("axes": {"design.generator.clusters[0].oversubscription": [1, 4]},
  "record": ["stepTimeS", "mfu", "breakdown.exposedDpS", "switches.total", "cost.perGpu", "meanPowerW"])");
    const std::vector<QJsonObject> v = studyVariants(s);
    for (int i = 0; i < 2; ++i) {
        const VariantFigures f = runStudyVariant(s, v[size_t(i)]);
        // The same design and run, directly.
        TopologyReadOptions o;
        o.sets = {"generator.clusters[0].oversubscription=" + std::to_string(i == 0 ? 1 : 4)};
        const auto doc = openTopology("small-256", {}, o);
        const QJsonObject summary = runSummaryJson(simulateRun(*doc, s.run, nullptr), s.run);
        const QJsonObject bom =
            bomToJson(billOfMaterials(doc->topology(), doc->index(), shippedPrices()));
        QCOMPARE(f.figures.value("stepTimeS").toDouble(), summary.value("stepTimeS").toDouble());
        QCOMPARE(f.figures.value("mfu").toDouble(), summary.value("mfu").toDouble());
        QCOMPARE(f.figures.value("breakdown.exposedDpS").toDouble(),
                 summary.value("breakdown").toObject().value("exposedDpS").toDouble());
        QCOMPARE(f.figures.value("switches.total").toDouble(),
                 bom.value("switches").toObject().value("total").toDouble());
        QCOMPARE(f.figures.value("cost.perGpu").toDouble(),
                 bom.value("cost").toObject().value("perGpu").toDouble());
        // Between every GPU idle and every GPU at its limit.
        const double w = f.figures.value("meanPowerW").toDouble();
        const QJsonObject power = bom.value("powerW").toObject();
        QVERIFY(w > power.value("idle").toDouble() && w < power.value("total").toDouble());
        QVERIFY(f.runPath.isEmpty());
    }
    // 1:4 has fewer pod uplinks than 1:1, so costs less: the design axis reached the generator.
    QVERIFY(runStudyVariant(s, v[0]).figures.value("cost.perGpu").toDouble() >
            runStudyVariant(s, v[1]).figures.value("cost.perGpu").toDouble());
}

// The GPUs' power limit is a run option like any other: at 500 W the step is longer, and the
// site's mean power has the job's GPUs drawing the limit for their busy share of the step (one
// stage: its compute over the step), every other GPU idle.
void TestStudy::aPowerLimitSlowsTheStepAndLowersThePower() {
    const StudySpec s = parse(R"("axes": {"run.gpuPowerLimitW": [0, 500]},
  "record": ["stepTimeS", "meanPowerW", "breakdown.computeS"])");
    const std::vector<QJsonObject> v = studyVariants(s);
    QCOMPARE(v.size(), size_t(2));
    const auto doc = openTopology("small-256", {});
    const SitePowerModel site = *sitePowerModel(doc->topology());
    double stepS[2] = {0, 0};
    for (int i = 0; i < 2; ++i) {
        const QJsonObject f = runStudyVariant(s, v[size_t(i)]).figures;
        stepS[i] = f.value("stepTimeS").toDouble();
        const double busy = std::min(1.0, f.value("breakdown.computeS").toDouble() / stepS[i]);
        const double expectedW = site.withGpuLimit(i == 0 ? 0 : 500).powerW(256 * busy);
        qInfo("step %.3f s, busy %.3f, mean %.0f W", stepS[i], busy,
              f.value("meanPowerW").toDouble());
        QVERIFY(std::fabs(f.value("meanPowerW").toDouble() / expectedW - 1) < 1e-9);
    }
    QVERIFY(stepS[1] > stepS[0]);
}

// The transport's design fields are axes like any other: with the TP groups spread over
// hosts, RoCE's ECMP collisions give a longer step than adaptive routing on the same fabric.
void TestStudy::transportFieldsAreAxes() {
    const StudySpec s =
        parse(R"("axes": {"design.generator.clusters[0].loadBalancing": ["ecmp", "adaptive"],
                   "run.parallel.placement": ["dp-innermost"]})");
    const std::vector<QJsonObject> v = studyVariants(s);
    QCOMPARE(v.size(), size_t(2));
    QCOMPARE(v[0].value("design.generator.clusters[0].loadBalancing").toString(), QString("ecmp"));
    const double ecmp = runStudyVariant(s, v[0]).figures.value("stepTimeS").toDouble();
    const double adaptive = runStudyVariant(s, v[1]).figures.value("stepTimeS").toDouble();
    QVERIFY2(ecmp > adaptive * 1.2, qPrintable(QString("%1 against %2").arg(ecmp).arg(adaptive)));
}

void TestStudy::variantTheEngineRefusesThrows() {
    // 8 x 1 x 64 = 512 GPUs on a 256-GPU cluster: the table takes 64, the engine refuses.
    const StudySpec s = parse(R"("axes": {"run.parallel.dp": [32, 64]})");
    const std::vector<QJsonObject> v = studyVariants(s);
    QVERIFY(runStudyVariant(s, v[0]).figures.value("stepTimeS").toDouble() > 0);
    QVERIFY_THROWS_EXCEPTION(InputException, runStudyVariant(s, v[1]));
}

void TestStudy::figureRootsAreTheOutputsKeys() {
    const StudySpec s = parse("");
    const auto doc = openTopology("small-256", {});
    std::set<QString> keys;
    for (const RunSpec& spec : {s.run, [&] {
                                    RunSpec span = s.run;
                                    span.steps = 0;
                                    span.spanS = 3600; // a span adds the interruptions' figures
                                    span.failures = true;
                                    return span;
                                }()})
        for (const QString& k : runSummaryJson(simulateRun(*doc, spec, nullptr), spec).keys())
            keys.insert(k);
    for (const QString& k :
         bomToJson(billOfMaterials(doc->topology(), doc->index(), shippedPrices())).keys())
        keys.insert(k);
    std::set<QString> roots;
    for (const std::string& r : studyFigureRoots())
        roots.insert(QString::fromStdString(r));
    for (const char* derived : {"daysToTrain", "energyMWh", "meanPowerW"})
        QVERIFY(roots.erase(derived));
    // Every root is an output's key, and every key holding numbers is a root.
    for (const QString& r : roots)
        QVERIFY2(keys.count(r), qPrintable(r));
    const std::set<QString> notFigures = {
        "config",
        "dpAllReduce",
        "dpShardedCollective",
        "failedLinks",
        "topology",
        "gpuModel",
        "items",
        "prices",
        "ports",
        "stages",
        "transceiversBySpeed",
        "checkpointLastHost"}; // stages: an array per stage; the last host: a name
    for (const QString& k : keys)
        QVERIFY2(roots.count(k) || notFigures.count(k), qPrintable(k));
}

void TestStudy::storeResumesAndMerges() {
    QTemporaryDir dir;
    const StudySpec s = parse(R"("axes": {"run.seed": [1, 2, 3]})");
    const QString path = dir.filePath("study.sqlite");
    {
        StudyStore st = StudyStore::openForStudy(path, s.canonical, 3);
        st.logEvent(1, "started");
        st.record({1, studyVariants(s)[1], true, "", QJsonObject{{"stepTimeS", 1.5}}, "", 0.2});
        QVERIFY_THROWS_EXCEPTION(InputException, st.record({1, {}, false, "again", {}, "", 0}));
    }
    StudyStore st = StudyStore::openForStudy(path, s.canonical, 3);
    QCOMPARE(st.finished(), (std::set<int>{1}));
    QCOMPARE(st.variantCount(), 3);
    const std::vector<VariantResult> r = st.results();
    QCOMPARE(r.size(), size_t(1));
    QCOMPARE(r[0].figures.value("stepTimeS").toDouble(), 1.5);
    QCOMPARE(r[0].params, studyVariants(s)[1]);
    QCOMPARE(st.log().size(), size_t(2)); // started, ok
    // A part with variants 1 (already here) and 2 merges one, then none.
    const QString part = dir.filePath("part-0.sqlite");
    {
        StudyStore p = StudyStore::openForStudy(part, s.canonical, 3);
        p.record({1, studyVariants(s)[1], true, "", QJsonObject{{"stepTimeS", 9.0}}, "", 0});
        p.record({2, studyVariants(s)[2], false, "refused", {}, "", 0});
    }
    QCOMPARE(st.mergeFrom(part), 1);
    QCOMPARE(st.mergeFrom(part), 0);
    QCOMPARE(st.finished(), (std::set<int>{1, 2}));
    QCOMPARE(st.results()[0].figures.value("stepTimeS").toDouble(), 1.5); // not replaced
    QCOMPARE(QString::fromStdString(st.results()[1].message), QString("refused"));
}

void TestStudy::storeRefusesAnotherStudy() {
    QTemporaryDir dir;
    const QString path = dir.filePath("study.sqlite");
    StudyStore::openForStudy(path, parse(R"("axes": {"run.seed": [1]})").canonical, 1);
    try {
        StudyStore::openForStudy(path, parse(R"("axes": {"run.seed": [2]})").canonical, 1);
        QFAIL("accepted");
    } catch (const InputException& e) {
        QVERIFY2(QString(e.what()).contains("another study"), e.what());
    }
    QFile junk(dir.filePath("junk.sqlite"));
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write("not sqlite at all, just text");
    junk.close();
    QVERIFY_THROWS_EXCEPTION(InputException, StudyStore::open(junk.fileName()));
}

void TestStudy::paretoFrontMatchesBruteForce() {
    QRandomGenerator rng(7);
    for (int round = 0; round < 200; ++round) {
        std::vector<std::pair<double, double>> p(size_t(rng.bounded(1, 40)));
        for (auto& [x, y] : p) { // small integers: ties and duplicates happen
            x = rng.bounded(8);
            y = rng.bounded(8);
        }
        if (round % 5 == 0) p[0].second = std::nan("");
        std::set<size_t> expected;
        for (size_t i = 0; i < p.size(); ++i) {
            if (std::isnan(p[i].first) || std::isnan(p[i].second)) continue;
            bool dominated = false;
            for (size_t j = 0; j < p.size() && !dominated; ++j)
                dominated = p[j].first <= p[i].first && p[j].second <= p[i].second &&
                            (p[j].first < p[i].first || p[j].second < p[i].second);
            if (!dominated) expected.insert(i);
        }
        const std::vector<size_t> front = paretoFront(p);
        QCOMPARE(std::set<size_t>(front.begin(), front.end()), expected);
        for (size_t k = 1; k < front.size(); ++k)
            QVERIFY(p[front[k - 1]].first <= p[front[k]].first);
    }
}

// A topology axis naming a file: found in the study's folder, counted as that file's design.
void TestStudy::topologyFilesAreBesideTheStudy() {
    QTemporaryDir dir;
    QVERIFY(QFile::copy(CS_SOURCE_DIR "/tests/fixtures/designs/deepseek-ft2.json",
                        dir.filePath("ft2.json")));
    QFile f(dir.filePath("study.json"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"format": "clusterscope-study", "version": 1, "topology": {"preset": "small-256"},
  "axes": {"topology": ["small-256", "ft2.json"]}, "record": ["gpus", "switches.backend"]})");
    f.close();
    const StudySpec s = loadStudy(f.fileName());
    const std::vector<QJsonObject> v = studyVariants(s);
    QCOMPARE(v.size(), size_t(2));
    const auto bomOf = [](const std::unique_ptr<TopologyDocument>& doc) {
        return bomToJson(billOfMaterials(doc->topology(), doc->index(), shippedPrices()));
    };
    const QJsonObject ft2 = bomOf(openTopology({}, dir.filePath("ft2.json").toStdString()));
    QCOMPARE(studyVariantTopology(s, v[1])->topology().gpus.size(),
             size_t(ft2.value("gpus").toInt()));
    QVERIFY(ft2.value("gpus").toInt() !=
            bomOf(openTopology("small-256", {})).value("gpus").toInt());
    // A preset's name is not a file.
    try {
        parseStudy(R"({"format": "clusterscope-study", "version": 1,
                       "topology": {"file": "small-256"}})",
                   "s.json", dir.path());
        QFAIL("accepted");
    } catch (const InputException& e) {
        QVERIFY2(QString(e.what()).contains("topology.file: expected a topology file"), e.what());
    }
    // Another folder: the file is not found, and the study says where it looked.
    QTemporaryDir elsewhere;
    QFile moved(elsewhere.filePath("study.json"));
    QVERIFY(QFile::copy(f.fileName(), moved.fileName()));
    try {
        loadStudy(moved.fileName());
        QFAIL("accepted");
    } catch (const InputException& e) {
        QVERIFY2(QString(e.what()).contains("axes.topology[1]"), e.what());
    }
}

// The study file the user guide shows (docs/user/studies.md) reads as a study with the variants
// it describes.
void TestStudy::readmeExampleIsAStudy() {
    QFile f(CS_SOURCE_DIR "/docs/user/studies.md");
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray readme = f.readAll();
    const qsizetype section = readme.indexOf("\n## Design studies\n");
    QVERIFY(section >= 0);
    const qsizetype from = readme.indexOf("```json\n", section) + 8;
    const qsizetype to = readme.indexOf("\n```\n", from);
    QVERIFY(from > 8 && to > from);
    const StudySpec s = parseStudy(readme.mid(from, to - from), "docs/user/studies.md");
    QCOMPARE(s.axes.size(), size_t(3));
    QCOMPARE(studyVariants(s).size(), size_t(2 * 3 * 2 + 1));
    QCOMPARE(s.tokenBudget, 15.6e12);
}

QTEST_GUILESS_MAIN(TestStudy)
#include "tst_study.moc"
