// Recorded telemetry in each format, imported onto small-256 into a run store as `import`
// does (parse, map, rates, ticks, frames), then read back. The first byte picks the format
// (auto-detection included), the rest is the file. Range-query JSON is also read as a stream,
// as answers from a server are, and must give what reading the whole text gave.
#include "FuzzSupport.h"
#include "InputError.h"
#include "PromAnswerReader.h"
#include "RunReader.h"
#include "TelemetryImporter.h"

#include <QFile>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace {

// Series as one string each: name, labels, pairs, malformed count.
std::vector<std::string>
seriesOf(const std::function<cs::PromAnswer(const std::function<bool(cs::PromSeries&&)>&)>& read,
         cs::PromAnswer& head) {
    std::vector<std::string> out;
    head = read([&](cs::PromSeries&& s) {
        std::string t = s.name + "{";
        for (const auto& [k, v] : s.labels)
            t += k + "=" + v + ",";
        t += "}";
        for (const auto& [at, v] : s.values)
            t += std::to_string(at) + ":" + v + ";";
        out.push_back(t + std::to_string(s.malformedPairs));
        return true;
    });
    return out;
}

void streamReadsAsText(const QByteArray& text) {
    cs::PromAnswer whole, streamed;
    const auto a = seriesOf([&](const auto& on) { return cs::readPromAnswer(text, on); }, whole);
    std::istringstream in(text.toStdString());
    const auto b = seriesOf([&](const auto& on) { return cs::readPromAnswer(in, on); }, streamed);
    if (streamed.tokenTooLong) return; // refused as a stream only: the text is in memory anyway
    if (a != b || whole.validJson != streamed.validJson || whole.status != streamed.status ||
        whole.resultType != streamed.resultType || whole.tooDeep != streamed.tooDeep) {
        std::fprintf(stderr, "the stream reader disagrees with the text reader\n");
        std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1) return 0;
    static const cs::TelemetryFormat formats[] = {
        cs::TelemetryFormat::Auto,        cs::TelemetryFormat::Prometheus,
        cs::TelemetryFormat::OpenMetrics, cs::TelemetryFormat::PromJson,
        cs::TelemetryFormat::Csv,         cs::TelemetryFormat::NvidiaSmiCsv};
    cs::TelemetryText text;
    text.name = "fuzz-telemetry";
    text.source = "fuzz";
    text.format = formats[data[0] % (sizeof formats / sizeof formats[0])];
    text.text = fuzz::bytesOf(data + 1, size - 1);
    if (text.format == cs::TelemetryFormat::PromJson) streamReadsAsText(text.text);
    text.defaultHost = "demo.pod0.rack0.host0";
    text.untimedNs = 1'717'200'000'000'000'000LL;
    const QString store = fuzz::scratchDir() + "/telemetry.sqlite";
    for (const char* suffix : {"", "-wal", "-shm"})
        QFile::remove(store + suffix);
    const cs::TopologyDocument& doc = fuzz::smallTopology();
    try {
        bool given = false;
        cs::ImportReport r;
        {
            cs::RunStore s = cs::RunStore::openForWriting(store);
            r = cs::importTelemetryTexts(
                doc,
                [&](cs::TelemetryText& out) {
                    if (given) return false;
                    out = text;
                    given = true;
                    return true;
                },
                {}, s);
        }
        // What was stored reads back: every frame, failures, one history.
        cs::RunReader reader(store, doc.topology());
        // At most 65 times, spread over the run: two samples years apart make a long run
        // whose every tick would take the harness, not the importer, a minute.
        const int64_t endNs = reader.info().endNs;
        const int64_t frames = std::min<int64_t>(64, endNs / std::max<int64_t>(1, r.tickNs));
        for (int64_t k = 0; k <= frames; ++k) {
            const int64_t at = frames == 0 ? 0 : endNs / frames * k;
            (void)reader.frameAt(at), (void)reader.failedAt(at);
        }
        (void)reader.history(cs::Metric::GpuBusy, 0, 0, reader.info().endNs, 100);
    } catch (const cs::InputException&) {
    }
    return 0;
}
