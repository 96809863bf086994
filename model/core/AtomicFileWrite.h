#pragma once
// Writes a whole file so that a reader sees the old contents or the new, never a part: the
// bytes go to a temporary file beside it, are synced, and then renamed over it. Every write is
// checked (short writes and the system's reason: "No space left on device", "File too large"),
// so a full disk keeps the old file and says why. A target that is not a regular file (a pipe,
// /dev/stdout) is written in place, checked the same way.
#include <QByteArray>
#include <QString>

namespace cs {

// Throws std::runtime_error "cannot write PATH: REASON".
void writeFileAtomically(const QString& path, const QByteArray& bytes);

} // namespace cs
