#include "TrainingStepModel.h"

#include "CollectiveEdges.h"
#include "CollectiveSize.h"
#include "CollectiveTimer.h"
#include "CommSmsLoss.h"
#include "ExpertAllToAll.h"
#include "FabricShare.h"
#include "ForwardPhases.h"
#include "HostWait.h"
#include "KernelModel.h"
#include "NcclConstants.h"
#include "PipelineLayers.h"
#include "RankGroups.h"
#include "RankPlacement.h"
#include "StepSchedule.h"
#include "Stragglers.h"
#include "TrainingEfficiency.h"
#include "TrainingEnumNames.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace cs {
namespace {

// The steps of estimateStep, in the order they run; each fills part of the estimate and what
// the steps after it need.
class StepEstimator {
public:
    StepEstimator(const Topology& t, const TopologyIndex& ix, const ModelSpec& m, const GpuSpec& g,
                  const ParallelConfig& c, ShareSolver solver, std::vector<double> capacityLeft,
                  bool keepProgram = false)
        : t_(t), ix_(ix), m_(m), g_(g), c_(c),
          routerPtr_(std::make_shared<FabricRouter>(t, ix, std::move(capacityLeft))),
          router_(*routerPtr_), timer_(t, router_, nvlinkBytesPerS(g), c.flowsPerPair),
          sharePtr_(std::make_shared<FabricShare>(t, router_, nvlinkBytesPerS(g), solver)),
          share_(*sharePtr_), classes_(ScheduleClasses::of(c.pp, c.virtualStages)),
          keepProgram_(keepProgram) {}

    // After run(): the step's schedule and the fabric it loads, for a joint simulation.
    std::shared_ptr<const StepProgram> program() const { return program_; }

    StepEstimate run() {
        placeAndSize();
        router_.requireReachable(e_.gpuOfRank);
        timeComputeOnBusiestStage();
        formRankGroups();
        requireExpertTpOnNvlink();
        sizeTpAndTimeCp();
        timeExpertAllToAll();
        sizeDpCollectives();
        addTransferClasses();
        foldExpertDpBytes();
        timeTpPass();
        chooseDpAllReduce();
        splitTpExposure();
        timeComputeBesideComm();
        addLinkBytes();
        timeOptimizer();
        runEventSchedule();
        headlineFigures();
        return std::move(e_);
    }

private:
    int32_t gpu(int tt, int cc, int p, int d) const {
        return e_.gpuOfRank[size_t(rankOf(c_, {tt, cc, p, d}))];
    }

    // Ranks onto GPUs, memory per GPU, micro-batches per step.
    void placeAndSize() {
        e_.gpuOfRank = cs::placeRanks(t_, ix_, c_);
        e_.memory = estimateMemory(m_, c_);
        e_.linkBytesPerStep.assign(2 * t_.links.size(), 0.0); // per direction
        e_.microBatches = c_.microBatches();
        M_ = e_.microBatches;
        V_ = c_.virtualStages;
    }

    // Compute on the busiest stage, per micro-batch: the kernel model's layer times.
    void timeComputeOnBusiestStage() {
        tokensPerMicro_ = double(c_.seqLen) * c_.microBatchSeqs / c_.cp;
        // A MoE model's busiest stage holds MoE layers (the dense first layers, few, sit in the
        // first chunks).
        layer_ = layerTimes(m_, g_, c_, tokensPerMicro_, m_.moe.present());
        const LayerTimes alone =
            layerTimes(m_, g_, c_, tokensPerMicro_, m_.moe.present(), KernelRate::Alone);
        unexplainedPerLayerS_ = (layer_.forwardS + layer_.backwardS + layer_.recomputeS) -
                                (alone.forwardS + alone.backwardS + alone.recomputeS);
        // The output head, once more per prediction module.
        headS_ = (1 + m_.mtpDepth) * headSeconds(m_, g_, c_, tokensPerMicro_);
        // Every collective waits for the slowest GPU of the job: its kernels set the pace.
        const double slow = lockStepSlowdown(c_.gpuSpeedSpreadPct / 100, c_.gpus());
        e_.stragglerSlowdown = slow;
        for (double* x : {&layer_.forwardS, &layer_.backwardS, &layer_.recomputeS, &layer_.gemmS,
                          &layer_.attentionForwardS, &headS_, &unexplainedPerLayerS_})
            *x *= slow;
        // The busiest stage: the most layers, the last one's with the head (a pipeline
        // layout may give any stage the most).
        const double perLayerS = layer_.forwardS + layer_.backwardS + layer_.recomputeS;
        const int last = layersOfStage(m_, c_, c_.pp - 1);
        int most = c_.pp > 1 ? 0 : last;
        for (int s = 0; s + 1 < c_.pp; ++s)
            most = std::max(most, layersOfStage(m_, c_, s));
        e_.layersOnBusiestStage = most;
        e_.computePerMicroS = std::max(most * perLayerS, last * perLayerS + headS_);
        busiestLayers_ = most * perLayerS >= last * perLayerS + headS_ ? most : last;
    }

    void formRankGroups() { groups_ = cs::formRankGroups(m_, c_, e_.gpuOfRank); }

    // Expert TP gathers and reduce-scatters the dispatched tokens on every MoE layer: its groups
    // are placed inside an NVLink domain (consecutive GPUs), as frameworks place them.
    void requireExpertTpOnNvlink() const {
        for (const auto& group : groups_.expertTp)
            for (int32_t gpu : group)
                if (!t_.sameNvlinkDomain(gpu, group.front()))
                    throw InputException(
                        {{},
                         0,
                         0,
                         "parallel.etp",
                         "ETP " + std::to_string(c_.etp) + " puts GPU " +
                             t_.gpuName(group.front()) + " and GPU " + t_.gpuName(gpu) +
                             " in one expert TP group across NVLink domains; use an ETP that "
                             "fits a host (or an NVL72 rack) with the GPUs before it"});
    }

    // MoE: one all-to-all of the token copies (the dispatch; the combine sends as many back),
    // every stage's EP groups at once on the fabric; four per MoE layer and micro-batch, two
    // in the forward and two in the backward.
    void timeExpertAllToAll() {
        if (!m_.moe.present() || (c_.ep <= 1 && c_.etp <= 1)) return;
        AllToAllInput in = expertAllToAllInput(m_, c_, tokensPerMicro_);
        in.groups = groups_.ep;
        in.stageOfGroup = groups_.stageOfEpGroup;
        in.stages = c_.pp;
        const double copies = expertTokensPerRank(m_, c_, tokensPerMicro_);
        AllToAllResult a = timeAllToAll(t_, timer_, g_, in);
        // Expert TP: the dispatch's tokens all-gathered over the ETP ranks after it, the
        // combine's reduce-scattered before it, on NVLink (ETP groups stay in a domain).
        const double etpS = nvlinkRingSeconds(g_, c_.etp, copies * m_.modelDim * 2);
        epAllToAllS_ = a.seconds + etpS;
        e_.epAllToAllS = epAllToAllS_;
        e_.epBytesPerAllToAll = in.bytesPerPeer * a.peers;
        e_.epPeers = a.peers;
        e_.epHosts = a.hosts;
        e_.epDispatcher = c_.epDispatcher;
        e_.epCrossesFabric = a.crossesFabric;
        epLinkBytesPerAllToAll_ = std::move(a.linkBytesByStage);
    }

    // TP's ring passes and their bytes; CP's K and V exchange, timed here by one fabric solve
    // (it runs as fixed phases inside the layers).
    void sizeTpAndTimeCp() {
        layerMicros_ = double(busiestLayers_) * M_; // layer passes per step on the busiest stage
        // TP: per layer 2 all-reduces forward and 2 backward of the micro-batch's activations
        // (bf16) - with sequence parallelism each an all-gather + a reduce-scatter of the same
        // volume: 8 ring passes either way; full recomputation repeats the forward's 4 on the
        // layers it reruns (all, or the block method's share, averaged over the layers).
        const double tpShard = tokensPerMicro_ * m_.modelDim * 2 / c_.tp;
        tpPassBytes_ = (c_.tp - 1) * tpShard; // per ring edge
        recomputeShare_ = fullyRecomputedShare(m_, c_);
        // Ring passes per layer: forward 4, recomputed forward 4 more, backward 4, and with
        // sequence parallelism 2 more (the column-parallel GEMMs' inputs gathered again).
        tpPasses_ = 8 + 4 * recomputeShare_ + (c_.sequenceParallel ? 2 : 0);
        // CP: all-gather of K and V forward, reduce-scatter of their gradients backward.
        cpShard_ = tokensPerMicro_ * (m_.kvCacheDim() / c_.tp) * 2;
        if (c_.cp > 1)
            e_.cpLinkBytes.assign(size_t(c_.pp), std::vector<float>(2 * t_.links.size(), 0.f));
        cpStepS_ = c_.cp > 1
                       ? timer_
                             .rings(groups_.cp, {cpShard_ * 2 * layerMicros_}, &e_.linkBytesPerStep,
                                    &groups_.stageOfCpGroup, &e_.cpLinkBytes)
                             .front()
                       : 0;
        e_.cpPerMicroS = cpStepS_ / M_;
        // PP: activations forward and gradients backward at each stage boundary, V times per
        // micro-batch (the last stage feeds the first stage's next chunk).
        ppBytes_ = tokensPerMicro_ * m_.modelDim * 2 / c_.tp;
    }

    // DP over DP x CP ranks. ZeRO 0: all-reduce of the gradients. ZeRO 1 and 2: reduce-scatter
    // of the gradients and all-gather of the updated bf16 weights, once per step, in buckets of
    // whole layers. ZeRO 3: one layer's bf16 weights gathered before each forward and backward,
    // its gradients reduce-scattered after each backward (the bytes here: one pass over the
    // stage's layers). A ring moves (members - 1) shards over each edge per collective.
    void sizeDpCollectives() {
        const double routed = m_.moeLayers() * m_.routedExpertParameters();
        // DualPipe: every stage holds two model stages' weights.
        const double copies = dualPipe() ? 2 : 1;
        paramsPerRank_ = copies * (m_.parameters() - routed) / (double(c_.tp) * c_.pp);
        const double expertRanks = double(c_.ep) * c_.etp; // the experts split over them
        expertParamsPerRank_ = copies * routed / (expertRanks * c_.pp);
        expertMembers_ = double(c_.tp) * c_.cp * c_.dp / expertRanks;
        members_ = double(c_.dp) * c_.cp;
        ringSteps_ = members_ - 1;
        const GradReduceDtype dtype =
            c_.gradReduceDtype != GradReduceDtype::Auto ? c_.gradReduceDtype
            : c_.zeroStage == 1 || c_.zeroStage == 2    ? GradReduceDtype::Fp32
                                                        : GradReduceDtype::Bf16;
        const double gradBytes = dtype == GradReduceDtype::Fp32 ? 4 : 2;
        // Per ring edge: the dense weights over DP x CP members; a MoE model's routed experts
        // over their expert-DP members, in buckets of their own after the dense ones on the
        // same stream (Megatron-Core): foldExpertDpBytes puts both on the stream's class.
        auto ring = [&](double members, double params, double bytesPerParam) {
            return members > 1 ? (members - 1) * params * bytesPerParam / members : 0.0;
        };
        denseGatherBytes_ = ring(members_, paramsPerRank_, 2);
        denseReduceBytes_ = ring(members_, paramsPerRank_, gradBytes);
        expertGatherBytes_ = ring(expertMembers_, expertParamsPerRank_, 2);
        expertReduceBytes_ = ring(expertMembers_, expertParamsPerRank_, gradBytes);
        if (c_.zeroStage == 0) {
            denseGatherBytes_ = expertGatherBytes_ = 0; // an all-reduce gathers nothing apart
            reduceBytes_ = 2 * (denseReduceBytes_ + expertReduceBytes_); // RS + AG
            dpCollectives_ = 2;
        } else {
            gatherBytes_ = denseGatherBytes_ + expertGatherBytes_;
            reduceBytes_ = denseReduceBytes_ + expertReduceBytes_;
        }
        // Buckets of whole layers; a layer larger than the bucket goes as several collectives
        // (one per weight matrix at most), each paying its latency.
        const bool moe = m_.moe.present();
        const double layerParams =
            m_.denseParametersPerLayer(moe) / c_.tp +
            (moe ? m_.routedExpertParameters() / (double(c_.ep) * c_.etp) : 0);
        const double bucketParams =
            c_.dpBucketMParams > 0 ? c_.dpBucketMParams * 1e6 : std::max(40e6, 1e6 * members_);
        e_.dpBucketLayers =
            c_.zeroStage >= 3 ? 1 : std::max(1, int(std::floor(bucketParams / layerParams)));
        collectivesPerBucket_ =
            c_.zeroStage >= 3 // FSDP: one unit per layer
                ? 1
                : std::clamp(std::ceil(layerParams / bucketParams), 1.0, 2.0 + m_.ffnMatrices());
    }

    // The step's transfer classes on the fabric, in the schedule's numbering: each stage's DP
    // gathers and reductions, each boundary's sends both ways, each stage's TP rings.
    void addTransferClasses() {
        std::vector<std::vector<Edge>> dpEdges(size_t(c_.pp)), expertEdges(size_t(c_.pp));
        for (size_t i = 0; i < groups_.dp.size(); ++i)
            addRingEdges(groups_.dp[i], dpEdges[size_t(groups_.stageOfDpGroup[i])]);
        for (size_t i = 0; i < groups_.expertDp.size(); ++i)
            addRingEdges(groups_.expertDp[i], expertEdges[size_t(groups_.stageOfExpertDpGroup[i])]);
        // The DP stream runs on the dense ring's edges (the experts' ring's when DP x CP is 1).
        const std::vector<std::vector<Edge>> denseEdges = dpEdges;
        for (int st = 0; st < c_.pp; ++st)
            if (dpEdges[size_t(st)].empty()) dpEdges[size_t(st)] = expertEdges[size_t(st)];
        std::vector<std::vector<Edge>> sendEdges(size_t(classes_.boundaries));
        for (size_t i = 0; i < groups_.ppEdges.size(); ++i)
            sendEdges[size_t(groups_.ppBoundaryOfEdge[i])].push_back(groups_.ppEdges[i]);
        if (classes_.boundaries == c_.pp) // the wrap from the last stage to the first
            for (int d = 0; d < c_.dp; ++d)
                for (int cc = 0; cc < c_.cp; ++cc)
                    for (int tt = 0; tt < c_.tp; ++tt)
                        sendEdges.back().push_back({gpu(tt, cc, c_.pp - 1, d), gpu(tt, cc, 0, d)});
        for (int st = 0; st < c_.pp; ++st)
            share_.addClass(dpEdges[size_t(st)], c_.flowsPerPair);
        for (int st = 0; st < c_.pp; ++st)
            share_.addClass(dpEdges[size_t(st)], c_.flowsPerPair);
        auto reversed = [](std::vector<Edge> edges) {
            for (Edge& x : edges)
                std::swap(x.src, x.dst);
            return edges;
        };
        // Queue pairs per connection are a setting of the collective library's transport, so
        // pipeline sends open as many flows as the collectives do.
        for (const auto& edges : sendEdges)
            share_.addClass(edges, c_.flowsPerPair);
        for (const auto& edges : sendEdges)
            share_.addClass(reversed(edges), c_.flowsPerPair);
        // TP: each stage's rings, inside hosts on NVLink where the placement keeps them there.
        std::vector<std::vector<Edge>> tpEdges(size_t(c_.pp));
        for (size_t i = 0; i < groups_.tp.size(); ++i) // groups in (d, p, cp) order
            addRingEdges(groups_.tp[i], tpEdges[size_t(int(i / size_t(c_.cp)) % c_.pp)]);
        for (int st = 0; st < c_.pp; ++st)
            share_.addClass(tpEdges[size_t(st)], c_.flowsPerPair);
        shareId_.resize(size_t(classes_.count()));
        for (int k = 0; k < classes_.count(); ++k)
            shareId_[size_t(k)] = k;
        // A MoE model's two DP rings apart, for their rates and the bytes each puts on the links
        // (never run).
        if (!groups_.expertDp.empty())
            for (int st = 0; st < c_.pp; ++st) {
                denseDpClass_.push_back(share_.addClass(denseEdges[size_t(st)], c_.flowsPerPair));
                expertDpClass_.push_back(share_.addClass(expertEdges[size_t(st)], c_.flowsPerPair));
            }
    }

    // A MoE model's DP stream moves the dense ring's bytes, then the experts' ring's, each at
    // its own ring's rate; on the stream's class (one ring's edges) they count as the bytes
    // that take as long at the class's rate.
    void foldExpertDpBytes() {
        if (expertDpClass_.empty() || expertGatherBytes_ + expertReduceBytes_ <= 0) return;
        const double classRate = share_.soloRate(classes_.reduce(0));
        const double denseRate =
            denseGatherBytes_ + denseReduceBytes_ > 0 ? share_.soloRate(denseDpClass_[0]) : 1;
        const double expertRate = share_.soloRate(expertDpClass_[0]);
        if (!(classRate > 0) || !(denseRate > 0) || !(expertRate > 0)) return;
        auto onClass = [&](double dense, double expert) {
            return dense * classRate / denseRate + expert * classRate / expertRate;
        };
        gatherBytes_ = onClass(denseGatherBytes_, expertGatherBytes_);
        reduceBytes_ = (c_.zeroStage == 0 ? 2 : 1) * onClass(denseReduceBytes_, expertReduceBytes_);
    }

    // One TP ring pass alone, and what it takes besides its bytes: across hosts its ring's
    // step latencies; inside a host what NCCL loses at the collective's message size (the
    // measured curve includes the latencies), as time after the bytes.
    void timeTpPass() {
        if (c_.tp <= 1) return;
        const double bytesS = tpPassBytes_ / share_.soloRate(classes_.tp(0));
        if (share_.crossesFabric(classes_.tp(0))) {
            tpLatencyS_ = (c_.tp - 1) * nccl::kFabricStepLatencyS;
        } else {
            e_.tpSizeFraction = ncclSizeFraction(g_.family, tokensPerMicro_ * m_.modelDim * 2);
            tpLatencyS_ = bytesS * (1 / e_.tpSizeFraction - 1);
        }
        tpPassS_ = bytesS + tpLatencyS_;
    }

    // ZeRO 0's gradient all-reduce: a ring, or NCCL's double binary tree (half the data over
    // each tree edge, 2 log2(n) step latencies instead of 2 (n - 1)); auto takes the one a
    // layer's bucket finishes sooner with, alone on the fabric. A tree runs in the reduce
    // classes' place. ZeRO 1-3's all-gathers and reduce-scatters: a ring or PAT.
    void chooseDpAllReduce() {
        const double stepLatencyS = share_.crossesFabric(classes_.reduce(0))
                                        ? nccl::kFabricStepLatencyS
                                        : nccl::kNvlinkStepLatencyS;
        dpLatencyS_ = collectivesPerBucket_ * dpCollectives_ * ringSteps_ * stepLatencyS;
        if (c_.zeroStage != 0) {
            chooseShardedCollective(stepLatencyS);
            return;
        }
        // A MoE model's gradients reduce in rings (the experts' over expert-DP).
        if (members_ <= 2 || c_.allReduce == AllReduceAlgorithm::Ring || m_.moe.present()) return;
        std::vector<std::vector<Edge>> treeEdges(size_t(c_.pp));
        for (size_t i = 0; i < groups_.dp.size(); ++i)
            addTreeEdges(groups_.dp[i], treeEdges[size_t(groups_.stageOfDpGroup[i])]);
        std::vector<int> treeId;
        for (const auto& edges : treeEdges)
            treeId.push_back(share_.addClass(edges, c_.flowsPerPair));
        const double treeBytes = paramsPerRank_ * 2 / 2; // per edge: half the gradients
        const double treeLatencyS =
            collectivesPerBucket_ * 2 * std::ceil(std::log2(members_)) * stepLatencyS;
        const double buckets =
            std::max(1, stages_.layersHeldByStage(0)) / double(e_.dpBucketLayers);
        const double ringS =
            reduceBytes_ / buckets / share_.soloRate(classes_.reduce(0)) + dpLatencyS_;
        const double treeS = treeBytes / buckets / share_.soloRate(treeId.front()) + treeLatencyS;
        e_.dpTree = c_.allReduce == AllReduceAlgorithm::Tree || treeS < ringS;
        if (!e_.dpTree) return;
        for (int st = 0; st < c_.pp; ++st)
            shareId_[size_t(classes_.reduce(st))] = treeId[size_t(st)];
        reduceBytes_ = treeBytes;
        dpLatencyS_ = treeLatencyS;
    }

    // PAT (NCCL 2.23+): all-gather and reduce-scatter over log2(n) steps of trees, at 3/4 of a
    // ring's bus bandwidth, plus a part linear in the ranks; NCCL enables it only with one rank
    // per host. Auto takes the faster for a bucket alone on the fabric, as NCCL's tuner does.
    void chooseShardedCollective(double stepLatencyS) {
        if (members_ <= 2 || c_.shardedCollective == ShardedCollective::Ring) return;
        std::set<int32_t> hosts;
        for (int32_t g : groups_.dp.front())
            hosts.insert(t_.gpus[size_t(g)].host);
        const bool onePerHost = hosts.size() == groups_.dp.front().size();
        if (!onePerHost && c_.shardedCollective == ShardedCollective::Auto) return;
        const double patLatencyS =
            collectivesPerBucket_ * dpCollectives_ *
            (std::ceil(std::log2(members_)) * stepLatencyS / nccl::kPatLogStepDivisor +
             members_ * nccl::kPatPerRankLatencyS);
        const double layers = std::max(1, stages_.layersHeldByStage(0));
        const double bucketBytes = reduceBytes_ / layers * e_.dpBucketLayers;
        const double rate = share_.soloRate(classes_.reduce(0));
        const double ringS = bucketBytes / rate + dpLatencyS_;
        const double patS = bucketBytes / (rate * nccl::kPatBandwidthFraction) + patLatencyS;
        e_.dpPat = c_.shardedCollective == ShardedCollective::Pat || patS < ringS;
        if (!e_.dpPat) return;
        dpRateFraction_ = nccl::kPatBandwidthFraction;
        dpLatencyS_ = patLatencyS;
    }

    // What TP exposes per layer: the forward's 4 passes (and full recomputation's), unless TP
    // overlap hides them under the GEMMs; the backward's 4 run beside the weight-gradient GEMMs
    // (as Megatron-LM's asynchronous TP all-reduce does), exposed only where they last longer;
    // sequence parallelism's 2 re-gathers are exposed, as the published layer times show. The
    // event engine runs them as collectives of their own; these estimates only report the split.
    void splitTpExposure() {
        const double pass = tpPassS_;
        tpForwardS_ = c_.overlap.tpComm ? std::max(0.0, 4 * pass - layer_.gemmS) : 4 * pass;
        tpBackwardS_ = recomputeShare_ * tpForwardS_ + std::max(0.0, 4 * pass - layer_.gemmS) +
                       (c_.sequenceParallel ? 2 * pass : 0);
        e_.tpPerMicroS = busiestLayers_ * (tpForwardS_ + tpBackwardS_);
    }

    // Compute beside communication kernels loses the SMs they hold (TrainingEfficiency.h): per
    // layer pass, while TP's collectives run beside its GEMMs and the overlapped DP collectives
    // beside it (exposed ones run alone and cost nothing here). The cost runs as a compute phase
    // at the pass's end; TP's only where the slowed GEMMs outlast the collective beside them.
    void timeComputeBesideComm() {
        LayerPassBeside x;
        x.forwardS = layer_.forwardS;
        x.backwardS = layer_.backwardS + layer_.recomputeS;
        x.gemmS = layer_.gemmS;
        x.tpCommS = c_.tp > 1 ? 4 * tpPassS_ : 0;
        x.tpUserbuffers = c_.overlap.tpComm;
        x.precision = c_.precision;
        x.recomputeShare = recomputeShare_;
        std::tie(x.dpGatherS, x.dpReduceS) = dpBesidePerLayerPass(x.forwardS, x.backwardS);
        x.weightsSharded = c_.zeroStage >= 3;
        const CommSmsLoss loss = commSmsLoss(x, g_.sms);
        smsLoss_ = loss;
        e_.commSmsForwardLayerS = loss.forwardS;
        e_.commSmsBackwardLayerS = loss.backwardS;
        e_.commSmsLossS = layerMicros_ * (loss.forwardS + loss.backwardS);
        e_.unexplainedComputeS = layerMicros_ * unexplainedPerLayerS_;
        e_.inTrainingFraction = kernelConstants(g_).inTrainingFraction;
    }

    // The time the overlapped DP gathers and reductions run beside one layer's forward and
    // backward. Sharded weights: each layer's own, one layer ahead. Replicated: the step's
    // buckets, at most beside one micro-batch's passes of the stage's layers (they run ahead of
    // the first forwards and after the last backwards), spread over the step's layer passes.
    std::pair<double, double> dpBesidePerLayerPass(double forwardS, double backwardS) const {
        const double layers = std::max(1, stages_.layersHeldByStage(0));
        const bool gather = c_.overlap.dpParamGather && gatherBytes_ > 0;
        const bool reduce = c_.overlap.dpGradReduce && reduceBytes_ > 0;
        const double gatherRate =
            gather ? share_.soloRate(classes_.gather(0)) * dpRateFraction_ : 0;
        const double reduceRate =
            reduce ? share_.soloRate(shareId_[size_t(classes_.reduce(0))]) * dpRateFraction_ : 0;
        if (!(gatherRate > 0) && !(reduceRate > 0)) return {0, 0};
        double gatherS = gatherRate > 0 ? gatherBytes_ / gatherRate : 0;
        double reduceS = reduceRate > 0 ? reduceBytes_ / reduceRate : 0;
        if (c_.zeroStage >= 3) {
            return {gatherRate > 0 ? gatherS / layers + dpLatencyS_ : 0,
                    reduceRate > 0 ? reduceS / layers + dpLatencyS_ : 0};
        }
        const double buckets = layers / e_.dpBucketLayers;
        if (gatherRate > 0) gatherS = std::min(gatherS + buckets * dpLatencyS_, layers * forwardS);
        if (reduceRate > 0) reduceS = std::min(reduceS + buckets * dpLatencyS_, layers * backwardS);
        const double passes = std::max(1.0, layers * M_);
        return {gatherS / passes, reduceS / passes};
    }

    // The bytes each link direction carries over the step, per stage and per boundary.
    void addLinkBytes() {
        std::vector<double>* bytes = &e_.linkBytesPerStep;
        const size_t directions = 2 * t_.links.size();
        e_.dpLinkBytes.assign(size_t(c_.pp), std::vector<float>(directions, 0.f));
        // ZeRO 3 gathers in every pass and reduces after every backward.
        const double gathers = c_.zeroStage >= 3 ? 2 * M_ : 1,
                     reductions = c_.zeroStage >= 3 ? M_ : 1;
        for (int st = 0; st < c_.pp; ++st) {
            if (!denseDpClass_.empty() && !e_.dpTree) { // each ring its own bytes
                const double both = c_.zeroStage == 0 ? 2 : 1;
                share_.addLinkBytes(denseDpClass_[size_t(st)],
                                    denseGatherBytes_ * gathers +
                                        both * denseReduceBytes_ * reductions,
                                    bytes, &e_.dpLinkBytes[size_t(st)]);
                share_.addLinkBytes(expertDpClass_[size_t(st)],
                                    expertGatherBytes_ * gathers +
                                        both * expertReduceBytes_ * reductions,
                                    bytes, &e_.dpLinkBytes[size_t(st)]);
                continue;
            }
            share_.addLinkBytes(classes_.gather(st), gatherBytes_ * gathers, bytes,
                                &e_.dpLinkBytes[size_t(st)]);
            share_.addLinkBytes(shareId_[size_t(classes_.reduce(st))], reduceBytes_ * reductions,
                                bytes, &e_.dpLinkBytes[size_t(st)]);
        }
        // EP: four all-to-alls per MoE layer and micro-batch of the stage.
        if (!epLinkBytesPerAllToAll_.empty()) {
            e_.epLinkBytes = std::move(epLinkBytesPerAllToAll_);
            for (int st = 0; st < c_.pp; ++st) {
                const double times = 4.0 * stages_.layerPassesOfStage(st, true, M_);
                for (size_t l = 0; l < e_.epLinkBytes[size_t(st)].size(); ++l) {
                    float& b = e_.epLinkBytes[size_t(st)][l];
                    b = float(b * times);
                    (*bytes)[l] += b;
                }
            }
        }
        e_.ppLinkBytes.assign(size_t(2 * classes_.boundaries), std::vector<float>(directions, 0.f));
        for (int b = 0; b < classes_.boundaries; ++b) {
            const double sends = (b < c_.pp - 1 ? V_ : V_ - 1) * M_; // each way
            share_.addLinkBytes(classes_.sendForward(b), ppBytes_ * sends, bytes,
                                &e_.ppLinkBytes[size_t(b)]);
            share_.addLinkBytes(classes_.sendBackward(b), ppBytes_ * sends, bytes,
                                &e_.ppLinkBytes[size_t(classes_.boundaries + b)]);
        }
        // TP over the step: its passes for every layer and micro-batch of the stage.
        const bool tpOnFabric = share_.crossesFabric(classes_.tp(0));
        if (tpOnFabric) e_.tpLinkBytes.assign(size_t(c_.pp), std::vector<float>(directions, 0.f));
        for (int st = 0; st < c_.pp; ++st)
            share_.addLinkBytes(classes_.tp(st),
                                tpPasses_ * tpPassBytes_ *
                                    stages_.layerPassesOfStage(st, false, M_),
                                bytes, tpOnFabric ? &e_.tpLinkBytes[size_t(st)] : nullptr);
    }

    // The optimizer step streams its state through HBM: the dense parameters' and the routed
    // experts', each sharded over its own data-parallel group with ZeRO.
    void timeOptimizer() {
        const double optimizerParams =
            c_.zeroStage >= 1 ? paramsPerRank_ / members_ + expertParamsPerRank_ / expertMembers_
                              : paramsPerRank_ + expertParamsPerRank_;
        e_.optimizerS = optimizerParams * efficiency::kOptimizerBytesPerParam /
                        (g_.hbmGBps * 1e9 * efficiency::kOptimizerHbmFraction);
    }

    // Every layer's forward and backward as phases of compute, TP collectives and CP time; and
    // the split of a layer pass that the estimate reports.
    void addLayerPhases(ScheduleInput& in) {
        const double cpPerLayer = layerMicros_ > 0 ? cpStepS_ / layerMicros_ : 0;
        if (c_.cp > 1) in.forwardLayer.push_back({cpPerLayer / 2, 0, 0, true});
        addForwardPhases(c_, layer_.forwardS, layer_.gemmS, tpPassBytes_, in.forwardLayer);
        if (c_.cp > 1) in.backwardLayer.push_back({cpPerLayer / 2, 0, 0, true});
        if (recomputeShare_ > 0)
            addForwardPhases(c_, layer_.recomputeS, layer_.gemmS, tpPassBytes_, in.backwardLayer,
                             recomputeShare_);
        else if (layer_.recomputeS > 0)
            in.backwardLayer.push_back({layer_.recomputeS});
        // Backward: its TP collectives beside the weight-gradient GEMMs, then the rest of its
        // compute, then sequence parallelism's two re-gathers.
        // ZB-H1: the weight-gradient GEMMs (as long as the forward's) become a pass of their
        // own; the input gradient keeps the rest, its TP collectives beside its own GEMMs.
        const bool split =
            c_.schedule == PipelineSchedule::ZbH1 || c_.schedule == PipelineSchedule::DualPipe;
        const double weightS = split ? layer_.gemmS : 0;
        if (c_.tp > 1) {
            in.backwardLayer.push_back({layer_.gemmS, 4 * tpPassBytes_, 4});
            in.backwardLayer.push_back({layer_.backwardS - layer_.gemmS - weightS});
            if (c_.sequenceParallel) in.backwardLayer.push_back({0, 2 * tpPassBytes_, 2});
        } else {
            in.backwardLayer.push_back({layer_.backwardS - weightS});
        }
        if (smsLoss_.forwardS > 0) in.forwardLayer.push_back({smsLoss_.forwardS});
        if (smsLoss_.backwardS > 0) in.backwardLayer.push_back({smsLoss_.backwardS});
        in.splitWeightGradients = split && !dualPipe();
        if (split) in.weightLayer.push_back({weightS});
        if (dualPipe()) { // a pair's backward is a whole one
            in.forwardLayerPaired = in.forwardLayer;
            in.backwardLayerPaired = in.backwardLayer;
            in.backwardLayerPaired.insert(in.backwardLayerPaired.end(), in.weightLayer.begin(),
                                          in.weightLayer.end());
        }
        addExpertAllToAll(in);
        addHostWait(in);
        in.tpLatencyS = tpLatencyS_;
        e_.forwardLayer = {layer_.forwardS, tpForwardS_, cpPerLayer / 2};
        e_.backwardLayer = {layer_.backwardS + layer_.recomputeS, tpBackwardS_, cpPerLayer / 2};
        // What one GPU sends per layer and micro-batch: a ring pass moves (n - 1) shards.
        e_.tpBytesForwardLayer = 4 * tpPassBytes_;
        e_.tpBytesBackwardLayer = (tpPasses_ - 4) * tpPassBytes_;
        e_.cpBytesLayer = (c_.cp - 1) * cpShard_;
    }

    bool dualPipe() const { return stages_.dualPipe(); }

    // A MoE layer's two all-to-alls per pass (dispatch and combine) as the exposed phase that
    // ends its forward and its backward. Overlapped with another micro-batch's compute
    // (DeepEP-style), only what outlasts the pass's compute stays exposed, and while they run
    // the communication kernels hold SMs the GEMMs lose. DualPipe's pairs hide each pass's
    // all-to-all behind the other pass's compute, with or without that overlap.
    void addExpertAllToAll(ScheduleInput& in) {
        if (epAllToAllS_ <= 0) return;
        const double both = 2 * epAllToAllS_;
        double smsS = 0; // the last pass's compute lost to the SMs the all-to-all holds
        auto add = [&](std::vector<LayerPhase>& pass, double besideS, bool reserved = false) {
            double exposed = both;
            smsS = 0;
            if (besideS > 0) {
                exposed = std::max(0.0, both - besideS);
                smsS = expertAllToAllSmsS(besideS, both, efficiency::epCommSms(e_.epDispatcher),
                                          g_.sms, reserved);
                if (smsS > 0) pass.push_back({smsS});
            }
            if (exposed > 0) pass.push_back({exposed, 0, 0, false, true});
            return exposed;
        };
        const double forwardS = layer_.forwardS, backwardS = layer_.backwardS + layer_.recomputeS;
        const bool overlap = c_.overlap.epComm;
        e_.epForwardLayerS = add(in.forwardLayer, overlap ? forwardS : 0);
        e_.commSmsForwardLayerS += smsS;
        e_.epBackwardLayerS = add(in.backwardLayer, overlap ? backwardS : 0);
        e_.commSmsBackwardLayerS += smsS;
        e_.commSmsLossS = layerMicros_ * (e_.commSmsForwardLayerS + e_.commSmsBackwardLayerS);
        if (!dualPipe()) return;
        add(in.forwardLayerPaired, backwardS, true);
        add(in.backwardLayerPaired, forwardS, true);
    }

    // Run eagerly, the host issues a MoE layer's kernels op by op, and the dispatcher waits for
    // the GPU's token counts before its all-to-all: the host cannot run ahead, so a layer pass
    // lasts at least the host's time to issue it. Where that is longer than the pass's GPU
    // work (compute, exposed all-to-all and CP, TP collectives as estimated), the GPU waits:
    // a phase of its own. Only a layer's forward and backward together were measured; they
    // divide as the layer's compute does [assumption]. With the all-to-all overlapped, and in
    // DualPipe's pairs, the host issues a forward and a backward as one interleaved unit
    // (Megatron-Core's combined 1F1B): the pair lasts at least the whole host time.
    void addHostWait(ScheduleInput& in) {
        const double hostS = m_.moe.present() ? moeLayerHostSeconds(c_) : 0;
        if (hostS <= 0) return;
        const double forwardS = layer_.forwardS, backwardS = layer_.backwardS + layer_.recomputeS;
        if (forwardS + backwardS <= 0) return;
        e_.moeLayerHostS = hostS;
        HostIssue h{hostS, forwardS / (forwardS + backwardS), tpForwardS_, tpBackwardS_,
                    c_.overlap.epComm};
        // ZB-H1's weight-gradient pass is issued with the backward.
        for (const LayerPhase& x : in.weightLayer)
            h.backwardExtraS += x.computeS;
        const auto [f, b] = appendHostWait(in.forwardLayer, in.backwardLayer, h);
        e_.hostBoundForwardLayerS = f, e_.hostBoundBackwardLayerS = b;
        if (!dualPipe()) return;
        h.backwardExtraS = tpBackwardS_;
        h.asOne = true;
        appendHostWait(in.forwardLayerPaired, in.backwardLayerPaired, h);
    }

    // Each stage's chunks: their layers, and the head on the last chunk of the last model stage.
    void addChunks(ScheduleInput& in) {
        e_.headForwardS = headS_ / 3;
        e_.headBackwardS = headS_ * 2 / 3;
        const int chunks = stages_.chunksPerStage();
        for (int st = 0; st < c_.pp; ++st) {
            std::vector<double> fwd(size_t(chunks), 0.0), bwd(size_t(chunks), 0.0);
            std::vector<int> layers;
            for (int ch = 0; ch < chunks; ++ch) {
                const bool head =
                    stages_.modelStageOf(st, ch) == c_.pp - 1 && (dualPipe() || ch == chunks - 1);
                fwd[size_t(ch)] = head ? e_.headForwardS : 0; // beside the layers' phases
                bwd[size_t(ch)] = head ? e_.headBackwardS : 0;
                layers.push_back(stages_.layersOfChunkOnStage(st, ch));
            }
            in.forwardS.push_back(fwd);
            in.backwardS.push_back(bwd);
            in.layersPerChunk.push_back(layers);
            e_.layersPerChunk.push_back(layers);
        }
    }

    // The DP collectives' and sends' bytes, latencies and overlap.
    void addTransfers(ScheduleInput& in) const {
        // A slower algorithm on the same edges moves its bytes as if there were more of them.
        in.gatherBytes.assign(size_t(c_.pp), gatherBytes_ / dpRateFraction_);
        in.reduceBytes.assign(size_t(c_.pp), reduceBytes_ / dpRateFraction_);
        in.weightsSharded = c_.zeroStage >= 3;
        in.bucketLayers = e_.dpBucketLayers;
        in.sendBytes = classes_.boundaries > 0 ? ppBytes_ : 0;
        // Per collective: its ring's step latencies; per send: one hop.
        in.dpLatencyS = dpLatencyS_;
        const bool ppOnFabric =
            classes_.boundaries > 0 && share_.crossesFabric(classes_.sendForward(0));
        in.sendLatencyS = ppOnFabric ? nccl::kFabricStepLatencyS : nccl::kNvlinkStepLatencyS;
        in.overlapGather = c_.overlap.dpParamGather;
        in.overlapReduce = c_.overlap.dpGradReduce;
        in.overlapSend = c_.overlap.ppComm;
        in.optimizerS = e_.optimizerS;
    }

    // The step as events: each stage's passes in 1F1B order, each layer of a pass as its
    // phases of compute, TP collectives and CP time (the head on the last chunk); then what the
    // timeline says of the step.
    void runEventSchedule() {
        ScheduleInput in;
        in.stages = c_.pp;
        in.chunks = stages_.chunksPerStage();
        in.microBatches = int(std::llround(M_));
        in.dualPipe = dualPipe();
        addLayerPhases(in);
        addChunks(in);
        addTransfers(in);
        MappedShare scheduleShare(share_, shareId_);
        in.share = &scheduleShare;
        auto schedule = std::make_shared<ScheduleResult>(runSchedule(in));
        if (keepProgram_) {
            auto p = std::make_shared<StepProgram>();
            p->router = routerPtr_;
            p->share = sharePtr_;
            p->shareId = shareId_;
            p->mapped = std::make_unique<MappedShare>(*sharePtr_, shareId_);
            p->input = std::move(in);
            p->input.share = p->mapped.get();
            program_ = std::move(p);
        }
        e_.dpAllGatherS = schedule->gatherBusyS;
        e_.dpReduceScatterS = schedule->reduceBusyS;
        e_.ppTransferS = schedule->meanSendS;
        e_.fabricSolves = share_.solves();
        e_.loadsSolved = share_.loadsSolved();
        e_.linksLoaded = share_.linksLoaded();
        e_.linksSolved = share_.linksSolved();
        e_.stepS = schedule->stepS;
        e_.pipelineS = schedule->computeEndS;
        e_.breakdown = breakdownOfStep(*schedule);
        e_.schedule = std::move(schedule);
    }

    // Throughput as the papers report it: model FLOPs (no recomputation) per GPU and second.
    void headlineFigures() {
        e_.modelFlopsPerStep = modelFlopsPerStep(m_, c_);
        e_.tflopsPerGpu = e_.modelFlopsPerStep / (double(c_.gpus()) * e_.stepS) / 1e12;
        e_.mfu = e_.tflopsPerGpu / g_.peakTflops(c_.precision);
        e_.tokensPerS = c_.tokensPerStep() / e_.stepS;
        e_.bubbleFraction = e_.breakdown.slowest()[StepPart::Bubble] / e_.stepS;
    }

    const Topology& t_;
    const TopologyIndex& ix_;
    const ModelSpec& m_;
    const GpuSpec& g_;
    const ParallelConfig& c_;
    const StageLayers stages_{m_, c_}; // what each stage runs, schedule included
    std::shared_ptr<FabricRouter> routerPtr_;
    FabricRouter& router_;
    CollectiveTimer timer_;
    std::shared_ptr<FabricShare> sharePtr_;
    FabricShare& share_;
    const ScheduleClasses classes_;
    const bool keepProgram_;
    std::shared_ptr<const StepProgram> program_;
    std::vector<int> shareId_; // schedule class -> the share's class that runs it
    StepEstimate e_;
    double M_ = 0, V_ = 1; // micro-batches per replica and step; virtual stages
    RankGroups groups_;
    double tokensPerMicro_ = 0, headS_ = 0;
    LayerTimes layer_;
    int busiestLayers_ = 0;
    double layerMicros_ = 0, cpStepS_ = 0, cpShard_ = 0, ppBytes_ = 0;
    double tpPassBytes_ = 0, tpPasses_ = 0, tpPassS_ = 0, tpLatencyS_ = 0;
    double tpForwardS_ = 0, tpBackwardS_ = 0;
    // Per layer pass: what the SMs communication holds cost compute, and what the family's
    // in-training fraction adds to the kernels' own times.
    CommSmsLoss smsLoss_;
    double unexplainedPerLayerS_ = 0;
    double recomputeShare_ = 0; // of the layers, those full recomputation reruns
    // DP: per edge of a ring over `members_` ranks.
    double paramsPerRank_ = 0, members_ = 0, ringSteps_ = 0;
    double gatherBytes_ = 0, reduceBytes_ = 0, dpCollectives_ = 1, dpLatencyS_ = 0;
    double collectivesPerBucket_ = 1;
    // MoE: the experts' share of the DP bytes and its ring, and the all-to-all.
    double expertParamsPerRank_ = 0, expertMembers_ = 1;
    double denseGatherBytes_ = 0, denseReduceBytes_ = 0;
    double expertGatherBytes_ = 0, expertReduceBytes_ = 0;
    std::vector<int> denseDpClass_, expertDpClass_;
    double epAllToAllS_ = 0;
    std::vector<std::vector<float>> epLinkBytesPerAllToAll_;
    double dpRateFraction_ = 1; // of a ring's rate on the same edges (PAT: less)
};

// The estimator saw the GPU at its power-limited clock; MFU is of the part's own peak.
StepEstimate withNominalPeak(StepEstimate e, const GpuSpec& g, const ParallelConfig& c) {
    e.gpuClockFraction = gpuClockUnderPowerLimit(g, c.gpuPowerLimitW);
    e.mfu = e.tflopsPerGpu / g.peakTflops(c.precision);
    return e;
}

} // namespace

StepEstimate estimateStep(const Topology& t, const TopologyIndex& ix, const ModelSpec& m,
                          const GpuSpec& g, const ParallelConfig& given, ShareSolver solver,
                          std::vector<double> capacityLeft) {
    const ParallelConfig c = withResolvedDefaults(m, given);
    checkTrainingConfig(m, g, c); // before anything is placed or routed
    const GpuSpec clocked = gpuUnderPowerLimit(g, c.gpuPowerLimitW);
    return withNominalPeak(
        StepEstimator(t, ix, m, clocked, c, solver, std::move(capacityLeft)).run(), g, c);
}

StepEstimate estimateStep(const Topology& t, const TopologyIndex& ix, const ModelSpec& m,
                          const GpuSpec& g, const ParallelConfig& given,
                          std::shared_ptr<const StepProgram>& program) {
    const ParallelConfig c = withResolvedDefaults(m, given);
    checkTrainingConfig(m, g, c);
    const GpuSpec clocked = gpuUnderPowerLimit(g, c.gpuPowerLimitW);
    StepEstimator e(t, ix, m, clocked, c, ShareSolver::BindingLinks, {}, true);
    StepEstimate out = withNominalPeak(e.run(), g, c);
    program = e.program();
    return out;
}

} // namespace cs
