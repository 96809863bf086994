#pragma once
// A run's steps as pictures show them: the caption a picture carries, the same in
// presentation mode and movies ("t = 1h 02m 05s  |  step 1234  |  MFU 38.1 %"), and where steps
// start (the timeline's step marks).
#include "RunReader.h"

#include <string>

namespace cs {

// The step holding nowNs, counted stretch by stretch: the run stores a step time per training
// stretch (a new one after each checkpoint or restart). None before the first step time.
std::optional<long long> stepAt(const Series& stepTimeS, int64_t nowNs);
// How far into its step nowNs is, from 0 to 1; none before the first step time.
std::optional<double> stepPhaseAt(const Series& stepTimeS, int64_t nowNs);
// The starts of the steps in [fromNs, toNs], stretch by stretch; none when there are more than
// maxCount (too dense to draw).
std::vector<int64_t> stepStarts(const Series& stepTimeS, int64_t fromNs, int64_t toNs,
                                size_t maxCount);
// The time, and the step and MFU where the run has them.
std::string runCaption(const Series& stepTimeS, const Series& mfu, int64_t nowNs);

} // namespace cs
