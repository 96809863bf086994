#pragma once
// Prices of the parts a bill of materials prices, in US dollars, each with its source and date:
// the table shipped in resources/prices.json (compiled in), and a user's file in the same form
// whose entries replace the shipped ones:
//   {"format": "clusterscope-prices", "version": 1, "currency": "USD",
//    "prices": {"switchPort.400G": {"usd": 1280, "source": "...", "date": "2025-05"}, ...}}
// Keys: gpu.MODEL, host, nic.<speed>G, switchPort.<speed>G, transceiver.<speed>G (Ethernet;
// nic.ib.<speed>G, switchPort.ib.<speed>G, transceiver.ib.<speed>G for InfiniBand parts),
// switchChassis (a modular switch without its line cards), cable.dac, cable.fibre,
// storage.tectonic, storage.hammerspace.
#include <QByteArray>
#include <QString>

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace cs {

struct Price {
    double usd = 0;
    std::string source, date;
    std::string file; // where it was read
};

class PriceTable {
public:
    // Reads a price file's text; its entries replace those of the same key. Throws
    // InputException naming the file, line, column and field.
    void read(const QByteArray& text, const std::string& fileName);
    void readFile(const QString& path);

    const std::map<std::string, Price>& entries() const { return entries_; }
    const Price* find(const std::string& key) const;
    // The price of `key`; throws InputException naming the key, what it prices and the files
    // read when the table lacks it.
    const Price& at(const std::string& key, const std::string& what) const;
    const std::vector<std::string>& files() const { return files_; }

private:
    std::map<std::string, Price> entries_;
    std::vector<std::string> files_;
};

// The table shipped in resources/prices.json.
const PriceTable& shippedPrices();
// Whether a key has one of the forms above.
bool isPriceKey(std::string_view key);
// "400G", "2.5G": the speed part of a key.
std::string speedKey(double gbps);

} // namespace cs
