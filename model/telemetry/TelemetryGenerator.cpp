#include "TelemetryGenerator.h"

#include <cmath>
#include <random>

namespace cs {

QByteArray generatePrometheusTelemetry(const Topology& t, const TelemetryGeneratorParams& p) {
    std::mt19937_64 rng(p.seed);
    std::normal_distribution<double> noise(0, 1);
    const int hosts =
        p.maxHosts > 0 ? std::min<int>(p.maxHosts, int(t.hosts.size())) : int(t.hosts.size());
    const int samples = std::max(1, int(p.durationS / p.intervalS) + 1);
    const bool om = p.openMetrics;
    // Samples grouped by metric family, as both formats want them (OpenMetrics requires it).
    struct Family {
        QByteArray header, samples;
    };
    std::vector<std::pair<std::string, Family>> families;
    auto familyOf = [&](const char* metric) -> Family& {
        for (auto& [name, f] : families)
            if (name == metric) return f;
        families.push_back({metric, {}});
        return families.back().second;
    };
    auto declare = [&](const char* metric, const char* type, const char* help) {
        // OpenMetrics: a counter family is named without _total; a counter without the
        // suffix (SNMP's ifHCOutOctets) can only be "unknown" there.
        std::string name = metric, kind = type;
        if (om && kind == "counter") {
            if (name.size() > 6 && name.compare(name.size() - 6, 6, "_total") == 0)
                name.resize(name.size() - 6);
            else
                kind = "unknown";
        }
        Family& f = familyOf(metric);
        if (help) f.header += "# HELP " + QByteArray::fromStdString(name) + " " + help + "\n";
        f.header += "# TYPE " + QByteArray::fromStdString(name) + " " +
                    QByteArray::fromStdString(kind) + "\n";
    };
    auto line = [&](const char* metric, const QByteArray& labels, double value, int64_t ms) {
        QByteArray& out = familyOf(metric).samples;
        out += metric;
        out += '{';
        out += labels;
        out += "} ";
        out += QByteArray::number(value, 'g', 15);
        out += ' ';
        out += om ? QByteArray::number(double(ms) / 1000, 'f', 3) : QByteArray::number(ms);
        out += '\n';
    };
    // How busy the job is at time s: collectives at the end of each step, checkpoints.
    auto busy = [&](double s) {
        const double inStep = std::fmod(s, p.stepS) / p.stepS;
        const bool checkpoint = std::fmod(s, p.checkpointEveryS) < 4.0 && s > 1;
        return checkpoint ? 0.02 : (inStep > 0.92 ? 0.55 : 0.97);
    };
    declare("DCGM_FI_DEV_GPU_UTIL", "gauge", "GPU utilization (in %).");
    declare("DCGM_FI_DEV_POWER_USAGE", "gauge", "Power draw (in W).");
    declare("DCGM_FI_DEV_GPU_TEMP", "gauge", "GPU temperature (in C).");
    declare("node_infiniband_port_data_transmitted_bytes_total", "counter", nullptr);
    declare("node_infiniband_port_data_received_bytes_total", "counter", nullptr);
    declare("ifHCOutOctets", "counter", nullptr);
    std::vector<double> nicBytes(t.nics.size(), 0), portBytes(t.links.size(), 0);
    for (int k = 0; k < samples; ++k) {
        const double s = k * p.intervalS;
        const int64_t ms = p.startMs + int64_t(std::llround(s * 1000));
        const double b = busy(s);
        for (int h = 0; h < hosts; ++h) {
            const Host& host = t.hosts[size_t(h)];
            const QByteArray hostLabel =
                "Hostname=\"" + QByteArray::fromStdString(host.name) + "\"";
            for (int g = 0; g < host.gpuCount; ++g) {
                const QByteArray labels = "gpu=\"" + QByteArray::number(g) + "\",UUID=\"GPU-" +
                                          QByteArray::number(qulonglong(host.firstGpu + g), 16) +
                                          "\"," + hostLabel;
                const double util = std::clamp(100 * b + 2 * noise(rng), 0.0, 100.0);
                line("DCGM_FI_DEV_GPU_UTIL", labels, std::round(util), ms);
                line("DCGM_FI_DEV_POWER_USAGE", labels, 90 + 600 * b + 8 * noise(rng), ms);
                // The first GPU's temperature sensor reports "not supported" (a DCGM sentinel).
                line("DCGM_FI_DEV_GPU_TEMP", labels,
                     h == 0 && g == 0 ? 9223372036854775794.0 : 45 + 30 * b + noise(rng), ms);
            }
        }
        // NIC counters: ~30 GB/s per NIC while busy; host 1 reboots half way (counter reset).
        for (size_t n = 0; n < t.nics.size(); ++n) {
            const Nic& nic = t.nics[n];
            if (nic.role != NicRole::Backend || nic.host >= hosts) continue;
            nicBytes[n] += p.intervalS * 30e9 * b * (1 + 0.05 * noise(rng));
            if (nic.host == 1 && k == samples / 2) nicBytes[n] = 1e6;
            const int dev = t.gpus[size_t(nic.gpu)].local;
            const QByteArray labels =
                "device=\"mlx5_" + QByteArray::number(dev) + "\",instance=\"" +
                QByteArray::fromStdString(t.hosts[size_t(nic.host)].name) + ":9100\",port=\"1\"";
            line("node_infiniband_port_data_transmitted_bytes_total", labels,
                 std::floor(nicBytes[n]), ms);
            line("node_infiniband_port_data_received_bytes_total", labels,
                 std::floor(nicBytes[n] * 0.98), ms);
        }
        // Rack switch uplinks of the racks of the hosts above (SNMP ifHCOutOctets).
        for (size_t l = 0; l < t.links.size(); ++l) {
            const Link& k2 = t.links[l];
            if (k2.a.kind != EntityKind::Switch || k2.b.kind != EntityKind::Switch) continue;
            const Switch& sw = t.switches[size_t(k2.a.index)];
            if (tierOf(sw.role) != 1 || networkOf(sw.role) != Network::Backend) continue;
            bool inScope = false;
            for (int h = 0; h < hosts && !inScope; ++h)
                inScope = t.hosts[size_t(h)].rack == sw.rack;
            if (!inScope) continue;
            portBytes[l] += p.intervalS * 20e9 * b * (1 + 0.05 * noise(rng));
            const QByteArray labels = "ifName=\"Ethernet" + QByteArray::number(k2.portA) +
                                      "\",instance=\"" + QByteArray::fromStdString(sw.name) + "\"";
            line("ifHCOutOctets", labels, std::floor(portBytes[l]), ms);
        }
        // A login node that is not part of the cluster.
        line("DCGM_FI_DEV_GPU_UTIL", "gpu=\"0\",Hostname=\"login-node-1\"", 3, ms);
    }
    QByteArray out;
    for (const auto& [name, f] : families)
        out += f.header + f.samples;
    if (om) out += "# EOF\n";
    return out;
}

} // namespace cs
