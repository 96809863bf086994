#pragma once
// A picture made for a slide: an optional title line across the top, one view or two side by
// side (each under its design's name), and an optional caption line at the bottom. `render`
// and `movie` compose their frames with it; the views are rendered at viewSize() first.
#include <QImage>
#include <QSize>
#include <QString>

namespace cs::views {

struct SlideFrame {
    QSize size;       // the whole picture
    bool two = false; // two views side by side
    QString title, caption;
    QString nameA, nameB; // above each view when two

    int titleBandPx() const;   // 0 without a title
    int namesBandPx() const;   // 0 with one view
    int captionBandPx() const; // 0 without a caption
    // What each view is rendered at.
    QSize viewSize() const;
    // The picture: `a` (and `b` when two) at viewSize(), the text drawn in its bands.
    QImage compose(const QImage& a, const QImage& b = {}) const;
};

} // namespace cs::views
