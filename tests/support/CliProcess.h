#pragma once
// `clusterscope` run as a user runs it, for the suites that drive the command line: its exit
// code, standard output and standard error. Each suite defines CS_BINARY (the built binary).
#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStringList>

namespace cs::test {

struct CliResult {
    int code; // -1: timed out, -2: crashed
    QByteArray out, err;
};

inline CliResult runCli(const QString& binary, const QStringList& args, int timeoutMs = 300000) {
    QProcess p;
    p.start(binary, args);
    if (!p.waitForFinished(timeoutMs)) return {-1, {}, "timeout"};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

// Standard output as one JSON object; empty when it is not one.
inline QJsonObject jsonOfOutput(const CliResult& r) {
    QJsonParseError err;
    const QJsonObject o = QJsonDocument::fromJson(r.out, &err).object();
    return err.error == QJsonParseError::NoError ? o : QJsonObject();
}

} // namespace cs::test
