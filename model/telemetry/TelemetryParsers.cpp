#include "TelemetryParsers.h"

#include "PromAnswerReader.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimeZone>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

namespace cs {
namespace {

// Nanoseconds since the epoch of a time in seconds, if it lies where 64-bit nanoseconds
// reach (1970 to 2262); anything else is refused, never wrapped.
constexpr double kLastEpochS = 9.2e9; // 2261-07; int64 ns end at 9.22e9 s
constexpr const char* kEpochRange = "a time between 1970 and 2261";
bool epochNs(double seconds, int64_t& ns) {
    if (!std::isfinite(seconds) || seconds < 0 || seconds > kLastEpochS) return false;
    ns = int64_t(std::llround(seconds * 1e9));
    return true;
}

} // namespace

TelemetryFormat detectFormat(const QByteArray& text) {
    const QByteArray t = text.left(4096).trimmed();
    if (t.startsWith('{')) return TelemetryFormat::PromJson;
    if (t.startsWith("ts,")) return TelemetryFormat::Csv;
    if (t.startsWith("timestamp,") || t.startsWith("timestamp ,"))
        return TelemetryFormat::NvidiaSmiCsv;
    if (text.startsWith("# EOF") || text.contains("\n# EOF")) return TelemetryFormat::OpenMetrics;
    return TelemetryFormat::Prometheus;
}

namespace {

bool parseDouble(std::string_view s, double& out) {
    if (s == "NaN") return out = std::nan(""), true;
    if (s == "+Inf" || s == "Inf") return out = HUGE_VAL, true;
    if (s == "-Inf") return out = -HUGE_VAL, true;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// Parses `name{a="x",b="y"} value [timestamp]` starting at p; false with a reason.
bool parseSampleLine(std::string_view line, bool openMetrics, const ParseLimits& limits,
                     RawSample& s, std::string& why) {
    size_t i = 0;
    auto isNameChar = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':';
    };
    while (i < line.size() && isNameChar(line[i]))
        ++i;
    if (i == 0) return why = "expected a metric name", false;
    s.metric.assign(line.substr(0, i));
    if (i < line.size() && line[i] == '{') {
        ++i;
        for (;;) {
            while (i < line.size() && line[i] == ' ')
                ++i;
            if (i < line.size() && line[i] == '}') {
                ++i;
                break;
            }
            const size_t ks = i;
            while (i < line.size() && isNameChar(line[i]))
                ++i;
            if (i == ks || i >= line.size() || line[i] != '=')
                return why = "expected label=\"value\"", false;
            std::string key(line.substr(ks, i - ks));
            ++i;
            if (i >= line.size() || line[i] != '"')
                return why = "expected a quoted label value", false;
            ++i;
            std::string value;
            bool closed = false;
            while (i < line.size()) {
                const char c = line[i++];
                if (c == '\\' && i < line.size()) {
                    const char e = line[i++];
                    value += e == 'n' ? '\n' : e; // \\ \" \n
                } else if (c == '"') {
                    closed = true;
                    break;
                } else {
                    value += c;
                }
            }
            if (!closed) return why = "unterminated label value", false;
            s.labels.emplace_back(std::move(key), std::move(value));
            if (int(s.labels.size()) > limits.maxLabels) return why = "too many labels", false;
            while (i < line.size() && line[i] == ' ')
                ++i;
            if (i < line.size() && line[i] == ',') ++i;
        }
    }
    while (i < line.size() && line[i] == ' ')
        ++i;
    const size_t vs = i;
    while (i < line.size() && line[i] != ' ')
        ++i;
    if (!parseDouble(line.substr(vs, i - vs), s.value))
        return why = "expected a number as the value", false;
    while (i < line.size() && line[i] == ' ')
        ++i;
    // OpenMetrics exemplars follow " # " (`... 17 1520879607.789 # {trace_id="x"} 1.0`): the
    // sample ends before them.
    std::string_view rest = line.substr(i);
    if (const size_t hash = rest.find('#'); openMetrics && hash != std::string_view::npos) {
        rest = rest.substr(0, hash);
        while (!rest.empty() && rest.back() == ' ')
            rest.remove_suffix(1);
    }
    if (!rest.empty()) {
        const std::string_view ts = rest;
        double t = 0;
        if (!parseDouble(ts, t) || !std::isfinite(t)) return why = "expected a timestamp", false;
        // Prometheus text: integer milliseconds; OpenMetrics: float seconds.
        if (!epochNs(openMetrics ? t : t / 1000, s.tsNs))
            return why = std::string("timestamp: expected ") + kEpochRange +
                         (openMetrics ? " (seconds since the epoch)"
                                      : " (milliseconds since the epoch)"),
                   false;
        s.hasTimestamp = true;
    }
    std::sort(s.labels.begin(), s.labels.end());
    return true;
}

template <typename Fn> void eachLine(const QByteArray& text, Fn&& fn) {
    long long number = 0;
    qsizetype start = 0;
    while (start < text.size()) {
        qsizetype end = text.indexOf('\n', start);
        if (end < 0) end = text.size();
        ++number;
        std::string_view line(text.constData() + start, size_t(end - start));
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (!fn(number, line)) return;
        start = end + 1;
    }
}

} // namespace

void parseExposition(const QByteArray& text, bool openMetrics, const std::string& file,
                     const ParseLimits& limits, const SampleFn& out,
                     std::vector<RejectedLine>& rejected, std::vector<std::string>& counterTypes) {
    long long samples = 0;
    eachLine(text, [&](long long n, std::string_view line) {
        if (line.empty()) return true;
        if (line.size() > size_t(limits.maxLineBytes)) {
            rejected.push_back(
                {file, n, "line longer than " + std::to_string(limits.maxLineBytes) + " bytes"});
            return true;
        }
        if (line[0] == '#') {
            if (line == "# EOF") return false;
            if (line.rfind("# TYPE ", 0) == 0) {
                const std::string_view rest = line.substr(7);
                const size_t sp = rest.find(' ');
                if (sp != std::string_view::npos && rest.substr(sp + 1) == "counter")
                    counterTypes.emplace_back(rest.substr(0, sp));
            }
            return true;
        }
        RawSample s;
        std::string why;
        if (!parseSampleLine(line, openMetrics, limits, s, why)) {
            rejected.push_back({file, n, why});
            return true;
        }
        if (++samples > limits.maxSamples) {
            rejected.push_back({file, n,
                                "more than " + std::to_string(limits.maxSamples) +
                                    " samples; the rest is ignored"});
            return false;
        }
        out(std::move(s));
        return true;
    });
}

namespace {

// Why an answer's samples are not taken, or empty when they are.
std::string refusalOf(const PromAnswer& head) {
    if (head.tooDeep)
        return "arrays or objects nested deeper than " + std::to_string(kMaxPromAnswerDepth) +
               " (a Prometheus answer nests 6 deep); not read";
    if (head.tokenTooLong)
        return "a string, number or run of other bytes longer than " +
               std::to_string(kMaxPromTokenBytes >> 20) +
               " MiB (a Prometheus answer's longest is a label value); not read";
    if (!head.validJson) return "not valid JSON at byte " + std::to_string(head.errorByte);
    if (head.status != "success" || head.resultType != "matrix")
        return "expected {\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",...}}";
    return {};
}

// One series' samples handed to `out` (false: past maxSamples), its bad pairs to `rejected`.
bool takeSeries(PromSeries&& series, long long seriesNumber, const std::string& file,
                const ParseLimits& limits, long long& samples, const SampleFn& out,
                std::vector<RejectedLine>& rejected) {
    if (series.name.empty()) {
        rejected.push_back({file, seriesNumber, "series without __name__"});
        return true;
    }
    Labels labels = std::move(series.labels);
    std::sort(labels.begin(), labels.end());
    const std::string badPair = "expected [seconds, \"value\"] pairs in series " + series.name;
    for (int k = 0; k < series.malformedPairs; ++k)
        rejected.push_back({file, seriesNumber, badPair});
    for (const auto& [seconds, valueText] : series.values) {
        double v = 0;
        if (!parseDouble(valueText, v)) {
            rejected.push_back({file, seriesNumber, badPair});
            continue;
        }
        int64_t tsNs = 0;
        if (!epochNs(seconds, tsNs)) {
            rejected.push_back(
                {file, seriesNumber,
                 std::string("expected ") + kEpochRange + " in series " + series.name});
            continue;
        }
        if (++samples > limits.maxSamples) return false;
        out(RawSample{series.name, labels, v, tsNs, true});
    }
    return true;
}

} // namespace

void parsePromJson(const QByteArray& text, const std::string& file, const ParseLimits& limits,
                   const SampleFn& out, std::vector<RejectedLine>& rejected) {
    // Twice through the text, keeping nothing the first time: no sample of an answer that is
    // not whole JSON, or not a successful range query, is taken.
    const std::string refusal = refusalOf(readPromAnswer(text));
    if (!refusal.empty()) {
        rejected.push_back({file, 0, refusal});
        return;
    }
    long long samples = 0, seriesNumber = 0;
    readPromAnswer(text, [&](PromSeries&& series) {
        return takeSeries(std::move(series), ++seriesNumber, file, limits, samples, out, rejected);
    });
}

void parsePromJson(const PromAnswerRead& read, const std::string& file, const ParseLimits& limits,
                   const SampleFn& out, std::vector<RejectedLine>& rejected) {
    // Once through the answer as it arrives: its samples are held, as numbers, until the
    // answer proves whole and successful, then handed on; a new try starts them afresh.
    struct Held {
        std::string metric;
        Labels labels;
        std::vector<std::pair<int64_t, double>> points;
    };
    std::vector<Held> held;
    std::vector<RejectedLine> heldRejected;
    long long samples = 0, seriesNumber = 0;
    auto restart = [&] {
        held.clear();
        heldRejected.clear();
        samples = seriesNumber = 0;
    };
    const PromAnswer head = read(
        [&](PromSeries&& series) {
            held.emplace_back();
            return takeSeries(
                std::move(series), ++seriesNumber, file, limits, samples,
                [&](RawSample&& s) {
                    Held& h = held.back();
                    if (h.points.empty()) h.metric = std::move(s.metric), h.labels = s.labels;
                    h.points.emplace_back(s.tsNs, s.value);
                },
                heldRejected);
        },
        restart);
    const std::string refusal = refusalOf(head);
    if (!refusal.empty()) {
        rejected.push_back({file, 0, refusal});
        return;
    }
    rejected.insert(rejected.end(), heldRejected.begin(), heldRejected.end());
    for (Held& h : held)
        for (const auto& [tsNs, v] : h.points)
            out(RawSample{h.metric, h.labels, v, tsNs, true});
}

void parseLongCsv(const QByteArray& text, const std::string& file, const ParseLimits& limits,
                  const SampleFn& out, std::vector<RejectedLine>& rejected) {
    long long samples = 0;
    eachLine(text, [&](long long n, std::string_view line) {
        if (n == 1 || line.empty()) return true; // header: ts,metric,entity,labels,value
        if (line.size() > size_t(limits.maxLineBytes)) {
            rejected.push_back({file, n, "line too long"});
            return true;
        }
        // ts,metric,entity,labels,value; labels is k=v;k=v and may be quoted.
        std::vector<std::string> f;
        std::string cur;
        bool quoted = false;
        for (char c : line) {
            if (c == '"')
                quoted = !quoted;
            else if (c == ',' && !quoted)
                f.push_back(std::move(cur)), cur.clear();
            else
                cur += c;
        }
        f.push_back(std::move(cur));
        if (f.size() != 5) {
            rejected.push_back({file, n,
                                "expected 5 fields (ts,metric,entity,labels,value), got " +
                                    std::to_string(f.size())});
            return true;
        }
        RawSample s;
        double ts = 0;
        if (!parseDouble(f[0], ts) || !epochNs(ts, s.tsNs)) {
            rejected.push_back(
                {file, n, std::string("ts: expected seconds since the epoch, ") + kEpochRange});
            return true;
        }
        s.hasTimestamp = true;
        s.metric = f[1];
        if (s.metric.empty()) {
            rejected.push_back({file, n, "metric: empty"});
            return true;
        }
        if (!f[2].empty()) s.labels.emplace_back("entity", f[2]);
        size_t start = 0;
        while (start < f[3].size()) {
            size_t end = f[3].find(';', start);
            if (end == std::string::npos) end = f[3].size();
            const std::string kv = f[3].substr(start, end - start);
            const size_t eq = kv.find('=');
            if (eq != std::string::npos) s.labels.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
            start = end + 1;
        }
        std::sort(s.labels.begin(), s.labels.end());
        if (!parseDouble(f[4], s.value)) {
            rejected.push_back(
                {file, n, "value: expected a number, got \"" + f[4].substr(0, 40) + "\""});
            return true;
        }
        if (++samples > limits.maxSamples) return false;
        out(std::move(s));
        return true;
    });
}

namespace {
std::string trim(std::string s) {
    const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

std::string metricForColumn(const std::string& header) {
    const std::string name = trim(header.substr(0, header.find(" [")));
    if (name == "utilization.gpu") return "DCGM_FI_DEV_GPU_UTIL";
    if (name == "power.draw") return "DCGM_FI_DEV_POWER_USAGE";
    if (name == "temperature.gpu") return "DCGM_FI_DEV_GPU_TEMP";
    if (name == "memory.used") return "DCGM_FI_DEV_FB_USED";
    if (name == "clocks.current.sm" || name == "clocks.sm") return "DCGM_FI_DEV_SM_CLOCK";
    std::string m = "nvidia_smi_";
    for (char c : name)
        m += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return m;
}
} // namespace

void parseNvidiaSmiCsv(const QByteArray& text, const std::string& file,
                       const std::string& defaultHost, const ParseLimits& limits,
                       const SampleFn& out, std::vector<RejectedLine>& rejected) {
    std::vector<std::string> columns;
    int tsCol = -1, indexCol = -1, hostCol = -1;
    long long samples = 0;
    eachLine(text, [&](long long n, std::string_view line) {
        if (line.empty()) return true;
        if (line.size() > size_t(limits.maxLineBytes)) {
            rejected.push_back({file, n, "line too long"});
            return true;
        }
        std::vector<std::string> f;
        size_t start = 0;
        for (;;) {
            const size_t comma = line.find(',', start);
            f.push_back(trim(std::string(line.substr(
                start, comma == std::string_view::npos ? std::string_view::npos : comma - start))));
            if (comma == std::string_view::npos) break;
            start = comma + 1;
        }
        if (n == 1) {
            columns = f;
            for (size_t c = 0; c < f.size(); ++c) {
                if (f[c] == "timestamp") tsCol = int(c);
                if (f[c] == "index") indexCol = int(c);
                if (f[c] == "hostname" || f[c] == "host") hostCol = int(c);
            }
            if (tsCol < 0 || indexCol < 0) {
                rejected.push_back(
                    {file, 1,
                     "expected the columns timestamp and index (nvidia-smi --format=csv)"});
                return false;
            }
            return true;
        }
        if (f.size() != columns.size()) {
            rejected.push_back({file, n,
                                "expected " + std::to_string(columns.size()) + " fields, got " +
                                    std::to_string(f.size())});
            return true;
        }
        // "2024/06/01 12:00:00.123"
        const QDateTime when = QDateTime::fromString(QString::fromStdString(f[size_t(tsCol)]),
                                                     "yyyy/MM/dd HH:mm:ss.zzz");
        const QDateTime whenS =
            when.isValid() ? when
                           : QDateTime::fromString(QString::fromStdString(f[size_t(tsCol)]),
                                                   "yyyy/MM/dd HH:mm:ss");
        if (!whenS.isValid()) {
            rejected.push_back({file, n,
                                "timestamp: expected YYYY/MM/DD HH:MM:SS.mmm, got \"" +
                                    f[size_t(tsCol)].substr(0, 40) + "\""});
            return true;
        }
        QDateTime utc = whenS;
        utc.setTimeZone(QTimeZone::utc());
        int64_t whenNs = 0;
        if (!epochNs(double(utc.toMSecsSinceEpoch()) / 1000, whenNs)) {
            rejected.push_back({file, n, std::string("timestamp: expected ") + kEpochRange});
            return true;
        }
        // A host column that says nothing ("[N/A]", as real captures have it): the file's name.
        const std::string hostField = hostCol >= 0 ? f[size_t(hostCol)] : std::string();
        const bool noHost = hostField.empty() || hostField[0] == '[' || hostField == "N/A";
        const std::string host = noHost ? defaultHost : hostField;
        std::string badField; // one rejection per line, naming its first bad field
        for (size_t c = 0; c < f.size(); ++c) {
            if (int(c) == tsCol || int(c) == indexCol || int(c) == hostCol) continue;
            RawSample s;
            s.metric = metricForColumn(columns[c]);
            const bool known = s.metric.rfind("DCGM_", 0) == 0;
            s.labels = {{"Hostname", host}, {"gpu", f[size_t(indexCol)]}};
            s.tsNs = whenNs;
            s.hasTimestamp = true;
            std::string v = f[c];
            const size_t unit = v.find(' ');
            if (unit != std::string::npos) v.resize(unit); // "95 %", "350.12 W"
            if (v.empty() || v[0] == '[' || v == "N/A") {
                s.value = std::nan(""); // [N/A], [Not Supported]
            } else if (!parseDouble(v, s.value)) {
                // Descriptive columns (driver version, name, "Enabled") are no series; a
                // metric the catalogue reads that is not a number is an error of the line.
                if (known && badField.empty())
                    badField =
                        columns[c] + ": expected a number, got \"" + f[c].substr(0, 40) + "\"";
                continue;
            }
            std::sort(s.labels.begin(), s.labels.end());
            if (++samples > limits.maxSamples) return false;
            out(std::move(s));
        }
        if (!badField.empty()) rejected.push_back({file, n, badField});
        return true;
    });
}

} // namespace cs
