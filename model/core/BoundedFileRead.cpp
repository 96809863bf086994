#include "BoundedFileRead.h"

#include "InputError.h"

#include <QFile>

#include <algorithm>

namespace cs {

QByteArray readFileBounded(const QString& path, qint64 maxBytes) {
    const std::string name = path.toStdString();
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        throw InputException({name, 0, 0, {}, "cannot open: " + f.errorString().toStdString()});
    auto tooBig = [&](qint64 size) {
        return InputException({name,
                               0,
                               0,
                               {},
                               "file is " + std::to_string(size) + " bytes; at most " +
                                   std::to_string(maxBytes) + " are read"});
    };
    if (!f.isSequential() && f.size() > maxBytes) throw tooBig(f.size());
    QByteArray text;
    if (!f.isSequential()) text.reserve(qsizetype(f.size()));
    constexpr qint64 kChunk = 1 << 20;
    for (;;) {
        const QByteArray part = f.read(std::min(kChunk, maxBytes + 1 - text.size()));
        if (part.isEmpty()) break;
        text += part;
        if (text.size() > maxBytes) throw tooBig(text.size()); // grew while read, or a pipe
    }
    if (f.error() != QFileDevice::NoError)
        throw InputException({name, 0, 0, {}, "cannot read: " + f.errorString().toStdString()});
    return text;
}

} // namespace cs
