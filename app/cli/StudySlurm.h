#pragma once
// A study as a Slurm job array: the script is written to OUT.slurm/ and submitted with
// sbatch; each array task runs `clusterscope study STUDY --slice K/N --out
// OUT.slurm/part-K.sqlite --jobs 1`, so a task that is run again resumes its part.
#include "StudyStore.h"

#include <string>
#include <vector>

namespace cs::app {

struct SlurmSubmission {
    QString studyPath, outPath; // absolute
    QString partition;          // empty: the cluster's default
    int maxArray = 1000;        // tasks at most (a cluster's MaxArraySize)
    bool keepRuns = false;
};

// The folder holding the script, the tasks' logs and their parts: OUT.slurm.
QString slurmFolder(const QString& outPath);
// Writes the script, runs sbatch; returns a line naming the job and how to collect it.
// Throws std::runtime_error with sbatch's message when it refuses.
std::string submitStudyToSlurm(const SlurmSubmission& s, int variantCount);

struct CollectedParts {
    int parts = 0, added = 0;
    std::vector<std::string> skipped; // "FILE: why" for parts that cannot be read yet
};
// Merges every part in OUT.slurm/ into `store` (StudyStore::mergeFrom: idempotent). A part
// that cannot be read (a task still creating it, damaged, another study's) is skipped, named.
CollectedParts collectSlurmParts(StudyStore& store);

} // namespace cs::app
