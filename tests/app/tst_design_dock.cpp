// The Design dock takes and refuses the same values as --set (and so as a topology file: the
// design table's own test checks those two agree), row by row for every field of a preset's
// design; a refusal says the same "expected ..." under the form; Save Design As writes a
// parameters file that reads back as the design shown; its Faults boxes check what they take.
#include "DesignDock.h"
#include "DesignFieldRows.h"
#include "DesignSets.h"
#include "Presets.h"
#include "SiteGenerator.h"

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

using namespace cs;

Q_DECLARE_METATYPE(cs::SiteParams)

namespace {
// What `--set KEY=TEXT` on the preset gives: the design, or the message refusing it.
std::optional<SiteParams> viaSet(const SiteParams& preset, const QString& key, const QString& text,
                                 QString* error) {
    SiteParams p = preset;
    try {
        applyDesignSets(p, {(key + "=" + text).toStdString()});
    } catch (const InputException& e) {
        *error = QString::fromStdString(e.error().message);
        return std::nullopt;
    }
    if (const std::optional<InputError> e = checkSiteParams(p)) {
        *error = QString::fromStdString(e->message);
        return std::nullopt;
    }
    return p;
}
} // namespace

class TestDesignDock : public QObject {
    Q_OBJECT
private slots:
    void dockAndSetAgree_data();
    void dockAndSetAgree();
    void undoReturnsToThePreset();
    void faultsAreCheckedAndUndone();
};

void TestDesignDock::dockAndSetAgree_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("text");
    const SiteParams p = *presetParams("small-256");
    for (const DesignFieldRef& r : designFieldRefs(p))
        for (const test::DesignFieldRow& row : test::designFieldRows(*r.field)) {
            const QString key = QString::fromStdString(designFieldKey(*r.field, r.cluster));
            QTest::newRow(qPrintable(key + " " + row.name)) << key << row.text;
        }
}

void TestDesignDock::dockAndSetAgree() {
    QFETCH(QString, key);
    QFETCH(QString, text);
    const SiteParams preset = *presetParams("small-256");
    QString refusal;
    const std::optional<SiteParams> set = viaSet(preset, key, text, &refusal);
    app::DesignDock dock;
    dock.setDesign(preset, "small-256");
    QSignalSpy changed(&dock, &app::DesignDock::designChanged);
    // Typed into the field, as the user does.
    auto* line = dock.findChild<QLineEdit*>(key);
    const bool accepted =
        line ? (line->setText(text), line->setModified(true),
                QMetaObject::invokeMethod(line, "editingFinished"), dock.problem().isEmpty())
             : dock.edit(key.toStdString(), text);
    QCOMPARE(accepted, set.has_value());
    if (accepted) {
        QCOMPARE(*dock.design(), *set);
        QCOMPARE(changed.size(), *set == preset ? 0 : 1);
        return;
    }
    QCOMPARE(changed.size(), 0);
    QCOMPARE(*dock.design(), preset); // nothing changed
    // The same words as --set, after the field's label (a value) or its key (a combination).
    QVERIFY2(dock.problem().endsWith(refusal), qPrintable(dock.problem() + "\n" + refusal));
}

void TestDesignDock::undoReturnsToThePreset() {
    const SiteParams p = *presetParams("small-256");
    app::DesignDock dock;
    dock.setDesign(p, "small-256");
    QVERIFY(dock.edit("generator.clusters[0].oversubscription", "4"));
    QVERIFY(dock.edit("generator.clusters[0].pods", "3"));
    QCOMPARE(dock.design()->clusters[0].pods, 3);
    QCOMPARE(dock.findChild<QLineEdit*>("generator.clusters[0].pods")->text(), QString("3"));
    dock.undoStack()->undo();
    dock.undoStack()->undo();
    QCOMPARE(*dock.design(), p);
    QCOMPARE(dock.findChild<QLineEdit*>("generator.clusters[0].pods")->text(), QString("2"));
}

// The Faults boxes, typed into and applied as a user would: an id naming nothing and a
// malformed fraction are refused under the form; a real uplink fails; undo clears the box.
void TestDesignDock::faultsAreCheckedAndUndone() {
    const SiteParams p = *presetParams("small-256");
    const Topology t = generateSite(p);
    app::DesignDock dock;
    dock.setDesign(p, "small-256");
    auto* failed = dock.findChild<QPlainTextEdit*>("design.fabric.failed");
    auto* degraded = dock.findChild<QPlainTextEdit*>("design.fabric.degraded");
    auto* apply = dock.findChild<QPushButton*>("designApplyFaults");
    QVERIFY(failed && degraded && apply);
    QSignalSpy changed(&dock, &app::DesignDock::designChanged);
    failed->setPlainText("no-such-switch");
    apply->click();
    QCOMPARE(changed.count(), 0);
    QVERIFY2(dock.problem().contains("fabric.failed[0]") && dock.problem().contains("no-such"),
             qPrintable(dock.problem()));
    QVERIFY(dock.design()->faults.empty());
    // A link between two switches: the first one the generator lists.
    std::string uplink;
    for (size_t l = 0; l < t.links.size() && uplink.empty(); ++l)
        if (t.links[l].a.kind == EntityKind::Switch && t.links[l].b.kind == EntityKind::Switch)
            uplink = t.nameOf({EntityKind::Link, int32_t(l)});
    QVERIFY(!uplink.empty());
    failed->setPlainText(QString::fromStdString(uplink) + "\n");
    degraded->setPlainText(QString::fromStdString(uplink) + "=2");
    apply->click();
    QCOMPARE(changed.count(), 0);
    QVERIFY2(dock.problem().contains("line 1"), qPrintable(dock.problem()));
    degraded->clear();
    apply->click();
    QCOMPARE(changed.count(), 1);
    QVERIFY(dock.problem().isEmpty());
    QCOMPARE(dock.design()->faults.failed, std::vector<std::string>{uplink});
    QCOMPARE(failed->toPlainText().toStdString(), uplink);
    // The window shows the regenerated design's figures: the faults are said under them.
    dock.showFigures(computeStats(t));
    auto* figures = dock.findChild<QLabel*>("designFigures");
    QVERIFY2(figures->text().contains("faults: 1 part failed, 0 degraded"),
             qPrintable(figures->text()));
    dock.undoStack()->undo();
    QCOMPARE(*dock.design(), p);
    QVERIFY(failed->toPlainText().isEmpty());
}

QTEST_MAIN(TestDesignDock)
#include "tst_design_dock.moc"
