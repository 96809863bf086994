#pragma once
// Which fabric description a file holds, chosen by its content (not its extension), and the
// list of the formats read, for messages and the Open dialog.
#include <QByteArray>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cs {

enum class TopologyFormat : uint8_t { Native, IbNetDiscover, InfraGraph, NetworkX, Ns3 };

struct TopologyFormatInfo {
    TopologyFormat format;
    std::string_view name;     // as messages and `stats` name it
    std::string_view patterns; // file-dialog patterns
};
const std::vector<TopologyFormatInfo>& topologyFormats();
std::string_view topologyFormatName(TopologyFormat f);
// The Open dialog's filters: every format together, each on its own, then all files.
std::string topologyOpenFilter();

// nullopt when the text looks like none of them.
std::optional<TopologyFormat> detectTopologyFormat(const QByteArray& text);
// "the file starts with ..." and the formats read, for a file detect() refused.
std::string unknownTopologyFormatMessage(const QByteArray& text);

} // namespace cs
