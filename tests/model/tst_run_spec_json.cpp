// Run files (RunSpecJson): read into a spec, mistakes named by their field and line.
#include "RunSpecJson.h"

#include <QTest>

using namespace cs;

class TestRunSpecJson : public QObject {
    Q_OBJECT
private slots:
    void runDescriptionsNameTheirMistakes();
};

void TestRunSpecJson::runDescriptionsNameTheirMistakes() {
    const QByteArray good = R"({"format": "clusterscope-run", "version": 1, "model": "llama3-70b",
  "parallel": {"tp": 8, "pp": 8, "dp": 16, "placement": "linear"},
  "span": "54d", "checkpointInterval": "30m", "failures": true, "seed": 9})";
    const RunSpec s = parseRunSpec(good, "run.json");
    QCOMPARE(s.model, std::string("llama3-70b"));
    QCOMPARE(s.parallel.dp, 16);
    QVERIFY(s.parallel.placement == Placement::Linear);
    QCOMPARE(s.spanS, 54 * 86400.0);
    QCOMPARE(s.checkpointIntervalS, 1800.0);
    QVERIFY(s.failures);
    QByteArray bad = good;
    bad.replace("\"tp\": 8", "\"tp\": \"eight\"");
    try {
        parseRunSpec(bad, "run.json");
        QFAIL("expected an InputException");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), QString("parallel.tp"));
        QCOMPARE(e.error().line, 2);
    }
    QByteArray noSpan = good;
    noSpan.replace("\"54d\"", "\"someday\"");
    QVERIFY_THROWS_EXCEPTION(InputException, parseRunSpec(noSpan, "run.json"));
}

QTEST_APPLESS_MAIN(TestRunSpecJson)
#include "tst_run_spec_json.moc"
