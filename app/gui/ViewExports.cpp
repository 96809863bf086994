#include "ViewExports.h"

#include "HeadlessRenderer.h"
#include "RunReader.h"
#include "VtkViewWidget.h"

#include <QCoreApplication>
#include <QProgressDialog>

#include <stdexcept>

namespace cs::app {

void ViewExports::saveScreenshot(const TopologyDocument& doc, const QString& path,
                                 QSize size) const {
    views::HeadlessRenderer r(size.width(), size.height());
    r.scene().setDocument(&doc);
    r.scene().apply(view_->state());
    r.scene().setValues(view_->scene().values()); // the frame shown, as it is
    r.render();
    views::writePngAtomically(path, r.grab()); // a failed save keeps the older picture
}

void ViewExports::exportScene(const QString& path) const {
    view_->scene().exportGltf(path.toStdString());
}

bool ViewExports::exportMovie(const TopologyDocument& doc, const QString& runPath,
                              views::MovieRequest request) const {
    request.view = view_->state();
    QProgressDialog progress(QObject::tr("Rendering %1...").arg(request.out), QObject::tr("Cancel"),
                             0, 1000, parent_);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(0);
    RunReader reader(runPath, doc.topology());
    if (const std::string problem = views::checkMovieRequest(request, reader.info());
        !problem.empty())
        throw std::invalid_argument(problem);
    return views::writeMovie(doc, reader, request, [&](double f) {
        progress.setValue(int(f * 1000));
        QCoreApplication::processEvents();
        return !progress.wasCanceled();
    });
}

} // namespace cs::app
