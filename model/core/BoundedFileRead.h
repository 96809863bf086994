#pragma once
// Reads a whole input file of at most `maxBytes`, allocating only what the file holds (not
// the limit up front) and reading pipes and other files of unknown size in chunks. A file
// over the limit, or one that cannot be opened, is an InputException naming the file.
#include <QByteArray>
#include <QString>

namespace cs {

QByteArray readFileBounded(const QString& path, qint64 maxBytes);

} // namespace cs
