#include "LinkUse.h"

#include <QJsonArray>

#include <cstdio>

namespace cs {
namespace {

std::string printf1(const char* format, double a, double b = 0) {
    char buf[96];
    std::snprintf(buf, sizeof buf, format, a, b);
    return buf;
}

std::string bytesText(double bytes) {
    if (bytes >= 1e9) return printf1("%.2f GB", bytes / 1e9);
    if (bytes >= 1e6) return printf1("%.1f MB", bytes / 1e6);
    return printf1("%.0f kB", bytes / 1e3);
}

} // namespace

std::vector<std::pair<std::string, std::string>> linkUseLines(const LinkUse& use,
                                                              const QJsonObject& summary) {
    std::vector<std::pair<std::string, std::string>> out;
    const std::string of = " (" + use.pattern + ")";
    if (use.capacityBps > 0) {
        out.emplace_back("peak" + of,
                         printf1("%.0f%% of capacity", use.peakBps / use.capacityBps * 100));
        out.emplace_back(printf1("above %.0f%%", use.threshold * 100) + of,
                         printf1("%.3f s of %.3f s", use.aboveS, use.patternS));
    }
    const QJsonArray names =
        use.pattern != "checkpoint" ? summary.value("trafficSources").toArray() : QJsonArray();
    for (const LinkSourceUse& s : use.sources) {
        const QString name = names.at(s.source).toObject().value("name").toString();
        const std::string label = !name.isEmpty() ? name.toStdString()
                                  : use.pattern == "checkpoint"
                                      ? std::string("checkpoint writes")
                                      : "source " + std::to_string(s.source);
        // Short: the inspector's value column is narrow; the peak's row names the pattern.
        out.emplace_back(
            label, bytesText(s.bytes) + ", on " +
                       printf1("%.0f%%", use.patternS > 0 ? s.activeS / use.patternS * 100 : 0));
    }
    if (use.sources.empty() && use.pattern == "step")
        out.emplace_back("crossing" + of, "nothing: no traffic of the step uses this link");
    if (use.sources.empty() && use.pattern == "cluster")
        out.emplace_back("crossing" + of, "nothing: no job's traffic uses this link");
    return out;
}

} // namespace cs
