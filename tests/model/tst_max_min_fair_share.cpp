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
    void transferSolverSubsetIsMaxMinFair_data();
    void transferSolverSubsetIsMaxMinFair();
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
    TransferSolveScratch scratch;
    const auto rate = maxMinFairTransferRates({10, 4}, loads, {}, scratch);
    QCOMPARE(rate[0], 4.0);
    QCOMPARE(rate[1], 6.0);
    // A cap (NVLink) binds like a private link; the scratch comes back zeroed.
    loads.caps[1] = 2;
    const auto capped = maxMinFairTransferRates({10, 4}, loads, {}, scratch);
    QCOMPARE(capped[1], 2.0);
    QCOMPARE(capped[0], 4.0);
    QCOMPARE(std::count(scratch.frozenLoad.begin(), scratch.frozenLoad.end(), 0.0), 2L);
    // A subset solves only its transfers: transfer 1 alone has link A to itself (capped at 2).
    const int second[] = {1};
    QCOMPARE(maxMinFairTransferRates({10, 4}, loads, second, scratch), std::vector<double>{2.0});
    QCOMPARE(std::count(scratch.weight.begin(), scratch.weight.end(), 0.0), 2L);
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
    TransferSolveScratch scratch;
    const auto flows = maxMinFairRatesNaive(capacity, paths);
    const auto transfers = maxMinFairTransferRates(capacity, loads, {}, scratch);
    for (size_t f = 0; f < flows.size(); ++f)
        QVERIFY2(std::fabs(flows[f] - transfers[f]) < 1e-9 * std::max(1.0, flows[f]),
                 qPrintable(QString("%1 vs %2").arg(flows[f]).arg(transfers[f])));
}

void TestMaxMinFairShare::transferSolverSubsetIsMaxMinFair_data() {
    QTest::addColumn<int>("seed");
    for (int s = 1; s <= 6; ++s)
        QTest::newRow(qPrintable(QString("seed %1").arg(s))) << s;
}

void TestMaxMinFairShare::transferSolverSubsetIsMaxMinFair() {
    // Transfers of many flows (weighted loads, some capped), solved as a subset of a larger
    // set and alone: the same rates; no resource over capacity; and max-min fair: each transfer
    // is at its cap or crosses a saturated resource where no other transfer goes faster.
    QFETCH(int, seed);
    std::mt19937 rng{uint32_t(seed)};
    std::vector<double> capacity(40);
    for (double& c : capacity)
        c = std::uniform_real_distribution<double>(1, 10)(rng);
    TransferLoads all, subsetLoads;
    std::vector<int> subset;
    for (int k = 0; k < 200; ++k) {
        std::vector<std::pair<int32_t, double>> l;
        std::vector<int32_t> used;
        for (int h = std::uniform_int_distribution<int>(0, 8)(rng); h > 0; --h) {
            const int32_t r = std::uniform_int_distribution<int32_t>(0, 39)(rng);
            if (std::find(used.begin(), used.end(), r) != used.end()) continue;
            used.push_back(r);
            l.emplace_back(r, std::uniform_real_distribution<double>(0.1, 3)(rng));
        }
        const double cap = std::uniform_int_distribution<int>(0, 3)(rng) == 0
                               ? std::uniform_real_distribution<double>(0.05, 2)(rng)
                               : std::numeric_limits<double>::infinity();
        all.add(l, cap);
        if (k % 3 != 1) {
            subset.push_back(k);
            subsetLoads.add(l, cap);
        }
    }
    TransferSolveScratch scratch;
    const auto rate = maxMinFairTransferRates(capacity, all, subset, scratch);
    const auto alone = maxMinFairTransferRates(capacity, subsetLoads, {}, scratch);
    QCOMPARE(rate, alone);
    QCOMPARE(rate.size(), subset.size());
    std::vector<double> load(capacity.size(), 0), fastest(capacity.size(), 0);
    for (size_t i = 0; i < rate.size(); ++i) {
        const auto t = size_t(subset[i]);
        for (int32_t j = all.offsets[t]; j < all.offsets[t + 1]; ++j) {
            const auto r = size_t(all.resources[size_t(j)]);
            load[r] += rate[i] * all.coefficients[size_t(j)];
            fastest[r] = std::max(fastest[r], rate[i]);
        }
    }
    for (size_t r = 0; r < load.size(); ++r)
        QVERIFY(load[r] <= capacity[r] * (1 + 1e-9));
    for (size_t i = 0; i < rate.size(); ++i) {
        const auto t = size_t(subset[i]);
        bool bottleneck = rate[i] >= all.caps[t] * (1 - 1e-9);
        for (int32_t j = all.offsets[t]; j < all.offsets[t + 1] && !bottleneck; ++j) {
            const auto r = size_t(all.resources[size_t(j)]);
            bottleneck = load[r] >= capacity[r] * (1 - 1e-9) && rate[i] >= fastest[r] * (1 - 1e-9);
        }
        QVERIFY2(bottleneck || std::isinf(rate[i]),
                 qPrintable(QString("transfer %1 at %2 has no bottleneck").arg(t).arg(rate[i])));
    }
}

QTEST_APPLESS_MAIN(TestMaxMinFairShare)
#include "tst_max_min_fair_share.moc"
