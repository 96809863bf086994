#include "StageGantt.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace cs {

std::string_view ganttRowLabel(GanttRow row) {
    switch (row) {
    case GanttRow::Forward:
        return "forward";
    case GanttRow::Backward:
        return "backward";
    case GanttRow::Tp:
        return "TP";
    case GanttRow::PpSend:
        return "PP sends";
    case GanttRow::DpGather:
        return "DP gathers";
    case GanttRow::DpReduce:
        return "DP reduces";
    }
    return "";
}

namespace {

// Sorted by start, bars closer than mergeS joined.
std::vector<GanttBar> merged(std::vector<GanttBar> bars, double mergeS) {
    std::sort(bars.begin(), bars.end(),
              [](const GanttBar& a, const GanttBar& b) { return a.fromS < b.fromS; });
    std::vector<GanttBar> out;
    for (const GanttBar& x : bars) {
        if (!out.empty() && x.fromS - out.back().toS <= mergeS)
            out.back().toS = std::max(out.back().toS, x.toS);
        else
            out.push_back({x.fromS, x.toS});
    }
    return out;
}

std::optional<GanttRow> rowOf(TransferRecord::Kind k) {
    switch (k) {
    case TransferRecord::Kind::Tp:
        return GanttRow::Tp;
    case TransferRecord::Kind::SendForward:
    case TransferRecord::Kind::SendBackward:
        return GanttRow::PpSend;
    case TransferRecord::Kind::Gather:
        return GanttRow::DpGather;
    case TransferRecord::Kind::Reduce:
        return GanttRow::DpReduce;
    }
    return std::nullopt;
}

double micros(double s) {
    return std::round(s * 1e6) / 1e6;
}

} // namespace

std::vector<StageGantt> ganttOfStep(const ScheduleResult& r, const StepBreakdown& b,
                                    double mergeS) {
    const size_t stages = r.passes.size();
    std::vector<StageGantt> out(stages);
    std::vector<std::array<std::vector<GanttBar>, kGanttRows>> raw(stages);
    for (size_t s = 0; s < stages; ++s) {
        out[s].stage = int(s);
        out[s].stepS = r.stepS;
        if (s < b.segments.size()) out[s].parts = b.segments[s];
        for (const PassRecord& p : r.passes[s])
            out[s].rows[size_t(p.forward ? GanttRow::Forward : GanttRow::Backward)].push_back(
                {p.fromS, p.toS, p.micro, p.chunk});
    }
    for (const TransferRecord& t : r.transfers) {
        const auto row = rowOf(t.kind);
        if (row && t.stage >= 0 && size_t(t.stage) < stages)
            raw[size_t(t.stage)][size_t(*row)].push_back({t.fromS, t.toS});
    }
    for (size_t s = 0; s < stages; ++s)
        for (GanttRow row :
             {GanttRow::Tp, GanttRow::PpSend, GanttRow::DpGather, GanttRow::DpReduce})
            out[s].rows[size_t(row)] = merged(std::move(raw[s][size_t(row)]), mergeS);
    return out;
}

QJsonObject ganttJson(const std::vector<StageGantt>& stages) {
    QJsonArray list;
    double stepS = 0;
    for (const StageGantt& g : stages) {
        stepS = g.stepS;
        QJsonObject o;
        QJsonArray parts;
        for (const StepSegment& x : g.parts)
            parts.append(QJsonArray{micros(x.fromS), micros(x.toS), int(x.part)});
        o.insert("parts", parts);
        for (int row = 0; row < kGanttRows; ++row) {
            QJsonArray bars;
            for (const GanttBar& x : g.rows[size_t(row)]) {
                QJsonArray bar{micros(x.fromS), micros(x.toS)};
                if (x.micro >= 0) bar.append(x.micro), bar.append(x.chunk);
                bars.append(bar);
            }
            const std::string_view key = ganttRowLabel(GanttRow(row));
            o.insert(QLatin1String(key.data(), qsizetype(key.size())), bars);
        }
        list.append(o);
    }
    return {{"stepS", stepS}, {"stages", list}};
}

std::optional<StageGantt> stageGanttOf(const QJsonObject& summary, int stage) {
    const QJsonObject gantt = summary.value("stageGantt").toObject();
    const QJsonArray stages = gantt.value("stages").toArray();
    const double stepS = gantt.value("stepS").toDouble(-1);
    if (stage < 0 || stage >= stages.size() || !(stepS > 0 && std::isfinite(stepS)))
        return std::nullopt;
    const QJsonObject o = stages.at(stage).toObject();
    StageGantt g;
    g.stage = stage;
    g.stepS = stepS;
    // A bar inside the step: 0 <= from <= to <= step (a microsecond's rounding allowed).
    auto inStep = [stepS](double from, double to) {
        return from >= 0 && to >= from && to <= stepS + 1e-6;
    };
    for (const QJsonValue& v : o.value("parts").toArray()) {
        if (g.parts.size() == kMaxGanttBars) break;
        const QJsonArray x = v.toArray();
        const double from = x.at(0).toDouble(-1), to = x.at(1).toDouble(-1);
        const int part = x.at(2).toInt(-1);
        if (inStep(from, to) && part >= 0 && part < kStepParts)
            g.parts.push_back({from, to, StepPart(part)});
    }
    for (int row = 0; row < kGanttRows; ++row) {
        const std::string_view key = ganttRowLabel(GanttRow(row));
        for (const QJsonValue& v :
             o.value(QLatin1String(key.data(), qsizetype(key.size()))).toArray()) {
            std::vector<GanttBar>& bars = g.rows[size_t(row)];
            if (bars.size() == kMaxGanttBars) break;
            const QJsonArray x = v.toArray();
            GanttBar bar{x.at(0).toDouble(-1), x.at(1).toDouble(-1), x.at(2).toInt(-1),
                         x.at(3).toInt(-1)};
            if (inStep(bar.fromS, bar.toS)) bars.push_back(bar);
        }
    }
    return g;
}

} // namespace cs
