#pragma once
// Help: the keyboard shortcuts the window really has (read off its actions and shortcuts, so
// the list cannot drift from the code) and the user guide, docs/user/README.md.
#include <QList>
#include <QPair>
#include <QString>

class QWidget;

namespace cs::app {

// (keys, what they do) for every action with a shortcut and every QShortcut that says what it
// does (its whatsThis), sorted by what they do.
QList<QPair<QString, QString>> windowShortcuts(const QWidget* window);
void showShortcutsDialog(QWidget* window);
// The user guide beside the installed app (share/doc/clusterscope/docs/user/README.md), else the
// source tree's (docs/user/README.md); empty when neither is there.
QString userGuidePath();

} // namespace cs::app
