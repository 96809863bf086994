#include "EngineTestSupport.h"

#include "Presets.h"
#include "RunStore.h"
#include "SimulationRun.h"
#include "SiteGenerator.h"

namespace cs::test {

ParallelConfig config(int tp, int cp, int pp, int dp, int seq) {
    ParallelConfig c;
    c.tp = tp, c.cp = cp, c.pp = pp, c.dp = dp, c.seqLen = seq;
    return c;
}

ParallelConfig dpInnermostInterleaved() {
    ParallelConfig c = config(8, 1, 4, 8, 8192);
    c.virtualStages = 2;
    c.batchTokens = 8192.0 * 8 * 8;
    c.placement = Placement::Linear;
    return c;
}

StepEstimate step(const TopologyDocument& doc, const char* model, const ParallelConfig& c) {
    return estimateStep(doc.topology(), doc.index(), *findModel(model), *findGpu("h100"), c);
}

RunResult simulateToStore(const TopologyDocument& doc, const RunSpec& spec, const QString& path) {
    RunStore store = RunStore::openForWriting(path);
    return simulateRun(doc, spec, &store);
}

const TopologyDocument& roce() {
    static const auto doc = openTopology("meta-roce-24k", {});
    return *doc;
}

std::unique_ptr<TopologyDocument> smallWithOversubscription(double ratio) {
    SiteParams p = *presetParams("small-256");
    p.clusters[0].oversubscription = ratio;
    return std::make_unique<TopologyDocument>(generateSite(p), p, "test");
}

} // namespace cs::test
