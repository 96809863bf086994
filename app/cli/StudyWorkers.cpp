#include "StudyWorkers.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>

#include <sys/prctl.h>

#include <csignal>
#include <deque>
#include <exception>
#include <map>
#include <memory>

namespace cs::app {
namespace {

// What a worker printed: its one JSON line, or why there is none.
VariantResult resultOf(QProcess& p, int index, const QJsonObject& params, double seconds) {
    VariantResult r;
    r.index = index;
    r.params = params;
    r.seconds = seconds;
    const QList<QByteArray> lines = p.readAllStandardOutput().trimmed().split('\n');
    const QJsonObject o = QJsonDocument::fromJson(lines.value(lines.size() - 1)).object();
    if (p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0 && o.contains("ok")) {
        r.ok = o.value("ok").toBool();
        r.message = o.value("message").toString().toStdString();
        r.figures = o.value("figures").toObject();
        r.runPath = o.value("runPath").toString();
        return r;
    }
    if (p.error() == QProcess::FailedToStart) {
        r.message = "the worker could not start: " + p.errorString().toStdString();
        return r;
    }
    const QList<QByteArray> err = p.readAllStandardError().trimmed().split('\n');
    r.message =
        (p.exitStatus() == QProcess::CrashExit
             ? std::string("the worker crashed")
             : "the worker exited with code " + std::to_string(p.exitCode())) +
        (err.value(err.size() - 1).isEmpty() ? std::string()
                                             : ": " + err.value(err.size() - 1).toStdString());
    return r;
}

} // namespace

QString keptRunPath(const QString& outPath, int index) {
    QString base = outPath;
    if (base.endsWith(".sqlite")) base.chop(7);
    return base + "-runs/variant-" + QString::number(index) + ".sqlite";
}

int runStudyWorkers(const StudyWork& w, const std::vector<QJsonObject>& variants, StudyStore& store,
                    const std::function<void(int, int)>& progress) {
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

    QEventLoop loop;
    std::map<QProcess*, std::pair<int, QElapsedTimer>> running;
    int ran = 0;
    std::exception_ptr failure; // a result that could not be written stops the study
    std::function<void()> startMore = [&] {
        while (int(running.size()) < w.jobs && !pending.empty()) {
            const int index = pending.front();
            pending.pop_front();
            auto* p = new QProcess(&loop);
            // A worker does not outlive a study that was killed: its result would be lost.
            p->setChildProcessModifier([] { prctl(PR_SET_PDEATHSIG, SIGKILL); });
            QStringList args{"study",   w.studyPath, "--out",
                             w.outPath, "--variant", QString::number(index)};
            if (w.keepRuns) args << "--keep-runs";
            store.logStarted(index);
            QElapsedTimer t;
            t.start();
            running.emplace(p, std::make_pair(index, t));
            QObject::connect(p, &QProcess::finished, &loop, [&, p] {
                const auto [i, timer] = running.at(p);
                running.erase(p);
                p->deleteLater();
                try { // exceptions must not cross the event loop
                    store.record(
                        resultOf(*p, i, variants[size_t(i)], double(timer.elapsed()) / 1e3));
                    ++ran;
                    if (progress) progress(++done, total);
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
    return ran;
}

} // namespace cs::app
