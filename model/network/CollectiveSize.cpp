#include "CollectiveSize.h"

#include <cmath>
#include <iterator>

namespace cs {
namespace {

struct Point {
    double mib, busGBps;
};
// nccl-tests all_reduce_perf, in place, one 8-GPU VM (Azure AI-benchmarking-guide, commit
// 8fd0c6e): A100 SXM4 80 GB (NCCL 2.18.5) and H100 SXM (NCCL 2.18.5); the last point is the
// large-message rate the fractions are taken of.
constexpr Point kAmpere[] = {{0.0625, 2.70}, {0.25, 10.11},  {1, 36.22},
                             {4, 71.43},     {16, 109.22},   {64, 166.63},
                             {256, 213.87},  {1024, 228.10}, {8192, 231.58}};
constexpr Point kHopper[] = {{0.0625, 2.72}, {0.25, 10.86},  {1, 43.70},
                             {4, 128.73},    {16, 234.45},   {64, 361.78},
                             {256, 423.38},  {1024, 466.35}, {8192, 478.87}};

template <size_t N> double fractionOf(const Point (&curve)[N], double mib) {
    const double top = curve[N - 1].busGBps;
    if (mib <= curve[0].mib) return curve[0].busGBps / top * mib / curve[0].mib;
    if (mib >= curve[N - 1].mib) return 1.0;
    size_t i = 1;
    while (curve[i].mib < mib)
        ++i;
    const Point &a = curve[i - 1], &b = curve[i];
    const double w = std::log2(mib / a.mib) / std::log2(b.mib / a.mib);
    return (a.busGBps + w * (b.busGBps - a.busGBps)) / top;
}

} // namespace

double ncclSizeFraction(const std::string& gpuFamily, double messageBytes) {
    if (messageBytes <= 0) return 1.0;
    const double mib = messageBytes / (1024.0 * 1024.0);
    // [assumption] Blackwell follows Hopper's curve until a measured one is at hand.
    return gpuFamily == "ampere" ? fractionOf(kAmpere, mib) : fractionOf(kHopper, mib);
}

} // namespace cs
