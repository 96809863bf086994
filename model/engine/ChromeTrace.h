#pragma once
// A simulated step as a Chrome trace (the JSON that Perfetto and chrome://tracing open).
#include "RunResult.h"
#include "RunSpec.h"

#include <QByteArray>

namespace cs {

// Every pipeline stage of a sample of DP replicas (the first, the middle, the last), with
// compute, TP, CP, PP and DP threads; comm slices carry their bytes and peer GPUs.
QByteArray chromeTraceOfStep(const RunResult& r, const RunSpec& spec);

} // namespace cs
