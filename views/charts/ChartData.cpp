#include "ChartData.h"

#include <QDateTime>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

namespace cs::views {

std::optional<double> valueAtNs(const Series& s, int64_t tsNs) {
    const size_t n = std::min(s.tsNs.size(), s.value.size());
    if (n == 0 || tsNs < s.tsNs.front()) return std::nullopt;
    const auto end = s.tsNs.begin() + ptrdiff_t(n);
    const size_t i = size_t(std::upper_bound(s.tsNs.begin(), end, tsNs) - s.tsNs.begin()) - 1;
    // Past the last sample the value holds for one more frame interval, then is unknown.
    if (i + 1 == n && n >= 2) {
        const int64_t frameNs = s.tsNs[n - 1] - s.tsNs[n - 2];
        if (tsNs - s.tsNs[n - 1] > frameNs) return std::nullopt;
    }
    return s.value[i];
}

QString formatValue(double v, const QString& unit) {
    if (!std::isfinite(v)) return QStringLiteral("no data");
    const QString number =
        std::fabs(v) >= 1000 ? QString::number(v, 'f', 0) : QString::number(v, 'g', 3);
    return unit.isEmpty() ? number : number + ' ' + unit;
}

QByteArray csvField(const QString& s) {
    if (!s.contains(',') && !s.contains('"') && !s.contains('\n')) return s.toUtf8();
    QString quoted = s;
    quoted.replace('"', "\"\"");
    return '"' + quoted.toUtf8() + '"';
}

QByteArray chartCsv(const std::vector<ChartSeries>& series, int64_t wallStartNs) {
    const bool wall = wallStartNs > 0;
    QByteArray out = wall ? "series,unit,time_s,time_utc,value\n" : "series,unit,time_s,value\n";
    for (const ChartSeries& c : series) {
        if (!c.source) continue;
        const Series& s = *c.source;
        const QByteArray name = csvField(c.name), unit = csvField(c.unit);
        const size_t n = std::min(s.tsNs.size(), s.value.size());
        for (size_t i = 0; i < n; ++i) {
            out += name + ',' + unit + ',' + QByteArray::number(double(s.tsNs[i]) / 1e9, 'f', 9);
            if (wall) {
                const QDateTime t = QDateTime::fromMSecsSinceEpoch(
                    (wallStartNs + s.tsNs[i]) / 1'000'000, QTimeZone::utc());
                out += ',' + t.toString(Qt::ISODateWithMs).toUtf8();
            }
            out += ',' + QByteArray::number(s.value[i] * c.scale, 'g', 9) + '\n';
        }
    }
    return out;
}

} // namespace cs::views
