#include "CollectiveEdges.h"

namespace cs {

void addRingEdges(const std::vector<int32_t>& group, std::vector<Edge>& out) {
    if (group.size() < 2) return;
    for (size_t k = 0; k < group.size(); ++k)
        out.push_back({group[k], group[(k + 1) % group.size()]});
}

void addTreeEdges(const std::vector<int32_t>& group, std::vector<Edge>& out) {
    const size_t n = group.size();
    for (int tree = 0; tree < 2; ++tree)
        for (size_t i = 1; i < n; ++i) {
            const size_t parent = (i - 1) / 2;
            const int32_t a = group[tree ? n - 1 - i : i];
            const int32_t b = group[tree ? n - 1 - parent : parent];
            out.push_back({a, b});
            out.push_back({b, a});
        }
}

} // namespace cs
