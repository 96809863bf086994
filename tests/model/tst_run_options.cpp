// The table of run options: complete, run files that read back what they wrote, bad values
// located at their line and column with the field path, strict durations, the checks across
// fields, and the names of each enum written once.
#include "RunFieldKeys.h"
#include "RunOptions.h"
#include "RunSpecJson.h"
#include "SimulationRun.h"
#include "TrainingEnumNames.h"

#include <QJsonDocument>
#include <QSet>
#include <QTest>

#include <cmath>
#include <functional>
#include <optional>

using namespace cs;

Q_DECLARE_METATYPE(std::function<void(cs::RunSpec&)>)

namespace {

using Change = std::function<void(RunSpec&)>;

QString textOf(const RunSpec& s) {
    QString all;
    for (const RunOption& o : runOptions())
        all += QString::fromStdString(o.key) + "=" + runOptionText(s, o) + "\n";
    return all;
}

void set(RunSpec& s, const char* key, const QString& text) {
    setRunOption(s, *findRunOption(key), text);
}

// The enum field an option sets, as a number.
int enumAt(const RunSpec& s, const QString& key) {
    if (key == "parallel.placement") return int(s.parallel.placement);
    if (key == "parallel.recompute") return int(s.parallel.recompute);
    if (key == "parallel.allReduce") return int(s.parallel.allReduce);
    if (key == "precision") return int(s.parallel.precision);
    if (key == "parallel.epDispatcher") return int(s.parallel.epDispatcher);
    if (key == "parallel.cudaGraphs") return int(s.parallel.cudaGraphs);
    return -1;
}

QStringList qStrings(const std::vector<std::string>& list) {
    QStringList out;
    for (const std::string& x : list)
        out << QString::fromStdString(x);
    return out;
}

} // namespace

class TestRunOptions : public QObject {
    Q_OBJECT
private slots:
    void tableDescribesEveryOption();
    void crossFieldKeysAreOptions();
    void runFileRoundTrips_data();
    void runFileRoundTrips();
    void versionOneFilesStillLoad();
    void modelShapesAreChecked_data();
    void modelShapesAreChecked();
    void badValuesAreLocated_data();
    void badValuesAreLocated();
    void durationsAreStrict_data();
    void durationsAreStrict();
    void setRunOptionNamesTheKey_data();
    void setRunOptionNamesTheKey();
    void crossFieldChecks_data();
    void crossFieldChecks();
    void enumOptionsOfferTheirWords_data();
    void enumOptionsOfferTheirWords();
    void enumNamesRoundTrip_data();
    void enumNamesRoundTrip();
    void ffnKindsRoundTrip_data();
    void ffnKindsRoundTrip();
    void summaryConfigIsTheRunFile();
};

// The checks across fields name their fields by the constants of RunFieldKeys.h: each one is
// an option of the table, so its error carries the option's label and flag.
void TestRunOptions::crossFieldKeysAreOptions() {
    for (const char* key : cs::runkey::all)
        QVERIFY2(cs::findRunOption(key), key);
    QVERIFY(!cs::findRunOption("parallel.tpp"));
}

void TestRunOptions::tableDescribesEveryOption() {
    const QStringList keys{"model",
                           "gpu",
                           "parallel.tp",
                           "parallel.cp",
                           "parallel.pp",
                           "parallel.dp",
                           "parallel.ep",
                           "parallel.etp",
                           "parallel.epDispatcher",
                           "parallel.cudaGraphs",
                           "parallel.moeLayerHostMs",
                           "parallel.virtualStages",
                           "parallel.pipelineLayout",
                           "parallel.seq",
                           "parallel.batchTokens",
                           "parallel.microBatchSeqs",
                           "parallel.flowsPerPair",
                           "parallel.placement",
                           "precision",
                           "gpuSpeedSpreadPct",
                           "gpuPowerLimitW",
                           "parallel.batchSeqs",
                           "parallel.sequenceParallel",
                           "parallel.fusedAttention",
                           "parallel.recompute",
                           "parallel.recomputeLayers",
                           "parallel.schedule",
                           "parallel.zeroStage",
                           "parallel.allReduce",
                           "parallel.shardedCollective",
                           "parallel.gradReduceDtype",
                           "parallel.dpBucketMParams",
                           "parallel.overlap.dpGradReduce",
                           "parallel.overlap.dpParamGather",
                           "parallel.overlap.tpComm",
                           "parallel.overlap.epComm",
                           "parallel.overlap.ppComm",
                           "steps",
                           "span",
                           "checkpointInterval",
                           "resolution",
                           "memoryBudgetGiB",
                           "failures",
                           "seed"};
    QCOMPARE(runOptions().size(), size_t(keys.size()));
    QSet<QString> flags, labels;
    for (const QString& key : keys) {
        const RunOption* o = findRunOption(key.toStdString());
        QVERIFY2(o, qPrintable(key));
        QVERIFY(QString::fromStdString(o->flag).startsWith("--"));
        flags.insert(QString::fromStdString(o->flag));
        labels.insert(QString::fromStdString(o->label));
        QVERIFY2(!o->help.empty() && !o->source.empty(), qPrintable(key));
        QVERIFY2(o->source.front() == '[', qPrintable(key)); // "[paper] ...", "[assumption]"
        // The default reads back as itself (span has none: steps are the default).
        if (key == "span") {
            QVERIFY(o->defaultText.empty());
            continue;
        }
        RunSpec s;
        setRunOption(s, *o, QString::fromStdString(o->defaultText));
        QCOMPARE(runOptionText(s, *o).toStdString(), o->defaultText);
    }
    QCOMPARE(flags.size(), keys.size());
    QCOMPARE(labels.size(), keys.size());
    QVERIFY(!findRunOption("parallel.tpp"));
    QCOMPARE(findRunOption("parallel.tp")->defaultText, std::string("8"));
    QCOMPARE(findRunOption("checkpointInterval")->defaultText, std::string("15m"));
    QCOMPARE(findRunOption("steps")->defaultText, std::string("1"));
    QCOMPARE(findRunOption("model")->choices.size(), modelPresets().size());
    size_t gpuNames = 0; // current names and the older ones still accepted
    for (const GpuSpec& g : gpuPresets())
        gpuNames += 1 + g.aliases.size();
    QCOMPARE(findRunOption("gpu")->choices.size(), gpuNames);
}

void TestRunOptions::runFileRoundTrips_data() {
    QTest::addColumn<Change>("change");
    QTest::newRow("defaults") << Change([](RunSpec&) {});
    QTest::newRow("steps, every field changed") << Change([](RunSpec& s) {
        set(s, "model", "llama3-70b");
        set(s, "gpu", "h200");
        set(s, "parallel.tp", "4");
        set(s, "parallel.cp", "2");
        set(s, "parallel.pp", "8");
        set(s, "parallel.dp", "32");
        set(s, "parallel.virtualStages", "2");
        set(s, "parallel.pipelineLayout", "Et*4|(t*4|)*14tmL");
        set(s, "parallel.seq", "4096");
        set(s, "parallel.batchTokens", "8388608.5");
        set(s, "parallel.microBatchSeqs", "2");
        set(s, "parallel.flowsPerPair", "8");
        set(s, "parallel.placement", "fragmented");
        set(s, "precision", "fp8");
        set(s, "gpuSpeedSpreadPct", "7.5");
        set(s, "gpuPowerLimitW", "500");
        set(s, "parallel.sequenceParallel", "off");
        set(s, "parallel.fusedAttention", "off");
        set(s, "parallel.recompute", "selective");
        set(s, "parallel.zeroStage", "3");
        set(s, "parallel.allReduce", "tree");
        set(s, "parallel.overlap.dpGradReduce", "off");
        set(s, "parallel.overlap.dpParamGather", "off");
        set(s, "parallel.overlap.tpComm", "on");
        set(s, "parallel.overlap.ppComm", "off");
        set(s, "parallel.overlap.epComm", "on");
        set(s, "parallel.ep", "4");
        set(s, "parallel.etp", "2");
        set(s, "parallel.epDispatcher", "deepep");
        set(s, "parallel.cudaGraphs", "scoped");
        set(s, "parallel.moeLayerHostMs", "9.5");
        set(s, "parallel.schedule", "zb-h1");
        set(s, "steps", "123");
        set(s, "checkpointInterval", "1h30m");
        set(s, "failures", "on");
        set(s, "seed", "9007199254740991");
    });
    QTest::newRow("block recomputation") << Change([](RunSpec& s) {
        set(s, "parallel.recompute", "full");
        set(s, "parallel.recomputeLayers", "5");
    });
    QTest::newRow("span") << Change([](RunSpec& s) {
        set(s, "span", "54d");
        set(s, "checkpointInterval", "2.5s");
        set(s, "failures", "on");
        set(s, "seed", "0");
    });
    QTest::newRow("a model of its own, batch in sequences") << Change([](RunSpec& s) {
        ModelSpec m;
        m.name = "my-13b";
        m.layers = 40, m.modelDim = 5120, m.ffnDim = 20480, m.heads = 40, m.kvHeads = 40;
        m.vocab = 50257, m.ffn = FfnKind::Gelu, m.tiedEmbeddings = true;
        s.customModel = m;
        s.model = m.name;
        set(s, "parallel.batchSeqs", "1024");
    });
    QTest::newRow("span, odd seconds") << Change([](RunSpec& s) {
        s.steps = 0;
        s.spanS = 12345.678;
        s.checkpointIntervalS = 0;
    });
}

void TestRunOptions::runFileRoundTrips() {
    QFETCH(Change, change);
    RunSpec spec = defaultRunSpec();
    change(spec);
    validateRunSpec(spec);
    const QJsonObject json = runSpecToJson(spec);
    QCOMPARE(json.value("format").toString(), QString("clusterscope-run"));
    QCOMPARE(json.value("version").toInt(), 2);
    QVERIFY(json.value("parallel").isObject());
    QCOMPARE(json.contains("steps"), spec.steps > 0);
    QCOMPARE(json.contains("span"), spec.spanS > 0);
    const RunSpec back = parseRunSpec(QJsonDocument(json).toJson(), "run.json");
    QCOMPARE(textOf(back), textOf(spec));
    QCOMPARE(back.parallel.batchTokens, spec.parallel.batchTokens);
    QCOMPARE(back.seed, spec.seed);
    QCOMPARE(back.spanS, spec.spanS);
    QCOMPARE(back.customModel.has_value(), spec.customModel.has_value());
    if (spec.customModel) {
        QCOMPARE(modelToJson(*back.customModel), modelToJson(*spec.customModel));
        QCOMPARE(back.customModel->parameters(), spec.customModel->parameters());
    }
}

void TestRunOptions::versionOneFilesStillLoad() {
    const RunSpec s = parseRunSpec(R"({"format": "clusterscope-run", "version": 1,
        "model": "llama3-8b", "gpu": "h100",
        "parallel": {"tp": 8, "pp": 4, "dp": 8, "placement": "linear"}, "steps": 2})",
                                   "old.json");
    QCOMPARE(s.model, std::string("llama3-8b"));
    QCOMPARE(findGpu(s.gpu)->name, std::string("h100-sxm")); // the old name still names it
    QCOMPARE(s.parallel.placement, Placement::Linear);
    QCOMPARE(s.steps, 2);
}

void TestRunOptions::modelShapesAreChecked_data() {
    QTest::addColumn<QByteArray>("model");
    QTest::addColumn<QString>("field");
    QTest::newRow("no layers")
        << QByteArray(R"({"name": "x", "hidden": 512, "ffnHidden": 2048, "heads": 8})")
        << "model.layers";
    QTest::newRow("heads do not divide hidden")
        << QByteArray(R"({"name": "x", "layers": 2, "hidden": 500, "ffnHidden": 2048, "heads": 8})")
        << "model.heads";
    QTest::newRow("unknown kind")
        << QByteArray(
               R"({"name": "x", "layers": 2, "hidden": 512, "ffnHidden": 2048, "heads": 8, "ffnKind": "relu"})")
        << "model.ffnKind";
    QTest::newRow("unknown field")
        << QByteArray(
               R"({"name": "x", "layers": 2, "hidden": 512, "ffnHidden": 2048, "heads": 8, "vocab": 1000, "depth": 3})")
        << "model.depth";
}

void TestRunOptions::modelShapesAreChecked() {
    QFETCH(QByteArray, model);
    QFETCH(QString, field);
    const QByteArray text =
        "{\"format\": \"clusterscope-run\", \"version\": 2, \"steps\": 1,\n \"model\": " + model +
        "}";
    try {
        parseRunSpec(text, "shape.json");
        QFAIL("expected a refusal");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), field);
        QCOMPARE(e.error().line, 2);
    }
}

void TestRunOptions::badValuesAreLocated_data() {
    QTest::addColumn<QByteArray>("value"); // replaces VALUE on line 4, column 11
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("message");
    QTest::newRow("tp too big") << QByteArray("2000") << "parallel.tp"
                                << "expected an integer from 1 to 1024, got the number 2000";
    QTest::newRow("tp zero") << QByteArray("0") << "parallel.tp"
                             << "expected an integer from 1 to 1024, got the number 0";
    QTest::newRow("tp fraction") << QByteArray("8.5") << "parallel.tp"
                                 << "expected an integer from 1 to 1024, got the number 8.5";
    QTest::newRow("tp as a string") << QByteArray("\"8\"") << "parallel.tp"
                                    << "expected an integer from 1 to 1024, got the string \"8\"";
    QTest::newRow("tp null") << QByteArray("null") << "parallel.tp"
                             << "expected an integer from 1 to 1024, got null";
}

void TestRunOptions::badValuesAreLocated() {
    QFETCH(QByteArray, value);
    QFETCH(QString, field);
    QFETCH(QString, message);
    QByteArray text = "{\"format\": \"clusterscope-run\", \"version\": 1,\n"
                      "  \"steps\": 3,\n"
                      "  \"parallel\": {\"cp\": 1,\n"
                      "    \"tp\": VALUE, \"pp\": 16}\n"
                      "}\n";
    text.replace("VALUE", value);
    try {
        parseRunSpec(text, "bad.json");
        QFAIL("expected an InputException");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().file), QString("bad.json"));
        QCOMPARE(e.error().line, 4);
        QCOMPARE(e.error().column, 11);
        QCOMPARE(QString::fromStdString(e.error().field), field);
        QCOMPARE(QString::fromStdString(e.error().message), message);
        QVERIFY2(QString(e.what()).startsWith("bad.json:4:11: " + field + ": "), e.what());
    }
}

void TestRunOptions::durationsAreStrict_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<double>("seconds");
    QTest::addColumn<QString>("readBack"); // runOptionText afterwards
    const QString ci = "checkpointInterval";
    QTest::newRow("15m") << ci << "15m" << true << 900.0 << "15m";
    QTest::newRow("0.5s") << ci << "0.5s" << true << 0.5 << "500ms";
    QTest::newRow("1h30m") << ci << "1h30m" << true << 5400.0 << "1h30m";
    QTest::newRow("90m") << ci << "90m" << true << 5400.0 << "1h30m";
    QTest::newRow("100ms") << ci << "100ms" << true << 0.1 << "100ms";
    QTest::newRow("plain seconds") << ci << "90" << true << 90.0 << "1m30s";
    QTest::newRow("0s: no checkpoints") << ci << "0s" << true << 0.0 << "0s";
    QTest::newRow("366d: the most") << ci << "366d" << true << 366 * 86400.0 << "366d";
    for (const char* bad : {"1.2.3h", "-5s", ".", "", "1s1h", "1m1m", "5 m", " 5m", "15M", "1h30",
                            "abc", "367d", "1e3s"})
        QTest::newRow(qPrintable(QString("refused \"%1\"").arg(bad)))
            << ci << QString(bad) << false << 0.0 << QString();
    QTest::newRow("span 54d") << "span"
                              << "54d" << true << 54 * 86400.0 << "54d";
    QTest::newRow("span 0s refused") << "span"
                                     << "0s" << false << 0.0 << QString();
    QTest::newRow("span 0.5s refused") << "span"
                                       << "0.5s" << false << 0.0 << QString();
}

void TestRunOptions::durationsAreStrict() {
    QFETCH(QString, key);
    QFETCH(QString, text);
    QFETCH(bool, ok);
    QFETCH(double, seconds);
    QFETCH(QString, readBack);
    const RunOption& o = *findRunOption(key.toStdString());
    RunSpec s = defaultRunSpec();
    try {
        setRunOption(s, o, text);
        QVERIFY2(ok, "accepted");
    } catch (const InputException& e) {
        QVERIFY2(!ok, e.what());
        QCOMPARE(QString::fromStdString(e.error().field), key);
        QVERIFY2(e.error().message.find("expected a duration from ") == 0, e.what());
        return;
    }
    QCOMPARE(std::get<double>(o.get(s)), seconds);
    QCOMPARE(runOptionText(s, o), readBack);
    if (key == "span") QCOMPARE(s.steps, 0); // a span replaces the steps
}

void TestRunOptions::setRunOptionNamesTheKey_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("tp") << "parallel.tp"
                        << "2000"
                        << "expected an integer from 1 to 1024, got \"2000\"";
    QTest::newRow("pipeline layout")
        << "parallel.pipelineLayout"
        << "Et*4|(t*4|*14tmL"
        << "expected a pipeline layout such as Et*4|(t*4|)*14tmL, or nothing for an even split, "
           "got \"Et*4|(t*4|*14tmL\": at character 17: expected ')', got the end";
    QTest::newRow("tp fraction") << "parallel.tp"
                                 << "1.5"
                                 << "expected an integer from 1 to 1024, got \"1.5\"";
    QTest::newRow("tp spaces") << "parallel.tp"
                               << " 8"
                               << "expected an integer from 1 to 1024, got \" 8\"";
    QTest::newRow("batch") << "parallel.batchTokens"
                           << "lots"
                           << "expected a number from 1 to 1000000000000, got \"lots\"";
    QTest::newRow("batch inf") << "parallel.batchTokens"
                               << "inf"
                               << "expected a number from 1 to 1000000000000, got \"inf\"";
    QTest::newRow("model") << "model"
                           << "gpt-5"
                           << "expected llama3-8b, llama3-70b, llama3-405b, gpt-22b, gpt-175b, "
                              "gpt-530b, gpt-1t, gpt-oss-120b, qwen3-235b-a22b, deepseek-v3 or "
                              "mixtral-8x22b, got \"gpt-5\"";
    QTest::newRow("placement")
        << "parallel.placement"
        << "Linear"
        << "expected topology, dp-innermost, fragmented or linear, got \"Linear\"";
    QTest::newRow("failures") << "failures"
                              << "true"
                              << "expected on or off, got \"true\"";
    QTest::newRow("seed") << "seed"
                          << "-1"
                          << "expected an integer from 0 to 9007199254740991, got \"-1\"";
}

void TestRunOptions::setRunOptionNamesTheKey() {
    QFETCH(QString, key);
    QFETCH(QString, text);
    QFETCH(QString, message);
    RunSpec s = defaultRunSpec();
    const QString before = textOf(s);
    try {
        setRunOption(s, *findRunOption(key.toStdString()), text);
        QFAIL("expected an InputException");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), key);
        QCOMPARE(QString::fromStdString(e.error().message), message);
    }
    QCOMPARE(textOf(s), before); // a refused value changes nothing
}

void TestRunOptions::crossFieldChecks_data() {
    QTest::addColumn<Change>("change");
    QTest::addColumn<QString>("field");   // empty: valid
    QTest::addColumn<QString>("message"); // what a refusal says
    const QString both = "expected either a number of steps or a span, not both";
    const QString neither = "expected either a number of steps or a span, got neither";
    const QString durations = "(such as 54d, 12h, 1h30m or 2.5s)";
    QTest::newRow("defaults") << Change([](RunSpec&) {}) << QString() << QString();
    QTest::newRow("a span") << Change([](RunSpec& s) { s.steps = 0, s.spanS = 3600; }) << QString()
                            << QString();
    QTest::newRow("steps and span")
        << Change([](RunSpec& s) { s.spanS = 3600; }) << "steps" << both;
    QTest::newRow("neither") << Change([](RunSpec& s) { s.steps = 0; }) << "steps" << neither;
    QTest::newRow("too many steps") << Change([](RunSpec& s) { s.steps = 1'000'001; }) << "steps"
                                    << "expected an integer from 1 to 1000000, got \"1000001\"";
    QTest::newRow("over a year") << Change([](RunSpec& s) { s.steps = 0, s.spanS = 400 * 86400; })
                                 << "span"
                                 << "expected a duration from 1s to 366d " + durations +
                                        ", got \"400d\"";
    QTest::newRow("unknown model")
        << Change([](RunSpec& s) { s.model = "gpt-5"; }) << "model"
        << "unknown model \"gpt-5\"; expected llama3-8b, llama3-70b, llama3-405b, gpt-22b, "
           "gpt-175b, gpt-530b, gpt-1t, gpt-oss-120b, qwen3-235b-a22b, deepseek-v3 or "
           "mixtral-8x22b";
    QTest::newRow("unknown GPU") << Change([](RunSpec& s) { s.gpu = "tpu"; }) << "gpu"
                                 << "unknown GPU \"tpu\"; expected a100-sxm-80gb, h100-sxm, h800, "
                                    "h200, b200, gb200, gb300, a100 or h100";
    QTest::newRow("layout syntax")
        << Change([](RunSpec& s) { s.parallel.pipelineLayout = "E(t"; })
        << "parallel.pipelineLayout"
        << "expected a pipeline layout such as Et*4|(t*4|)*14tmL, or nothing for an even split, "
           "got \"E(t\": at character 4: expected ')', got the end";
    QTest::newRow("tp out of range")
        << Change([](RunSpec& s) { s.parallel.tp = 2000; }) << "parallel.tp"
        << "expected an integer from 1 to 1024, got \"2000\"";
    QTest::newRow("batch below one")
        << Change([](RunSpec& s) { s.parallel.batchTokens = 0.5; }) << "parallel.batchTokens"
        << "expected a number from 1 to 1000000000000, got \"0.5\"";
    QTest::newRow("batch not a number")
        << Change([](RunSpec& s) { s.parallel.batchTokens = std::nan(""); })
        << "parallel.batchTokens"
        << "expected a number from 1 to 1000000000000, got \"nan\"";
    QTest::newRow("negative interval")
        << Change([](RunSpec& s) { s.checkpointIntervalS = -1; }) << "checkpointInterval"
        << "expected a duration from 0s to 366d " + durations + ", got \"-1s\"";
    // Durations count to the nanosecond, as run files write them: this is 1 ms.
    QTest::newRow("frame interval a hair under 1 ms")
        << Change([](RunSpec& s) { s.resolutionS = 0.001 - 1e-13; }) << QString() << QString();
    QTest::newRow("frame interval under 1 ms")
        << Change([](RunSpec& s) { s.resolutionS = 0.0009; }) << "resolution"
        << "expected a duration from 1ms to 10s " + durations + ", got \"0.0009s\"";
    QTest::newRow("seed past 2^53")
        << Change([](RunSpec& s) { s.seed = uint64_t(1) << 60; }) << "seed"
        << "expected an integer from 0 to 9007199254740991, got \"1152921504606846976\"";
}

void TestRunOptions::crossFieldChecks() {
    QFETCH(Change, change);
    QFETCH(QString, field);
    QFETCH(QString, message);
    RunSpec s = defaultRunSpec();
    change(s);
    try {
        validateRunSpec(s);
        QVERIFY2(field.isEmpty(), "accepted");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), field);
        QCOMPARE(QString::fromStdString(e.error().message), message);
    }
}

void TestRunOptions::enumOptionsOfferTheirWords_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QStringList>("words"); // as run files, flags and the dialog take them
    QTest::addColumn<int>("values");        // how many values of the enum they name
    QTest::newRow("placement") << "parallel.placement"
                               << QStringList{"topology", "dp-innermost", "fragmented", "linear"}
                               << 3;
    QTest::newRow("recompute") << "parallel.recompute" << QStringList{"none", "selective", "full"}
                               << 3;
    QTest::newRow("all-reduce") << "parallel.allReduce" << QStringList{"auto", "ring", "tree"} << 3;
    QTest::newRow("precision") << "precision" << QStringList{"bf16", "fp8", "mxfp8"} << 3;
    QTest::newRow("EP dispatcher")
        << "parallel.epDispatcher" << QStringList{"auto", "alltoall", "deepep", "hybridep"} << 4;
    QTest::newRow("CUDA graphs") << "parallel.cudaGraphs" << QStringList{"none", "scoped", "full"}
                                 << 3;
}

void TestRunOptions::enumOptionsOfferTheirWords() {
    QFETCH(QString, key);
    QFETCH(QStringList, words);
    QFETCH(int, values);
    const RunOption& o = *findRunOption(key.toStdString());
    QCOMPARE(qStrings(o.choices), words);
    // Every word sets a value; the value's own word sets it again; together they name every
    // value of the enum.
    QSet<int> named;
    for (const QString& word : words) {
        RunSpec s = defaultRunSpec();
        setRunOption(s, o, word);
        const int value = enumAt(s, key);
        const QString written = runOptionText(s, o);
        QVERIFY2(words.contains(written), qPrintable(word));
        RunSpec again = defaultRunSpec();
        setRunOption(again, o, written);
        QCOMPARE(enumAt(again, key), value);
        named.insert(value);
    }
    QCOMPARE(named.size(), values);
    for (int v = 0; v < values; ++v)
        QVERIFY2(named.contains(v), qPrintable(QString::number(v)));
}

void TestRunOptions::enumNamesRoundTrip_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("word");
    QTest::addColumn<int>("value");
    QTest::addColumn<QString>("written"); // the word a run file, the summary and the dialog show
    const QString p = "parallel.placement", r = "parallel.recompute", a = "parallel.allReduce";
    QTest::newRow("topology") << p << "topology" << int(Placement::TopologyAware) << "topology";
    QTest::newRow("dp-innermost") << p << "dp-innermost" << int(Placement::Linear)
                                  << "dp-innermost";
    QTest::newRow("linear, the older word")
        << p << "linear" << int(Placement::Linear) << "dp-innermost";
    QTest::newRow("fragmented") << p << "fragmented" << int(Placement::Fragmented) << "fragmented";
    QTest::newRow("no recompute") << r << "none" << int(Recompute::None) << "none";
    QTest::newRow("selective") << r << "selective" << int(Recompute::Selective) << "selective";
    QTest::newRow("full") << r << "full" << int(Recompute::Full) << "full";
    QTest::newRow("auto") << a << "auto" << int(AllReduceAlgorithm::Auto) << "auto";
    QTest::newRow("ring") << a << "ring" << int(AllReduceAlgorithm::Ring) << "ring";
    QTest::newRow("tree") << a << "tree" << int(AllReduceAlgorithm::Tree) << "tree";
    QTest::newRow("bf16") << "precision"
                          << "bf16" << int(Precision::Bf16) << "bf16";
    QTest::newRow("fp8") << "precision"
                         << "fp8" << int(Precision::Fp8) << "fp8";
}

void TestRunOptions::enumNamesRoundTrip() {
    QFETCH(QString, key);
    QFETCH(QString, word);
    QFETCH(int, value);
    QFETCH(QString, written);
    const RunOption& o = *findRunOption(key.toStdString());
    RunSpec s = defaultRunSpec();
    try {
        setRunOption(s, o, word);
    } catch (const InputException& e) {
        QFAIL(e.what());
    }
    QCOMPARE(enumAt(s, key), value);
    QCOMPARE(runOptionText(s, o), written);
    // The run file (and so the summary's config) writes the word and reads the value back.
    const QJsonObject json = runSpecToJson(s);
    QJsonValue at = json;
    for (const QString& part : key.split('.'))
        at = at.toObject().value(part);
    QCOMPARE(at.toString(), written);
    QCOMPARE(enumAt(parseRunSpec(QJsonDocument(json).toJson(), "run.json"), key), value);
}

void TestRunOptions::ffnKindsRoundTrip_data() {
    QTest::addColumn<QString>("word");
    QTest::addColumn<int>("value");
    QTest::newRow("swiglu") << "swiglu" << int(FfnKind::SwiGlu);
    QTest::newRow("gelu") << "gelu" << int(FfnKind::Gelu);
}

void TestRunOptions::ffnKindsRoundTrip() {
    QFETCH(QString, word);
    QFETCH(int, value);
    QCOMPARE(QString::fromStdString(enumName(FfnKind(value))), word);
    QVERIFY(enumFromName<FfnKind>(word.toStdString()) == std::optional(FfnKind(value)));
    ModelSpec m = *findModel("llama3-8b");
    m.name = "shape", m.ffn = FfnKind(value);
    QCOMPARE(modelToJson(m).value("ffnKind").toString(), word);
    RunSpec s = defaultRunSpec();
    s.customModel = m, s.model = m.name;
    const RunSpec back = parseRunSpec(QJsonDocument(runSpecToJson(s)).toJson(), "run.json");
    QCOMPARE(int(back.customModel->ffn), value);
    // A word of no kind is refused naming the words there are.
    QJsonObject json = runSpecToJson(s), model = json.value("model").toObject();
    model.insert("ffnKind", "relu");
    json.insert("model", model);
    try {
        parseRunSpec(QJsonDocument(json).toJson(), "run.json");
        QFAIL("expected a refusal");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().message), QString("expected swiglu or gelu"));
    }
}

void TestRunOptions::summaryConfigIsTheRunFile() {
    RunSpec s = defaultRunSpec();
    set(s, "model", "llama3-70b");
    set(s, "parallel.placement", "linear");
    set(s, "parallel.recompute", "full");
    set(s, "parallel.zeroStage", "0");
    set(s, "precision", "fp8");
    set(s, "span", "2d");
    RunResult r;
    r.step.dpTree = true;
    const QJsonObject summary = runSummaryJson(r, s);
    QCOMPARE(summary.value("config").toObject(), runSpecToJson(s));
    QCOMPARE(summary.value("dpAllReduce").toString(), QString("tree"));
    const RunSpec back =
        parseRunSpec(QJsonDocument(summary.value("config").toObject()).toJson(), "summary.json");
    QCOMPARE(textOf(back), textOf(s));
}

QTEST_APPLESS_MAIN(TestRunOptions)
#include "tst_run_options.moc"
