#include "Workload.h"

#include "BoundedFileRead.h"
#include "JsonObjectReader.h"
#include "RunOptions.h"
#include "RunSpecJson.h"
#include "TrainingStepModel.h"
#include "WorkloadMix.h"

#include <QJsonDocument>

#include <algorithm>
#include <set>

namespace cs {
namespace {

class WorkloadReader {
public:
    WorkloadReader(const QJsonDocument& doc, const std::string& fileName)
        : r_(doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(), JsonPath()) {
        w_.fileName = fileName;
    }

    Workload read() {
        if (r_.string("format") != "clusterscope-workload")
            r_.fail("format", "expected \"clusterscope-workload\"");
        if (r_.integer("version", 1, 1000) > kWorkloadFileVersion)
            r_.fail("version",
                    "newer than this build reads (" + std::to_string(kWorkloadFileVersion) + ")");
        w_.scheduler = r_.choice("scheduler", kSchedulerPolicyNames, w_.scheduler);
        w_.podCrossing = r_.choice("podCrossing", kPodCrossingNames, w_.podCrossing);
        const QJsonValue backfill = r_.value("backfill");
        if (!backfill.isUndefined() && !backfill.isBool())
            r_.fail("backfill", "expected true or false, got " + describeJson(backfill));
        w_.backfill = backfill.toBool(w_.backfill);
        w_.seed = uint64_t(r_.integer("seed", 0, (1LL << 53), (long long)w_.seed));
        if (!r_.has("jobs") && !r_.has("mix"))
            r_.fail("jobs",
                    "expected \"jobs\" (a list of jobs), \"mix\" (a generated mix) or both");
        if (r_.has("jobs")) readJobs();
        if (r_.has("mix")) {
            JsonObjectReader m = r_.object("mix");
            const WorkloadMix mix = readWorkloadMix(m);
            if (w_.jobs.size() + size_t(mix.jobs) > kMaxWorkloadJobs)
                r_.fail("mix",
                        "a workload holds at most " + std::to_string(kMaxWorkloadJobs) + " jobs");
            const size_t listed = w_.jobs.size();
            for (WorkloadJob& j : generateJobs(mix)) {
                // Each job by its own name: in the Jobs dock, the links' lists and the output.
                for (size_t i = 0; i < listed; ++i)
                    if (w_.jobs[i].name == j.name)
                        throw JsonFieldError(r_.pathOf("jobs").child(int(i)).child("name"),
                                             "expected a name no job of the mix has (it names "
                                             "its jobs mix-1, mix-2, ...), got \"" +
                                                 j.name + "\"");
                w_.jobs.push_back(std::move(j));
            }
        }
        if (r_.has("failures")) readFailures();
        r_.finish();
        return std::move(w_);
    }

private:
    void readJobs() {
        const QJsonArray jobs = r_.array("jobs", qsizetype(kMaxWorkloadJobs));
        std::set<std::string> names;
        for (qsizetype i = 0; i < jobs.size(); ++i) {
            const JsonPath at = r_.pathOf("jobs").child(int(i));
            JsonObjectReader j(jobs[i], at);
            WorkloadJob job;
            job.name = j.string("name");
            if (job.name.empty() || job.name.size() > 256)
                j.fail("name", "expected a name of 1 to 256 characters");
            if (!names.insert(job.name).second)
                j.fail("name", "expected a name no other job has, got \"" + job.name + "\"");
            job.run = runOfJob(j);
            job.submitS = j.number("submitS", 0, 366 * 86400.0, 0);
            if (const std::string p = stepsOrSpanProblem(j.has("steps"), j.has("durationS"),
                                                         "\"steps\"", "\"durationS\"");
                !p.empty())
                j.fail("steps", p);
            job.run.steps = int(j.integer("steps", 1, 100000000, 0));
            job.durationS = j.number("durationS", 1, 366 * 86400.0, 0);
            job.priority = int(j.integer("priority", -1000000, 1000000, 0));
            j.finish();
            w_.jobs.push_back(std::move(job));
        }
    }

    void readFailures() {
        const QJsonArray failures = r_.array("failures", qsizetype(kMaxWorkloadFailures));
        for (qsizetype i = 0; i < failures.size(); ++i) {
            JsonObjectReader f(failures[i], r_.pathOf("failures").child(int(i)));
            WorkloadFailure x;
            x.atS = f.number("atS", 0, 366 * 86400.0);
            x.part = f.string("part");
            if (x.part.empty() || x.part.size() > size_t(kMaxStringChars))
                f.fail("part", "expected the id of a link, switch or NIC");
            x.repairS = f.number("repairS", 1, 366 * 86400.0, x.repairS);
            x.index = int(i);
            f.finish();
            w_.failures.push_back(std::move(x));
        }
        std::stable_sort(w_.failures.begin(), w_.failures.end(),
                         [](const auto& a, const auto& b) { return a.atS < b.atS; });
    }

    // The job's run as a run file gives it, without steps or span: the job's own say how
    // long it runs.
    static RunSpec runOfJob(JsonObjectReader& j) {
        if (!j.value("run").isObject())
            j.fail("run", "expected a run-file object, got " + describeJson(j.value("run")));
        QJsonObject run = j.value("run").toObject();
        for (const char* key : {"steps", "span", "fabric"})
            if (run.contains(key))
                throw JsonFieldError(j.pathOf("run").child(key),
                                     "expected no \"" + std::string(key) + "\" in a job's run: " +
                                         (std::string(key) == "fabric"
                                              ? "the cluster's design says what is down"
                                              : "the job's \"steps\" or \"durationS\" say how "
                                                "long it runs"));
        run.insert("steps", 1); // runSpecOfJson wants one of the two
        RunSpec spec = runSpecOfJson(run, j.pathOf("run"));
        spec.steps = 0;
        if (const std::optional<InputError> e = jobRunError(spec)) {
            // The field below the run, as a path into the file ("parallel.tp").
            JsonPath at = j.pathOf("run");
            for (size_t from = 0; !e->field.empty() && from <= e->field.size();) {
                const size_t dot = std::min(e->field.find('.', from), e->field.size());
                at = at.child(e->field.substr(from, dot - from));
                from = dot + 1;
            }
            throw JsonFieldError(at, e->message);
        }
        return spec;
    }

    JsonObjectReader r_;
    Workload w_;
};

} // namespace

std::optional<InputError> jobRunError(const RunSpec& run) {
    try {
        RunSpec check = run;
        check.steps = 1;
        check.spanS = 0;
        validateRunSpec(check);
        const ModelSpec m = *modelOf(check);
        const GpuSpec g = *findGpu(check.gpu);
        checkTrainingConfig(m, g, withResolvedDefaults(m, check.parallel));
    } catch (const InputException& e) {
        return e.error();
    }
    return std::nullopt;
}

Workload parseWorkload(const QByteArray& text, const std::string& fileName) {
    if (text.size() > kMaxWorkloadFileBytes)
        throw InputException({fileName, 0, 0, {}, "a workload file is at most 16 MiB"});
    return readJsonDocument(text, fileName, [&](const QJsonDocument& doc) {
        return WorkloadReader(doc, fileName).read();
    });
}

Workload loadWorkload(const QString& path) {
    return parseWorkload(readFileBounded(path, kMaxWorkloadFileBytes), path.toStdString());
}

} // namespace cs
