#pragma once
// What the fuzz targets share: a small topology to map onto, a scratch directory in memory,
// and the rule they all follow: a refused input is an InputException (or a std::exception
// the loader documents); anything else (a crash, a sanitizer report, a hang) is a finding.
#include "TopologyDocument.h"

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <cstdint>

namespace fuzz {

// small-256, built once.
const cs::TopologyDocument& smallTopology();
// A directory of the process's own under /dev/shm (else the temp dir), made once.
QString scratchDir();
// Writes bytes to a file in the scratch directory; returns its path.
QString writeScratch(const QString& name, const QByteArray& bytes);
inline QByteArray bytesOf(const uint8_t* data, size_t size) {
    return QByteArray(reinterpret_cast<const char*>(data), qsizetype(size));
}

} // namespace fuzz
