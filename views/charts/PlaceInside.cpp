#include "PlaceInside.h"

#include <algorithm>

namespace cs::views {

QPoint placeInside(QPoint anchor, QSize size, const QRect& area) {
    // A tooltip's offset from the pointer: clear of an arrow cursor.
    constexpr int kRightPx = 12, kBelowPx = 18, kGapPx = 4;
    QPoint p = anchor + QPoint(kRightPx, kBelowPx);
    if (p.x() + size.width() > area.right() + 1) p.setX(anchor.x() - kGapPx - size.width());
    if (p.y() + size.height() > area.bottom() + 1) p.setY(anchor.y() - kGapPx - size.height());
    p.setX(std::max(area.left(), std::min(p.x(), area.right() + 1 - size.width())));
    p.setY(std::max(area.top(), std::min(p.y(), area.bottom() + 1 - size.height())));
    return p;
}

} // namespace cs::views
