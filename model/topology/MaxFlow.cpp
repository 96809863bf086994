#include "MaxFlow.h"

#include <algorithm>
#include <limits>
#include <queue>

namespace cs {

namespace {
constexpr double kEpsilon = 1e-9;
}

MaxFlow::MaxFlow(int nodes) : arcs_(size_t(nodes)), level_(size_t(nodes)), next_(size_t(nodes)) {}

void MaxFlow::addDirected(int from, int to, double capacity) {
    arcs_[size_t(from)].push_back({to, int(arcs_[size_t(to)].size()), capacity});
    arcs_[size_t(to)].push_back({from, int(arcs_[size_t(from)].size()) - 1, 0.0});
}

void MaxFlow::addUndirected(int a, int b, double capacity) {
    arcs_[size_t(a)].push_back({b, int(arcs_[size_t(b)].size()), capacity});
    arcs_[size_t(b)].push_back({a, int(arcs_[size_t(a)].size()) - 1, capacity});
}

bool MaxFlow::levelGraph(int source, int sink) {
    std::fill(level_.begin(), level_.end(), -1);
    std::queue<int> q;
    level_[size_t(source)] = 0;
    q.push(source);
    while (!q.empty()) {
        const int v = q.front();
        q.pop();
        for (const Arc& a : arcs_[size_t(v)])
            if (a.capacity > kEpsilon && level_[size_t(a.to)] < 0) {
                level_[size_t(a.to)] = level_[size_t(v)] + 1;
                q.push(a.to);
            }
    }
    return level_[size_t(sink)] >= 0;
}

double MaxFlow::push(int v, int sink, double limit) {
    if (v == sink) return limit;
    for (size_t& i = next_[size_t(v)]; i < arcs_[size_t(v)].size(); ++i) {
        Arc& a = arcs_[size_t(v)][i];
        if (a.capacity <= kEpsilon || level_[size_t(a.to)] != level_[size_t(v)] + 1) continue;
        const double pushed = push(a.to, sink, std::min(limit, a.capacity));
        if (pushed > kEpsilon) {
            a.capacity -= pushed;
            arcs_[size_t(a.to)][size_t(a.reverse)].capacity += pushed;
            return pushed;
        }
    }
    return 0;
}

double MaxFlow::run(int source, int sink) {
    double total = 0;
    while (levelGraph(source, sink)) {
        std::fill(next_.begin(), next_.end(), 0);
        while (const double f = push(source, sink, std::numeric_limits<double>::infinity()))
            total += f;
    }
    return total;
}

} // namespace cs
