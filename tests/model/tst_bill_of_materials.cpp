// The bill of materials (model/materials): its counts agree with the topology's figures, DeepSeek's
// fat trees come out as their published table (docs/reference/network-cost.md), power and
// cost add up line by line, cables follow the floor's routes, and a user's price file
// replaces entries or is refused with its place.
#include "BillOfMaterials.h"
#include "EquipmentPower.h"
#include "InputError.h"
#include "SceneLayout.h"
#include "SitePower.h"
#include "SwitchPorts.h"
#include "TopologyDocument.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace cs;

namespace {

BillOfMaterials bomOf(const TopologyDocument& doc, const PriceTable& prices = shippedPrices()) {
    return billOfMaterials(doc.topology(), doc.index(), prices);
}

std::unique_ptr<TopologyDocument> design(const char* name) {
    return openTopology({}, std::string(CS_SOURCE_DIR) + "/tests/fixtures/designs/" + name);
}

PriceTable withOverride(const QByteArray& text) {
    PriceTable t = shippedPrices();
    t.read(text, "user-prices.json");
    return t;
}

QByteArray priceFile(const QByteArray& entries) {
    return R"({"format": "clusterscope-prices", "version": 1, "currency": "USD", "prices": {)" +
           entries + "}}";
}

} // namespace

class TestBillOfMaterials : public QObject {
    Q_OBJECT
private slots:
    void countsAgreeWithStats_data();
    void countsAgreeWithStats();
    void deepSeekFatTrees_data();
    void deepSeekFatTrees();
    void powerAndCostAddUpByLine_data();
    void powerAndCostAddUpByLine();
    void cablesFollowTheRoutes();
    void portsUsedAndFree();
    void unlinkedSwitchTakesItsRolesSpeed();
    void costFollowsTheDesign();
    void modularChassisBuysTheLineCardsItUses();
    void infiniBandPartsHaveTheirOwnPrices();
    void userPricesReplaceShippedOnes();
    void nvl72RacksComeWithPowerShelves();
    void badPriceFilesAreLocated_data();
    void badPriceFilesAreLocated();
    void missingPriceNamesTheKey();
    void unknownGpuModelIsRefused();
};

void TestBillOfMaterials::countsAgreeWithStats_data() {
    QTest::addColumn<QString>("preset");
    for (const char* p :
         {"small-256", "meta-roce-24k", "meta-ib-24k", "dgx-h100-superpod", "dgx-a100-superpod"})
        QTest::newRow(p) << p;
}

void TestBillOfMaterials::countsAgreeWithStats() {
    QFETCH(QString, preset);
    const auto doc = openTopology(preset.toStdString(), {});
    const TopologyStats& s = doc->stats();
    const BillOfMaterials b = bomOf(*doc);
    QCOMPARE(b.gpus, s.gpus);
    QCOMPARE(b.hosts, s.hosts);
    QCOMPARE(b.racks, s.racks);
    QCOMPARE(b.networkRacks, s.networkRacks);
    QCOMPARE(b.storageRacks, s.storageRacks);
    QCOMPARE(b.nics, s.nics);
    QCOMPARE(b.storageServers, s.storageServers);
    QCOMPARE(b.switches.total, s.switches);
    QCOMPARE(b.links.total, s.links);
    for (int r = 0; r < kSwitchRoleCount; ++r)
        QCOMPARE(b.switches.byRole[size_t(r)], s.switchesByRole[size_t(r)]);
    for (int m = 0; m < kLinkMediumCount; ++m)
        QCOMPARE(b.links.byMedium[size_t(m)], s.linksByMedium[size_t(m)]);
    // The finer breakdowns add up to the same totals.
    long long byRadix = 0, bySpeed = 0, inClasses = 0;
    for (const SwitchCount& c : b.switches.byRoleAndRadix)
        byRadix += c.count;
    for (const LinkCount& c : b.links.byMediumAndSpeed)
        bySpeed += c.count;
    for (const CableCount& c : b.cables.byLengthClass)
        inClasses += c.count;
    QCOMPARE(byRadix, s.switches);
    QCOMPARE(bySpeed, s.links);
    const auto& media = s.linksByMedium;
    QCOMPARE(b.cables.total,
             media[size_t(LinkMedium::CopperDac)] + media[size_t(LinkMedium::Fibre)]);
    QCOMPARE(inClasses, b.cables.total);
    QCOMPARE(b.transceivers, 2 * media[size_t(LinkMedium::Fibre)]);
}

void TestBillOfMaterials::deepSeekFatTrees_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<long long>("endpoints");
    QTest::addColumn<long long>("switches");
    QTest::addColumn<long long>("links");
    QTest::addColumn<double>("perEndpointUsd");
    // DeepSeek-V3 ISCA'25 Table 3 (docs/reference/network-cost.md).
    QTest::newRow("FT2") << "deepseek-ft2.json" << 2048LL << 96LL << 2048LL << 4390.0;
    QTest::newRow("FT3") << "deepseek-ft3.json" << 65536LL << 5120LL << 131072LL << 7500.0;
}

void TestBillOfMaterials::deepSeekFatTrees() {
    QFETCH(QString, file);
    QFETCH(long long, endpoints);
    QFETCH(long long, switches);
    QFETCH(long long, links);
    QFETCH(double, perEndpointUsd);
    const auto doc = design(qPrintable(file));
    const BillOfMaterials b = bomOf(*doc);
    QCOMPARE(b.backendEndpoints, endpoints);
    QCOMPARE(b.gpus, endpoints);
    QCOMPARE(b.switches.backend, switches);
    QCOMPARE(b.links.backendInterSwitch, links);
    const double off = b.cost.perBackendEndpointUsd / perEndpointUsd - 1;
    QVERIFY2(std::abs(off) < 0.05, qPrintable(QString("%1 $ per endpoint, %2 % from the table")
                                                  .arg(b.cost.perBackendEndpointUsd)
                                                  .arg(off * 100)));
}

void TestBillOfMaterials::powerAndCostAddUpByLine_data() {
    QTest::addColumn<QString>("preset");
    QTest::newRow("small-256") << "small-256";
    QTest::newRow("meta-roce-24k") << "meta-roce-24k";
    QTest::newRow("dgx-a100-1k") << "dgx-a100-1k";
    QTest::newRow("gb200-nvl72-su") << "gb200-nvl72-su";
}

void TestBillOfMaterials::powerAndCostAddUpByLine() {
    QFETCH(QString, preset);
    const auto doc = openTopology(preset.toStdString(), {});
    const BillOfMaterials b = bomOf(*doc);
    double watts = 0, usd = 0;
    std::array<double, kBomCategoryCount> byCategory{};
    for (const BomLine& l : b.lines) {
        QVERIFY2(l.count > 0, l.item.c_str());
        QVERIFY(std::abs(l.unitUsd * double(l.count) - l.costUsd) <= 1e-6 * (1 + l.costUsd));
        watts += l.powerW;
        usd += l.costUsd;
        byCategory[size_t(l.category)] += l.costUsd;
    }
    QVERIFY(std::abs(watts - b.power.totalW()) < 1e-6 * b.power.totalW());
    QVERIFY(std::abs(usd - b.cost.totalUsd) < 1e-6 * b.cost.totalUsd);
    for (int c = 0; c < kBomCategoryCount; ++c)
        QVERIFY(std::abs(byCategory[size_t(c)] - b.cost.byCategoryUsd[size_t(c)]) <= 1e-3);
    // Every GPU at its limit and idle: the two totals differ by the GPUs' range alone.
    const GpuPowerFigures gpu = *gpuPowerOf(doc->topology().gpuModel);
    QVERIFY(std::abs(b.power.totalW() - b.power.idleW() - double(b.gpus) * (gpu.tdpW - gpu.idleW)) <
            1e-6 * b.power.totalW());
    // Racks hold all but what stands in no rack; none draws more than the largest.
    double inRacks = 0;
    for (double w : b.power.rackW)
        inRacks += w;
    QVERIFY(inRacks <= b.power.totalW() * (1 + 1e-9));
    QVERIFY(inRacks > 0.9 * b.power.totalW());
    QVERIFY(b.rackKw.max >= b.rackKw.mean && b.rackKw.mean > 0);
    QCOMPARE(b.cost.perGpuUsd, b.cost.totalUsd / double(b.gpus));
    QVERIFY(b.cost.backendFabricUsd > 0 && b.cost.backendFabricUsd < b.cost.totalUsd);
}

void TestBillOfMaterials::cablesFollowTheRoutes() {
    const auto doc = openTopology("small-256", {});
    const Topology& t = doc->topology();
    const std::vector<float> lengths = cableLengthsM(t, doc->index());
    const SceneLayout floor = computeLayout(t, doc->index(), LayoutKind::Floor);
    for (size_t l = 0; l < t.links.size(); ++l) {
        const Link& k = t.links[l];
        if (!cableKindOf(k.medium)) {
            QCOMPARE(lengths[l], 0.f);
            continue;
        }
        // At least the straight line between the ends; a NIC's DAC runs down its rack's rear
        // and never leaves it: at most its depth twice, its height and its width (1.2, 2.2 and
        // 0.6 m in SceneLayout.cpp).
        QVERIFY(lengths[l] >= (floor.linkB[l] - floor.linkA[l]).length() - 1e-3f);
        if (k.medium == LinkMedium::CopperDac && k.a.kind == EntityKind::Nic)
            QVERIFY2(lengths[l] <= 2 * 1.2f + 2.2f + 0.6f, qPrintable(QString::number(lengths[l])));
    }
    const BillOfMaterials b = bomOf(*doc);
    for (const CableCount& c : b.cables.byLengthClass) {
        // Each class holds cables no longer than its length and longer than the class below,
        // so their mean falls in the class too.
        QVERIFY(c.routedM <= c.lengthClassM * double(c.count) + 1e-3);
        QCOMPARE(lengthClassM(c.routedM / double(c.count)), c.lengthClassM);
    }
    // Fibres between rows run further than the DACs inside a rack.
    const double dacMean =
        b.cables.routedM[size_t(CableKind::Dac)] / double(b.cables.byKind[size_t(CableKind::Dac)]);
    const double fibreMean = b.cables.routedM[size_t(CableKind::Fibre)] /
                             double(b.cables.byKind[size_t(CableKind::Fibre)]);
    QVERIFY2(fibreMean > 3 * dacMean,
             qPrintable(QString("fibre %1 m, DAC %2 m").arg(fibreMean).arg(dacMean)));
}

void TestBillOfMaterials::portsUsedAndFree() {
    const auto doc = openTopology("meta-roce-24k", {});
    const Topology& t = doc->topology();
    const BillOfMaterials b = bomOf(*doc);
    for (const PortCount& p : b.ports) {
        QCOMPARE(p.tier, tierOf(p.role));
        QCOMPARE(p.switches, b.switches.byRole[size_t(p.role)]);
        QVERIFY(p.used + p.free >= p.ports);
    }
    // A rack switch: 16 NICs down and 16 planes up of its 64 ports [paper and 2nd:
    // docs/reference/llama3-clusters.md].
    const auto rtsw = std::find_if(b.ports.begin(), b.ports.end(),
                                   [](const PortCount& p) { return p.role == SwitchRole::Rtsw; });
    QVERIFY(rtsw != b.ports.end());
    QCOMPARE(rtsw->used, rtsw->switches * (16 + 16));
    QCOMPARE(rtsw->free, rtsw->switches * (64 - 32));
    long long used = 0;
    for (const PortCount& p : b.ports)
        used += p.used;
    long long switchEnds = 0;
    for (const Link& l : t.links)
        switchEnds += (l.a.kind == EntityKind::Switch) + (l.b.kind == EntityKind::Switch);
    QCOMPARE(used, switchEnds);
}

// Thinning the InfiniBand fat tree to 1:7 with its 32 cores per plane kept leaves some core
// switches without links (a plane's 6 spines have 27 to 30 uplinks in all): their free
// ports are priced at what the other cores carry, not at the site's fastest link (NVLink).
void TestBillOfMaterials::unlinkedSwitchTakesItsRolesSpeed() {
    TopologyReadOptions o;
    o.sets = {"generator.clusters[0].coresPerPlane=32", "generator.clusters[0].oversubscription=7"};
    const auto doc = openTopology("meta-ib-24k", {}, o);
    const Topology& t = doc->topology();
    const std::vector<SwitchPortUse> ports = switchPortUse(t);
    int unlinked = 0;
    float coreGbps = 0;
    for (size_t i = 0; i < t.switches.size(); ++i)
        if (t.switches[i].role == SwitchRole::IbCore && ports[i].usedCount > 0)
            coreGbps = ports[i].fastestGbps;
    QVERIFY(coreGbps > 0 && coreGbps < 1000);
    for (size_t i = 0; i < t.switches.size(); ++i) {
        if (ports[i].usedCount > 0) continue;
        ++unlinked;
        QCOMPARE(ports[i].fastestGbps, coreGbps);
    }
    QVERIFY(unlinked > 0);
    const BillOfMaterials b = bomOf(*doc); // every port has a price
    QVERIFY(b.cost.perGpuUsd > 0);
}

namespace {

BillOfMaterials bomWith(const char* preset, std::vector<std::string> sets) {
    TopologyReadOptions o;
    o.sets = std::move(sets);
    return bomOf(*openTopology(preset, {}, o));
}

double categoryUsd(const BillOfMaterials& b, BomCategory c) {
    return b.cost.byCategoryUsd[size_t(c)];
}

} // namespace

// Full bisection on Meta's RoCE cluster costs more than 1:7 by more than its optics and
// cables: the generator adds core switches (3 per plane) and the CTSW chassis fill more line
// cards. InfiniBand's cores thin with its uplinks, so 1:28 has fewer switches than 1:1.
void TestBillOfMaterials::costFollowsTheDesign() {
    const std::string over = "generator.clusters[0].oversubscription=";
    const BillOfMaterials seven = bomWith("meta-roce-24k", {}),
                          full = bomWith("meta-roce-24k", {over + "1"});
    const double optics =
        categoryUsd(full, BomCategory::Transceiver) + categoryUsd(full, BomCategory::Cable) -
        categoryUsd(seven, BomCategory::Transceiver) - categoryUsd(seven, BomCategory::Cable);
    QVERIFY(optics > 0);
    QVERIFY(full.cost.totalUsd - seven.cost.totalUsd > optics * 1.5);
    QVERIFY(categoryUsd(full, BomCategory::Switch) > categoryUsd(seven, BomCategory::Switch));
    QCOMPARE(full.switches.byRole[size_t(SwitchRole::Atsw)],
             3 * seven.switches.byRole[size_t(SwitchRole::Atsw)]);
    QVERIFY(full.cost.perGpuNetworkUsd > seven.cost.perGpuNetworkUsd);
    const BillOfMaterials ib1 = bomWith("meta-ib-24k", {}),
                          ib28 = bomWith("meta-ib-24k", {over + "28"});
    QCOMPARE(ib1.switches.byRole[size_t(SwitchRole::IbCore)], 512LL);
    QCOMPARE(ib28.switches.byRole[size_t(SwitchRole::IbCore)], 32LL);
    QVERIFY(ib28.cost.perGpuUsd < ib1.cost.perGpuUsd);
    // The network's cost is its four kinds of parts.
    for (const BillOfMaterials* b : {&seven, &full, &ib1, &ib28})
        QVERIFY(std::abs(b->cost.networkUsd - categoryUsd(*b, BomCategory::Switch) -
                         categoryUsd(*b, BomCategory::Nic) -
                         categoryUsd(*b, BomCategory::Transceiver) -
                         categoryUsd(*b, BomCategory::Cable)) < 1e-3);
}

// Meta's CTSW (576 ports): at 1:7 its 192 rack links and 28 uplinks fill 7 line cards of 36;
// it costs those 252 ports and the chassis, and draws for them and the chassis alone.
void TestBillOfMaterials::modularChassisBuysTheLineCardsItUses() {
    const auto doc = openTopology("meta-roce-24k", {});
    const Topology& t = doc->topology();
    const std::vector<SwitchPortUse> ports = switchPortUse(t);
    const PriceTable& prices = shippedPrices();
    int checked = 0;
    for (size_t i = 0; i < t.switches.size(); ++i) {
        const SwitchPortUse& u = ports[i];
        if (t.switches[i].role == SwitchRole::Rtsw) {
            QCOMPARE(u.lineCards, 0); // a fixed 64-port box: all its ports
            QCOMPARE(u.idleCount, 64 - u.usedCount);
        }
        if (t.switches[i].role != SwitchRole::Ctsw || u.usedCount != 192 + 28) continue;
        ++checked;
        QCOMPARE(u.lineCards, 7);
        QCOMPARE(u.idleCount, 7 * kLineCardPorts - 220);
        const double watts = 7 * kLineCardPorts * switchPortPowerW(400) + switchChassisPowerW(16);
        QVERIFY(std::abs(switchPowerW(t.switches[i], u) - watts) < 1e-6);
    }
    QVERIFY(checked > 0);
    const BillOfMaterials b = bomOf(*doc);
    const auto ctsw = std::find_if(b.lines.begin(), b.lines.end(), [](const BomLine& l) {
        return l.item.rfind("switch ctsw", 0) == 0;
    });
    QVERIFY(ctsw != b.lines.end());
    const double port = prices.at("switchPort.400G", "").usd;
    const double chassis = prices.at("switchChassis", "").usd;
    // Every CTSW at 1:7 fills 7 cards (27 or 28 uplinks).
    QVERIFY(std::abs(ctsw->unitUsd - (7 * kLineCardPorts * port + chassis)) < 1e-6 * ctsw->unitUsd);
}

// InfiniBand's switches, HCAs and the optics of its links are priced from the `.ib.` entries;
// an Ethernet cluster uses none of them.
void TestBillOfMaterials::infiniBandPartsHaveTheirOwnPrices() {
    auto keys = [](const BillOfMaterials& b) {
        QStringList k;
        for (const auto& [key, price] : b.pricesUsed)
            if (!price.source.empty() && !price.date.empty()) k << QString::fromStdString(key);
        return k;
    };
    const BillOfMaterials ibBill = bomWith("meta-ib-24k", {});
    const QStringList ib = keys(ibBill);
    QCOMPARE(ib.size(), qsizetype(ibBill.pricesUsed.size())); // each with a source and date
    for (const char* k : {"switchPort.ib.400G", "nic.ib.400G", "transceiver.ib.400G",
                          "switchPort.100G", "nic.100G"}) // the frontend stays Ethernet
        QVERIFY2(ib.contains(k), k);
    const QStringList roce = keys(bomWith("meta-roce-24k", {}));
    QVERIFY(roce.contains("switchPort.400G") && roce.contains("switchChassis"));
    for (const QString& k : roce)
        QVERIFY2(!k.contains(".ib."), qPrintable(k));
    QVERIFY(shippedPrices().at("switchPort.ib.400G", "").usd >
            shippedPrices().at("switchPort.400G", "").usd);
}

void TestBillOfMaterials::userPricesReplaceShippedOnes() {
    const auto doc = openTopology("small-256", {});
    const BillOfMaterials shipped = bomOf(*doc);
    const double before = shippedPrices().at("transceiver.400G", "").usd;
    const PriceTable user = withOverride(
        priceFile(R"("transceiver.400G": {"usd": 1000, "source": "a quote", "date": "2026-11"})"));
    const BillOfMaterials b = bomOf(*doc, user);
    long long transceivers400 = 0;
    for (const SpeedCount& s : b.transceiversBySpeed)
        if (s.gbps == 400) transceivers400 = s.count;
    QVERIFY(transceivers400 > 0);
    QVERIFY(std::abs(b.cost.totalUsd - shipped.cost.totalUsd -
                     double(transceivers400) * (1000 - before)) < 1e-3);
    const auto used = std::find_if(b.pricesUsed.begin(), b.pricesUsed.end(),
                                   [](const auto& p) { return p.first == "transceiver.400G"; });
    QVERIFY(used != b.pricesUsed.end());
    QCOMPARE(used->second.file, std::string("user-prices.json"));
    QCOMPARE(used->second.source, std::string("a quote"));
    // Every shipped price says where it comes from and when.
    for (const auto& [key, p] : shippedPrices().entries()) {
        QVERIFY2(isPriceKey(key), key.c_str());
        QVERIFY2(!p.source.empty() && !p.date.empty(), key.c_str());
    }
}

void TestBillOfMaterials::badPriceFilesAreLocated_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("field");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("message");
    const QByteArray ok = R"("source": "s", "date": "2026-01")";
    QTest::newRow("unknown item") << priceFile("\n\"nic.fast\": {\"usd\": 1, " + ok + "}")
                                  << "prices.nic.fast" << 2 << "unknown item";
    QTest::newRow("negative price") << priceFile("\n\"host\": {\"usd\": -5, " + ok + "}")
                                    << "prices.host.usd" << 2 << "expected a number";
    QTest::newRow("no source") << priceFile("\"host\": {\"usd\": 5,\n \"date\": \"2026-01\"}")
                               << "prices.host.source" << 1 << "required";
    QTest::newRow("bad date") << priceFile("\"host\": {\"usd\": 5, \"source\": \"s\",\n"
                                           " \"date\": \"last May\"}")
                              << "prices.host.date" << 2 << "YYYY-MM";
    QTest::newRow("misspelt field")
        << priceFile("\"host\": {\"usd\": 5, " + ok + ",\n \"comment\": 1}")
        << "prices.host.comment" << 2 << "";
    QTest::newRow("other currency")
        << QByteArray(R"({"format": "clusterscope-prices", "version": 1, "currency": "EUR",)"
                      "\n"
                      R"( "prices": {}})")
        << "currency" << 1 << "US dollars";
    QTest::newRow("not a price file") << QByteArray("{\"format\": \"clusterscope-topology\"}")
                                      << "format" << 1 << "clusterscope-prices";
}

void TestBillOfMaterials::badPriceFilesAreLocated() {
    QFETCH(QByteArray, text);
    QFETCH(QString, field);
    QFETCH(int, line);
    QFETCH(QString, message);
    try {
        withOverride(text);
        QFAIL("accepted");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().file), QString("user-prices.json"));
        QCOMPARE(QString::fromStdString(e.error().field), field);
        QCOMPARE(e.error().line, line);
        QVERIFY2(QString(e.what()).contains(message), e.what());
    }
}

void TestBillOfMaterials::missingPriceNamesTheKey() {
    // A 2.5G link (InfiniBand 1xSDR, as foreign fabric files hold them) has no shipped price.
    Topology t = openTopology("small-256", {})->topology();
    for (Link& l : t.links)
        if (l.medium == LinkMedium::Fibre) l.gbps = 2.5f;
    const TopologyIndex index(t);
    try {
        billOfMaterials(t, index, shippedPrices());
        QFAIL("priced");
    } catch (const InputException& e) {
        QVERIFY2(e.error().field.rfind("prices.", 0) == 0, e.what());
        QVERIFY2(QString(e.what()).contains("2.5G"), e.what());
        QVERIFY2(QString(e.what()).contains("--prices"), e.what());
    }
}

void TestBillOfMaterials::unknownGpuModelIsRefused() {
    Topology t = openTopology("small-256", {})->topology();
    t.gpuModel = "MI300X";
    const TopologyIndex index(t);
    try {
        billOfMaterials(t, index, shippedPrices());
        QFAIL("accepted");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), QString("gpuModel"));
        QVERIFY2(QString(e.what()).contains("MI300X") && QString(e.what()).contains("H100"),
                 e.what());
    }
}

// GB200 NVL72 [paper: NVIDIA's GB200 rack reference design]: 8 power shelves per rack, counted;
// the 9 NVLink switch trays per rack are part of the rack system, not priced apart.
void TestBillOfMaterials::nvl72RacksComeWithPowerShelves() {
    const auto doc = openTopology("gb200-nvl72-su", {});
    const BillOfMaterials b = bomOf(*doc);
    const BomLine* shelves = nullptr;
    const BomLine* trays = nullptr;
    for (const BomLine& l : b.lines) {
        if (l.item.starts_with("power shelf")) shelves = &l;
        if (l.item.find("(rack tray)") != std::string::npos) trays = &l;
    }
    QVERIFY(shelves && trays);
    QCOMPARE(shelves->count, 8LL * 8);
    QCOMPARE(trays->count, 8LL * 9);
    QCOMPARE(trays->costUsd, 0.0);
    // An HGX design has neither.
    const BillOfMaterials hgx = bomOf(*openTopology("dgx-h100-superpod", {}));
    for (const BomLine& l : hgx.lines)
        QVERIFY(!l.item.starts_with("power shelf"));
}

QTEST_APPLESS_MAIN(TestBillOfMaterials)
#include "tst_bill_of_materials.moc"
