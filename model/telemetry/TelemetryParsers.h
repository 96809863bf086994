#pragma once
// Bounded parsers for recorded telemetry: Prometheus text exposition, OpenMetrics,
// Prometheus range-query JSON and long CSV (ts,metric,entity,labels,value). Each turns a
// file into raw samples; a malformed line is rejected with its number and the reason, and
// parsing goes on. Timestamps become int64 nanoseconds. The formats and their
// specifications: docs/reference/formats.md.
#include "EnumNames.h"
#include "PromAnswerReader.h"
#include <QByteArray>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace cs {

using Labels = std::vector<std::pair<std::string, std::string>>; // sorted by name

struct RawSample {
    std::string metric;
    Labels labels;
    double value = 0;
    int64_t tsNs = 0;
    bool hasTimestamp = false;
};

struct RejectedLine {
    std::string file;
    long long line = 0;
    std::string reason;
};

enum class TelemetryFormat { Auto, Prometheus, OpenMetrics, PromJson, Csv, NvidiaSmiCsv };
inline constexpr EnumNames kTelemetryFormatNames{std::to_array<EnumName<TelemetryFormat>>({
    {TelemetryFormat::Auto, "auto", "Detect from the content"},
    {TelemetryFormat::Prometheus, "prometheus", "Prometheus text exposition"},
    {TelemetryFormat::OpenMetrics, "openmetrics", "OpenMetrics"},
    {TelemetryFormat::PromJson, "prom-json", "Prometheus HTTP API JSON"},
    {TelemetryFormat::Csv, "csv", "CSV (ts, series, value)"},
    {TelemetryFormat::NvidiaSmiCsv, "nvidia-smi", "nvidia-smi --query-gpu CSV"},
})};

struct ParseLimits {
    qsizetype maxLineBytes = 64 * 1024;
    int maxLabels = 64;
    long long maxSamples = 200'000'000;
};

using SampleFn = std::function<void(RawSample&&)>;

// Chooses by content, over the whole file: a leading '{' -> Prometheus JSON, a header
// starting "ts," -> CSV, "timestamp," -> nvidia-smi CSV, a line "# EOF" anywhere (the end of
// each OpenMetrics exposition, however long the file) -> OpenMetrics, else Prometheus text.
TelemetryFormat detectFormat(const QByteArray& text);

// `counterTypes` receives the metric names declared "# TYPE name counter".
void parseExposition(const QByteArray& text, bool openMetrics, const std::string& file,
                     const ParseLimits& limits, const SampleFn& out,
                     std::vector<RejectedLine>& rejected, std::vector<std::string>& counterTypes);
void parsePromJson(const QByteArray& text, const std::string& file, const ParseLimits& limits,
                   const SampleFn& out, std::vector<RejectedLine>& rejected);
// The same over an answer read as it arrives (`read` hands each series on and calls
// `restart` before a new try of the request).
void parsePromJson(const PromAnswerRead& read, const std::string& file, const ParseLimits& limits,
                   const SampleFn& out, std::vector<RejectedLine>& rejected);
void parseLongCsv(const QByteArray& text, const std::string& file, const ParseLimits& limits,
                  const SampleFn& out, std::vector<RejectedLine>& rejected);
// `nvidia-smi --query-gpu=timestamp,index,utilization.gpu,... --format=csv` output, one file
// per host: the host is a "hostname" column if there is one, else `defaultHost` (the file's
// base name). Columns map to DCGM names where one exists (utilization.gpu ->
// DCGM_FI_DEV_GPU_UTIL, power.draw -> DCGM_FI_DEV_POWER_USAGE, temperature.gpu ->
// DCGM_FI_DEV_GPU_TEMP, memory.used -> DCGM_FI_DEV_FB_USED); "[N/A]" and "[Not Supported]"
// are missing values. Timestamps "YYYY/MM/DD HH:MM:SS.mmm" are read as UTC.
void parseNvidiaSmiCsv(const QByteArray& text, const std::string& file,
                       const std::string& defaultHost, const ParseLimits& limits,
                       const SampleFn& out, std::vector<RejectedLine>& rejected);

} // namespace cs
