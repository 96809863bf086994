#pragma once
// What a discrete-event schedule asks of the fabric: "these transfer classes run together: how
// fast does each go?". The engine's step schedule and the cluster's joint schedules ask it;
// FabricShare answers it with a max-min fair solve over the routed links.
#include <span>
#include <vector>

namespace cs {

// How the fabric is shared between the transfers running at once: the max-min fair solve over
// the links that can bind (the engine's), the same solve over every link (the earlier engine,
// a baseline with the same answers), or no sharing at all (every transfer at its solo rate,
// the baseline that shows what sharing does).
enum class ShareSolver { BindingLinks, AllLinks, Solo };

class ShareModel {
public:
    virtual ~ShareModel() = default;
    // rate[k]: bytes per second per edge of class active[k]; `active` is sorted.
    virtual void rates(std::span<const int> active, std::vector<double>& rate) = 0;
    // A class whose rate never depends on what else runs (it stays on NVLink inside hosts):
    // its starts and finishes need no new solve.
    virtual bool fixedRate(int /*cls*/) { return false; }
};

} // namespace cs
