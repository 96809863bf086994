// The max-min fair solvers (MaxMinFairShare): the heap solver against the naive one, and
// transfers of several flows paced by their slowest link.
#include "MaxMinFairShare.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

using namespace cs;

class TestMaxMinFairShare : public QObject {
    Q_OBJECT
private slots:
    void heapSolverMatchesNaive_data();
    void heapSolverMatchesNaive();
    void transferSolverPacesATransferBySlowestLink();
    void transferSolverMatchesFlowSolver_data();
    void transferSolverMatchesFlowSolver();
};

void TestMaxMinFairShare::heapSolverMatchesNaive_data() {
    QTest::addColumn<int>("seed");
    for (int s = 1; s <= 5; ++s)
        QTest::newRow(qPrintable(QString("seed %1").arg(s))) << s;
}

void TestMaxMinFairShare::heapSolverMatchesNaive() {
    QFETCH(int, seed);
    std::mt19937 rng{uint32_t(seed)};
    std::vector<double> capacity(40);
    for (double& c : capacity)
        c = std::uniform_real_distribution<double>(1, 10)(rng);
    FlowPaths paths;
    for (int f = 0; f < 300; ++f) {
        std::vector<int32_t> p;
        const int hops = std::uniform_int_distribution<int>(0, 5)(rng);
        for (int h = 0; h < hops; ++h)
            p.push_back(std::uniform_int_distribution<int32_t>(0, 39)(rng));
        std::sort(p.begin(), p.end());
        p.erase(std::unique(p.begin(), p.end()), p.end());
        paths.add(p);
    }
    const auto fast = maxMinFairRates(capacity, paths),
               slow = maxMinFairRatesNaive(capacity, paths);
    for (size_t f = 0; f < fast.size(); ++f) {
        if (std::isinf(slow[f]))
            QVERIFY(std::isinf(fast[f]));
        else
            QVERIFY2(std::fabs(fast[f] - slow[f]) < 1e-9 * std::max(1.0, slow[f]),
                     qPrintable(QString("%1 vs %2").arg(fast[f]).arg(slow[f])));
    }
    // Feasible: no resource over capacity.
    std::vector<double> load(capacity.size(), 0);
    for (size_t f = 0; f < fast.size(); ++f)
        for (int32_t r : paths.of(f))
            load[size_t(r)] += fast[f];
    for (size_t r = 0; r < load.size(); ++r)
        QVERIFY(load[r] <= capacity[r] * (1 + 1e-9));
}

void TestMaxMinFairShare::transferSolverPacesATransferBySlowestLink() {
    // Transfer 0 runs two flows, over link A (capacity 10) and link B (capacity 4); its flows
    // advance together, so B holds it to 4. Transfer 1, on A alone, gets the 6 left on A.
    TransferLoads loads;
    const std::pair<int32_t, double> both[] = {{0, 1.0}, {1, 1.0}}, onlyA[] = {{0, 1.0}};
    loads.add(both, std::numeric_limits<double>::infinity());
    loads.add(onlyA, std::numeric_limits<double>::infinity());
    std::vector<double> a, b;
    const auto rate = maxMinFairTransferRates({10, 4}, loads, a, b);
    QCOMPARE(rate[0], 4.0);
    QCOMPARE(rate[1], 6.0);
    // A cap (NVLink) binds like a private link; the scratch comes back zeroed.
    loads.caps[1] = 2;
    const auto capped = maxMinFairTransferRates({10, 4}, loads, a, b);
    QCOMPARE(capped[1], 2.0);
    QCOMPARE(capped[0], 4.0);
    QCOMPARE(std::count(a.begin(), a.end(), 0.0), 2L);
    QCOMPARE(std::count(b.begin(), b.end(), 0.0), 2L);
}

void TestMaxMinFairShare::transferSolverMatchesFlowSolver_data() {
    QTest::addColumn<int>("seed");
    for (int s = 1; s <= 5; ++s)
        QTest::newRow(qPrintable(QString("seed %1").arg(s))) << s;
}

void TestMaxMinFairShare::transferSolverMatchesFlowSolver() {
    // Transfers of one flow each are plain flows: both solvers must agree.
    QFETCH(int, seed);
    std::mt19937 rng{uint32_t(seed)};
    std::vector<double> capacity(30);
    for (double& c : capacity)
        c = std::uniform_real_distribution<double>(1, 10)(rng);
    FlowPaths paths;
    TransferLoads loads;
    for (int f = 0; f < 120; ++f) {
        std::vector<int32_t> p;
        for (int h = std::uniform_int_distribution<int>(1, 5)(rng); h > 0; --h)
            p.push_back(std::uniform_int_distribution<int32_t>(0, 29)(rng));
        std::sort(p.begin(), p.end());
        p.erase(std::unique(p.begin(), p.end()), p.end());
        paths.add(p);
        std::vector<std::pair<int32_t, double>> l;
        for (int32_t r : p)
            l.emplace_back(r, 1.0);
        loads.add(l, std::numeric_limits<double>::infinity());
    }
    std::vector<double> a, b;
    const auto flows = maxMinFairRatesNaive(capacity, paths);
    const auto transfers = maxMinFairTransferRates(capacity, loads, a, b);
    for (size_t f = 0; f < flows.size(); ++f)
        QVERIFY2(std::fabs(flows[f] - transfers[f]) < 1e-9 * std::max(1.0, flows[f]),
                 qPrintable(QString("%1 vs %2").arg(flows[f]).arg(transfers[f])));
}

QTEST_APPLESS_MAIN(TestMaxMinFairShare)
#include "tst_max_min_fair_share.moc"
