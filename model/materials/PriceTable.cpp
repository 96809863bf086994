#include "PriceTable.h"

#include "BoundedFileRead.h"
#include "InputError.h"
#include "JsonObjectReader.h"

#include <QFile>
#include <QRegularExpression>

namespace cs {
namespace {

constexpr qint64 kMaxPriceFileBytes = 4 << 20;
constexpr qsizetype kMaxPrices = 10000;
constexpr int kPriceFileVersion = 1;

std::string keyForms() {
    return "gpu.MODEL, host, nic.<speed>G, switchPort.<speed>G, transceiver.<speed>G (each also "
           "as nic.ib.<speed>G ... for InfiniBand parts), switchChassis, cable.dac, cable.fibre, "
           "storage.tectonic or storage.hammerspace";
}

Price readEntry(JsonObjectReader e, const std::string& file) {
    Price p;
    p.usd = e.number("usd", 0, 1e12);
    p.source = e.string("source");
    if (p.source.empty()) e.fail("source", "expected where the price comes from");
    p.date = e.string("date");
    static const QRegularExpression date(R"(^\d{4}-\d{2}(-\d{2})?$)");
    if (!date.match(QString::fromStdString(p.date)).hasMatch())
        e.fail("date", "expected a date as YYYY-MM or YYYY-MM-DD, got \"" + p.date + "\"");
    p.file = file;
    e.finish();
    return p;
}

} // namespace

bool isPriceKey(std::string_view key) {
    static const QRegularExpression forms(
        R"(^(gpu\.[A-Za-z0-9][A-Za-z0-9_.-]*|host|switchChassis|)"
        R"((nic|switchPort|transceiver)\.(ib\.)?[0-9]+(\.[0-9]+)?G|)"
        R"(cable\.(dac|fibre)|storage\.(tectonic|hammerspace))$)");
    return forms.match(QString::fromUtf8(key.data(), qsizetype(key.size()))).hasMatch();
}

std::string speedKey(double gbps) {
    return QString::number(gbps, 'g', 6).toStdString() + "G";
}

void PriceTable::read(const QByteArray& text, const std::string& fileName) {
    std::map<std::string, Price> read =
        readJsonDocument(text, fileName, [&](const QJsonDocument& doc) {
            JsonObjectReader r(doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(),
                               JsonPath());
            if (r.string("format") != "clusterscope-prices")
                r.fail("format", "expected \"clusterscope-prices\"");
            if (r.integer("version", 1, 1000) > kPriceFileVersion)
                r.fail("version",
                       "newer than this build reads (" + std::to_string(kPriceFileVersion) + ")");
            if (r.string("currency", "USD") != "USD")
                r.fail("currency", "expected \"USD\": prices are in US dollars");
            const QJsonValue all = r.value("prices");
            if (!all.isObject()) r.fail("prices", "expected an object, got " + describeJson(all));
            if (all.toObject().size() > kMaxPrices)
                r.fail("prices", "expected at most " + std::to_string(kMaxPrices) + " entries");
            JsonObjectReader prices = r.object("prices");
            std::map<std::string, Price> out;
            for (const QString& k : all.toObject().keys()) {
                const std::string key = k.toStdString();
                if (!isPriceKey(key))
                    prices.fail(key.c_str(),
                                "unknown item \"" + key + "\"; expected " + keyForms());
                out[key] = readEntry(prices.object(key.c_str()), fileName);
            }
            prices.finish();
            r.finish();
            return out;
        });
    for (auto& [key, price] : read)
        entries_[key] = std::move(price);
    files_.push_back(fileName);
}

void PriceTable::readFile(const QString& path) {
    read(readFileBounded(path, kMaxPriceFileBytes), path.toStdString());
}

const Price* PriceTable::find(const std::string& key) const {
    const auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : &it->second;
}

const Price& PriceTable::at(const std::string& key, const std::string& what) const {
    if (const Price* p = find(key)) return *p;
    std::string read;
    for (const std::string& f : files_)
        read += (read.empty() ? "" : ", ") + f;
    throw InputException({files_.empty() ? std::string("prices") : files_.back(), 0, 0,
                          "prices." + key,
                          "no price for " + what + " (read: " + read + "); add \"" + key +
                              "\" to a file given with --prices"});
}

const PriceTable& shippedPrices() {
    static const PriceTable table = [] {
        QFile f(":/design/prices.json");
        if (!f.open(QIODevice::ReadOnly))
            throw std::runtime_error("the shipped price table is missing from this build");
        PriceTable t;
        t.read(f.readAll(), "resources/prices.json");
        return t;
    }();
    return table;
}

} // namespace cs
