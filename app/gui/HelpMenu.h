#pragma once
// Help: the keyboard shortcuts the window really has (read off its actions and shortcuts, so
// the list cannot drift from the code) and the user guide, the README.
#include <QList>
#include <QPair>
#include <QString>

class QWidget;

namespace cs::app {

// (keys, what they do) for every action with a shortcut and every QShortcut that says what it
// does (its whatsThis), sorted by what they do.
QList<QPair<QString, QString>> windowShortcuts(const QWidget* window);
void showShortcutsDialog(QWidget* window);
// The README beside the installed app (share/doc/clusterscope), else the source tree's; empty
// when neither is there.
QString userGuidePath();

} // namespace cs::app
