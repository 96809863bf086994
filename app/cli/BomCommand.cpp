// `clusterscope bom`: what a topology is made of, draws and costs (model/materials), as text, one
// JSON object or CSV; with a stored run, the site's power over it.
#include "BomReport.h"
#include "CommandArgs.h"
#include "CommandLine.h"
#include "TopologyDocument.h"

#include <QJsonDocument>

#include <cstdio>
#include <optional>

namespace cs::app {

CommandSpec bomSpec() {
    CommandSpec c{
        "bom", "(--preset NAME | FILE) [--prices PRICES.json] [--run RUN.sqlite] [--json | --csv]",
        "the bill of materials: parts, cables, ports, power and cost of a topology",
        topologyOptions(), 1};
    c.options.push_back({"--prices",
                         "PRICES.json",
                         "prices replacing the shipped ones of the same items",
                         {"the shipped table is resources/prices.json: every price with its",
                          "source and date; a file in the same form replaces its entries"}});
    c.options.push_back({"--run", "RUN.sqlite",
                         "a stored run: the site's power over it (peak, trough, 1 s swing)"});
    c.options.push_back({"--json", "", "one JSON object instead of text"});
    c.options.push_back({"--csv", "", "one CSV row per line item instead of text"});
    return c;
}

int bomCommand(const CommandArgs& a) {
    if (a.flag("--json") && a.flag("--csv")) throw UsageError("expected --json or --csv, not both");
    if (a.flag("--csv") && a.has("--run"))
        throw UsageError("--csv lists the line items; the run's power is in the text or --json");
    const TopologySourceArgs src = topologySource(a);
    const auto doc = openTopology(src.preset, src.file, src.read);
    PriceTable prices = shippedPrices();
    if (a.has("--prices")) prices.readFile(a.value("--prices"));
    const BillOfMaterials b = billOfMaterials(doc->topology(), doc->index(), prices);
    std::optional<RunPower> run;
    if (a.has("--run")) {
        // billOfMaterials has refused a GPU model without power figures.
        const SitePowerModel model = *sitePowerModel(doc->topology());
        RunReader reader(a.value("--run"), doc->topology());
        run = runPower(reader, model, a.value("--run").toStdString());
    }
    if (a.flag("--json")) {
        const QByteArray json =
            QJsonDocument(bomToJson(b, run ? &*run : nullptr)).toJson(QJsonDocument::Compact);
        std::fwrite(json.constData(), 1, size_t(json.size()), stdout);
        std::fputc('\n', stdout);
    } else if (a.flag("--csv")) {
        std::fputs(bomToCsv(b).c_str(), stdout);
    } else {
        std::fputs(bomToText(b, run ? &*run : nullptr).c_str(), stdout);
    }
    return kExitOk;
}

} // namespace cs::app
