// The search box's lookup: ids, GPU indices and id suffixes.
#include "EntitySearch.h"

#include <QTest>

using namespace cs;

class TestEntitySearch : public QObject {
    Q_OBJECT
private slots:
    void finds_data();
    void finds();
    void findsLinksByTheirEnds();
};

void TestEntitySearch::finds_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("id"); // empty: nothing found
    QTest::newRow("exact host") << "demo.pod1.rack2.host1"
                                << "demo.pod1.rack2.host1";
    QTest::newRow("gpu index") << "17"
                               << "demo.pod0.rack1.host0.gpu1";
    QTest::newRow("gpu word") << "gpu 17"
                              << "demo.pod0.rack1.host0.gpu1";
    QTest::newRow("hash") << "#255"
                          << "demo.pod1.rack7.host1.gpu7";
    QTest::newRow("gpu out of range") << "256"
                                      << "";
    QTest::newRow("suffix host") << "rack2.host1"
                                 << "demo.pod0.rack2.host1";
    QTest::newRow("suffix gpu") << "pod1.rack2.host1.gpu3"
                                << "demo.pod1.rack2.host1.gpu3";
    QTest::newRow("suffix switch") << "ctsw3"
                                   << "demo.pod0.ctsw3";
    QTest::newRow("padded") << "  demo.pod1  "
                            << "demo.pod1";
    QTest::newRow("no partial words") << "ack2"
                                      << "";
    QTest::newRow("empty") << ""
                           << "";
}

void TestEntitySearch::finds() {
    QFETCH(QString, text);
    QFETCH(QString, id);
    const auto doc = openTopology("small-256", {});
    const auto e = findEntity(*doc, text.toStdString());
    if (id.isEmpty()) {
        QVERIFY(!e.has_value());
        return;
    }
    QVERIFY(e.has_value());
    QCOMPARE(QString::fromStdString(doc->topology().nameOf(*e)), id);
}

void TestEntitySearch::findsLinksByTheirEnds() {
    // A link's name as the inspector shows it, and the same ends the other way round.
    const auto doc = openTopology("small-256", {});
    const Topology& t = doc->topology();
    for (size_t l = 0; l < t.links.size(); l += 97) {
        const std::string a = t.nameOf(t.links[l].a), b = t.nameOf(t.links[l].b);
        for (const std::string& text :
             {t.nameOf(Endpoint{EntityKind::Link, int32_t(l)}), b + " -- " + a}) {
            const auto e = findEntity(*doc, text);
            QVERIFY2(e.has_value(), text.c_str());
            QVERIFY(e->kind == EntityKind::Link);
            // Parallel cables between the same ends: the first of them.
            QCOMPARE(t.nameOf(*e), t.nameOf(Endpoint{EntityKind::Link, int32_t(l)}));
        }
    }
    QVERIFY(!findEntity(*doc, "demo.pod0 -- nowhere").has_value());
}

QTEST_APPLESS_MAIN(TestEntitySearch)
#include "tst_entity_search.moc"
