#include "NewStoreFile.h"

#include <QFile>
#include <QFileInfo>

#include <array>
#include <atomic>
#include <csignal>
#include <cstring>
#include <mutex>

#include <unistd.h>

namespace cs::app {
namespace {

// The stores being created, for the signal handler: fixed buffers, so that it neither
// allocates nor locks (only unlink, signal and raise, which are async-signal-safe).
constexpr int kSlots = 8;
constexpr const char* kSuffixes[] = {"", "-wal", "-shm", "-journal"};
constexpr size_t kPathBytes = 4096;

struct Slot {
    std::atomic<bool> used{false};
    std::array<std::array<char, kPathBytes + 16>, 4> paths{};
};

std::array<Slot, kSlots> storeSlots;
std::mutex storeSlotsMutex;
bool handlersInstalled = false;

extern "C" void removeNewStoresAndEnd(int signal) {
    for (Slot& s : storeSlots)
        if (s.used.load())
            for (const auto& path : s.paths)
                ::unlink(path.data());
    std::signal(signal, SIG_DFL); // then ended by the signal, as without this handler
    std::raise(signal);
}

// Installed once, for the signals whose action is still the default: an ignored SIGHUP
// (nohup) stays ignored.
void installHandlers() {
    for (int signal : {SIGINT, SIGTERM, SIGHUP}) {
        struct sigaction old {};
        if (sigaction(signal, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;
        struct sigaction a {};
        a.sa_handler = removeNewStoresAndEnd;
        sigemptyset(&a.sa_mask);
        sigaction(signal, &a, nullptr);
    }
}

int registerStore(const QString& path) {
    const QByteArray name = QFile::encodeName(QFileInfo(path).absoluteFilePath());
    if (name.size() >= qsizetype(kPathBytes)) return -1; // cleaned up on a normal exit only
    std::lock_guard lock(storeSlotsMutex);
    if (!handlersInstalled) installHandlers(), handlersInstalled = true;
    for (int i = 0; i < kSlots; ++i) {
        Slot& s = storeSlots[size_t(i)];
        if (s.used.load()) continue;
        for (size_t k = 0; k < s.paths.size(); ++k) {
            const QByteArray full = name + kSuffixes[k];
            std::memcpy(s.paths[k].data(), full.constData(), size_t(full.size()) + 1);
        }
        s.used.store(true);
        return i;
    }
    return -1;
}

void unregisterStore(int slot) {
    if (slot < 0) return;
    std::lock_guard lock(storeSlotsMutex);
    storeSlots[size_t(slot)].used.store(false);
}

} // namespace

NewStoreFile::NewStoreFile(QString path)
    : path_(std::move(path)), existed_(QFileInfo::exists(path_)) {
    if (!existed_ && !path_.isEmpty()) slot_ = registerStore(path_);
}

NewStoreFile::~NewStoreFile() {
    unregisterStore(slot_);
    if (kept_ || existed_ || path_.isEmpty()) return;
    for (const char* suffix : kSuffixes)
        QFile::remove(path_ + suffix);
}

void NewStoreFile::keep() {
    unregisterStore(slot_); // a signal from here on leaves the finished store
    slot_ = -1;
    kept_ = true;
}

} // namespace cs::app
