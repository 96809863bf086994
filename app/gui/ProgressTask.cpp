#include "ProgressTask.h"

#include "DialogMessage.h"

#include <QEventLoop>
#include <QProgressDialog>
#include <QThread>

#include <atomic>

namespace cs::app {

namespace {
struct Cancelled {};
} // namespace

ProgressOutcome
runWithProgressDialog(QWidget* parent, const QString& label,
                      const std::function<void(std::function<void(double)>)>& work) {
    QProgressDialog progress(label, QObject::tr("Cancel"), 0, 1000, parent);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(0);
    std::atomic<bool> cancel{false};
    ProgressOutcome out;
    QThread* worker = QThread::create([&] {
        try {
            work([&](double f) {
                if (cancel) throw Cancelled{};
                QMetaObject::invokeMethod(
                    &progress, [&progress, f] { progress.setValue(int(f * 1000)); },
                    Qt::QueuedConnection);
            });
            out.done = true;
        } catch (const Cancelled&) {
        } catch (const std::exception& e) {
            out.error = dialogMessage(e);
        }
    });
    QEventLoop loop;
    QObject::connect(worker, &QThread::finished, &loop, &QEventLoop::quit);
    QObject::connect(&progress, &QProgressDialog::canceled, &loop, [&] { cancel = true; });
    worker->start();
    loop.exec();
    worker->wait();
    delete worker;
    out.cancelled = cancel; // closing the progress dialog emits canceled()
    QObject::disconnect(&progress, nullptr, nullptr, nullptr);
    progress.close();
    return out;
}

} // namespace cs::app
