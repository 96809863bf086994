// The Comparison dock's table model: each figure's A, B and B - A as the user reads them, a
// difference coloured green where B is better and red where worse, and none coloured where
// it rounds to nothing (a 1e-12 s step difference is not a regression).
#include "ComparisonTableModel.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QTest>

using namespace cs;

class TestComparisonTable : public QObject {
    Q_OBJECT
private slots:
    void differencesAreColouredOnlyWhereTheyShow();
};

void TestComparisonTable::differencesAreColouredOnlyWhereTheyShow() {
    views::ComparisonTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QJsonObject a{{"stepTimeS", 6.4}, {"mfu", 0.40}};
    const QJsonObject b{{"stepTimeS", 6.4 + 1e-12}, {"mfu", 0.42}};
    model.setComparison(compareRuns("A", a, "B", b));
    auto rowOf = [&](const QString& label) {
        for (int r = 0; r < model.rowCount(); ++r)
            if (model.index(r, 0).data().toString() == label) return r;
        return -1;
    };
    const int step = rowOf("Step time"), mfu = rowOf("MFU");
    QVERIFY(step >= 0 && mfu >= 0);
    const int delta = views::ComparisonTableModel::DeltaColumn;
    QVERIFY(model.comparison().find("stepTimeS")->delta() != 0);
    QCOMPARE(model.index(step, delta).data().toString(), QString("0.000 s"));
    QVERIFY(!model.index(step, delta).data(Qt::ForegroundRole).isValid());
    // MFU up by 2 points: better, in green.
    QVERIFY(model.index(mfu, delta).data().toString().startsWith("+"));
    const QBrush up = model.index(mfu, delta).data(Qt::ForegroundRole).value<QBrush>();
    QVERIFY(up.color().green() > up.color().red());
}

QTEST_GUILESS_MAIN(TestComparisonTable)
#include "tst_comparison_table.moc"
