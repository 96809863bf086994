#pragma once
// Encodes frames into a movie with Debian's ffmpeg program, fed raw RGB frames on its stdin:
// H.264 for .mp4, VP9 for .webm. The movie is written beside its name and renamed into place
// when finished, so a failed or cancelled encoding leaves no partial file behind.
#include <QImage>
#include <QProcess>
#include <QSize>
#include <QString>

namespace cs::views {

class MovieEncoder {
public:
    // Starts ffmpeg; throws std::runtime_error when it cannot (not installed, say so).
    // The size must be even (the pixel format halves the colour planes).
    MovieEncoder(const QString& path, QSize size, int fps);
    ~MovieEncoder(); // without finish(): stops ffmpeg and removes the partial file
    MovieEncoder(const MovieEncoder&) = delete;
    MovieEncoder& operator=(const MovieEncoder&) = delete;

    void addFrame(const QImage& frame); // throws std::runtime_error with ffmpeg's message
    void finish();                      // the same; afterwards the movie is at its path
    int frames() const { return frames_; }

    // "mp4" or "webm" from the path's extension; empty when neither.
    static QString containerOf(const QString& path);

private:
    [[noreturn]] void failed(const char* what);

    QProcess ffmpeg_;
    QString path_, partial_;
    QSize size_;
    int frames_ = 0;
    bool finished_ = false;
};

} // namespace cs::views
