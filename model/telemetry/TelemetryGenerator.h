#pragma once
// Realistic recorded telemetry for a topology, as a Prometheus text exposition with
// millisecond timestamps, the way dcgm-exporter, node_exporter and an SNMP exporter expose
// it: DCGM GPU utilisation, power and temperature per GPU; InfiniBand/RoCE NIC byte
// counters per backend NIC; IF-MIB octet counters on rack-switch uplinks. Training-like
// shape: busy GPUs with dips at every step's collectives and at checkpoints. Includes what
// real data has: a counter reset (a host reboots), DCGM "not supported" sentinels, and a
// host that is not in the topology.
#include "Topology.h"

#include <QByteArray>

#include <cstdint>

namespace cs {

struct TelemetryGeneratorParams {
    double durationS = 300;
    double intervalS = 15;
    int maxHosts = 0;   // 0: every host
    double stepS = 6.5; // training step period (Llama 3 405B on 16K GPUs)
    double checkpointEveryS = 900;
    uint64_t seed = 1;
    int64_t startMs = 1'717'200'000'000; // 2024-06-01, during Llama 3 training
    // OpenMetrics (seconds, counter families without _total, "# EOF"), which
    // `promtool tsdb create-blocks-from openmetrics` loads into Prometheus; else Prometheus text.
    bool openMetrics = false;
};

QByteArray generatePrometheusTelemetry(const Topology& t, const TelemetryGeneratorParams& p);

} // namespace cs
