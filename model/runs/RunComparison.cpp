#include "RunComparison.h"

#include "SummaryFigures.h"

#include <QJsonArray>
#include <QLocale>
#include <QString>

#include <algorithm>
#include <cstdio>

namespace cs {
namespace {

double at(const QJsonObject& summary, const std::string& path) {
    const size_t dot = path.find('.');
    if (dot != std::string::npos)
        return at(summary.value(QString::fromStdString(path.substr(0, dot))).toObject(),
                  path.substr(dot + 1));
    const QJsonValue v = summary.value(QString::fromStdString(path));
    return v.isDouble() ? v.toDouble() : NAN;
}

QJsonValue number(double v) {
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue();
}

} // namespace

const ComparisonRow* RunComparison::find(const std::string& key) const {
    for (const ComparisonRow& r : rows)
        if (r.key == key) return &r;
    return nullptr;
}

RunComparison compareRuns(const std::string& nameA, const QJsonObject& summaryA,
                          const std::string& nameB, const QJsonObject& summaryB,
                          const DesignFigures& designA, const DesignFigures& designB) {
    RunComparison c{nameA, nameB, {}};
    for (const SummaryFigure& d : summaryFigures())
        if (d.compared)
            c.rows.push_back({d.key, d.label, d.unit, at(summaryA, d.key) * d.scale,
                              at(summaryB, d.key) * d.scale, d.lowerIsBetter});
    c.rows.push_back({"design.switches", "Switches", "", designA.switches, designB.switches});
    c.rows.push_back({"design.transceivers", "Optical transceivers", "", designA.transceivers,
                      designB.transceivers});
    c.rows.push_back({"design.powerW", "Site power (TDP)", "W", designA.powerW, designB.powerW});
    c.rows.push_back(
        {"design.costPerGpu", "Cost per GPU", "$", designA.costPerGpu, designB.costPerGpu});
    return c;
}

QJsonObject comparisonToJson(const RunComparison& c) {
    QJsonArray rows;
    for (const ComparisonRow& r : c.rows)
        rows.append(QJsonObject{{"key", QString::fromStdString(r.key)},
                                {"label", QString::fromStdString(r.label)},
                                {"unit", QString::fromStdString(r.unit)},
                                {"a", number(r.a)},
                                {"b", number(r.b)},
                                {"delta", number(r.delta())},
                                {"relative", number(r.relative())}});
    return {{"a", QString::fromStdString(c.nameA)},
            {"b", QString::fromStdString(c.nameB)},
            {"rows", rows}};
}

std::string formatFigure(double v, const std::string& unit) {
    if (!std::isfinite(v)) return "-";
    QLocale c = QLocale::c();
    c.setNumberOptions({}); // thousands separated: "1,536", "$41,300"
    if (unit == "$")
        return (v < 0 ? "-$" : "$") + c.toString(std::llround(std::fabs(v))).toStdString();
    if (unit == "W") {
        const double a = std::fabs(v);
        if (a >= 1e6) return QString::number(v / 1e6, 'f', 2).toStdString() + " MW";
        if (a >= 1e3) return QString::number(v / 1e3, 'f', 1).toStdString() + " kW";
        return QString::number(v, 'f', 0).toStdString() + " W";
    }
    if (unit.empty()) return c.toString(std::llround(v)).toStdString();
    const int digits = unit == "%" ? 1 : std::fabs(v) >= 100 ? 0 : std::fabs(v) >= 1 ? 2 : 3;
    QString text = QString::number(v, 'f', digits);
    if (text.startsWith('-') && text.toDouble() == 0) text.remove(0, 1); // no "-0.0"
    return text.toStdString() + " " + unit;
}

bool deltaShown(const ComparisonRow& r) {
    return std::isfinite(r.delta()) &&
           formatFigure(r.delta(), r.unit).find_first_of("123456789") != std::string::npos;
}

std::string formatDelta(const ComparisonRow& r) {
    const bool zero = !deltaShown(r) && std::isfinite(r.delta());
    // Within rounding: no sign ("-0.000 s" would read as a difference).
    std::string text = formatFigure(zero ? 0.0 : r.delta(), r.unit);
    if (std::isfinite(r.delta()) && r.delta() > 0 && !zero) text = "+" + text;
    if (std::isfinite(r.relative()) && r.unit != "%" && !zero)
        text += " (" + std::string(r.relative() > 0 ? "+" : "") +
                QString::number(r.relative() * 100, 'f', 1).toStdString() + " %)";
    return text;
}

std::string comparisonToText(const RunComparison& c) {
    auto pad = [](std::string s, size_t w) {
        return s.size() < w ? s + std::string(w - s.size(), ' ') : s;
    };
    std::string out = "A: " + c.nameA + "\nB: " + c.nameB + "\n" + pad("", 28) + pad("A", 18) +
                      pad("B", 18) + "B - A\n";
    for (const ComparisonRow& r : c.rows) {
        const std::string delta = formatDelta(r);
        out += pad(r.label, 28) + pad(formatFigure(r.a, r.unit), 18) +
               pad(formatFigure(r.b, r.unit), 18) + delta + "\n";
    }
    return out;
}

std::string differencesCaption(const RunComparison& c, size_t most) {
    std::vector<const ComparisonRow*> order;
    for (const char* key : {"stepTimeS", "design.costPerGpu", "design.powerW"})
        if (const ComparisonRow* r = c.find(key)) order.push_back(r);
    for (const ComparisonRow& r : c.rows)
        if (std::find(order.begin(), order.end(), &r) == order.end()) order.push_back(&r);
    std::string out;
    size_t shown = 0;
    for (const ComparisonRow* r : order) {
        if (shown == most) break;
        if (std::isnan(r->a) || std::isnan(r->b) || !deltaShown(*r)) continue;
        const std::string delta = formatDelta(*r);
        const size_t paren = delta.find(" (");
        out += (shown++ ? " \u00b7 " : "") + r->label + " " + formatFigure(r->a, r->unit) +
               " \u2192 " + formatFigure(r->b, r->unit) +
               (paren == std::string::npos ? std::string() : delta.substr(paren));
    }
    return out;
}

} // namespace cs
