// The search box's lookup: ids, GPU indices and id suffixes.
#include "EntitySearch.h"

#include <QTest>

using namespace cs;

class TestEntitySearch : public QObject {
    Q_OBJECT
private slots:
    void finds_data();
    void finds();
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

QTEST_APPLESS_MAIN(TestEntitySearch)
#include "tst_entity_search.moc"
