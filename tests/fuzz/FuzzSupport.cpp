#include "FuzzSupport.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>

#include <unistd.h>

namespace fuzz {

const cs::TopologyDocument& smallTopology() {
    static const auto doc = cs::openTopology("small-256", {});
    return *doc;
}

QString scratchDir() {
    static const QString dir = [] {
        const QString base = QDir("/dev/shm").exists() ? "/dev/shm" : QDir::tempPath();
        const QString d = base + "/cs-fuzz-" + QString::number(getpid());
        QDir().mkpath(d);
        return d;
    }();
    return dir;
}

QString writeScratch(const QString& name, const QByteArray& bytes) {
    const QString path = scratchDir() + "/" + name;
    QFile f(path);
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate)) f.write(bytes);
    return path;
}

} // namespace fuzz
