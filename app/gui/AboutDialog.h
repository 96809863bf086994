#pragma once
#include <QString>

class QWidget;

namespace cs::app {

// "ClusterScope 0.1.0, Qt 6.4.2, VTK 9.1.0" and what the app is for.
QString aboutText();
void showAboutDialog(QWidget* parent);

} // namespace cs::app
