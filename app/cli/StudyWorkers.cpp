#include "StudyWorkers.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>

#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <optional>

namespace cs::app {
namespace {

constexpr qsizetype kStderrTailBytes = 4096;

// What a worker printed: its one JSON line, or why there is none (then no result: the
// variant is not at fault and stays to run again).
struct WorkerOutcome {
    std::optional<VariantResult> result;
    std::string error;
};

WorkerOutcome outcomeOf(QProcess& p, int index, const QJsonObject& params, double seconds,
                        const QByteArray& stderrTail) {
    const QList<QByteArray> lines = p.readAllStandardOutput().trimmed().split('\n');
    const QJsonObject o = QJsonDocument::fromJson(lines.value(lines.size() - 1)).object();
    if (p.error() == QProcess::FailedToStart)
        return {std::nullopt, "the worker could not start: " + p.errorString().toStdString()};
    if (p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0 && o.contains("ok")) {
        // The worker read the study itself: the variant it ran must be the one asked for
        // (the study file edited while the study runs would store wrong figures).
        if (o.value("index").toInt(-1) != index || o.value("params").toObject() != params)
            throw std::runtime_error(
                "variant " + std::to_string(index) +
                ": the worker ran another variant: was the study file changed while it runs?");
        VariantResult r;
        r.index = index;
        r.params = params;
        r.seconds = seconds;
        r.ok = o.value("ok").toBool();
        r.message = o.value("message").toString().toStdString();
        r.figures = o.value("figures").toObject();
        r.runPath = o.value("runPath").toString();
        return {r, {}};
    }
    const QList<QByteArray> err = stderrTail.trimmed().split('\n');
    const std::string last = err.value(err.size() - 1).left(400).toStdString();
    return {std::nullopt, (p.exitStatus() == QProcess::CrashExit
                               ? std::string("the worker crashed")
                               : "the worker exited with code " + std::to_string(p.exitCode())) +
                              (last.empty() ? std::string() : ": " + last)};
}

} // namespace

QString keptRunPath(const QString& outPath, int index) {
    QString base = outPath;
    if (base.endsWith(".sqlite")) base.chop(7);
    return base + "-runs/variant-" + QString::number(index) + ".sqlite";
}

StudyWorkResult runStudyWorkers(const StudyWork& w, const std::vector<QJsonObject>& variants,
                                StudyStore& store, const std::function<void(int, int)>& progress) {
    const std::set<int> finished = store.finished();
    std::deque<int> pending;
    int total = 0, done = 0;
    for (int i = 0; i < int(variants.size()); ++i) {
        if (i % w.sliceCount != w.sliceIndex) continue;
        ++total;
        if (finished.count(i))
            ++done;
        else
            pending.push_back(i);
    }
    if (progress) progress(done, total);
    if (w.keepRuns && !pending.empty())
        QDir().mkpath(QFileInfo(keptRunPath(w.outPath, 0)).absolutePath());

    struct Running {
        int index = 0;
        QElapsedTimer timer;
        QByteArray stderrTail; // the last words only: a chatty worker cannot fill memory
    };
    QEventLoop loop;
    std::map<QProcess*, Running> running;
    StudyWorkResult result;
    std::exception_ptr failure; // a result that could not be written stops the study
    const pid_t parent = getpid();
    std::function<void()> startMore = [&] {
        while (int(running.size()) < w.jobs && !pending.empty()) {
            const int index = pending.front();
            pending.pop_front();
            auto* p = new QProcess(&loop);
            // A worker does not outlive a study that was killed: its result would be lost.
            p->setChildProcessModifier([parent] {
                prctl(PR_SET_PDEATHSIG, SIGKILL);
                if (getppid() != parent) _exit(1); // the study died before the line above
            });
            QStringList args{"study",   w.studyPath, "--out",
                             w.outPath, "--variant", QString::number(index)};
            if (w.keepRuns) args << "--keep-runs";
            store.logEvent(index, "started");
            Running& r = running[p];
            r.index = index;
            r.timer.start();
            QObject::connect(p, &QProcess::readyReadStandardError, &loop, [&running, p] {
                QByteArray& tail = running.at(p).stderrTail;
                tail += p->readAllStandardError();
                if (tail.size() > kStderrTailBytes) tail = tail.right(kStderrTailBytes);
            });
            QObject::connect(p, &QProcess::finished, &loop, [&, p] {
                Running r = std::move(running.at(p));
                running.erase(p);
                p->deleteLater();
                try { // exceptions must not cross the event loop
                    r.stderrTail += p->readAllStandardError();
                    const WorkerOutcome o =
                        outcomeOf(*p, r.index, variants[size_t(r.index)],
                                  double(r.timer.elapsed()) / 1e3, r.stderrTail);
                    if (o.result) {
                        store.record(*o.result);
                        ++result.ran;
                        if (progress) progress(++done, total);
                    } else {
                        store.logEvent(r.index, "error");
                        result.errors.push_back("variant " + std::to_string(r.index) + ": " +
                                                o.error);
                    }
                    if (!failure) startMore();
                } catch (...) {
                    failure = std::current_exception();
                }
                if (running.empty()) loop.quit();
            });
            QObject::connect(p, &QProcess::errorOccurred, &loop, [p](QProcess::ProcessError e) {
                // Never started: no finished signal follows.
                if (e == QProcess::FailedToStart) emit p->finished(-1);
            });
            p->start(QCoreApplication::applicationFilePath(), args);
        }
    };
    startMore();
    if (!running.empty()) loop.exec();
    if (failure) std::rethrow_exception(failure);
    return result;
}

} // namespace cs::app
