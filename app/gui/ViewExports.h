#pragma once
// The 3D view taken out of the window: a screenshot drawn off screen, the scene as glTF, and
// a movie of the open run (File → Save Screenshot, Export Scene, Export Movie). Each throws
// on failure with what went wrong; the window reports it.
#include "MovieWriter.h"
#include "TopologyDocument.h"

#include <QSize>
#include <QString>

class QWidget;

namespace cs::views {
class VtkViewWidget;
}

namespace cs::app {

class ViewExports {
public:
    // `parent`: the window the movie's progress dialog belongs to.
    ViewExports(QWidget* parent, views::VtkViewWidget* view) : parent_(parent), view_(view) {}

    // The view as it stands (layout, camera, colours, selection, the frame shown) at `size`.
    void saveScreenshot(const TopologyDocument& doc, const QString& path, QSize size) const;
    void exportScene(const QString& path) const;
    // With a progress dialog that can cancel; false when cancelled (nothing written).
    bool exportMovie(const TopologyDocument& doc, const QString& runPath,
                     views::MovieRequest request) const;

private:
    QWidget* parent_;
    views::VtkViewWidget* view_;
};

} // namespace cs::app
