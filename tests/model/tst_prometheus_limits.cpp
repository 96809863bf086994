// The bounds of a Prometheus import, against servers that misbehave as a real Prometheus does
// not (the real server's happy paths are in tst_prometheus_import): a large answer is read as
// it arrives, in memory for its samples rather than its bytes; a range too large is refused
// before any request; an answer too large, one that trickles in, a series count that is no
// count, garbage, a connection reset half way and a failing server end the import with a
// reason; impossible values are reported and dropped; retries back off, and an answer cut off
// and asked again counts its samples once.
#include "InputError.h"
#include "PrometheusSource.h"
#include "TopologyDocument.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <functional>

using namespace cs;

namespace {

// A one-thread HTTP server whose answer to each request `respond` writes to the socket; it
// runs while the import waits in its own event loop.
class HostileServer {
public:
    using Respond = std::function<void(QTcpSocket*, const QByteArray& requestLine)>;
    explicit HostileServer(Respond respond) : respond_(std::move(respond)) {
        server_.listen(QHostAddress::LocalHost);
        QObject::connect(&server_, &QTcpServer::newConnection, &server_, [this] {
            while (QTcpSocket* s = server_.nextPendingConnection()) {
                auto request = std::make_shared<QByteArray>();
                QObject::connect(s, &QTcpSocket::readyRead, s, [this, s, request] {
                    *request += s->readAll();
                    if (!request->contains("\r\n\r\n")) return;
                    times_.push_back(clock_.elapsed());
                    respond_(s, request->left(request->indexOf("\r\n")));
                    request->clear();
                });
            }
        });
        clock_.start();
    }
    QUrl url() const { return QUrl(QString("http://127.0.0.1:%1").arg(server_.serverPort())); }
    const std::vector<qint64>& requestTimesMs() const { return times_; }

private:
    QTcpServer server_;
    Respond respond_;
    QElapsedTimer clock_;
    std::vector<qint64> times_;
};

void answer(QTcpSocket* s, int status, const QByteArray& body) {
    s->write("HTTP/1.1 " + QByteArray::number(status) +
             " X\r\nContent-Type: application/json\r\nContent-Length: " +
             QByteArray::number(body.size()) + "\r\n\r\n" + body);
}

// The process's peak resident memory since the last reset (Linux's VmHWM), in MiB.
double peakResidentMiB() {
    QFile status("/proc/self/status");
    if (!status.open(QIODevice::ReadOnly)) return -1;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("VmHWM:")) return line.mid(6).trimmed().split(' ')[0].toDouble() / 1024;
    return -1;
}
bool resetPeakResident() {
    QFile refs("/proc/self/clear_refs");
    return refs.open(QIODevice::WriteOnly) && refs.write("5") == 1;
}

// A range answer of one series of `points` points at 1 s steps from 1,700,000,000, for
// `host`'s GPU 0.
QByteArray rangeAnswer(const std::string& host, int points) {
    QByteArray values;
    for (int k = 0; k < points; ++k)
        values += (k ? "," : "") + QByteArray("[") + QByteArray::number(1'700'000'000 + k) + ",\"" +
                  QByteArray::number(k % 100) + "\"]";
    return R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"DCGM_FI_DEV_GPU_UTIL","Hostname":")" +
           QByteArray::fromStdString(host) + R"(","gpu":"0"},"values":[)" + values + "]}]}}";
}

// Counts of 1 series for the first metric and none for the others.
void countOne(QTcpSocket* s, const QByteArray& line);

const QByteArray kCount100 =
    R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"100"]}]}})";

void countOne(QTcpSocket* s, const QByteArray& line) {
    answer(
        s, 200,
        line.contains("DCGM_FI_DEV_GPU_UTIL")
            ? R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"1"]}]}})"
            : R"({"status":"success","data":{"resultType":"vector","result":[]}})");
}

} // namespace

class TestPrometheusLimits : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { doc_ = openTopology("small-256", {}); }
    void largeAnswersAreReadAsTheyArrive();
    void paddedAnswersAreRefused();
    void hostileAnswersEndWithAReason_data();
    void hostileAnswersEndWithAReason();
    void answersCutOffAndAskedAgainCountOnce();
    void rangesTooLargeAreRefusedBeforeAnyRequest();
    void answersTooLargeAreRefused();
    void tricklingAnswersMeetTheDeadline();
    void seriesCountsThatAreNoCountAreRefused();
    void failingServersAreRetriedWithBackoff();

private:
    // The import's message, or empty when it succeeded (its report in `report`).
    QString importFrom(const PrometheusQuery& q, ImportReport* report = nullptr) {
        QFile::remove(dir_.filePath("run.sqlite"));
        RunStore store = RunStore::openForWriting(dir_.filePath("run.sqlite"));
        try {
            const ImportReport r = importPrometheus(*doc_, q, {}, store);
            if (report) *report = r;
        } catch (const InputException& e) {
            return QString::fromStdString(e.error().file + ": " + e.error().message);
        }
        return {};
    }
    PrometheusQuery query(const QUrl& server) const {
        PrometheusQuery q;
        q.server = server;
        q.startS = 1'700'000'000;
        q.endS = q.startS + 600;
        return q;
    }
    QTemporaryDir dir_;
    std::unique_ptr<TopologyDocument> doc_;
};

void TestPrometheusLimits::largeAnswersAreReadAsTheyArrive() {
    // One series of 601 points, then 100 series without a name (refused, nothing kept), each
    // with a label of 900 KiB: an answer of 88 MiB, sent a series at a time as the socket
    // drains, so that the server's own buffer stays small. The import's peak memory grows by
    // far less than the answer.
    constexpr int kPadSeries = 100;
    const QByteArray whole = rangeAnswer(doc_->topology().hosts[0].name, 601);
    const qsizetype split = whole.indexOf("]}}"); // after the result's first series
    const QByteArray pad =
        R"(,{"metric":{"pad":")" + QByteArray(900 << 10, 'x') + R"("},"values":[]})";
    const qint64 bodyBytes = whole.size() + qint64(kPadSeries) * pad.size();
    HostileServer server([&](QTcpSocket* s, const QByteArray& line) {
        if (line.contains("/query?")) return countOne(s, line);
        s->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
                 QByteArray::number(bodyBytes) + "\r\n\r\n" + whole.left(split));
        auto padsLeft = std::make_shared<int>(kPadSeries);
        auto more = [s, padsLeft, &pad, tail = whole.mid(split)] {
            if (s->bytesToWrite() > (1 << 20) || *padsLeft < 0) return;
            if ((*padsLeft)-- > 0)
                s->write(pad);
            else
                s->write(tail);
        };
        QObject::connect(s, &QTcpSocket::bytesWritten, s, more);
        more();
    });
    PrometheusQuery q = query(server.url());
    q.maxAnswerBytes = 512LL << 20;
    QVERIFY(resetPeakResident());
    const double beforeMiB = peakResidentMiB();
    ImportReport report;
    const QString m = importFrom(q, &report);
    const double growthMiB = peakResidentMiB() - beforeMiB;
    QVERIFY2(m.isEmpty(), qPrintable(m));
    QCOMPARE(report.samples, 601LL);
    QCOMPARE(report.rejectedCount, qlonglong(kPadSeries));
    qInfo("a %lld MiB answer: peak memory grew by %.1f MiB", bodyBytes >> 20, growthMiB);
    QVERIFY2(growthMiB < 24, qPrintable(QString("grew by %1 MiB").arg(growthMiB)));
}

void TestPrometheusLimits::paddedAnswersAreRefused() {
    // 8 MiB of whitespace inside an answer: a run the parser would keep whole.
    const QByteArray whole = rangeAnswer(doc_->topology().hosts[0].name, 601);
    const qsizetype split = whole.indexOf("]}]}}");
    HostileServer server([&](QTcpSocket* s, const QByteArray& line) {
        if (line.contains("/query?")) return countOne(s, line);
        answer(s, 200, whole.left(split) + QByteArray(8 << 20, ' ') + whole.mid(split));
    });
    const QString m = importFrom(query(server.url()));
    QVERIFY2(m.contains("a string, number or run of other bytes longer than 1 MiB"), qPrintable(m));
}

void TestPrometheusLimits::hostileAnswersEndWithAReason_data() {
    QTest::addColumn<QByteArray>("body"); // the range answer
    QTest::addColumn<bool>("reset");      // the connection closed half way through it
    QTest::addColumn<QString>("message"); // the import's message; empty: it imports
    QTest::addColumn<int>("impossible");  // samples reported impossible and dropped
    const QByteArray good = rangeAnswer("HOST", 601);
    QTest::newRow("garbage") << QByteArray("<html><body>502 Bad Gateway</body></html>") << false
                             << "the answer is not a Prometheus API answer" << 0;
    QTest::newRow("reset") << good << true
                           << "the server closed the connection before its answer was whole, "
                              "after 3 tries"
                           << 0;
    // -Inf and -40 % are impossible readings; NaN is Prometheus's "no sample", +Inf DCGM's
    // blank: both missing, not impossible.
    QByteArray odd = good;
    odd.replace("[1700000005,\"5\"]", "[1700000005,\"-Inf\"]")
        .replace("[1700000007,\"7\"]", "[1700000007,\"NaN\"]")
        .replace("[1700000009,\"9\"]", "[1700000009,\"-40\"]")
        .replace("[1700000011,\"11\"]", "[1700000011,\"+Inf\"]");
    QTest::newRow("-Inf, -40, NaN and +Inf") << odd << false << QString() << 2;
}

void TestPrometheusLimits::hostileAnswersEndWithAReason() {
    QFETCH(QByteArray, body);
    QFETCH(bool, reset);
    QFETCH(QString, message);
    QFETCH(int, impossible);
    body.replace("HOST", QByteArray::fromStdString(doc_->topology().hosts[0].name));
    HostileServer server([&](QTcpSocket* s, const QByteArray& line) {
        if (line.contains("/query?")) return countOne(s, line);
        if (!reset) return answer(s, 200, body);
        s->write("HTTP/1.1 200 OK\r\nContent-Length: " + QByteArray::number(body.size()) +
                 "\r\n\r\n" + body.left(body.size() / 2));
        s->flush();
        s->abort();
    });
    PrometheusQuery q = query(server.url());
    q.retryBackoffS = 0.05;
    ImportReport report;
    QElapsedTimer clock;
    clock.start();
    const QString m = importFrom(q, &report);
    QVERIFY(clock.elapsed() < 10000);
    if (message.isEmpty()) {
        QVERIFY2(m.isEmpty(), qPrintable(m));
        QCOMPARE(report.impossibleValues, qlonglong(impossible));
        QCOMPARE(report.samples, 601LL);
        QVERIFY(!report.warnings.empty());
        QVERIFY2(
            QString::fromStdString(report.warnings.front()).contains("-inf is outside 0 to 100"),
            report.warnings.front().c_str());
        return;
    }
    QVERIFY2(m.contains(message), qPrintable(m));
    // Nothing of the refused import is stored.
    QCOMPARE(int(RunStore::openForReading(dir_.filePath("run.sqlite")).runs().size()), 0);
}

void TestPrometheusLimits::answersCutOffAndAskedAgainCountOnce() {
    // The first answer stops half way and stalls past the deadline; the second try is whole.
    // The samples of the first are dropped, not counted twice.
    const QByteArray whole = rangeAnswer(doc_->topology().hosts[0].name, 601);
    int ranges = 0;
    HostileServer server([&](QTcpSocket* s, const QByteArray& line) {
        if (line.contains("/query?")) return countOne(s, line);
        if (++ranges > 1) return answer(s, 200, whole);
        s->write("HTTP/1.1 200 OK\r\nContent-Length: " + QByteArray::number(whole.size()) +
                 "\r\n\r\n" + whole.left(whole.size() / 2));
    });
    PrometheusQuery q = query(server.url());
    q.requestDeadlineS = 1;
    q.retryBackoffS = 0.1;
    ImportReport report;
    const QString m = importFrom(q, &report);
    QVERIFY2(m.isEmpty(), qPrintable(m));
    QCOMPARE(ranges, 2);
    QCOMPARE(report.samples, 601LL);
}

void TestPrometheusLimits::rangesTooLargeAreRefusedBeforeAnyRequest() {
    HostileServer server([](QTcpSocket* s, const QByteArray&) { answer(s, 200, kCount100); });
    PrometheusQuery q = query(server.url());
    q.startS = 0;
    q.endS = 2'000'000'000;
    q.stepS = 0.001;
    const QString m = importFrom(q);
    QVERIFY2(m.contains("2000000000001 points per series at a step of 0.001 s; at most 10000000"),
             qPrintable(m));
    QVERIFY2(m.contains("use a step of at least 200 s, or a range of at most 10000 s"),
             qPrintable(m));
    QVERIFY(server.requestTimesMs().empty());
}

void TestPrometheusLimits::answersTooLargeAreRefused() {
    // 3 MiB where 1 MiB is the limit: refused as it arrives.
    HostileServer server([](QTcpSocket* s, const QByteArray& line) {
        if (line.contains("/query?"))
            answer(s, 200, kCount100);
        else
            answer(s, 200, QByteArray(3 << 20, ' '));
    });
    PrometheusQuery q = query(server.url());
    q.maxAnswerBytes = 1 << 20;
    const QString m = importFrom(q);
    QVERIFY2(m.contains("an answer larger than 1 MiB (the limit per answer)"), qPrintable(m));
}

void TestPrometheusLimits::tricklingAnswersMeetTheDeadline() {
    // A byte every 100 ms never trips the silence timeout; the deadline per request ends it.
    HostileServer server([](QTcpSocket* s, const QByteArray&) {
        s->write("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n");
        auto* drip = new QTimer(s);
        QObject::connect(drip, &QTimer::timeout, s, [s] { s->write(" "); });
        drip->start(100);
    });
    PrometheusQuery q = query(server.url());
    q.timeoutS = 1;
    q.requestDeadlineS = 1.5;
    q.retries = 0;
    QElapsedTimer clock;
    clock.start();
    const QString m = importFrom(q);
    QVERIFY2(m.contains("no whole answer within 1.5 s (the deadline per request), after 1 tries"),
             qPrintable(m));
    QVERIFY(clock.elapsed() < 10000);
}

void TestPrometheusLimits::seriesCountsThatAreNoCountAreRefused() {
    HostileServer server([](QTcpSocket* s, const QByteArray&) {
        answer(
            s, 200,
            R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"-5"]}]}})");
    });
    const QString m = importFrom(query(server.url()));
    QVERIFY2(m.contains("counted \"-5\" series of DCGM_FI_DEV_GPU_UTIL, which is not a count"),
             qPrintable(m));
    QCOMPARE(server.requestTimesMs().size(), size_t(1)); // not one request per step
}

void TestPrometheusLimits::failingServersAreRetriedWithBackoff() {
    HostileServer server([](QTcpSocket* s, const QByteArray&) {
        answer(s, 500, R"({"status":"error","error":"overloaded"})");
    });
    PrometheusQuery q = query(server.url());
    q.retries = 3;
    q.retryBackoffS = 0.2;
    const QString m = importFrom(q);
    QVERIFY2(m.contains("overloaded"), qPrintable(m));
    const std::vector<qint64>& at = server.requestTimesMs();
    QCOMPARE(at.size(), size_t(4));        // the first try and three retries
    for (size_t i = 1; i < at.size(); ++i) // waits of 0.2, 0.4 and 0.8 s
        QVERIFY2(at[i] - at[i - 1] >= 200 * (1 << (i - 1)) - 20,
                 qPrintable(QString("retry %1 after %2 ms").arg(i).arg(at[i] - at[i - 1])));
}

QTEST_GUILESS_MAIN(TestPrometheusLimits)
#include "tst_prometheus_limits.moc"
