#pragma once
// What `clusterscope study` prints when it is done: a table of the variants, or with --json
// {"variants": [{"index", "params", "status", "message", "figures", "runPath"}]} in the order
// the axes enumerate them (status "pending" for a variant not finished yet).
#include "StudySpec.h"
#include "StudyStore.h"

#include <QJsonObject>

namespace cs::app {

QJsonObject studyResultsJson(const StudyStore& store, const StudySpec& s);
void printStudy(const StudyStore& store, const StudySpec& s, bool json);

} // namespace cs::app
