#include "DefaultRun.h"

#include "RunOptions.h"
#include "RunSpecJson.h"
#include "SimulationRun.h"
#include "TopologyFingerprint.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QThread>

namespace cs::app {
namespace {
struct Cancelled {};
} // namespace

RunSpec defaultRunSpec405b() {
    RunSpec s = defaultRunSpec();
    s.model = "llama3-405b";
    s.gpu = "h100-sxm";
    s.parallel.tp = 8, s.parallel.cp = 1, s.parallel.pp = 16, s.parallel.dp = 128;
    s.steps = 3;
    return s;
}

QString defaultRunCachePath(const RunSpec& spec, const TopologyDocument& doc) {
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(QJsonDocument(runSpecToJson(spec)).toJson(QJsonDocument::Compact));
    h.addData(QByteArray::number(qulonglong(topologyFingerprint(doc.topology()))));
    h.addData(CS_VERSION);
    h.addData(QByteArray::number(kEngineRevision));
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    return QDir(dir).filePath(QStringLiteral("default-run-%1.sqlite")
                                  .arg(QString::fromLatin1(h.result().toHex().left(16))));
}

QStringList pruneDefaultRunCache(const QString& dir, int keep) {
    const QFileInfoList entries =
        QDir(dir).entryInfoList({QStringLiteral("default-run-*.sqlite")}, QDir::Files, QDir::Time);
    QStringList removed;
    for (qsizetype i = keep; i < entries.size(); ++i) // newest first
        if (QFile::remove(entries[i].absoluteFilePath())) {
            QFile::remove(entries[i].absoluteFilePath() + "-wal");
            QFile::remove(entries[i].absoluteFilePath() + "-shm");
            removed << entries[i].absoluteFilePath();
        }
    return removed;
}

BackgroundSimulation::BackgroundSimulation(const TopologyDocument& doc, RunSpec spec, QString path,
                                           QObject* parent)
    : QObject(parent), doc_(doc), spec_(std::move(spec)), path_(std::move(path)) {}

BackgroundSimulation::~BackgroundSimulation() {
    cancel_ = true;
    if (thread_) {
        thread_->wait();
        delete thread_;
    }
}

void BackgroundSimulation::start() {
    thread_ = QThread::create([this] {
        const QString part = path_ + ".part";
        try {
            QDir().mkpath(QFileInfo(path_).absolutePath());
            QFile::remove(part);
            {
                RunStore store = RunStore::openForWriting(part);
                simulateRun(doc_, spec_, &store, [this](double f) {
                    if (cancel_) throw Cancelled{};
                    QMetaObject::invokeMethod(this, [this, f] { emit progress(f); });
                });
                store.checkpoint(); // one file, no write-ahead log beside it
            }
            QFile::remove(path_);
            if (!QFile::rename(part, path_))
                throw std::runtime_error("cannot write " + path_.toStdString());
            pruneDefaultRunCache(QFileInfo(path_).absolutePath());
            QMetaObject::invokeMethod(this, [this] { emit finished(path_); });
        } catch (const Cancelled&) {
            QFile::remove(part);
        } catch (const std::exception& e) {
            QFile::remove(part);
            const QString message = QString::fromStdString(e.what());
            QMetaObject::invokeMethod(this, [this, message] { emit failed(message); });
        }
    });
    thread_->start();
}

} // namespace cs::app
