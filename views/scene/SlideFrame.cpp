#include "SlideFrame.h"

#include <QPainter>

#include <algorithm>

namespace cs::views {
namespace {

// Text bands scale with the picture so that a title reads at 720p and at 4K alike.
int band(const QSize& s, int divisor, int least) {
    return std::max(least, s.height() / divisor);
}

void drawBandText(QPainter& p, const QRect& r, const QString& text, bool bold) {
    QFont f = p.font();
    f.setPixelSize(std::max(10, r.height() * 3 / 5));
    f.setBold(bold);
    p.setFont(f);
    p.setPen(QColor(235, 235, 235));
    const QString shown = p.fontMetrics().elidedText(text, Qt::ElideRight, r.width() - 16);
    p.drawText(r, Qt::AlignCenter, shown);
}

} // namespace

int SlideFrame::titleBandPx() const {
    return title.isEmpty() ? 0 : band(size, 18, 24);
}

int SlideFrame::namesBandPx() const {
    return two ? band(size, 24, 20) : 0;
}

int SlideFrame::captionBandPx() const {
    return caption.isEmpty() ? 0 : band(size, 26, 18);
}

QSize SlideFrame::viewSize() const {
    const int h = size.height() - titleBandPx() - namesBandPx() - captionBandPx();
    return {two ? size.width() / 2 : size.width(), std::max(16, h)};
}

QImage SlideFrame::compose(const QImage& a, const QImage& b) const {
    QImage out(size, QImage::Format_RGB32);
    out.fill(QColor(24, 26, 30)); // the view's background, darker: the bands read as a frame
    QPainter p(&out);
    p.setRenderHint(QPainter::TextAntialiasing);
    int y = 0;
    if (titleBandPx() > 0) {
        drawBandText(p, QRect(0, y, size.width(), titleBandPx()), title, true);
        y += titleBandPx();
    }
    const QSize v = viewSize();
    if (two) {
        drawBandText(p, QRect(0, y, v.width(), namesBandPx()), nameA, true);
        drawBandText(p, QRect(v.width(), y, size.width() - v.width(), namesBandPx()), nameB, true);
        y += namesBandPx();
        p.drawImage(QPoint(0, y), a);
        p.drawImage(QPoint(v.width(), y), b);
        p.setPen(QPen(QColor(24, 26, 30), 2)); // a seam between the two
        p.drawLine(v.width(), y, v.width(), y + v.height());
    } else {
        p.drawImage(QPoint(0, y), a);
    }
    y += v.height();
    if (captionBandPx() > 0)
        drawBandText(p, QRect(0, y, size.width(), captionBandPx()), caption, false);
    return out;
}

} // namespace cs::views
