#pragma once
// Runs a study's variants in worker processes (`clusterscope study STUDY --variant K`), at
// most `jobs` at once, recording each into the result file as it finishes: a study stopped
// half-way resumes with the variants the file lacks. A worker that dies is a failed variant
// with its last words; the study goes on.
#include "StudySpec.h"
#include "StudyStore.h"

#include <functional>

namespace cs::app {

struct StudyWork {
    QString studyPath; // handed to the workers
    QString outPath;   // the result file; kept runs go beside it
    int jobs = 1;
    bool keepRuns = false;
    int sliceIndex = 0, sliceCount = 1; // this process runs the variants idx % count == index
};

// Where a variant's run is kept: OUT without ".sqlite", "-runs/variant-K.sqlite".
QString keptRunPath(const QString& outPath, int index);

// Returns the number of variants this call ran. `progress` gets (finished, total) of the
// slice, the already finished counted.
int runStudyWorkers(const StudyWork& w, const std::vector<QJsonObject>& variants, StudyStore& store,
                    const std::function<void(int, int)>& progress);

} // namespace cs::app
