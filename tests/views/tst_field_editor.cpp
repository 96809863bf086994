// The one form builder (FieldEditor.h) over both tables: every run option and every design
// field gets the editor of its type, shows its default as the table writes it, hands back
// what the user typed or picked, and says in its tooltip what it takes and its key.
#include "DesignFields.h"
#include "FieldEditor.h"
#include "RunOptions.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QTest>

#include <memory>

using namespace cs;
using namespace cs::views;

namespace {

// The editor's kind as its type asks for it.
bool editorFits(const FieldInfo& f, QWidget* w) {
    switch (f.type) {
    case FieldType::Choice:
        return qobject_cast<QComboBox*>(w) != nullptr;
    case FieldType::Bool:
        return qobject_cast<QCheckBox*>(w) != nullptr;
    default:
        return qobject_cast<QLineEdit*>(w) != nullptr;
    }
}

// Shows `text` in a fresh editor of `f` and checks what comes back and what it says.
void checkRow(const FieldInfo& f, const QString& key, const QString& text) {
    std::unique_ptr<QWidget> w(makeFieldEditor(f, key));
    QVERIFY2(editorFits(f, w.get()), qPrintable(key));
    QCOMPARE(w->objectName(), key);
    setFieldEditorText(w.get(), text);
    QCOMPARE(fieldEditorText(w.get()), text);
    QVERIFY2(w->toolTip().contains(QString::fromStdString(fieldExpected(f))), qPrintable(key));
    QVERIFY2(w->toolTip().endsWith(key), qPrintable(w->toolTip()));
}

} // namespace

class TestFieldEditor : public QObject {
    Q_OBJECT
private slots:
    void everyRunOptionAndDesignFieldHasItsEditor();
    void editsReachTheCallerAsText();
    void rowLabelsCarryTheUnitOnce();
};

void TestFieldEditor::everyRunOptionAndDesignFieldHasItsEditor() {
    int rows = 0;
    for (const RunOption& o : runOptions()) {
        checkRow(o, QString::fromStdString(o.key), QString::fromStdString(o.defaultText));
        ++rows;
    }
    for (const DesignFieldRef& r : designFieldRefs(defaultDesign())) {
        checkRow(*r.field, QString::fromStdString(designFieldKey(*r.field, r.cluster)),
                 QString::fromStdString(r.field->defaultText));
        ++rows;
    }
    QVERIFY(rows > 60);
}

void TestFieldEditor::editsReachTheCallerAsText() {
    QStringList got;
    auto record = [&got](const QString& t) { got << t; };
    // A line: only a changed text, once the user leaves it.
    const FieldInfo& tp = *findRunOption("parallel.tp");
    std::unique_ptr<QWidget> line(makeFieldEditor(tp, "parallel.tp"));
    onFieldEdited(line.get(), record);
    line->show();
    QTest::keyClicks(line.get(), "16");
    QMetaObject::invokeMethod(line.get(), "editingFinished");
    QMetaObject::invokeMethod(line.get(), "editingFinished"); // left again, unchanged
    // A choice picked from the list.
    const auto fabric = parseDesignFieldKey("generator.clusters[0].fabric");
    QVERIFY(fabric);
    std::unique_ptr<QWidget> box(makeFieldEditor(*fabric->field, "fabric"));
    onFieldEdited(box.get(), record);
    auto* combo = static_cast<QComboBox*>(box.get());
    const int ib = combo->findText("infiniband");
    QVERIFY(ib >= 0);
    combo->setCurrentIndex(ib);
    emit combo->activated(ib);
    // A box ticked.
    const RunOption* failures = findRunOption("failures");
    QVERIFY(failures && failures->type == FieldType::Bool);
    std::unique_ptr<QWidget> check(makeFieldEditor(*failures, "failures"));
    onFieldEdited(check.get(), record);
    check->show();
    QTest::mouseClick(check.get(), Qt::LeftButton, {}, QPoint(5, check->height() / 2));
    QCOMPARE(got, QStringList({"16", "infiniband", "on"}));
}

void TestFieldEditor::rowLabelsCarryTheUnitOnce() {
    FieldInfo f{.label = "Spine uplink speed", .unit = "Gb/s"};
    QCOMPARE(fieldRowLabel(f), QString("Spine uplink speed (Gb/s)"));
    QCOMPARE(fieldRowLabel(f, false), QString("Spine uplink speed"));
    f.label = "Racks per pod", f.unit = "racks";
    QCOMPARE(fieldRowLabel(f), QString("Racks per pod"));
}

QTEST_MAIN(TestFieldEditor)
#include "tst_field_editor.moc"
