#pragma once
// The power a topology's equipment draws (EquipmentPower.h's figures): per kind of equipment
// and per rack with the GPUs at their power limit, and the site's power as its GPUs go
// between idle and that limit (SitePowerModel: what the simulator stores per frame).
#include "SwitchPorts.h"
#include "Topology.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace cs {

struct SitePower {
    double gpusW = 0;     // every GPU at its power limit (TDP)
    double gpusIdleW = 0; // every GPU idle
    double hostsW = 0;    // hosts without their GPUs and NICs
    double nicsW = 0, switchesW = 0, opticsW = 0, storageW = 0; // optics: transceivers, DACs
    std::vector<double> rackW; // per rack, GPUs at their limit; 0 for a rack holding nothing
    double restW() const { return hostsW + nicsW + switchesW + opticsW + storageW; }
    double totalW() const { return gpusW + restW(); }
    double idleW() const { return gpusIdleW + restW(); }
};

// The site's power as a function of its GPUs' busy fractions: each GPU draws its idle power
// plus its busy fraction of the way to its limit; everything else draws a constant.
struct SitePowerModel {
    long long gpus = 0;
    double gpuIdleW = 0, gpuTdpW = 0;
    double restW = 0;
    // busySum: the sum of the GPUs' busy fractions (a GPU without a value counts as idle).
    double powerW(double busySum) const {
        return restW + double(gpus) * gpuIdleW + busySum * (gpuTdpW - gpuIdleW);
    }
    // Its GPUs held to a power limit (a run's gpuPowerLimitW; 0: their TDP): busy, they draw it.
    SitePowerModel withGpuLimit(double limitW) const {
        SitePowerModel out = *this;
        if (limitW > 0 && limitW < gpuTdpW) out.gpuTdpW = std::max(gpuIdleW, limitW);
        return out;
    }
};

// Throws InputException (field "gpuModel") when the topology's GPU model has no figures.
SitePower sitePower(const Topology& t, const std::vector<SwitchPortUse>& ports);
SitePower sitePower(const Topology& t);
// Nothing when the GPU model has no figures.
std::optional<SitePowerModel> sitePowerModel(const Topology& t);

// A switch's power: its used ports at their speeds, its free ones at its fastest; an NVSwitch
// is part of its host's power.
double switchPowerW(const Switch& s, const SwitchPortUse& ports);

} // namespace cs
