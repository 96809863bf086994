#include "ImageCompare.h"

#include <QDir>
#include <QFileInfo>

#include <cstdlib>

namespace cs::test {

namespace {
// Thresholds: software rendering is deterministic for one Mesa build, but line and text
// rasterisation may move by a pixel between builds.
constexpr int kChannelTolerance = 40;
constexpr double kMaxFractionDiffering = 0.003;
constexpr double kMaxMeanAbsDiff = 1.5;
} // namespace

ImageDiff compareImages(const QImage& actualIn, const QImage& baselineIn, int tolerance) {
    ImageDiff d;
    const QImage a = actualIn.convertToFormat(QImage::Format_RGB888);
    const QImage b = baselineIn.convertToFormat(QImage::Format_RGB888);
    d.sameSize = a.size() == b.size();
    if (!d.sameSize) return d;
    d.picture = QImage(a.size(), QImage::Format_RGB888);
    long long sum = 0, differing = 0;
    for (int y = 0; y < a.height(); ++y) {
        const uchar* pa = a.constScanLine(y);
        const uchar* pb = b.constScanLine(y);
        uchar* out = d.picture.scanLine(y);
        for (int x = 0; x < a.width(); ++x) {
            int worst = 0;
            for (int c = 0; c < 3; ++c) {
                const int diff = std::abs(int(pa[3 * x + c]) - int(pb[3 * x + c]));
                sum += diff;
                worst = std::max(worst, diff);
            }
            const int grey = (pb[3 * x] + pb[3 * x + 1] + pb[3 * x + 2]) / 9; // faded baseline
            const bool bad = worst > tolerance;
            differing += bad;
            out[3 * x] = bad ? 255 : uchar(grey);
            out[3 * x + 1] = bad ? 0 : uchar(grey);
            out[3 * x + 2] = bad ? 0 : uchar(grey);
        }
    }
    const double pixels = double(a.width()) * a.height();
    d.meanAbsDiff = double(sum) / (pixels * 3);
    d.fractionDiffering = double(differing) / pixels;
    return d;
}

QString checkAgainstBaseline(const QImage& actual, const QString& name) {
    const QString baselinePath =
        QStringLiteral(CS_SOURCE_DIR "/tests/views/baselines/%1.png").arg(name);
    if (qEnvironmentVariableIntValue("CS_UPDATE_BASELINES") == 1) {
        actual.save(baselinePath);
        return {};
    }
    QDir().mkpath("render-out");
    const QString candidate =
        QFileInfo(QStringLiteral("render-out/%1.png").arg(name)).absoluteFilePath();
    const QImage baseline(baselinePath);
    if (baseline.isNull()) {
        actual.save(candidate);
        return QStringLiteral(
                   "no baseline %1; candidate written to %2 (look at it, then copy it there "
                   "or run with CS_UPDATE_BASELINES=1)")
            .arg(baselinePath, candidate);
    }
    const ImageDiff d = compareImages(actual, baseline, kChannelTolerance);
    if (d.sameSize && d.fractionDiffering <= kMaxFractionDiffering &&
        d.meanAbsDiff <= kMaxMeanAbsDiff)
        return {};
    actual.save(candidate);
    const QString diffPath =
        QFileInfo(QStringLiteral("render-out/%1-diff.png").arg(name)).absoluteFilePath();
    if (d.sameSize) d.picture.save(diffPath);
    return QStringLiteral("%1 differs from its baseline: %2% of pixels off by more than %3, mean "
                          "difference %4 "
                          "(limits %5%, %6); actual %7, diff %8")
        .arg(name)
        .arg(d.fractionDiffering * 100, 0, 'f', 3)
        .arg(kChannelTolerance)
        .arg(d.meanAbsDiff, 0, 'f', 2)
        .arg(kMaxFractionDiffering * 100)
        .arg(kMaxMeanAbsDiff)
        .arg(candidate, d.sameSize ? diffPath : QStringLiteral("(sizes differ)"));
}

int countDrawnPixels(const QImage& imgIn) {
    const QImage img = imgIn.convertToFormat(QImage::Format_RGB888);
    int n = 0;
    for (int y = 0; y < img.height(); ++y) {
        const uchar* p = img.constScanLine(y);
        for (int x = 0; x < img.width(); ++x)
            if (std::max({p[3 * x], p[3 * x + 1], p[3 * x + 2]}) > 120) ++n;
    }
    return n;
}

} // namespace cs::test
