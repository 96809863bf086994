#pragma once
// A main window's size and its docks' and toolbars' places, kept between starts (QSettings).
class QMainWindow;

namespace cs::app {

void saveWindowLayout(const QMainWindow& window);
// False when none was kept or it does not fit this build's docks.
bool restoreWindowLayout(QMainWindow& window);

} // namespace cs::app
