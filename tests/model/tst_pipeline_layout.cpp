// Pipeline layouts in Megatron-LM's syntax: what a layout puts in each chunk, the layouts the
// parser refuses (and where), the checks against a model, and the engine running a layout:
// one that restates the even split changes nothing, Bridge's DeepSeek-V3 layout runs on GB200
// with its chunks as written, and a lopsided one makes its heavy stage the busiest.
#include "EngineTestSupport.h"
#include "InputError.h"
#include "PipelineLayers.h"
#include "PipelineLayout.h"
#include "TrainingConfig.h"

#include <QTest>

#include <stdexcept>

using namespace cs;
using namespace cs::test;

class TestPipelineLayout : public QObject {
    Q_OBJECT
private slots:
    void chunksHoldWhatTheLayoutSays_data();
    void chunksHoldWhatTheLayoutSays();
    void badSyntaxIsLocated_data();
    void badSyntaxIsLocated();
    void layoutsAreHeldToTheModel_data();
    void layoutsAreHeldToTheModel();
    void theEvenSplitWrittenOutChangesNothing();
    void bridgesDeepSeekLayoutRunsOnGb200();
    void aHeavyStageSetsThePace();
};

namespace {
// Each chunk as "E3m1L" (embedding, decoder layers, prediction layers, loss), comma-separated.
QString describe(const PipelineLayout& l) {
    QStringList out;
    for (const LayoutChunk& c : l.chunks)
        out << QString("%1%2%3%4")
                   .arg(c.embedding ? "E" : "")
                   .arg(c.decoderLayers)
                   .arg(c.mtpLayers ? QString("m%1").arg(c.mtpLayers) : QString())
                   .arg(c.loss ? "L" : "");
    return out.join(',');
}

// Llama 3 70B on small-256: TP 8 x PP 4 x DP 8, 64 sequences a step, V chunks a stage.
ParallelConfig seventyB(int virtualStages) {
    ParallelConfig c = config(8, 1, 4, 8, 8192);
    c.virtualStages = virtualStages;
    c.batchSeqs = 64;
    return c;
}
} // namespace

void TestPipelineLayout::chunksHoldWhatTheLayoutSays_data() {
    QTest::addColumn<QString>("layout");
    QTest::addColumn<QString>("chunks");
    QTest::newRow("Bridge DeepSeek-V3 GB200") << "Et*4|(t*4|)*14tmL"
                                              << "E4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,1m1L";
    // Megatron-LM's documented example: PP 16 x VPP 2, MTP and loss in chunks of their own.
    QTest::newRow("Megatron docs PP16 VPP2")
        << "Et*3|(tt|)*29,m|L"
        << "E3,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,0m1,0L";
    QTest::newRow("an empty chunk") << "E||t|L"
                                    << "E0,0,1,0L";
    QTest::newRow("commas and spaces") << "E, t t | t*2 L"
                                       << "E2,2L";
    QTest::newRow("nested repeats") << "E|((t|)*2)*2L"
                                    << "E0,1,1,1,1,0L";
    QTest::newRow("no layers at all") << "EL"
                                      << "E0L";
}

void TestPipelineLayout::chunksHoldWhatTheLayoutSays() {
    QFETCH(QString, layout);
    QFETCH(QString, chunks);
    QCOMPARE(describe(parsePipelineLayout(layout.toStdString())), chunks);
}

void TestPipelineLayout::badSyntaxIsLocated_data() {
    QTest::addColumn<QString>("layout");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown symbol") << "Et*4|x"
                                    << "at character 6: expected a symbol";
    QTest::newRow("open group") << "E(t|"
                                << "at character 5: expected ')'";
    QTest::newRow("stray close") << "Et)L"
                                 << "at character 3: expected a symbol";
    QTest::newRow("zero repeat") << "Et*0L"
                                 << "expected a repeat count from 1 to 1024";
    QTest::newRow("missing count") << "Et*L"
                                   << "expected a repeat count from 1 to 1024";
    QTest::newRow("huge count") << "Et*99999999999999999999L"
                                << "repeat count from 1 to 1024";
    QTest::newRow("two embeddings") << "EtE|L"
                                    << "the embedding (E) appears twice";
    QTest::newRow("two losses") << "Et|LL"
                                << "the loss (L) appears twice";
    QTest::newRow("expands past the bound") << "E((((t*1024)*1024)*1024)*1024)L"
                                            << "at most 65536 symbols once expanded";
    QTest::newRow("nests too deep") << "E(((((((((t)))))))))L"
                                    << "at most 8 nested groups";
    QTest::newRow("too long") << QString("E") + QString(5000, 't') + "L"
                              << "expected at most 4096 characters, got 5002";
}

void TestPipelineLayout::badSyntaxIsLocated() {
    QFETCH(QString, layout);
    QFETCH(QString, message);
    try {
        parsePipelineLayout(layout.toStdString());
        QFAIL("accepted");
    } catch (const std::invalid_argument& e) {
        QVERIFY2(QString(e.what()).contains(message), e.what());
    }
}

void TestPipelineLayout::layoutsAreHeldToTheModel_data() {
    QTest::addColumn<QString>("layout");
    QTest::addColumn<int>("chunks");
    QTest::addColumn<int>("layers");
    QTest::addColumn<int>("mtp");
    QTest::addColumn<QString>("problem"); // empty: it fits
    QTest::newRow("fits") << "Et*4|(t*4|)*14tmL" << 16 << 61 << 1 << "";
    QTest::newRow("chunks") << "Et*4|(t*4|)*14tmL" << 8 << 61 << 1
                            << "has 16 chunks ('|' splits them); expected PP x V = 8";
    QTest::newRow("layers") << "Et*4|(t*4|)*14tmL" << 16 << 62 << 1
                            << "places 61 decoder layers (t); the model has 62";
    QTest::newRow("prediction layers")
        << "Et*4|(t*4|)*14tmL" << 16 << 61 << 0 << "places 1 multi-token-prediction layers (m)";
    QTest::newRow("embedding late")
        << "t|EtL" << 2 << 2 << 0 << "expected the embedding (E) once, in the first chunk";
    QTest::newRow("no loss") << "Et|t" << 2 << 2 << 0
                             << "expected the loss (L) once, in the last chunk";
    QTest::newRow("loss early") << "EtL|t" << 2 << 2 << 0
                                << "expected the loss (L) once, in the last chunk";
}

void TestPipelineLayout::layoutsAreHeldToTheModel() {
    QFETCH(QString, layout);
    QFETCH(int, chunks);
    QFETCH(int, layers);
    QFETCH(int, mtp);
    QFETCH(QString, problem);
    const std::string found =
        pipelineLayoutProblem(parsePipelineLayout(layout.toStdString()), chunks, layers, mtp);
    if (problem.isEmpty())
        QVERIFY2(found.empty(), found.c_str());
    else
        QVERIFY2(QString::fromStdString(found).contains(problem), found.c_str());
}

// Llama 3 70B over 4 stages x 2 chunks splits evenly, 10 layers a chunk: the same split
// written as a layout gives the same step, chunk for chunk.
void TestPipelineLayout::theEvenSplitWrittenOutChangesNothing() {
    const auto doc = smallWithOversubscription(2);
    ParallelConfig c = seventyB(2);
    const StepEstimate even = step(*doc, "llama3-70b", c);
    c.pipelineLayout = "Et*10|(t*10|)*6t*10L";
    c.virtualStages = 0; // from the layout: 8 chunks over 4 stages
    const StepEstimate written = step(*doc, "llama3-70b", c);
    QCOMPARE(written.layersPerChunk, even.layersPerChunk);
    QCOMPARE(written.stepS, even.stepS);
    QCOMPARE(written.layersPerChunk.front(), std::vector<int>({10, 10}));
    // One layer short: refused by the field's name, with what the model has.
    c.pipelineLayout = "Et*10|(t*10|)*6t*9L";
    try {
        step(*doc, "llama3-70b", c);
        QFAIL("a layout of 79 layers ran a model of 80");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), QString("parallel.pipelineLayout"));
        QVERIFY2(QString::fromStdString(e.error().message)
                     .contains("places 79 decoder layers (t); the model has 80"),
                 e.error().message.c_str());
    }
}

// Megatron-Bridge's DeepSeek-V3 recipe on 256 GB200 (PP 4 x VPP 4, EP 64): without a layout
// the 61 layers and the prediction layer split 3, 4, ..., 4, 3 over the 16 chunks; Bridge's
// layout puts 4 in the first chunk and the last layer with the prediction layer in the last,
// and the engine runs the chunks as written.
void TestPipelineLayout::bridgesDeepSeekLayoutRunsOnGb200() {
    const auto doc = openTopology("gb200-nvl72-su", {});
    RunSpec s;
    s.model = "deepseek-v3";
    s.gpu = "gb200";
    s.parallel = config(1, 1, 4, 64, 4096);
    s.parallel.ep = 64;
    s.parallel.batchSeqs = 2048;
    s.parallel.precision = Precision::Fp8;
    s.steps = 1;
    s.parallel.virtualStages = 4;
    const RunResult automatic = simulateRun(*doc, s, nullptr);
    QCOMPARE(automatic.step.layersPerChunk.front(), std::vector<int>({3, 4, 4, 4}));
    s.parallel.virtualStages = 0; // from the layout: 16 chunks over 4 stages
    s.parallel.pipelineLayout = "Et*4|(t*4|)*14tmL";
    const RunResult r = simulateRun(*doc, s, nullptr);
    qInfo("step %.2f s with the layout, %.2f s without", r.step.stepS, automatic.step.stepS);
    QCOMPARE(r.step.layersPerChunk.size(), size_t(4));
    QCOMPARE(r.step.layersPerChunk.front(), std::vector<int>({4, 4, 4, 4})); // chunks 0, 4, 8, 12
    QCOMPARE(r.step.layersPerChunk.back(), std::vector<int>({4, 4, 4, 2}));  // ... 15: t and m
    QVERIFY(r.step.stepS > 0);
}

// A layout that gives the first stage 40 of 80 layers makes it the busiest: the step waits
// for it.
void TestPipelineLayout::aHeavyStageSetsThePace() {
    const auto doc = smallWithOversubscription(2);
    ParallelConfig c = seventyB(1);
    const StepEstimate even = step(*doc, "llama3-70b", c);
    c.pipelineLayout = "Et*40|t*20|t*10|t*10L";
    const StepEstimate heavy = step(*doc, "llama3-70b", c);
    QCOMPARE(heavy.layersOnBusiestStage, 40);
    QCOMPARE(even.layersOnBusiestStage, 20);
    // 40 layers against the even split's last stage, 20 layers and the output head.
    QVERIFY(heavy.computePerMicroS > 1.7 * even.computePerMicroS);
    QVERIFY2(heavy.stepS > 1.3 * even.stepS,
             qPrintable(QString("%1 s against %2 s").arg(heavy.stepS).arg(even.stepS)));
}

QTEST_GUILESS_MAIN(TestPipelineLayout)
#include "tst_pipeline_layout.moc"
