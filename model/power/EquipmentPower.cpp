#include "EquipmentPower.h"

#include <algorithm>
#include <cctype>

// Source list: docs/reference/power-and-prices.md.
namespace cs {
namespace {

// NICs [assumption]: no NIC board power was found in the data sheets read; a 400G ConnectX-7
// class card is taken at 25 W, slower ones at less.
constexpr double kNic400W = 25, kNic200W = 20, kNic100W = 15;
// Switch ports [assumption]: 1 kW for a 64 x 400G (51.2 Tb/s) switch without optics, bounded
// by the two 3 kW supplies of NVIDIA's SN5600 [paper]; per port in proportion to its speed.
constexpr double kSwitchWPerGbps = 1000.0 / (64 * 400);

bool sameModel(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower((unsigned char)x) == std::tolower((unsigned char)y);
           });
}

} // namespace

const std::vector<GpuPowerFigures>& gpuPowerTable() {
    static const std::vector<GpuPowerFigures> table{
        // TDP 700 W [paper: H100 data sheet]; idle 140 W [paper: nvidia-smi of H100 80GB HBM3 in
        // P0, memory allocated, 0 % busy]; host: a DGX H100 is rated 10.2 kW [paper] less
        // 8 x 700 W GPUs, 8 x 400G NICs and one 100G NIC [derived].
        {"H100-SXM-80GB", 700, 140, 10200 - 8 * 700 - 8 * kNic400W - kNic100W},
        // TDP 400 W [paper: A100 data sheet]; idle [assumption: the H100's 20 % of TDP]; host:
        // a DGX A100 is rated 6.5 kW [paper] less 8 x 400 W, 8 x 200G NICs, one 100G NIC
        // [derived].
        {"A100-SXM-80GB", 400, 80, 6500 - 8 * 400 - 8 * kNic200W - kNic100W},
        // TDP 700 W [paper: H200 data sheet]; idle [assumption: 20 % of TDP, as the H100];
        // host: a DGX H200 is rated 10.2 kW [paper], less GPUs and NICs as the H100 [derived].
        {"H200-SXM-141GB", 700, 140, 10200 - 8 * 700 - 8 * kNic400W - kNic100W},
        // 1,000 W per GPU in a DGX B200 [paper: DGX B200 data sheet]; idle [assumption: 20 %];
        // host: the DGX B200 is rated 14.3 kW [paper] less 8 GPUs and 8 x 400G NICs [derived].
        {"B200-SXM-180GB", 1000, 200, 14300 - 8 * 1000 - 8 * kNic400W - kNic100W},
        // 1,200 W per GB200 GPU [2nd: ml-engineering's power table]; idle [assumption: 20 %];
        // host: a compute tray of 4 GPUs and 2 Grace CPUs draws up to 5.4 kW [2nd] less its
        // GPUs and 4 x 400G NICs, doubled for 8 GPUs [derived].
        {"GB200-186GB", 1200, 240, 2 * (5400 - 4 * 1200 - 4 * kNic400W)},
        // 1,400 W per GB300 GPU [2nd: Verda's GB300 NVL72 article]; idle [assumption: 20 %];
        // host: the GB200 tray's figure [assumption: the same Grace CPUs and board].
        {"GB300-288GB", 1400, 280, 2 * (5400 - 4 * 1200 - 4 * kNic400W)},
    };
    return table;
}

std::optional<GpuPowerFigures> gpuPowerOf(std::string_view gpuModel) {
    for (const GpuPowerFigures& g : gpuPowerTable())
        if (sameModel(g.model, gpuModel)) return g;
    return std::nullopt;
}

std::string gpuPowerModels() {
    std::string out;
    for (const GpuPowerFigures& g : gpuPowerTable())
        out += (out.empty() ? "" : ", ") + std::string(g.model);
    return out;
}

double hostRestW(const GpuPowerFigures& g, int gpusInHost) {
    return g.hostRestPer8GpusW * gpusInHost / 8.0; // [assumption] in proportion to its GPUs
}

double nicPowerW(double gbps) {
    return gbps > 200 ? kNic400W : gbps > 100 ? kNic200W : kNic100W;
}

double switchPortPowerW(double gbps) {
    return gbps * kSwitchWPerGbps;
}

double switchChassisPowerW(int slots) {
    // [assumption] no data sheet figure was read: two supervisors, six fabric modules and the
    // fans of a 16-slot chassis at 1.5 kW, about a sixth of its 576 ports' 9 kW; a smaller
    // chassis in proportion to its slots.
    return 1500.0 * slots / 16;
}

double transceiverPowerW(double gbps) {
    if (gbps > 400) return 17; // [paper] 800G twin-port OSFP, class 8
    if (gbps > 200) return 9;  // [paper] 400G OSFP DR4
    if (gbps > 100) return 5;  // [paper] the same in 200G mode
    if (gbps > 25) return 3.5; // [assumption] 100G QSFP28
    return 1;                  // [assumption] 25G SFP28
}

double dacPowerW() {
    return 0; // [paper] passive copper: "near zero power"
}

double storageServerPowerW(StorageKind kind) {
    return kind == StorageKind::Tectonic ? 400 : 800; // [assumption] both
}

} // namespace cs
