#pragma once
// Where a box of `size` goes beside a pointer at `anchor` so that all of it stays inside
// `area`: below and right of the pointer as a tooltip sits, flipped to the left or above where
// it would cross the right or bottom edge, then moved inside (its top-left corner kept in when
// the box is bigger than the area).
#include <QPoint>
#include <QRect>
#include <QSize>

namespace cs::views {

QPoint placeInside(QPoint anchor, QSize size, const QRect& area);

} // namespace cs::views
