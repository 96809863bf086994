#include "TopologyFingerprint.h"

#include <cstring>

namespace cs {
namespace {

// FNV-1a, 64 bit: stable across builds and machines, which std::hash is not.
struct Fnv {
    uint64_t h = 1469598103934665603ULL;
    void bytes(const void* p, size_t n) {
        const auto* b = static_cast<const unsigned char*>(p);
        for (size_t i = 0; i < n; ++i) {
            h ^= b[i];
            h *= 1099511628211ULL;
        }
    }
    template <class T> void value(T v) { bytes(&v, sizeof v); }
    void text(const std::string& s) {
        value(uint64_t(s.size()));
        bytes(s.data(), s.size());
    }
};

} // namespace

uint64_t topologyFingerprint(const Topology& t) {
    Fnv f;
    for (size_t n :
         {t.clusters.size(), t.pods.size(), t.racks.size(), t.hosts.size(), t.gpus.size(),
          t.nics.size(), t.switches.size(), t.storage.size(), t.links.size()})
        f.value(uint64_t(n));
    for (const Host& h : t.hosts) {
        f.text(h.name);
        f.value(h.gpuCount);
    }
    for (const Switch& s : t.switches)
        f.text(s.name);
    for (const StorageServer& s : t.storage)
        f.text(s.name);
    for (const Link& l : t.links) {
        f.value(uint8_t(l.a.kind));
        f.value(l.a.index);
        f.value(uint8_t(l.b.kind));
        f.value(l.b.index);
        f.value(l.gbps);
    }
    return f.h & 0x7fffffffffffffffULL; // fits SQLite's signed integers
}

} // namespace cs
