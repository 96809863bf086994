#include "RankGroups.h"

#include "RankPlacement.h"

namespace cs {

RankGroups formRankGroups(const ModelSpec& m, const ParallelConfig& c,
                          const std::vector<int32_t>& gpuOfRank) {
    auto gpu = [&](int tt, int cc, int p, int d) {
        return gpuOfRank[size_t(rankOf(c, {tt, cc, p, d}))];
    };
    RankGroups out;
    for (int d = 0; d < c.dp; ++d)
        for (int p = 0; p < c.pp; ++p)
            for (int cc = 0; cc < c.cp; ++cc) {
                std::vector<int32_t> tg;
                for (int tt = 0; tt < c.tp; ++tt)
                    tg.push_back(gpu(tt, cc, p, d));
                out.tp.push_back(std::move(tg));
                if (p + 1 < c.pp)
                    for (int tt = 0; tt < c.tp; ++tt) {
                        out.ppEdges.push_back({gpu(tt, cc, p, d), gpu(tt, cc, p + 1, d)});
                        out.ppBoundaryOfEdge.push_back(p);
                    }
            }
    for (int d = 0; d < c.dp; ++d)
        for (int p = 0; p < c.pp; ++p)
            for (int tt = 0; tt < c.tp; ++tt) {
                std::vector<int32_t> cg;
                for (int cc = 0; cc < c.cp; ++cc)
                    cg.push_back(gpu(tt, cc, p, d));
                out.cp.push_back(std::move(cg));
                out.stageOfCpGroup.push_back(p);
            }
    for (int p = 0; p < c.pp; ++p)
        for (int tt = 0; tt < c.tp; ++tt) {
            std::vector<int32_t> dg; // CP ranks hold the same weights: they join DP
            for (int d = 0; d < c.dp; ++d)
                for (int cc = 0; cc < c.cp; ++cc)
                    dg.push_back(gpu(tt, cc, p, d));
            out.dp.push_back(std::move(dg));
            out.stageOfDpGroup.push_back(p);
        }
    if (!m.moe.present()) return out;
    // Parallel folding: a stage's ranks in (t, c, d) order regroup into ETP x EP x
    // expert-DP, ETP fastest, then EP (Megatron-Core's expert order): rank (k EP + e) ETP + j
    // is ETP rank j of EP rank e in expert-DP replica k.
    const int etp = c.etp, stageRanks = c.tp * c.cp * c.dp, edp = stageRanks / (c.ep * etp);
    auto stageGpu = [&](int p, int k, int e, int j) {
        const int i = (k * c.ep + e) * etp + j;
        return gpu(i % c.tp, (i / c.tp) % c.cp, p, i / (c.tp * c.cp));
    };
    for (int p = 0; p < c.pp; ++p)
        for (int j = 0; j < etp; ++j) {
            for (int k = 0; k < edp; ++k) {
                std::vector<int32_t> eg;
                for (int e = 0; e < c.ep; ++e)
                    eg.push_back(stageGpu(p, k, e, j));
                out.ep.push_back(std::move(eg));
                out.stageOfEpGroup.push_back(p);
            }
            for (int e = 0; e < c.ep; ++e) {
                std::vector<int32_t> xg;
                for (int k = 0; k < edp; ++k)
                    xg.push_back(stageGpu(p, k, e, j));
                out.expertDp.push_back(std::move(xg));
                out.stageOfExpertDpGroup.push_back(p);
            }
        }
    if (etp > 1)
        for (int p = 0; p < c.pp; ++p)
            for (int k = 0; k < edp; ++k)
                for (int e = 0; e < c.ep; ++e) {
                    std::vector<int32_t> tg;
                    for (int j = 0; j < etp; ++j)
                        tg.push_back(stageGpu(p, k, e, j));
                    out.expertTp.push_back(std::move(tg));
                }
    return out;
}

} // namespace cs
