// The Comparison dock's table model: each figure's A, B and B - A as the user reads them, a
// difference coloured green where B is better and red where worse, and none coloured where
// it rounds to nothing (a 1e-12 s step difference is not a regression).
#include "ComparisonTableModel.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QTest>

#include <algorithm>

using namespace cs;

class TestComparisonTable : public QObject {
    Q_OBJECT
private slots:
    void differencesAreColouredOnlyWhereTheyShow();
    void leadsWithStepCostPowerThenDifferences();
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
    // Unchanged at the table's rounding: grey in every column, neither green nor red.
    for (int column = 0; column < views::ComparisonTableModel::ColumnCount; ++column) {
        const QColor grey =
            model.index(step, column).data(Qt::ForegroundRole).value<QBrush>().color();
        QCOMPARE(grey.red(), grey.green());
        QCOMPARE(grey.green(), grey.blue());
    }
    // MFU up by 2 points: better, in green.
    QVERIFY(model.index(mfu, delta).data().toString().startsWith("+"));
    const QBrush up = model.index(mfu, delta).data(Qt::ForegroundRole).value<QBrush>();
    QVERIFY(up.color().green() > up.color().red());
    QVERIFY(!model.index(mfu, 0).data(Qt::ForegroundRole).isValid()); // the figure as text is
}

// The table leads with what a design decision turns on (step time, cost per GPU, power), then
// the figures that differ, then the unchanged ones.
void TestComparisonTable::leadsWithStepCostPowerThenDifferences() {
    views::ComparisonTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QJsonObject a{{"stepTimeS", 6.59},
                        {"mfu", 0.396},
                        {"checkpointTimeS", 3.25},
                        {"breakdown", QJsonObject{{"exposedPpS", 0.074}, {"exposedTpS", 0.553}}}};
    const QJsonObject b{{"stepTimeS", 6.45},
                        {"mfu", 0.405},
                        {"checkpointTimeS", 3.25},
                        {"breakdown", QJsonObject{{"exposedPpS", 0.034}, {"exposedTpS", 0.553}}}};
    DesignFigures da, db;
    da.switches = db.switches = 3643;
    da.powerW = 37.44e6, db.powerW = 37.67e6;
    da.costPerGpu = 41267, db.costPerGpu = 41588;
    model.setComparison(compareRuns("A", a, "B", b, da, db));
    QStringList labels;
    for (int r = 0; r < model.rowCount(); ++r)
        labels << model.index(r, 0).data().toString();
    QCOMPARE(labels.mid(0, 3), (QStringList{"Step time", "Cost per GPU", "Site power (TDP)"}));
    const qsizetype firstSame =
        std::min(labels.indexOf("Switches"), labels.indexOf("Checkpoint time"));
    QVERIFY(labels.indexOf("MFU") > 2 && labels.indexOf("MFU") < firstSame);
    QVERIFY(labels.indexOf("Exposed PP communication") < firstSame);
    QVERIFY(labels.indexOf("Exposed TP communication") > labels.indexOf("MFU"));
}

QTEST_GUILESS_MAIN(TestComparisonTable)
#include "tst_comparison_table.moc"
