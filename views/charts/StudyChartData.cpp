#include "StudyChartData.h"

#include "ChartData.h"
#include "DesignFields.h"
#include "ParetoFront.h"
#include "RunComparison.h"
#include "RunOptions.h"
#include "SummaryFigures.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <map>

namespace cs::views {
namespace {

// A figure not in the table: its name, a unit guessed from how the summary names them.
StudyQuantity guessedFigure(const QString& name) {
    StudyQuantity q{name, name};
    const QString leaf = name.section('.', -1);
    if (name.startsWith("cost."))
        q.unit = "$";
    else if (leaf.endsWith("GiB") || name.startsWith("memoryGiB."))
        q.unit = "GiB";
    else if (leaf.endsWith("MWh"))
        q.unit = "MWh";
    else if (name.startsWith("powerW.") || leaf.endsWith("W"))
        q.unit = "W";
    else if (leaf.endsWith("S") || name.startsWith("breakdown."))
        q.unit = "s";
    return q;
}

StudyQuantity axisQuantity(const QString& name) {
    StudyQuantity q{name, name};
    q.axis = true;
    if (name == "topology") {
        q.label = QObject::tr("Topology");
    } else if (name.startsWith("design.")) {
        if (const auto ref = parseDesignFieldKey(name.mid(7).toStdString())) {
            q.label = QString::fromStdString(ref->field->label);
            if (ref->field->scope == DesignScope::Cluster && ref->cluster > 0)
                q.label += QObject::tr(" (cluster %1)").arg(ref->cluster);
            q.unit = QString::fromStdString(ref->field->unit);
        }
    } else if (const RunOption* o = findRunOption(name.mid(4).toStdString())) {
        q.label = QString::fromStdString(o->label);
        q.unit = QString::fromStdString(o->unit);
    }
    return q;
}

std::optional<double> figureOf(const VariantResult& v, const StudyQuantity& q) {
    const QJsonValue f = v.figures.value(q.name);
    if (!f.isDouble() || !std::isfinite(f.toDouble())) return std::nullopt;
    return f.toDouble() * q.scale;
}

// Values of one axis, as they first appear; numbers sorted when every value is one.
struct AxisValues {
    std::vector<QJsonValue> values;
    bool numeric = true;
    void add(const QJsonValue& v) {
        if (std::find(values.begin(), values.end(), v) != values.end()) return;
        values.push_back(v);
        numeric = numeric && v.isDouble();
    }
    int indexOf(const QJsonValue& v) const {
        return int(std::find(values.begin(), values.end(), v) - values.begin());
    }
};

// The value with its unit: "fragmented", "400 Gb/s".
QString valueWithUnit(const StudyQuantity& q, const QJsonValue& v) {
    const QString value = studyValueText(v);
    return q.unit.isEmpty() || !v.isDouble() ? value : value + " " + q.unit;
}

} // namespace

QString StudyQuantity::title() const {
    return unit.isEmpty() ? label : QStringLiteral("%1 (%2)").arg(label, unit);
}

QString StudyQuantity::text(double value) const {
    if (axis) return unit.isEmpty() ? QString::number(value) : QString::number(value) + " " + unit;
    return QString::fromStdString(formatFigure(value, unit.toStdString()));
}

bool isStudyAxisName(const QString& name) {
    return name == "topology" || name.startsWith("design.") || name.startsWith("run.");
}

StudyQuantity studyQuantity(const QString& name) {
    if (isStudyAxisName(name)) return axisQuantity(name);
    if (const SummaryFigure* f = findSummaryFigure(name.toStdString()))
        return {name, f->label, f->unit, f->scale, f->lowerIsBetter};
    return guessedFigure(name);
}

QString studyValueText(const QJsonValue& v) {
    if (v.isUndefined()) return {}; // a variant without the axis (an explicit one)
    if (v.isString()) return v.toString();
    if (v.isDouble()) return QString::number(v.toDouble(), 'g', 12);
    if (v.isBool()) return v.toBool() ? "true" : "false";
    const QByteArray array = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(array.mid(1, array.size() - 2));
}

bool StudyChartData::onFront(int variant) const {
    return std::any_of(front.begin(), front.end(),
                       [&](const StudyPoint& p) { return p.variant == variant; });
}

const StudyPoint* StudyChartData::find(int variant) const {
    for (const StudySeries& s : series)
        for (const StudyPoint& p : s.points)
            if (p.variant == variant) return &p;
    return nullptr;
}

size_t StudyChartData::pointCount() const {
    size_t n = 0;
    for (const StudySeries& s : series)
        n += s.points.size();
    return n;
}

StudyChartData studyChartData(const std::vector<VariantResult>& results,
                              const StudyChartRequest& request) {
    StudyChartData d;
    d.x = studyQuantity(request.x);
    d.y = studyQuantity(request.y);
    const bool bySeries = !request.seriesBy.isEmpty();
    if (bySeries) d.seriesBy = studyQuantity(request.seriesBy);
    // The variants that ran and have the coordinates; the axes' values in their order.
    std::vector<const VariantResult*> plotted;
    AxisValues xValues, seriesValues;
    for (const VariantResult& v : results) {
        if (!v.ok) {
            ++d.failed;
            continue;
        }
        ++d.ok;
        const bool hasX = d.x.axis ? v.params.contains(d.x.name) : figureOf(v, d.x).has_value();
        const bool hasSeries = !bySeries || v.params.contains(d.seriesBy.name);
        if (!hasX || !figureOf(v, d.y) || !hasSeries) {
            ++d.missing;
            continue;
        }
        plotted.push_back(&v);
        if (d.x.axis) xValues.add(v.params.value(d.x.name));
        if (bySeries) seriesValues.add(v.params.value(d.seriesBy.name));
    }
    d.categoricalX = d.x.axis && !xValues.numeric;
    if (d.categoricalX)
        for (const QJsonValue& v : xValues.values)
            d.categories.push_back(studyValueText(v));
    // Number-valued series in ascending order, so that the legend reads 1, 2, 4.
    if (seriesValues.numeric)
        std::stable_sort(
            seriesValues.values.begin(), seriesValues.values.end(),
            [](const QJsonValue& a, const QJsonValue& b) { return a.toDouble() < b.toDouble(); });
    if (bySeries)
        for (const QJsonValue& v : seriesValues.values)
            d.series.push_back({d.seriesBy.label + " = " + valueWithUnit(d.seriesBy, v),
                                valueWithUnit(d.seriesBy, v),
                                {}});
    else
        d.series.push_back({d.y.label, d.y.label, {}});
    for (const VariantResult* v : plotted) {
        StudyPoint p;
        p.variant = v->index;
        p.y = *figureOf(*v, d.y);
        const QJsonValue xv = v->params.value(d.x.name);
        p.x = !d.x.axis        ? *figureOf(*v, d.x)
              : d.categoricalX ? double(xValues.indexOf(xv))
                               : xv.toDouble();
        const size_t s =
            bySeries ? size_t(seriesValues.indexOf(v->params.value(d.seriesBy.name))) : 0;
        d.series[s].points.push_back(p);
    }
    for (StudySeries& s : d.series)
        std::stable_sort(s.points.begin(), s.points.end(),
                         [](const StudyPoint& a, const StudyPoint& b) { return a.x < b.x; });
    if (d.x.axis) return d;
    // The front in "less is better" terms: a figure where more is better counts negated.
    std::vector<StudyPoint> all;
    std::vector<std::pair<double, double>> costs;
    for (const StudySeries& s : d.series)
        for (const StudyPoint& p : s.points) {
            all.push_back(p);
            costs.emplace_back(d.x.lowerIsBetter ? p.x : -p.x, d.y.lowerIsBetter ? p.y : -p.y);
        }
    for (size_t i : paretoFront(costs))
        d.front.push_back(all[i]);
    std::sort(d.front.begin(), d.front.end(), [](const StudyPoint& a, const StudyPoint& b) {
        return a.x != b.x ? a.x < b.x : a.variant < b.variant;
    });
    return d;
}

StudyChartRequest defaultStudyChart(const std::vector<QString>& axes,
                                    const std::vector<QString>& figures,
                                    const std::vector<VariantResult>& results) {
    auto has = [](const std::vector<QString>& list, const QString& name) {
        return std::find(list.begin(), list.end(), name) != list.end();
    };
    StudyChartRequest r;
    for (const char* y : {"daysToTrain", "stepTimeS"})
        if (r.y.isEmpty() && has(figures, y)) r.y = y;
    if (r.y.isEmpty() && !figures.empty()) r.y = figures.front();
    r.x = has(figures, "cost.perGpu") ? QStringLiteral("cost.perGpu")
          : !axes.empty()             ? axes.front()
                                      : r.y;
    // Series by the axis whose series hold the most distinct x values.
    size_t best = 0;
    for (const QString& axis : axes) {
        if (axis == r.x) continue;
        size_t distinct = 0;
        for (const StudySeries& s : studyChartData(results, {r.x, r.y, axis}).series)
            for (size_t i = 0; i < s.points.size(); ++i) // sorted by x
                distinct += i == 0 || s.points[i].x != s.points[i - 1].x;
        if (r.seriesBy.isEmpty() || distinct > best) {
            r.seriesBy = axis;
            best = distinct;
        }
    }
    return r;
}

QString studyVariantText(const VariantResult& v) {
    QStringList lines{QObject::tr("Variant %1").arg(v.index)};
    for (auto it = v.params.begin(); it != v.params.end(); ++it) {
        const StudyQuantity q = studyQuantity(it.key());
        lines << QStringLiteral("%1: %2").arg(q.label, valueWithUnit(q, it.value()));
    }
    if (!v.ok) lines << QObject::tr("failed: %1").arg(QString::fromStdString(v.message));
    for (auto it = v.figures.begin(); it != v.figures.end(); ++it) {
        const StudyQuantity q = studyQuantity(it.key());
        lines << QStringLiteral("%1: %2").arg(q.label, q.text(it.value().toDouble() * q.scale));
    }
    return lines.join('\n');
}

QByteArray studyChartCsv(const StudyChartData& d, const std::vector<VariantResult>& results) {
    // Every axis the variants name, in name order, as columns after the point's own.
    std::map<QString, bool> axes;
    std::map<int, const VariantResult*> byIndex;
    for (const VariantResult& v : results) {
        byIndex[v.index] = &v;
        for (auto it = v.params.begin(); it != v.params.end(); ++it)
            axes[it.key()] = true;
    }
    QByteArray out =
        "variant,series," + csvField(d.x.title()) + ',' + csvField(d.y.title()) + ",pareto_front";
    for (const auto& [axis, unused] : axes)
        out += ',' + csvField(axis);
    out += '\n';
    for (const StudySeries& s : d.series)
        for (const StudyPoint& p : s.points) {
            const QString x =
                d.categoricalX ? d.categories[size_t(p.x)] : QString::number(p.x, 'g', 17);
            out += QByteArray::number(p.variant) + ',' + csvField(s.name) + ',' + csvField(x) +
                   ',' + QByteArray::number(p.y, 'g', 17) + ',' +
                   (d.onFront(p.variant) ? "1" : "0");
            const VariantResult* v = byIndex[p.variant];
            for (const auto& [axis, unused] : axes)
                out += ',' + csvField(v ? studyValueText(v->params.value(axis)) : QString());
            out += '\n';
        }
    return out;
}

} // namespace cs::views
