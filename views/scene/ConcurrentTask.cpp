#include "ConcurrentTask.h"

#include <QThreadPool>

namespace cs::views {

ConcurrentTask::ConcurrentTask(bool concurrent, std::function<void()> work) {
    if (concurrent) {
        auto run = [this, work] {
            work();
            done_.release();
        };
        pending_ = QThreadPool::globalInstance()->tryStart(run);
    }
    if (!pending_) work();
}

ConcurrentTask::~ConcurrentTask() {
    wait();
}

void ConcurrentTask::wait() {
    if (!pending_) return;
    done_.acquire();
    pending_ = false;
}

} // namespace cs::views
