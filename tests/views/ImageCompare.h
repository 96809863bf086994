#pragma once
// Pixel comparison of rendered pictures against baselines, with a threshold, and a diff
// picture a person can read: the baseline faded, differing pixels in red.
#include <QImage>
#include <QString>

namespace cs::test {

struct ImageDiff {
    bool sameSize = false;
    double meanAbsDiff = 0;       // per channel, 0..255
    double fractionDiffering = 0; // pixels whose largest channel difference exceeds the tolerance
    QImage picture;
};

ImageDiff compareImages(const QImage& actual, const QImage& baseline, int channelTolerance);

// Compares `actual` with tests/views/baselines/NAME.png. On a mismatch writes NAME.png and
// NAME-diff.png under render-out/ in the working directory and returns what to tell. With
// CS_UPDATE_BASELINES=1 set, writes the baseline instead. Empty string: matched.
QString checkAgainstBaseline(const QImage& actual, const QString& name);

// Pixels brighter than the dark background in any channel: "something was drawn".
int countDrawnPixels(const QImage& img);

} // namespace cs::test
