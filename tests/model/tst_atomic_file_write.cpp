// writeFileAtomically: the old file or the new, never a part; the system's reason when a
// write fails; a pipe or device written in place, never renamed over.
#include "AtomicFileWrite.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/resource.h>
#include <sys/stat.h>

#include <csignal>
#include <stdexcept>

using namespace cs;

class TestAtomicFileWrite : public QObject {
    Q_OBJECT
private slots:
    void writesAndKeepsTheMode();
    void failedWriteKeepsTheOldFile();
    void devicesAreWrittenInPlace();
};

namespace {
QByteArray contents(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
mode_t modeOf(const QString& path) {
    struct stat st {};
    ::stat(path.toUtf8().constData(), &st);
    return st.st_mode;
}
} // namespace

void TestAtomicFileWrite::writesAndKeepsTheMode() {
    QTemporaryDir dir;
    const QString path = dir.filePath("a.json");
    const mode_t mask = ::umask(022);
    writeFileAtomically(path, "first");
    QCOMPARE(contents(path), QByteArray("first"));
    QCOMPARE(modeOf(path) & 07777, mode_t(0644)); // not mkstemp's 0600
    ::chmod(path.toUtf8().constData(), 0600);
    writeFileAtomically(path, "second");
    QCOMPARE(contents(path), QByteArray("second"));
    QCOMPARE(modeOf(path) & 07777, mode_t(0600)); // the replaced file's
    ::umask(mask);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"a.json"});
    // A folder that does not exist: the system's reason, naming the file.
    try {
        writeFileAtomically(dir.filePath("no/such/b.json"), "x");
        QFAIL("expected a failure");
    } catch (const std::runtime_error& e) {
        QVERIFY2(QString(e.what()).contains("no/such/b.json: No such file or directory"), e.what());
    }
}

void TestAtomicFileWrite::failedWriteKeepsTheOldFile() {
    // A file-size limit stands in for a full disk: the write past it fails (EFBIG, with
    // SIGXFSZ ignored), the old file stays whole and nothing is left beside it.
    QTemporaryDir dir;
    const QString path = dir.filePath("picture.png");
    writeFileAtomically(path, QByteArray(1000, 'o'));
    rlimit old{};
    ::getrlimit(RLIMIT_FSIZE, &old);
    const auto previous = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limited = old;
    limited.rlim_cur = 4096;
    QCOMPARE(::setrlimit(RLIMIT_FSIZE, &limited), 0);
    QString error;
    try {
        writeFileAtomically(path, QByteArray(100000, 'n'));
    } catch (const std::runtime_error& e) {
        error = e.what();
    }
    ::setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, previous);
    QVERIFY2(error.contains("picture.png: File too large"), qPrintable(error));
    QCOMPARE(contents(path), QByteArray(1000, 'o'));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"picture.png"});
}

void TestAtomicFileWrite::devicesAreWrittenInPlace() {
    writeFileAtomically("/dev/null", "discarded");
    QVERIFY(S_ISCHR(modeOf("/dev/null"))); // still the device, not a file renamed over it
    try {
        writeFileAtomically("/dev/full", "x");
        QFAIL("expected a failure");
    } catch (const std::runtime_error& e) {
        QVERIFY2(QString(e.what()).contains("/dev/full: No space left on device"), e.what());
    }
}

QTEST_APPLESS_MAIN(TestAtomicFileWrite)
#include "tst_atomic_file_write.moc"
