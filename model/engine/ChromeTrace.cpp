#include "ChromeTrace.h"

#include "RankPlacement.h"
#include "RunSummaryJson.h"
#include "StepSchedule.h"
#include "TrainingEnumNames.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace cs {
namespace {

enum Thread { Compute, Tp, Cp, Pp, Dp, Parts, Ep };

// Trace events as Perfetto reads them: complete slices ("X", in microseconds) and the names
// of processes and threads ("M").
struct TraceEvents {
    QJsonArray events;

    void slice(int pid, int tid, const QString& name, double startS, double durS,
               const QString& cat, const QJsonObject& args = {}) {
        if (durS <= 0) return;
        QJsonObject o{{"ph", "X"},  {"name", name},       {"cat", cat},       {"pid", pid},
                      {"tid", tid}, {"ts", startS * 1e6}, {"dur", durS * 1e6}};
        if (!args.isEmpty()) o.insert("args", args);
        events.append(o);
    }
    void meta(const char* what, int pid, int tid, const QString& name) {
        QJsonObject o{
            {"ph", "M"}, {"name", what}, {"pid", pid}, {"args", QJsonObject{{"name", name}}}};
        if (tid >= 0) o.insert("tid", tid);
        events.append(o);
    }
};

QJsonArray gpuList(const std::vector<int32_t>& ids) {
    QJsonArray a;
    for (int32_t g : ids)
        a.append(g);
    return a;
}

// The DP replicas shown: the first, the middle and the last. The engine runs one replica's
// schedule and the others by symmetry, so they show the same times on their own GPUs.
std::vector<int> sampledReplicas(const ParallelConfig& c) {
    std::vector<int> replicas{0};
    for (int d : {c.dp / 2, c.dp - 1})
        if (d > 0 && std::find(replicas.begin(), replicas.end(), d) == replicas.end())
            replicas.push_back(d);
    return replicas;
}

// One pipeline stage of one sampled replica (TP rank 0, CP rank 0): its process, and the GPUs
// its comm slices name as peers.
struct StageProcess {
    int replica = 0, stage = 0, pid = 0, gpu = 0;
    std::vector<int32_t> tpPeers, cpPeers, dpPeers, epPeers;
};

class StepTrace {
public:
    StepTrace(const RunResult& r, const RunSpec& spec)
        : e_(r.step), c_(spec.parallel), sched_(*r.step.schedule) {}

    QByteArray document() {
        for (int d : sampledReplicas(c_))
            for (int s = 0; s < c_.pp && s < int(sched_.passes.size()); ++s) {
                const StageProcess p = processOf(d, s);
                nameProcess(p);
                addPasses(p);
                addCpExposed(p);
                addEpExposed(p);
                out_.slice(p.pid, Compute, "optimizer", e_.stepS - e_.optimizerS, e_.optimizerS,
                           "compute");
                addTransfers(p);
                addStepParts(p);
            }
        // The step's parts for the slowest stage and per stage, as the summary gives them.
        QJsonArray stages;
        for (const StepParts& parts : e_.breakdown.stages)
            stages.append(stepPartsJson(parts));
        const QJsonObject parts{{"breakdown", stepPartsJson(e_.breakdown.slowest())},
                                {"slowestStage", e_.breakdown.slowestStage},
                                {"stages", stages}};
        return QJsonDocument(QJsonObject{{"traceEvents", out_.events},
                                         {"displayTimeUnit", "ms"},
                                         {"otherData", parts}})
            .toJson(QJsonDocument::Compact);
    }

private:
    int32_t gpuOf(RankCoord x) const { return e_.gpuOfRank[size_t(rankOf(c_, x))]; }

    StageProcess processOf(int d, int s) const {
        StageProcess p;
        p.replica = d, p.stage = s, p.pid = d * c_.pp + s; // replica 0's stages: pids 0 .. pp-1
        p.gpu = gpuOf({0, 0, s, d});
        for (int t = 1; t < c_.tp; ++t)
            p.tpPeers.push_back(gpuOf({t, 0, s, d}));
        for (int k = 1; k < c_.cp; ++k)
            p.cpPeers.push_back(gpuOf({0, k, s, d}));
        // The DP group's first few other members (all of it would be thousands of ids).
        for (int k = 0; k < c_.cp && p.dpPeers.size() < 8; ++k)
            for (int r = 0; r < c_.dp && p.dpPeers.size() < 8; ++r)
                if (r != d || k != 0) p.dpPeers.push_back(gpuOf({0, k, s, r}));
        // The EP group: the stage's ranks in (t, c, d) order, ETP x EP at a time, every ETP-th
        // from the rank's own (parallel folding, ETP fastest).
        if (c_.ep > 1) {
            const int block = c_.ep * c_.etp, own = c_.tp * c_.cp * d;
            const int first = own / block * block + own % c_.etp;
            for (int i = first; i < first + block; i += c_.etp) {
                const RankCoord x{i % c_.tp, (i / c_.tp) % c_.cp, s, i / (c_.tp * c_.cp)};
                if (x.d != d || x.t != 0 || x.c != 0) p.epPeers.push_back(gpuOf(x));
            }
        }
        return p;
    }

    void nameProcess(const StageProcess& p) {
        out_.meta("process_name", p.pid, -1,
                  p.replica == 0 ? QStringLiteral("PP stage %1 (GPU %2)").arg(p.stage).arg(p.gpu)
                                 : QStringLiteral("PP stage %1, DP replica %2 (GPU %3)")
                                       .arg(p.stage)
                                       .arg(p.replica)
                                       .arg(p.gpu));
        out_.meta("thread_name", p.pid, Compute, "compute");
        if (c_.tp > 1) out_.meta("thread_name", p.pid, Tp, "TP");
        if (c_.cp > 1) out_.meta("thread_name", p.pid, Cp, "CP");
        if (c_.ep > 1) out_.meta("thread_name", p.pid, Ep, "EP");
        out_.meta("thread_name", p.pid, Pp, "PP");
        out_.meta("thread_name", p.pid, Dp, "DP");
        out_.meta("thread_name", p.pid, Parts, "where the time goes");
    }

    // Passes with their layers inside, as the engine ran them; a chunk holding only the
    // embedding or the head has one slot and no layer.
    void addPasses(const StageProcess& p) {
        size_t layerAt = 0;
        const auto& layerSpans = sched_.layers[size_t(p.stage)];
        for (const PassRecord& x : sched_.passes[size_t(p.stage)]) {
            out_.slice(p.pid, Compute,
                       QStringLiteral("%1 mb %2 chunk %3")
                           .arg(x.forward  ? "F"
                                : x.weight ? "W"
                                           : "B")
                           .arg(x.micro)
                           .arg(x.chunk),
                       x.fromS, x.toS - x.fromS,
                       x.forward  ? "forward"
                       : x.weight ? "weight-gradient"
                                  : "backward",
                       {{"microBatch", x.micro}, {"virtualStage", x.chunk}});
            const int layers = e_.layersPerChunk[size_t(p.stage)][size_t(x.chunk)];
            for (int l = 0; l < std::max(1, layers) && layerAt < layerSpans.size(); ++l, ++layerAt)
                if (layers > 0)
                    out_.slice(p.pid, Compute, QStringLiteral("layer %1").arg(l),
                               layerSpans[layerAt].fromS,
                               layerSpans[layerAt].toS - layerSpans[layerAt].fromS, "layer");
        }
    }

    // The stage's step part by part (StepBreakdown), under one slice whose arguments add them up.
    void addStepParts(const StageProcess& p) {
        out_.slice(p.pid, Parts, "step", 0, e_.stepS, "step",
                   stepPartsJson(e_.breakdown.stages[size_t(p.stage)]));
        for (const StepSegment& x : e_.breakdown.segments[size_t(p.stage)]) {
            const auto label = stepPartNames()[size_t(x.part)].label;
            out_.slice(p.pid, Parts, QString::fromLatin1(label.data(), qsizetype(label.size())),
                       x.fromS, x.toS - x.fromS, "part");
        }
    }

    // The CP time each layer leaves exposed.
    void addCpExposed(const StageProcess& p) {
        for (const Interval& x : sched_.cpExposed[size_t(p.stage)])
            out_.slice(p.pid, Cp, "CP K/V exchange (exposed)", x.fromS, x.toS - x.fromS, "cp",
                       {{"bytes", e_.cpBytesLayer / 2},
                        {"peers", c_.cp - 1},
                        {"peerGpus", gpuList(p.cpPeers)}});
    }

    // The expert all-to-alls each MoE layer leaves exposed (a dispatch and a combine).
    void addEpExposed(const StageProcess& p) {
        for (const Interval& x : sched_.epExposed[size_t(p.stage)])
            out_.slice(p.pid, Ep, "EP all-to-all, dispatch + combine (exposed)", x.fromS,
                       x.toS - x.fromS, "ep",
                       {{"bytes", 2 * e_.epBytesPerAllToAll},
                        {"peers", c_.ep - 1},
                        {"peerGpus", gpuList(p.epPeers)},
                        {"dispatcher", QString::fromStdString(enumName(e_.epDispatcher))},
                        {"hosts", e_.epHosts}});
    }

    // TP collectives as they ran (beside compute where they overlap it), PP sends, DP
    // collectives.
    void addTransfers(const StageProcess& p) {
        using Kind = TransferRecord::Kind;
        for (const TransferRecord& x : sched_.transfers) {
            if (x.stage != p.stage) continue;
            const bool send = x.kind == Kind::SendForward || x.kind == Kind::SendBackward;
            if (x.kind == Kind::Tp)
                out_.slice(
                    p.pid, Tp,
                    QStringLiteral("TP %1 mb %2 chunk %3 layer %4")
                        .arg(x.forward ? "forward" : "backward")
                        .arg(x.micro)
                        .arg(x.chunk)
                        .arg(x.layer),
                    x.fromS, x.toS - x.fromS, "tp",
                    {{"bytes", x.bytes}, {"peers", c_.tp - 1}, {"peerGpus", gpuList(p.tpPeers)}});
            else if (send)
                out_.slice(
                    p.pid, Pp,
                    QStringLiteral("send %1 mb %2 chunk %3 to stage %4")
                        .arg(x.kind == Kind::SendForward ? "activations" : "gradients")
                        .arg(x.micro)
                        .arg(x.chunk)
                        .arg(x.target),
                    x.fromS, x.toS - x.fromS, "pp",
                    {{"bytes", x.bytes},
                     {"peers", QStringLiteral("stages %1 and %2").arg(x.stage).arg(x.target)},
                     {"peerGpus", gpuList({gpuOf({0, 0, x.target, p.replica})})}});
            else
                out_.slice(p.pid, Dp, dpSliceName(x), x.fromS, x.toS - x.fromS, "dp",
                           {{"bytes", x.bytes},
                            {"peers", double(c_.dp) * c_.cp - 1},
                            {"peerGpusSample", gpuList(p.dpPeers)}});
        }
    }

    // "DP all-gather (pat) forward mb 2 chunk 0 layer 5", "DP reduce-scatter chunk 1 layers 4-7".
    QString dpSliceName(const TransferRecord& x) const {
        QString name = dpCollectiveName(x.kind);
        if (c_.zeroStage >= 3)
            name += QStringLiteral(" %1 mb %2")
                        .arg(x.kind == TransferRecord::Kind::Reduce ? "backward"
                             : x.forward                            ? "forward"
                                                                    : "backward")
                        .arg(x.micro);
        name += QStringLiteral(" chunk %1").arg(x.chunk);
        return x.layerCount > 1 ? name + QStringLiteral(" layers %1-%2")
                                             .arg(x.layer)
                                             .arg(x.layer + x.layerCount - 1)
                                : name + QStringLiteral(" layer %1").arg(x.layer);
    }

    QString dpCollectiveName(TransferRecord::Kind kind) const {
        const QString sharded = e_.dpPat ? " (pat)" : "";
        if (kind == TransferRecord::Kind::Gather) return "DP all-gather" + sharded;
        if (c_.zeroStage != 0) return "DP reduce-scatter" + sharded;
        const AllReduceAlgorithm ran =
            e_.dpTree ? AllReduceAlgorithm::Tree : AllReduceAlgorithm::Ring;
        return QStringLiteral("DP all-reduce (%1)").arg(QString::fromStdString(enumName(ran)));
    }

    const StepEstimate& e_;
    const ParallelConfig& c_;
    const ScheduleResult& sched_;
    TraceEvents out_;
};

} // namespace

// One process per pipeline stage and sampled DP replica, with threads: compute (passes, and the
// layers in them), TP collectives, the CP time each layer leaves exposed, PP sends, DP
// collectives.
QByteArray chromeTraceOfStep(const RunResult& r, const RunSpec& spec) {
    return StepTrace(r, spec).document();
}

} // namespace cs
