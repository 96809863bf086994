#include "StudySlurm.h"

#include "TopologyFile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>

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
    // Names reach sbatch and a script: a newline would add lines to it.
    for (const QString& path : {s.studyPath, s.outPath})
        if (path.contains('\n') || path.contains('\r'))
            throw std::runtime_error("a path with a line break cannot go into a batch script");
    static const QRegularExpression partitionName("^[A-Za-z0-9_.,-]{1,128}$");
    if (!s.partition.isEmpty() && !partitionName.match(s.partition).hasMatch())
        throw std::runtime_error("--partition: expected a Slurm partition name (letters, digits, "
                                 "_ . , -), got \"" +
                                 s.partition.toStdString() + "\"");
    const QString dir = slurmFolder(s.outPath);
    if (!QDir().mkpath(dir)) throw std::runtime_error("cannot create " + dir.toStdString());
    const int tasks = std::max(1, std::min(s.maxArray, variantCount));
    // The script holds only the command; the array, log and partition go to sbatch as
    // arguments, so no path or name is read as a directive. sbatch expands % in --output.
    const QString script =
        "#!/bin/bash\n"
        "# Task K runs the variants whose index is K modulo " +
        QString::number(tasks) +
        " into its own part;\n# `clusterscope study STUDY --collect --out OUT` merges them.\n"
        "exec " +
        quoted(QCoreApplication::applicationFilePath()) + " study " + quoted(s.studyPath) +
        " --jobs 1 --slice \"$SLURM_ARRAY_TASK_ID/" + QString::number(tasks) + "\" --out " +
        quoted(dir) + "/part-\"$SLURM_ARRAY_TASK_ID\".sqlite" + (s.keepRuns ? " --keep-runs" : "") +
        "\n";
    const QString scriptPath = dir + "/study.sbatch";
    writeFileAtomically(scriptPath, script.toUtf8());
    QStringList args{"--parsable", "--job-name=clusterscope-study",
                     "--array=0-" + QString::number(tasks - 1), "--ntasks=1",
                     "--output=" + QString(dir).replace('%', "%%") + "/task-%a.log"};
    if (!s.partition.isEmpty()) args << "--partition=" + s.partition;
    args << scriptPath;
    QProcess sbatch;
    sbatch.start("sbatch", args);
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
        try {
            c.added += store.mergeFrom(dir.filePath(name));
        } catch (const InputException& e) {
            c.skipped.push_back(e.what());
        }
    }
    return c;
}

} // namespace cs::app
