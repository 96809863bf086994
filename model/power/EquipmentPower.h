#pragma once
// What each piece of equipment draws, in watts: GPUs at their power limit and idle, the rest
// of a host, NICs, switch ports, transceivers, cables, storage servers. Each figure is tagged
// [paper], [2nd], [derived] or [assumption] and has its source in
// docs/reference/power-and-prices.md.
#include "EntityKinds.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cs {

struct GpuPowerFigures {
    std::string_view model; // as a topology names it ("H100-SXM-80GB")
    double tdpW = 0;        // the board's power limit: a GPU computing flat out
    double idleW = 0;       // P0 with its memory allocated and nothing running: a GPU waiting
                            // in a collective or a checkpoint
    // The rest of an 8-GPU host at its rating: CPUs, memory, NVSwitches, fans, drives, power
    // conversion; without its GPUs and NICs (counted on their own).
    double hostRestPer8GpusW = 0;
};

const std::vector<GpuPowerFigures>& gpuPowerTable();
// The figures of a topology's GPU model (case-insensitive); nothing when none are known.
std::optional<GpuPowerFigures> gpuPowerOf(std::string_view gpuModel);
std::string gpuPowerModels(); // "H100-SXM-80GB, A100-SXM-80GB", for messages

// A host's power without its GPUs and NICs: the 8-GPU figure scaled by its GPU count.
double hostRestW(const GpuPowerFigures& g, int gpusInHost);
double nicPowerW(double gbps);
// One port of a switch at this speed, the switch's share of ASIC, fans and supplies; without
// the transceiver in it.
double switchPortPowerW(double gbps);
// A modular chassis of `slots` line-card slots without its line cards: supervisors, fabric
// modules and fans.
double switchChassisPowerW(int slots);
// One end of an optical link: the transceiver at that port.
double transceiverPowerW(double gbps);
double dacPowerW(); // a passive copper cable
double storageServerPowerW(StorageKind kind);

} // namespace cs
