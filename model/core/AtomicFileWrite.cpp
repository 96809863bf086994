#include "AtomicFileWrite.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace cs {

namespace {
// All of `bytes` to fd, or the errno that stopped it (0: written).
int writeAll(int fd, const QByteArray& bytes) {
    const char* data = bytes.constData();
    size_t left = size_t(bytes.size());
    while (left > 0) {
        const ssize_t n = ::write(fd, data, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        if (n == 0) return EIO;
        data += n;
        left -= size_t(n);
    }
    return 0;
}
} // namespace

void writeFileAtomically(const QString& path, const QByteArray& bytes) {
    const std::string target = path.toStdString();
    auto fail = [&](int error) {
        throw std::runtime_error("cannot write " + target + ": " + std::strerror(error));
    };
    struct stat existing {};
    const bool exists = ::stat(target.c_str(), &existing) == 0;
    if (exists && !S_ISREG(existing.st_mode)) { // a pipe or a device: no rename over it
        const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0) fail(errno);
        const int error = writeAll(fd, bytes);
        if (::close(fd) != 0 && error == 0) fail(errno);
        if (error != 0) fail(error);
        return;
    }
    std::string temporary = target + ".XXXXXX";
    const int fd = ::mkstemp(temporary.data());
    if (fd < 0) fail(errno);
    // The mode of the file replaced, or what a new file gets (mkstemp makes it 0600).
    mode_t mode = existing.st_mode & 07777;
    if (!exists) {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        mode = 0666 & ~mask;
    }
    int error = writeAll(fd, bytes);
    if (error == 0 && ::fchmod(fd, mode) != 0) error = errno;
    if (error == 0 && ::fsync(fd) != 0) error = errno; // a full disk may only say so here
    if (::close(fd) != 0 && error == 0) error = errno;
    if (error == 0 && ::rename(temporary.c_str(), target.c_str()) != 0) error = errno;
    if (error != 0) {
        ::unlink(temporary.c_str());
        fail(error);
    }
}

} // namespace cs
