#pragma once
// One part of a frame's work on another core (Qt's global thread pool) while the caller does
// another part; on the caller's thread when too small to be worth handing over, or when the
// pool has no thread free. The work must not touch what the caller does meanwhile.
#include <QSemaphore>

#include <functional>

namespace cs::views {

class ConcurrentTask {
public:
    ConcurrentTask(bool concurrent, std::function<void()> work);
    ~ConcurrentTask(); // waits
    ConcurrentTask(const ConcurrentTask&) = delete;
    ConcurrentTask& operator=(const ConcurrentTask&) = delete;
    void wait(); // until the work is done

private:
    QSemaphore done_;
    bool pending_ = false;
};

} // namespace cs::views
