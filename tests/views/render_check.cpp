// cs_render_check: runs a command that renders a picture and compares the picture with a
// baseline of tests/views/baselines, under the thresholds of tst_render (ImageCompare).
//
//   cs_render_check BASELINE OUT.png -- PROGRAM ARGS...
//
// runs PROGRAM ARGS... -o OUT.png, then compares OUT.png with baselines/BASELINE.png. On a
// mismatch the picture and a diff image are kept under render-out/ in the working directory
// and their paths printed. CS_UPDATE_BASELINES=1 writes the baseline instead. Exit 0: the
// command ran and the picture matched.
#include "ImageCompare.h"

#include <QCoreApplication>
#include <QImage>
#include <QProcess>

#include <cstdio>

namespace {

int fail(const QString& why) {
    std::fprintf(stderr, "FAIL: %s\n", qPrintable(why));
    return 1;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 5 || args[3] != "--")
        return fail("usage: cs_render_check BASELINE OUT.png -- PROGRAM ARGS...");
    const QString baseline = args[1], picture = args[2];
    if (qEnvironmentVariableIsEmpty("DISPLAY"))
        return fail("rendering needs an X server: run under xvfb-run -a -s \"-screen 0 "
                    "1920x1080x24\"");

    QProcess render;
    render.setProcessChannelMode(QProcess::ForwardedChannels);
    render.start(args[4], args.mid(5) + QStringList{"-o", picture});
    if (!render.waitForStarted()) return fail("cannot start " + args[4]);
    render.waitForFinished(-1);
    if (render.exitStatus() != QProcess::NormalExit || render.exitCode() != 0)
        return fail(QStringLiteral("%1 %2 exited with %3")
                        .arg(args[4], args.mid(5).join(' '))
                        .arg(render.exitCode()));

    const QImage image(picture);
    if (image.isNull()) return fail("the command wrote no picture to " + picture);
    const QString problem = cs::test::checkAgainstBaseline(image, baseline);
    if (!problem.isEmpty()) return fail(problem);
    std::printf("%s matches baseline %s\n", qPrintable(picture), qPrintable(baseline));
    return 0;
}
