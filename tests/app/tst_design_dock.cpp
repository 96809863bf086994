// The Design dock takes and refuses the same values as --set (and so as a topology file: the
// design table's own test checks those two agree), row by row for every field of a preset's
// design; a refusal says the same "expected ..." under the form; Save Design As writes a
// parameters file that reads back as the design shown.
#include "DesignDock.h"
#include "DesignFieldRows.h"
#include "DesignSets.h"
#include "Presets.h"
#include "SiteGenerator.h"

#include <QApplication>
#include <QLineEdit>
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

QTEST_MAIN(TestDesignDock)
#include "tst_design_dock.moc"
