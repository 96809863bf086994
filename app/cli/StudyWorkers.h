#pragma once
// Runs a study's variants in worker processes (`clusterscope study STUDY --variant K`), at
// most `jobs` at once, recording each into the result file as it finishes: a study stopped
// half-way resumes with the variants the file lacks. A variant the engine refuses is recorded
// as failed. A worker that dies (killed, out of memory) records nothing: its variant is not
// at fault and runs again when the study is resumed; its last words are returned.
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

struct StudyWorkResult {
    int ran = 0;                     // variants recorded by this call
    std::vector<std::string> errors; // "variant K: the worker crashed: ..."
};

// `progress` gets (finished, total) of the slice, the already finished counted. Throws when
// the result file cannot be written or a worker ran another variant than it was asked.
StudyWorkResult runStudyWorkers(const StudyWork& w, const std::vector<QJsonObject>& variants,
                                StudyStore& store, const std::function<void(int, int)>& progress);

} // namespace cs::app
