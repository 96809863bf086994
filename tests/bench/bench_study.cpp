// `clusterscope study` throughput: the Meta study shipped in resources/studies (RoCE against
// InfiniBand x oversubscription x placement, Llama 3 405B on 16,384 GPUs) with one worker and
// with two, variants per minute and the result file's size. Prints a table; asserts nothing.
// Run: build/release/tests/bench/bench_study [STUDY.json]
#include "BenchUtil.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

#include <cstdio>

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QString study =
        argc > 1 ? QString::fromLocal8Bit(argv[1])
                 : QStringLiteral(CS_SOURCE_DIR) + "/resources/studies/meta-roce-vs-ib.json";
    std::printf("study: %s\n\n", qPrintable(QFileInfo(study).fileName()));
    std::printf("%-6s %9s %8s %9s %14s %12s\n", "jobs", "variants", "failed", "wall s",
                "variants/min", "file KiB");
    for (const int jobs : {1, 2}) {
        QTemporaryDir dir;
        const QString out = dir.filePath("study.sqlite");
        QProcess p;
        const double t0 = bench::nowSeconds();
        p.start(CS_BINARY, {"study", study, "--out", out, "--jobs", QString::number(jobs)});
        p.waitForFinished(-1);
        const double wall = bench::nowSeconds() - t0;
        if (p.exitCode() != 0) {
            std::fprintf(stderr, "%s\n", p.readAllStandardError().constData());
            return 1;
        }
        const QByteArray text = p.readAllStandardOutput();
        const QByteArray last = text.trimmed().split('\n').last(); // "N variants: A ok, B failed…"
        int n = 0, ok = 0, failed = 0;
        std::sscanf(last.constData(), "%d variants: %d ok, %d failed", &n, &ok, &failed);
        std::printf("%-6d %9d %8d %9.1f %14.1f %12.0f\n", jobs, n, failed, wall, n / wall * 60,
                    double(QFileInfo(out).size()) / 1024);
    }
    return 0;
}
