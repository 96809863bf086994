#include "StudySlurm.h"

#include "TopologyFile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>

#include <algorithm>
#include <stdexcept>

namespace cs::app {
namespace {

// Single quotes for the shell: paths with spaces survive the script.
QString quoted(const QString& s) {
    return "'" + QString(s).replace("'", "'\\''") + "'";
}

} // namespace

QString slurmFolder(const QString& outPath) {
    return outPath + ".slurm";
}

std::string submitStudyToSlurm(const SlurmSubmission& s, int variantCount) {
    const QString dir = slurmFolder(s.outPath);
    if (!QDir().mkpath(dir)) throw std::runtime_error("cannot create " + dir.toStdString());
    const int tasks = std::max(1, std::min(s.maxArray, variantCount));
    QString script = "#!/bin/bash\n"
                     "#SBATCH --job-name=clusterscope-study\n"
                     "#SBATCH --array=0-" +
                     QString::number(tasks - 1) +
                     "\n"
                     "#SBATCH --ntasks=1\n"
                     "#SBATCH --output=" +
                     dir + "/task-%a.log\n";
    if (!s.partition.isEmpty()) script += "#SBATCH --partition=" + s.partition + "\n";
    script +=
        "# Task K runs the variants whose index is K modulo " + QString::number(tasks) +
        " into its own part;\n# `clusterscope study STUDY --collect --out OUT` merges them.\n";
    script += "exec " + quoted(QCoreApplication::applicationFilePath()) + " study " +
              quoted(s.studyPath) + " --jobs 1 --slice \"$SLURM_ARRAY_TASK_ID/" +
              QString::number(tasks) + "\" --out " + quoted(dir) +
              "/part-\"$SLURM_ARRAY_TASK_ID\".sqlite" + (s.keepRuns ? " --keep-runs" : "") + "\n";
    const QString scriptPath = dir + "/study.sbatch";
    writeFileAtomically(scriptPath, script.toUtf8());
    QProcess sbatch;
    sbatch.start("sbatch", {"--parsable", scriptPath});
    if (!sbatch.waitForFinished(120000) || sbatch.exitStatus() != QProcess::NormalExit ||
        sbatch.exitCode() != 0) {
        const QString why = sbatch.error() == QProcess::FailedToStart
                                ? "sbatch not found (is Slurm installed and on PATH?)"
                                : QString::fromUtf8(sbatch.readAllStandardError()).trimmed();
        throw std::runtime_error("sbatch refused " + scriptPath.toStdString() + ": " +
                                 why.toStdString());
    }
    const QString job = QString::fromUtf8(sbatch.readAllStandardOutput()).trimmed();
    return "submitted job " + job.toStdString() + ": " + std::to_string(tasks) + " tasks for " +
           std::to_string(variantCount) + " variants; collect with: clusterscope study " +
           quoted(s.studyPath).toStdString() + " --collect --out " +
           quoted(s.outPath).toStdString();
}

CollectedParts collectSlurmParts(StudyStore& store) {
    CollectedParts c;
    const QDir dir(slurmFolder(store.path()));
    for (const QString& name : dir.entryList({"part-*.sqlite"}, QDir::Files, QDir::Name)) {
        ++c.parts;
        c.added += store.mergeFrom(dir.filePath(name));
    }
    return c;
}

} // namespace cs::app
