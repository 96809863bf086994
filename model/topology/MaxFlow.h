#pragma once
// Maximum flow (Dinic) on a small capacitated graph; used for bisection bandwidth.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace cs {

class MaxFlow {
public:
    explicit MaxFlow(int nodes);
    void addDirected(int from, int to, double capacity);
    void addUndirected(int a, int b, double capacity); // capacity in each direction
    double run(int source, int sink);

private:
    struct Arc {
        int to;
        int reverse;
        double capacity;
    };
    bool levelGraph(int source, int sink);
    double push(int node, int sink, double limit);

    std::vector<std::vector<Arc>> arcs_;
    std::vector<int> level_;
    std::vector<size_t> next_;
};

} // namespace cs
