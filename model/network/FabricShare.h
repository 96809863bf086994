#pragma once
// The fabric as the step's event schedule sees it. Each transfer class (the ring edges of one
// stage's DP collectives, the sends across one pipeline boundary) is routed once into flows as
// its cluster's transport spreads them: with ECMP one per queue pair of each edge, each hashed
// onto one path; with packet spraying or adaptive routing each edge spread over every
// equal-cost path (evenly, or by the capacity each path has left). For any set of classes running
// at once, one max-min fair solve between them gives each its rate. A class's flows advance
// together (NCCL splits a transfer evenly over its channels, and a ring step waits for its slowest
// edge), so the solve runs over classes, each loading every link by the flows it routes
// there. Solves are kept per set of classes: a pipeline's steady state meets the same sets
// again and again.
#include "CollectiveTimer.h"
#include "FabricRouter.h"
#include "MaxMinFairShare.h"
#include "ShareModel.h"
#include "Transport.h"

#include <map>
#include <span>
#include <vector>

namespace cs {

class FabricShare final : public ShareModel {
public:
    // `nvlinkBps`: what an edge inside an NVLink domain moves per second.
    FabricShare(const Topology& t, FabricRouter& router, double nvlinkBps,
                ShareSolver solver = ShareSolver::BindingLinks);
    // Adds a class of edges that always run together; returns its id (0, 1, ...).
    // `flowsPerPair` > 0 overrides the transport's queue pairs per connection (ECMP).
    int addClass(const std::vector<Edge>& edges, int flowsPerPair = 0);
    void rates(std::span<const int> active, std::vector<double>& rate) override;
    // Classes that never cross the fabric run at NVLink's rate whatever else runs.
    bool fixedRate(int cls) override { return !classes_[size_t(cls)].fabric; }
    // Adds a class loading the link directions as another share's class does (its resources,
    // coefficients and cap): several jobs' classes in one share (JointSchedule.h).
    int addLoads(std::span<const int32_t> resources, std::span<const double> coefficients,
                 double cap, bool fabric);
    const Topology& topology() const { return t_; }
    FabricRouter& router() const { return router_; }
    // Adds what each link direction carries when every edge of the class moves
    // `bytesPerEdge`, split evenly over the edge's flows.
    void addLinkBytes(int cls, double bytesPerEdge, std::vector<double>* total,
                      std::vector<float>* perClass) const;
    // The class's rate when it runs alone.
    double soloRate(int cls);
    bool crossesFabric(int cls) const { return classes_[size_t(cls)].fabric; }
    int classCount() const { return int(classes_.size()); }
    // Class cls's loads: the link directions it crosses and the share of an edge's bytes on
    // each; its cap (NVLink's rate where an edge stays inside a host); the fabric's capacities.
    std::span<const int32_t> resourcesOf(int cls) const {
        return {loads_.resources.data() + loads_.offsets[size_t(cls)],
                size_t(loads_.offsets[size_t(cls) + 1] - loads_.offsets[size_t(cls)])};
    }
    std::span<const double> coefficientsOf(int cls) const {
        return {loads_.coefficients.data() + loads_.offsets[size_t(cls)],
                size_t(loads_.offsets[size_t(cls) + 1] - loads_.offsets[size_t(cls)])};
    }
    double capOf(int cls) const { return loads_.caps[size_t(cls)]; }
    const std::vector<double>& capacity() const { return capacity_; }
    // Per link direction, what its congestion control keeps where transfers collide.
    const std::vector<double>& contendedEfficiency() const { return efficiency_; }
    long long solves() const { return solves_; }
    long long loadsSolved() const { return flowsSolved_; } // link loads over all solves
    // Link directions the classes load, and those the solves run over.
    size_t linksLoaded() const { return linksLoaded_; }
    size_t linksSolved() const {
        return solver_ == ShareSolver::BindingLinks ? bindingCapacity_.size() : linksLoaded_;
    }

private:
    struct Class {
        bool nvlink = false; // some edge stays inside a host
        bool fabric = false; // some edge crosses the fabric
    };

    const Topology& t_;
    FabricRouter& router_;
    FabricTransports transports_;
    double nvlinkBps_;
    std::vector<double> capacity_, efficiency_;
    std::vector<uint8_t> injection_;
    std::vector<Class> classes_;
    // Class k's loads, as transfer k: each link direction it crosses and its flows there per
    // flow of an edge; capped at NVLink's rate where an edge stays inside a host.
    TransferLoads loads_;
    std::map<std::vector<int>, std::vector<double>> memo_;
    // The same loads over the link directions that can bind: a link only one class loads
    // becomes a cap on that class, and of the links loaded by the same classes only those not
    // dominated by another (a larger share of it for every class) are kept. Rates are those of
    // the full problem. Built for the classes added so far, rebuilt when more are added.
    TransferLoads binding_;
    std::vector<double> bindingCapacity_, bindingEfficiency_;
    std::vector<uint8_t> bindingInjection_;
    size_t bindingClasses_ = 0;
    TransferSolveScratch scratch_;
    std::vector<double> flowsOn_;
    std::vector<int32_t> route_;
    std::vector<std::pair<int32_t, double>> spread_;
    ShareSolver solver_ = ShareSolver::BindingLinks;
    long long solves_ = 0, flowsSolved_ = 0;
    size_t linksLoaded_ = 0;
    std::vector<uint8_t> loaded_; // per link direction: some class loads it

    void keepBindingLinks();
};

// The schedule's classes as a FabricShare's: schedule class k is the share's class ids[k].
// So one share can hold alternatives (a collective's ring and tree edges) and a step run
// the one it picked.
class MappedShare final : public ShareModel {
public:
    MappedShare(FabricShare& share, std::vector<int> ids) : share_(share), ids_(std::move(ids)) {}
    void rates(std::span<const int> active, std::vector<double>& rate) override {
        mapped_.clear();
        for (int k : active)
            mapped_.push_back(ids_[size_t(k)]);
        share_.rates(mapped_, rate);
    }
    bool fixedRate(int cls) override { return share_.fixedRate(ids_[size_t(cls)]); }

private:
    FabricShare& share_;
    std::vector<int> ids_;
    std::vector<int> mapped_;
};

} // namespace cs
