#pragma once
// Jobs on one fabric slow each other where their traffic meets. Each job's step is simulated
// on the fabric with the capacity the others leave it on each link direction, and the others'
// use follows from their steps, to a fixed point (ClusterSimulation.cpp).
//
// What a job leaves the others on a link direction: over its step it keeps the link busy a
// fraction d = bytes per step / (step time x capacity) of the time, were it alone there. A job
// sharing the link with others then has, on average over the step, the capacity they leave
// idle, 1 - sum of their d (a fluid model of processor sharing), but never less than the
// max-min fair share it gets while all of them send at once, 1 / (1 + others).
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace cs {

// A job's traffic: bytes per step on each link direction it loads, ascending by direction.
struct JobLinkLoad {
    std::vector<std::pair<int32_t, float>> bytesPerStep;
    double stepS = 0;
};

// Where one job meets the others: per link direction some other job loads, the fraction of
// its capacity left to the job.
struct CapacityLeft {
    std::vector<std::pair<int32_t, double>> fraction; // ascending by direction, each < 1
    // The directions where the others keep the link busiest, their busy fraction and who.
    struct Meeting {
        int32_t direction = 0;
        double othersBusy = 0;
        std::vector<int> jobs; // indices into the span given to capacityLeft
    };
    std::vector<Meeting> meetings; // busiest first, at most kMaxMeetings
};
constexpr size_t kMaxMeetings = 8;

// `capacityBps`: per link direction, what it carries at most (bytes per second).
std::vector<CapacityLeft> capacityLeft(std::span<const JobLinkLoad* const> jobs,
                                       const std::vector<double>& capacityBps);

// The link direction's busy fraction of a job alone there: bytes over what it could carry in
// the job's step.
double busyFraction(double bytesPerStep, double stepS, double capacityBps);

} // namespace cs
