#include "ChartExport.h"

#include "AtomicFileWrite.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QFileInfo>
#include <QSvgGenerator>

namespace cs::views {

std::optional<ChartFileKind> chartFileKindOf(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == "png") return ChartFileKind::Png;
    if (suffix == "svg") return ChartFileKind::Svg;
    if (suffix == "csv") return ChartFileKind::Csv;
    return std::nullopt;
}

namespace {

QByteArray svgOf(QCustomPlot* plot, QSize size, const QString& title) {
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(title);
    QCPPainter painter;
    painter.begin(&svg);
    plot->toPainter(&painter, size.width(), size.height());
    painter.end();
    return buffer.data();
}

QByteArray pngOf(QCustomPlot* plot, QSize size) {
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    plot->toPixmap(size.width(), size.height()).save(&buffer, "PNG");
    return buffer.data();
}

} // namespace

QString exportChart(QCustomPlot* plot, const std::vector<ChartSeries>& data, int64_t wallStartNs,
                    const QString& path, QSize sizePx) {
    return exportChart(
        plot, [&] { return chartCsv(data, wallStartNs); }, path, sizePx);
}

QString exportChart(QCustomPlot* plot, const std::function<QByteArray()>& csv, const QString& path,
                    QSize sizePx) {
    const std::optional<ChartFileKind> kind = chartFileKindOf(path);
    if (!kind) return QObject::tr("%1: the name must end in .png, .svg or .csv").arg(path);
    if (sizePx.isEmpty()) sizePx = plot->size();
    if (sizePx.width() > 16384 || sizePx.height() > 16384)
        return QObject::tr("%1: %2x%3 is larger than 16384 pixels a side")
            .arg(path)
            .arg(sizePx.width())
            .arg(sizePx.height());
    QString title;
    if (auto* t = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0)))
        title = t->text();
    const QByteArray bytes = *kind == ChartFileKind::Csv   ? csv()
                             : *kind == ChartFileKind::Svg ? svgOf(plot, sizePx, title)
                                                           : pngOf(plot, sizePx);
    if (bytes.isEmpty()) return QObject::tr("%1: the chart could not be drawn").arg(path);
    try {
        writeFileAtomically(path, bytes); // a failed write keeps the file that was there
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

} // namespace cs::views
