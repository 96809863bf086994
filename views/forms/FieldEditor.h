#pragma once
// The one form builder of options tables (FieldTable.h): the editor of a field (a combo box
// for a choice, a check box for a bool, a line edit for the rest), its label with the unit,
// its tooltip, and its text in and out as the table parses it. The simulation dialog and the
// Design dock both make their rows with it.
#include "FieldTable.h"

#include <QString>

#include <functional>

class QWidget;

namespace cs::views {

// An editor named `objectName` (the key the caller's input uses), with the field's choices,
// placeholder and tooltip (help, what it takes, default and its source, the key).
QWidget* makeFieldEditor(const FieldInfo& f, const QString& objectName);
// "Oversubscription", "Spine uplink speed (Gb/s)": the unit after the label unless the label
// says it already ("Racks per pod") or `withUnit` is false (a form that shows units apart).
QString fieldRowLabel(const FieldInfo& f, bool withUnit = true);
QString fieldToolTip(const FieldInfo& f, const QString& key);

// The editor's value as text the table parses ("on" / "off" for a check box), and back.
QString fieldEditorText(const QWidget* editor);
void setFieldEditorText(QWidget* editor, const QString& text);
// Calls `edited` with the editor's text when the user has changed it: a choice picked, a box
// ticked, a line edited and left.
void onFieldEdited(QWidget* editor, std::function<void(const QString&)> edited);

} // namespace cs::views
