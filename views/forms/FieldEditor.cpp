#include "FieldEditor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>

namespace cs::views {
namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace

QWidget* makeFieldEditor(const FieldInfo& f, const QString& objectName) {
    QWidget* w = nullptr;
    if (f.type == FieldType::Choice) {
        auto* box = new QComboBox;
        for (const std::string& c : f.choices)
            box->addItem(qs(c));
        w = box;
    } else if (f.type == FieldType::Bool) {
        w = new QCheckBox(qs(f.label));
    } else {
        auto* line = new QLineEdit;
        line->setPlaceholderText(qs(f.textPlaceholder));
        w = line;
    }
    w->setObjectName(objectName);
    w->setToolTip(fieldToolTip(f, objectName));
    return w;
}

QString fieldRowLabel(const FieldInfo& f, bool withUnit) {
    const bool unitSaid =
        !withUnit || f.unit.empty() || qs(f.label).contains(qs(f.unit), Qt::CaseInsensitive);
    return qs(f.label) + (unitSaid ? "" : " (" + qs(f.unit) + ")");
}

QString fieldToolTip(const FieldInfo& f, const QString& key) {
    return qs(f.help + "\nExpected " + fieldExpected(f) + (f.unit.empty() ? "" : " " + f.unit) +
              "; default " + (f.defaultText.empty() ? "none" : f.defaultText) + " " + f.source +
              "\n") +
           key;
}

QString fieldEditorText(const QWidget* editor) {
    if (auto* e = qobject_cast<const QLineEdit*>(editor)) return e->text();
    if (auto* b = qobject_cast<const QComboBox*>(editor)) return b->currentText();
    if (auto* c = qobject_cast<const QCheckBox*>(editor)) return c->isChecked() ? "on" : "off";
    return {};
}

void setFieldEditorText(QWidget* editor, const QString& text) {
    if (auto* e = qobject_cast<QLineEdit*>(editor))
        e->setText(text);
    else if (auto* b = qobject_cast<QComboBox*>(editor))
        b->setCurrentText(text);
    else if (auto* c = qobject_cast<QCheckBox*>(editor))
        c->setChecked(text == "on");
}

void onFieldEdited(QWidget* editor, std::function<void(const QString&)> edited) {
    if (auto* box = qobject_cast<QComboBox*>(editor)) {
        QObject::connect(box, &QComboBox::activated, box,
                         [box, edited] { edited(box->currentText()); });
    } else if (auto* check = qobject_cast<QCheckBox*>(editor)) {
        QObject::connect(check, &QCheckBox::clicked, check,
                         [check, edited] { edited(check->isChecked() ? "on" : "off"); });
    } else if (auto* line = qobject_cast<QLineEdit*>(editor)) {
        QObject::connect(line, &QLineEdit::editingFinished, line, [line, edited] {
            if (line->isModified()) edited(line->text());
            line->setModified(false);
        });
    }
}

} // namespace cs::views
