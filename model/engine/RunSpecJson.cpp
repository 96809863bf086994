#include "RunSpecJson.h"

#include "Duration.h"
#include "JsonObjectReader.h"

#include <QFile>
#include <QJsonDocument>

#include <cmath>

namespace cs {

namespace {

RunSpec readSpec(const QJsonDocument& doc) {
    JsonObjectReader r(doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(), JsonPath());
    if (r.string("format") != "clusterscope-run") r.fail("format", "expected \"clusterscope-run\"");
    if (r.integer("version", 1, 1000) > 1) r.fail("version", "newer than this build reads (1)");
    RunSpec s;
    s.model = r.string("model", s.model);
    s.gpu = r.string("gpu", s.gpu);
    if (r.has("parallel")) {
        JsonObjectReader p = r.object("parallel");
        ParallelConfig& c = s.parallel;
        c.tp = int(p.integer("tp", 1, 1024, c.tp));
        c.cp = int(p.integer("cp", 1, 4096, c.cp));
        c.pp = int(p.integer("pp", 1, 4096, c.pp));
        c.dp = int(p.integer("dp", 1, 1'000'000, c.dp));
        c.virtualStages = int(p.integer("virtualStages", 1, 256, c.virtualStages));
        c.seqLen = int(p.integer("seq", 1, 10'000'000, c.seqLen));
        c.batchTokens = p.number("batchTokens", 1, 1e12, c.batchTokens);
        c.microBatchSeqs = int(p.integer("microBatchSeqs", 1, 4096, c.microBatchSeqs));
        c.flowsPerPair = int(p.integer("flowsPerPair", 1, 256, c.flowsPerPair));
        const std::string placement = p.string("placement", "topology");
        if (placement != "topology" && placement != "linear")
            p.fail("placement", "expected topology or linear");
        c.placement = placement == "linear" ? Placement::Linear : Placement::TopologyAware;
        p.finish();
    }
    if (r.has("steps")) s.steps = int(r.integer("steps", 1, 1'000'000));
    if (r.has("span")) {
        const auto span = parseDurationS(r.string("span"));
        if (!span) r.fail("span", "expected a duration such as \"54d\", \"12h\", \"30m\"");
        s.spanS = *span;
    }
    if (r.has("checkpointInterval")) {
        const auto iv = parseDurationS(r.string("checkpointInterval"));
        if (!iv) r.fail("checkpointInterval", "expected a duration such as \"15m\"");
        s.checkpointIntervalS = *iv;
    }
    r.allow("failures");
    if (r.has("failures")) {
        const QJsonValue f = doc.object().value("failures");
        if (!f.isBool()) r.fail("failures", "expected true or false, got " + describeJson(f));
        s.failures = f.toBool();
    }
    s.seed = uint64_t(r.integer("seed", 0, (1LL << 53), 1));
    r.finish();
    if ((s.steps > 0) == (s.spanS > 0)) r.fail("steps", "expected either \"steps\" or \"span\"");
    return s;
}

} // namespace

RunSpec parseRunSpec(const QByteArray& text, const std::string& fileName) {
    if (text.size() > 1024 * 1024)
        throw InputException({fileName, 0, 0, {}, "a run description is at most 1 MiB"});
    return readJsonDocument(text, fileName, [](const QJsonDocument& doc) { return readSpec(doc); });
}

RunSpec loadRunSpec(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        throw InputException(
            {path.toStdString(), 0, 0, {}, "cannot open: " + f.errorString().toStdString()});
    return parseRunSpec(f.read(1024 * 1024 + 1), path.toStdString());
}

} // namespace cs
