#pragma once
// Which parts are InfiniBand: the backend switches of an InfiniBand cluster, its hosts'
// backend NICs (HCAs) and the links that reach either. InfiniBand and Ethernet parts are
// priced from their own entries (PriceTable.h); everything else is Ethernet.
#include "Topology.h"

namespace cs {

bool infiniBandSwitch(const Topology& t, int32_t sw);
bool infiniBandNic(const Topology& t, int32_t nic);
bool infiniBandLink(const Topology& t, const Link& l);
// "switchPort.ib.400G" for an InfiniBand part, "switchPort.400G" for an Ethernet one.
std::string partKey(const std::string& kind, bool infiniBand, const std::string& rest);

} // namespace cs
