#include "AboutDialog.h"

#include <QCoreApplication>
#include <QMessageBox>
#include <QtGlobal>

#include <vtkVersion.h>

namespace cs::app {

QString aboutText() {
    return QCoreApplication::translate(
               "About", "<h3>ClusterScope %1</h3>"
                        "<p>Cluster topologies, simulated training runs and recorded "
                        "telemetry of GPU training clusters, in 3D.</p>"
                        "<p>Qt %2 (built with %3)<br>VTK %4</p>"
                        "<p>Reference clusters: Meta's two 24,576-GPU H100 clusters "
                        "that trained Llama 3.</p>")
        .arg(QCoreApplication::applicationVersion(), QString::fromLatin1(qVersion()),
             QStringLiteral(QT_VERSION_STR), QString::fromLatin1(vtkVersion::GetVTKVersion()));
}

void showAboutDialog(QWidget* parent) {
    QMessageBox::about(parent, QCoreApplication::translate("About", "About ClusterScope"),
                       aboutText());
}

} // namespace cs::app
