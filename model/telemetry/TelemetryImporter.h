#pragma once
// Imports recorded telemetry into a RunStore as a "recorded" run: parses the files, maps
// each series to a topology entity (hostname + GPU index, NIC device, switch + port name;
// a mapping file renames what differs), turns counters into rates (resets and 32-bit wraps
// handled), treats DCGM's blank / not-supported sentinels as missing, aligns samples to
// ticks and writes one frame per tick. One transaction: an interrupted import leaves the
// store as it was. Unmapped series are counted and reported, not dropped silently.
#include "RecordedJobs.h"
#include "RunWriter.h"
#include "TelemetryParsers.h"
#include "TopologyDocument.h"

#include <QJsonObject>
#include <QStringList>

#include <map>

namespace cs {

// Appending to a recorded run (a live recording, poll by poll): the run, its time grid and
// how far it reaches. Samples before the run's end are already stored and are skipped;
// they still give counters the previous sample their first new rate needs.
struct ImportAppend {
    int64_t run = 0;
    int64_t wallStartNs = 0; // the run's t = 0, since the epoch
    int64_t tickNs = 0;
    int64_t endNs = 0; // the run's end, from its t = 0
};

struct ImportOptions {
    TelemetryFormat format = TelemetryFormat::Auto;
    QString mapFile;    // {"names": {"name in the telemetry": "topology id", ...}}
    QString jobsFile;   // Slurm's accounting (SlurmAccounting.h): the jobs, instead of labels
    int64_t tickNs = 0; // 0: the median scrape interval of the data
    // Where samples without a time go: this instant, else each file's modification time.
    std::optional<int64_t> untimedAtNs;
    ParseLimits limits;
    // Set: the frames go onto the end of that run as a new stretch (report.frames 0 and
    // nothing written when nothing new arrived); the summary becomes this report.
    std::optional<ImportAppend> append;
};

struct ImportReport {
    int64_t run = 0;
    long long samples = 0, series = 0, mappedSeries = 0, unmappedSeries = 0, frames = 0,
              missingValues = 0;
    int64_t firstNs = 0, lastNs = 0, tickNs = 0;
    int64_t endNs = 0; // the run's end after the import, from its t = 0
    std::map<std::string, long long> unmappedByMetric, mappedByMetric; // metric -> series
    // Why series land nowhere: metric -> reason -> series (SeriesMapper's reasons).
    std::map<std::string, std::map<std::string, long long>> unmappedWhy;
    long long rejectedCount = 0;
    std::vector<RejectedLine> rejected; // the first 100
    std::vector<RecordedJob> jobs;      // the jobs its GPU series name (RecordedJobs.h)
    long long untimedSamples = 0, duplicateSamples = 0;
    long long impossibleValues = 0;    // infinite or outside what a device reports: dropped
    std::vector<std::string> warnings; // untimed files, duplicate samples, impossible values
                                       // (the first 50)
    QJsonObject toJson() const;
    std::string toText() const;
};

// Throws InputException for unreadable files, a bad mapping file, or nothing to import.
ImportReport importTelemetry(const TopologyDocument& doc, const QStringList& files,
                             const ImportOptions& options, RunStore& store);

// One text to parse: a file's, or a server's answer.
struct TelemetryText {
    std::string name;   // for messages: the file, or the request
    std::string source; // for the run's name: the file's name, or the server
    QByteArray text;
    PromAnswerRead promAnswer; // instead of text: a Prometheus answer read as it arrives
    TelemetryFormat format = TelemetryFormat::Auto;
    std::string defaultHost; // nvidia-smi files: the host the file is named after
    int64_t untimedNs = 0;   // samples without a time: the file's modification time
};
// The same import over texts handed over one at a time (false: no more).
ImportReport importTelemetryTexts(const TopologyDocument& doc,
                                  const std::function<bool(TelemetryText&)>& next,
                                  const ImportOptions& options, RunStore& store);

// DCGM's "no data" values: int64 >= 0x7ffffffffffffff0 (e.g. not supported) and the float
// blank 2^47.
bool isDcgmSentinel(double v);
// Counter samples (ts ascending) to rates per second; a negative delta is a reset, or a
// wrap when the previous value sat in the top half of the 32-bit range.
std::vector<std::pair<int64_t, double>>
countersToRates(const std::vector<std::pair<int64_t, double>>& samples);

} // namespace cs
