#include "MovieEncoder.h"

#include <QFile>
#include <QFileInfo>

#include <cstdio>
#include <stdexcept>

namespace cs::views {

QString MovieEncoder::containerOf(const QString& path) {
    const QString ext = QFileInfo(path).suffix().toLower();
    return ext == "mp4" || ext == "webm" ? ext : QString();
}

MovieEncoder::MovieEncoder(const QString& path, QSize size, int fps)
    : path_(path), partial_(path + ".partial"), size_(size) {
    const QString container = containerOf(path);
    QStringList args{"-hide_banner", "-loglevel",
                     "error",        "-y",
                     "-f",           "rawvideo",
                     "-pix_fmt",     "rgb24",
                     "-s",           QString("%1x%2").arg(size.width()).arg(size.height()),
                     "-r",           QString::number(fps),
                     "-i",           "-",
                     "-an",          "-pix_fmt",
                     "yuv420p"};
    if (container == "webm")
        args << "-c:v"
             << "libvpx-vp9"
             << "-deadline"
             << "realtime"
             << "-cpu-used"
             << "8"
             << "-b:v"
             << "0"
             << "-crf"
             << "36"
             << "-f"
             << "webm";
    else
        args << "-c:v"
             << "libx264"
             << "-preset"
             << "veryfast"
             << "-crf"
             << "20"
             << "-f"
             << "mp4";
    args << partial_;
    ffmpeg_.setProcessChannelMode(QProcess::SeparateChannels);
    ffmpeg_.start("ffmpeg", args);
    if (!ffmpeg_.waitForStarted(10000))
        throw std::runtime_error("cannot start ffmpeg (" + ffmpeg_.errorString().toStdString() +
                                 "): movies are encoded by Debian's ffmpeg package");
}

MovieEncoder::~MovieEncoder() {
    if (finished_) return;
    ffmpeg_.kill();
    ffmpeg_.waitForFinished(5000);
    QFile::remove(partial_);
}

void MovieEncoder::failed(const char* what) {
    ffmpeg_.kill();
    ffmpeg_.waitForFinished(5000);
    const QByteArray err = ffmpeg_.readAllStandardError().trimmed();
    QFile::remove(partial_);
    finished_ = true;
    throw std::runtime_error(std::string("ffmpeg ") + what + " writing " + path_.toStdString() +
                             (err.isEmpty() ? std::string() : ": " + err.right(400).toStdString()));
}

void MovieEncoder::addFrame(const QImage& frame) {
    const QImage rgb = frame.size() == size_
                           ? frame.convertToFormat(QImage::Format_RGB888)
                           : frame.scaled(size_).convertToFormat(QImage::Format_RGB888);
    const qint64 row = qint64(size_.width()) * 3;
    for (int y = 0; y < rgb.height(); ++y)
        if (ffmpeg_.write(reinterpret_cast<const char*>(rgb.constScanLine(y)), row) != row)
            failed("stopped");
    // Keep at most a few frames queued: memory stays bounded on long movies.
    while (ffmpeg_.bytesToWrite() > 4 * row * size_.height())
        if (!ffmpeg_.waitForBytesWritten(30000) || ffmpeg_.state() != QProcess::Running)
            failed("stopped");
    ++frames_;
}

void MovieEncoder::finish() {
    ffmpeg_.closeWriteChannel();
    if (!ffmpeg_.waitForFinished(600000) || ffmpeg_.exitStatus() != QProcess::NormalExit ||
        ffmpeg_.exitCode() != 0)
        failed("failed");
    // rename(2) replaces an older movie in one step: it is never lost half-way.
    if (std::rename(QFile::encodeName(partial_).constData(),
                    QFile::encodeName(path_).constData()) != 0) {
        QFile::remove(partial_);
        finished_ = true;
        throw std::runtime_error("cannot write " + path_.toStdString());
    }
    finished_ = true;
}

} // namespace cs::views
