// `clusterscope study`: a study's variants simulated here in worker processes, or as a Slurm
// job array whose parts are collected into one result file.
#include "CommandArgs.h"
#include "CommandLine.h"
#include "StudyOutput.h"
#include "StudySlurm.h"
#include "StudyVariantRun.h"
#include "StudyWorkers.h"
#include "TerminalProgress.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QThread>

#include <cstdio>

namespace cs::app {
namespace {

// --slice K/N: this process runs the variants whose index is K modulo N.
std::pair<int, int> sliceOf(const CommandArgs& a) {
    if (!a.has("--slice")) return {0, 1};
    const QStringList parts = a.value("--slice").split('/');
    bool okK = false, okN = false;
    const int k = parts.value(0).toInt(&okK), n = parts.value(1).toInt(&okN);
    if (parts.size() != 2 || !okK || !okN || n < 1 || n > 100000 || k < 0 || k >= n)
        throw UsageError("--slice: expected K/N with 0 <= K < N <= 100000, got \"" +
                         a.value("--slice").toStdString() + "\"");
    return {k, n};
}

// A worker: one variant, its result as one JSON line. A variant the engine refuses is a
// result ("ok": false), not an error of the worker.
int runOneVariant(const CommandArgs& a, const StudySpec& s,
                  const std::vector<QJsonObject>& variants) {
    bool ok = false;
    const int index = a.value("--variant").toInt(&ok);
    if (!ok || index < 0 || index >= int(variants.size()))
        throw UsageError("--variant: expected an index from 0 to " +
                         std::to_string(variants.size() - 1) + ", got \"" +
                         a.value("--variant").toStdString() + "\"");
    // The parameters echoed: the study checks it ran the variant it asked for.
    QJsonObject out{{"index", index}, {"params", variants[size_t(index)]}};
    try {
        const VariantFigures f = runStudyVariant(
            s, variants[size_t(index)],
            a.flag("--keep-runs") || s.keepRuns ? keptRunPath(a.value("--out"), index) : QString());
        out.insert("ok", true);
        out.insert("figures", f.figures);
        out.insert("runPath", f.runPath);
    } catch (const InputException& e) {
        out.insert("ok", false);
        out.insert("message",
                   QString::fromStdString(e.error().message.empty() ? std::string(e.what())
                                          : e.error().field.empty()
                                              ? e.error().message
                                              : e.error().field + ": " + e.error().message));
    }
    std::printf("%s\n", QJsonDocument(out).toJson(QJsonDocument::Compact).constData());
    return kExitOk;
}

} // namespace

CommandSpec studySpec() {
    CommandSpec c{"study",
                  "STUDY.json --out STUDY.sqlite",
                  "simulate every variant of a design study; resumes where it stopped",
                  {},
                  1};
    c.options = {
        {"--out",
         "STUDY.sqlite",
         "the result file: each variant's parameters, figures, status",
         {"a file of the same study is resumed: finished variants are not run again"}},
        {"--jobs", "N", "worker processes at once (default: one per core)"},
        {"--keep-runs", "", "keep each variant's run beside the result file (OUT-runs/)"},
        {"--json", "", "print every variant's parameters, status and figures as JSON"},
        {"--slurm",
         "",
         "submit the variants as a Slurm job array (sbatch) instead",
         {"each task runs a slice of the variants into OUT.slurm/part-K.sqlite"}},
        {"--partition", "P", "the Slurm partition (with --slurm)"},
        {"--max-array", "N", "at most N array tasks (with --slurm; default 1000)"},
        {"--collect", "", "merge the Slurm tasks' parts into OUT (safe to repeat)"},
        {"--slice", "K/N", "run only the variants whose index is K modulo N", {}, false},
        {"--variant",
         "K",
         "run variant K (0: the first) and print its result as one JSON line",
         {},
         false},
    };
    return c;
}

int studyCommand(const CommandArgs& a) {
    if (a.positionals().size() != 1) throw UsageError("expected one study file");
    if (!a.has("--out")) throw UsageError("expected --out STUDY.sqlite");
    const QString studyPath = QFileInfo(a.positionals().front()).absoluteFilePath();
    const QString outPath = QFileInfo(a.value("--out")).absoluteFilePath();
    // Options that belong to another mode are refused, not ignored.
    const bool slurm = a.flag("--slurm"), collect = a.flag("--collect");
    for (const char* flag : {"--partition", "--max-array"})
        if (a.has(flag) && !slurm) throw UsageError(std::string(flag) + " goes with --slurm");
    if (slurm && collect) throw UsageError("expected --slurm or --collect, not both");
    if (slurm || collect)
        for (const char* flag : {"--jobs", "--slice", "--variant"})
            if (a.has(flag))
                throw UsageError(std::string(flag) + " does not go with " +
                                 (slurm ? "--slurm" : "--collect"));
    if (slurm && a.flag("--json")) throw UsageError("--json does not go with --slurm");
    const StudySpec s = loadStudy(studyPath);
    const std::vector<QJsonObject> variants = studyVariants(s);
    if (a.has("--variant")) return runOneVariant(a, s, variants);
    if (collect) {
        StudyStore store =
            StudyStore::openForStudy(outPath, s.canonical, int(variants.size()), s.dir);
        const CollectedParts c = collectSlurmParts(store);
        for (const std::string& skipped : c.skipped)
            std::fprintf(stderr, "skipped %s\n", skipped.c_str());
        std::fprintf(stderr, "collected %d new variants from %d parts in %s; %zu of %zu finished\n",
                     c.added, c.parts, qPrintable(slurmFolder(outPath)), store.finished().size(),
                     variants.size());
        printStudy(store, s, a.flag("--json"));
        return kExitOk;
    }
    if (slurm) {
        SlurmSubmission sub;
        sub.studyPath = studyPath;
        sub.outPath = outPath;
        sub.partition = a.value("--partition");
        sub.maxArray = a.has("--max-array") ? positiveInt(a, "--max-array", 100000) : 1000;
        sub.keepRuns = a.flag("--keep-runs");
        const std::string job = submitStudyToSlurm(sub, int(variants.size()));
        std::printf("%s\n", job.c_str());
        return kExitOk;
    }
    StudyWork w;
    w.studyPath = studyPath;
    w.outPath = outPath;
    w.jobs = a.has("--jobs") ? positiveInt(a, "--jobs", 1024) : QThread::idealThreadCount();
    w.keepRuns = a.flag("--keep-runs") || s.keepRuns;
    std::tie(w.sliceIndex, w.sliceCount) = sliceOf(a);
    StudyStore store = StudyStore::openForStudy(outPath, s.canonical, int(variants.size()), s.dir);
    const auto bar = terminalProgress(a.flag("--json"));
    const StudyWorkResult r = runStudyWorkers(w, variants, store, [&](int done, int total) {
        if (bar) bar(total ? double(done) / total : 1.0);
    });
    printStudy(store, s, a.flag("--json"));
    if (r.errors.empty()) return kExitOk;
    // Not the variants' fault: nothing recorded, they run again when the study is resumed.
    for (const std::string& e : r.errors)
        std::fprintf(stderr, "clusterscope study: %s\n", e.c_str());
    std::fprintf(stderr,
                 "clusterscope study: %zu variants have no result; the same command runs them "
                 "again\n",
                 r.errors.size());
    return kExitIoError;
}

} // namespace cs::app
