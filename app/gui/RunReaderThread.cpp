#include "RunReaderThread.h"

#include <QApplication>
#include <QEventLoop>

#include <QThread>

namespace cs::app {

RunReaderThread::RunReaderThread(QObject* parent)
    : QObject(parent), thread_(new QThread(this)), context_(new QObject) {
    qRegisterMetaType<std::shared_ptr<const RunOverview>>();
    qRegisterMetaType<std::shared_ptr<const FrameResult>>();
    qRegisterMetaType<Endpoint>();
    qRegisterMetaType<Series>();
    qRegisterMetaType<LinkUse>();
    qRegisterMetaType<std::vector<LinkHeat>>();
    thread_->setObjectName("run reader");
    context_->moveToThread(thread_);
    connect(thread_, &QThread::finished, context_, &QObject::deleteLater);
    thread_->start();
}

RunReaderThread::~RunReaderThread() {
    close();
    QMetaObject::invokeMethod(
        context_, [this] { reader_.reset(); }, Qt::BlockingQueuedConnection);
    thread_->quit();
    thread_->wait();
}

template <class Fn> void RunReaderThread::post(Fn fn) {
    const int generation = generation_;
    QMetaObject::invokeMethod(context_, [fn, generation] { fn(generation); });
}

void RunReaderThread::open(const QString& path, const Topology& t) {
    ++generation_;
    post([this, path, &t](int generation) {
        try {
            // The run that was open stays open until the new one has read well.
            auto next = std::make_unique<RunReader>(path, t);
            auto overview = std::make_shared<const RunOverview>(overviewOf(*next));
            reader_ = std::move(next);
            QMetaObject::invokeMethod(this, [this, overview, generation] {
                if (generation == generation_) emit opened(overview);
            });
        } catch (const std::exception& e) {
            const QString message = QString::fromStdString(e.what());
            QMetaObject::invokeMethod(this, [this, message, generation] {
                if (generation == generation_) emit failed(message);
            });
        }
    });
}

std::shared_ptr<const RunOverview> RunReaderThread::openAndWait(const QString& path,
                                                                const Topology& t, QString* error) {
    std::shared_ptr<const RunOverview> opened;
    QEventLoop loop;
    auto ok =
        connect(this, &RunReaderThread::opened, &loop, [&](std::shared_ptr<const RunOverview> o) {
            opened = std::move(o);
            loop.quit();
        });
    auto bad = connect(this, &RunReaderThread::failed, &loop, [&](const QString& m) {
        if (error) *error = m;
        loop.quit();
    });
    QApplication::setOverrideCursor(Qt::WaitCursor);
    open(path, t);
    loop.exec(QEventLoop::ExcludeUserInputEvents);
    QApplication::restoreOverrideCursor();
    disconnect(ok);
    disconnect(bad);
    return opened;
}

void RunReaderThread::close() {
    ++generation_;
    // Waits: the reader refers to the topology, which the caller may be about to replace.
    QMetaObject::invokeMethod(
        context_, [this] { reader_.reset(); }, Qt::BlockingQueuedConnection);
}

void RunReaderThread::refresh() {
    post([this](int generation) {
        if (!reader_) return;
        std::shared_ptr<const RunOverview> overview;
        QString message;
        try {
            if (reader_->refresh())
                overview = std::make_shared<const RunOverview>(overviewOf(*reader_));
        } catch (const std::exception& e) {
            message = QString::fromStdString(e.what());
        }
        QMetaObject::invokeMethod(this, [this, overview, message, generation] {
            if (generation != generation_) return;
            if (!message.isEmpty()) emit failed(message);
            if (overview) emit refreshed(overview);
        });
    });
}

void RunReaderThread::requestFrame(int64_t tsNs) {
    wantedFrameNs_ = tsNs;
    if (framePending_.exchange(true)) return; // the read queued already takes the latest time
    post([this](int generation) {
        framePending_ = false;
        if (!reader_) return;
        auto result = std::make_shared<FrameResult>();
        try {
            const int64_t at = wantedFrameNs_;
            result->frame = reader_->frameAt(at);
            result->failed = reader_->failedAt(at);
        } catch (const std::exception& e) {
            const QString message = QString::fromStdString(e.what());
            QMetaObject::invokeMethod(this, [this, message, generation] {
                if (generation == generation_) emit failed(message);
            });
            return;
        }
        QMetaObject::invokeMethod(this, [this, result, generation] {
            if (generation == generation_) emit frameReady(result);
        });
    });
}

void RunReaderThread::requestHistory(Endpoint e) {
    post([this, e](int generation) {
        if (!reader_) return;
        const auto metric = e.kind == EntityKind::Gpu    ? std::optional(Metric::GpuBusy)
                            : e.kind == EntityKind::Link ? std::optional(Metric::LinkBytesPerS)
                            : e.kind == EntityKind::Storage
                                ? std::optional(Metric::StorageBytesPerS)
                                : std::nullopt;
        Series s;
        try {
            if (metric) s = reader_->history(*metric, e.index, 0, reader_->info().endNs, 2000);
        } catch (const std::exception&) {
            s = {}; // a damaged history shows no line; frames report the damage
        }
        QMetaObject::invokeMethod(this, [this, e, s, generation] {
            if (generation == generation_) emit historyReady(e, s);
        });
    });
}

void RunReaderThread::requestJobHistory(int job, std::vector<int32_t> gpus,
                                        std::vector<int32_t> sources, int64_t fromNs,
                                        int64_t toNs) {
    post([this, job, gpus = std::move(gpus), sources = std::move(sources), fromNs,
          toNs](int generation) {
        if (!reader_) return;
        Series busy, traffic;
        try {
            // To just before its end: the frame at its end has its GPUs freed.
            const int64_t endNs = toNs < 0 ? reader_->info().endNs : std::max(fromNs, toNs - 1);
            busy = reader_->meanHistory(Metric::GpuBusy, gpus, fromNs, endNs, 2000);
            traffic = reader_->sourcesHistory(sources, fromNs, endNs, 2000);
        } catch (const std::exception&) {
            busy = traffic = {}; // a damaged history shows no line; frames report the damage
        }
        QMetaObject::invokeMethod(this, [this, job, busy, traffic, generation] {
            if (generation == generation_) emit jobHistoryReady(job, busy, traffic);
        });
    });
}

void RunReaderThread::requestLinkUse(int32_t link, int64_t tsNs) {
    post([this, link, tsNs](int generation) {
        if (!reader_) return;
        std::optional<LinkUse> use;
        try {
            use = reader_->linkUse(link, tsNs);
        } catch (const std::exception&) {
            use.reset(); // damaged traffic lists nothing; frames report the damage
        }
        if (!use) return;
        QMetaObject::invokeMethod(this, [this, link, u = *use, generation] {
            if (generation == generation_) emit linkUseReady(link, u);
        });
    });
}

void RunReaderThread::requestHottestLinks(int64_t tsNs, int count, HotBy by) {
    post([this, tsNs, count, by](int generation) {
        if (!reader_) return;
        std::vector<LinkHeat> links;
        try {
            links = reader_->hottestLinks(tsNs, count, by);
        } catch (const std::exception&) {
            links.clear(); // damaged frames list nothing; the frames report the damage
        }
        QMetaObject::invokeMethod(this, [this, l = std::move(links), generation] {
            if (generation == generation_) emit hottestLinksReady(l);
        });
    });
}

} // namespace cs::app
