// Run files (RunSpecJson): read into a spec, mistakes named by their field and line.
#include "InputError.h"
#include "RunSpecJson.h"

#include <QTest>

using namespace cs;

class TestRunSpecJson : public QObject {
    Q_OBJECT
private slots:
    void runDescriptionsNameTheirMistakes();
    void stepsOrSpanIsNamedInTheFile_data();
    void stepsOrSpanIsNamedInTheFile();
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

void TestRunSpecJson::stepsOrSpanIsNamedInTheFile_data() {
    QTest::addColumn<QByteArray>("timing"); // the run file's steps and span
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("message");
    QTest::newRow("both") << QByteArray(R"("steps": 2, "span": "1h")") << "span"
                          << R"(expected either "steps" or "span", not both)";
    QTest::newRow("neither") << QByteArray(R"("seed": 1)") << "steps"
                             << R"(expected either "steps" or "span", got neither)";
}

void TestRunSpecJson::stepsOrSpanIsNamedInTheFile() {
    QFETCH(QByteArray, timing);
    QFETCH(QString, field);
    QFETCH(QString, message);
    try {
        parseRunSpec(R"({"format": "clusterscope-run", "version": 1, )" + timing + "}", "run.json");
        QFAIL("expected an InputException");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), field);
        QCOMPARE(QString::fromStdString(e.error().message), message);
    }
}

QTEST_APPLESS_MAIN(TestRunSpecJson)
#include "tst_run_spec_json.moc"
