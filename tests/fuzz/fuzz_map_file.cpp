// Mapping files (names, patterns, hostLabel, uuids, devices, ports): a small real-shaped
// scrape imported with the fuzzed mapping file.
#include "FuzzSupport.h"
#include "InputError.h"
#include "TelemetryImporter.h"

#include <QFile>

namespace {
// One GPU, one NIC port and one switch port, named the way exporters name them, none of
// them as the topology does: the mapping file decides where they land.
const QByteArray kScrape =
    "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-1\",Hostname=\"node-7\"} 97 1717200000000\n"
    "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-1\",Hostname=\"node-7\"} 95 1717200015000\n"
    "node_infiniband_port_data_transmitted_bytes_total{device=\"mlx5_3\",port=\"1\","
    "instance=\"node-7:9100\"} 1000 1717200000000\n"
    "node_infiniband_port_data_transmitted_bytes_total{device=\"mlx5_3\",port=\"1\","
    "instance=\"node-7:9100\"} 9000 1717200015000\n"
    "ifHCOutOctets{ifName=\"Ethernet1/1\",instance=\"rsw-3\"} 5 1717200000000\n"
    "ifHCOutOctets{ifName=\"Ethernet1/1\",instance=\"rsw-3\"} 500 1717200015000\n";
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QString map = fuzz::writeScratch("map.json", fuzz::bytesOf(data, size));
    const QString store = fuzz::scratchDir() + "/map.sqlite";
    for (const char* suffix : {"", "-wal", "-shm"})
        QFile::remove(store + suffix);
    cs::ImportOptions o;
    o.mapFile = map;
    bool given = false;
    try {
        cs::RunStore s = cs::RunStore::openForWriting(store);
        cs::importTelemetryTexts(
            fuzz::smallTopology(),
            [&](cs::TelemetryText& out) {
                if (given) return false;
                out.name = "scrape.prom";
                out.source = "scrape.prom";
                out.text = kScrape;
                given = true;
                return true;
            },
            o, s);
    } catch (const cs::InputException&) {
    }
    return 0;
}
