// The GUI shell: opening presets and files, selection linking tree and inspector, and a bad
// file that leaves the open topology untouched.
#include "AboutDialog.h"
#include "BillOfMaterials.h"
#include "BomReport.h"
#include "CameraBookmarks.h"
#include "CollectiveChart.h"
#include "CollectivesDock.h"
#include "CommandArgs.h"
#include "ComparisonController.h"
#include "ComparisonTableModel.h"
#include "DefaultRun.h"
#include "DesignDock.h"
#include "DesignSaveDialog.h"
#include "Duration.h"
#include "GpuRoles.h"
#include "GuiOptions.h"
#include "HelpMenu.h"
#include "LiveRecording.h"
#include "MainWindow.h"
#include "PlaybackClock.h"
#include "PriceTable.h"
#include "PrometheusImportDialog.h"
#include "PrometheusServer.h"
#include "ReplayController.h"
#include "RunChartsWidget.h"
#include "RunReader.h"
#include "SimulationDialog.h"
#include "SimulationRun.h"
#include "StageGantt.h"
#include "StageGanttWidget.h"
#include "StepBreakdownChart.h"
#include "TelemetryGenerator.h"
#include "TelemetryImportDialog.h"
#include "TelemetryImporter.h"
#include "TimelineWidget.h"
#include "ViewControls.h"
#include "ViewStateJson.h"
#include "VtkViewWidget.h"

#include "VtkSurfaceFormat.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QTimeZone>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <cmath>
#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <QItemSelectionModel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QScrollBar>
#include <QSet>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <QTreeView>
#include <functional>
#include <sys/stat.h>

#include <qcustomplot.h>

using cs::app::MainWindow;

namespace {
// Llama 3 8B on all 256 GPUs of small-256: TP 8, PP 4, DP 8.
cs::RunSpec smallRunSpec() {
    cs::RunSpec spec;
    spec.model = "llama3-8b";
    spec.parallel.tp = 8, spec.parallel.pp = 4, spec.parallel.dp = 8;
    return spec;
}
// What the Simulate dialog that `open` brings up shows: its DP size and model (then closed).
std::pair<QString, QString> simulateDialogShows(const std::function<void()>& open) {
    QString dp, model;
    QTimer::singleShot(0, [&] {
        auto* d = qobject_cast<cs::app::SimulationDialog*>(QApplication::activeModalWidget());
        if (!d) return;
        if (auto* e = d->findChild<QLineEdit*>("parallel.dp")) dp = e->text();
        if (auto* c = d->findChild<QComboBox*>("model")) model = c->currentText();
        d->reject();
    });
    open();
    return {dp, model};
}
// A window on screen at a fixed size, as the presentation tests need it drawn.
// The keys a session's JSON holds, at any depth, that docs/user/presentation.md's table of
// session keys does not name.
QStringList sessionKeysNotDocumented(const QJsonValue& session) {
    QFile doc(CS_SOURCE_DIR "/docs/user/presentation.md");
    if (!doc.open(QIODevice::ReadOnly)) return {"(docs/user/presentation.md unread)"};
    const QString text = QString::fromUtf8(doc.readAll());
    const QString table = text.mid(text.indexOf("### The session file's keys"));
    QStringList missing;
    std::function<void(const QJsonValue&)> walk = [&](const QJsonValue& v) {
        if (v.isArray())
            for (const QJsonValue& x : v.toArray())
                walk(x);
        if (!v.isObject()) return;
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (!table.contains("`" + it.key() + "`")) missing << it.key();
            if (it.key() != "design") walk(it.value()); // a design file's own fields
        }
    };
    walk(session);
    return missing;
}
QStringList sessionKeysNotDocumented(const QString& sessionPath) {
    QFile saved(sessionPath);
    if (!saved.open(QIODevice::ReadOnly)) return {"(session unread)"};
    return sessionKeysNotDocumented(QJsonDocument::fromJson(saved.readAll()).object());
}

bool showAt900x600(MainWindow& w) {
    w.resize(900, 600);
    w.show();
    return QTest::qWaitForWindowExposed(&w);
}
// `steps` simulated steps of smallRunSpec() on the window's topology, stored at `path`.
QString simulateSmallRun(const MainWindow& w, const QString& path, int steps) {
    cs::RunSpec spec = smallRunSpec();
    spec.steps = steps;
    cs::RunStore s = cs::RunStore::openForWriting(path);
    cs::simulateRun(*w.document(), spec, &s);
    return path;
}
// What the Prometheus tests load into their server: 5 minutes of 2 hosts, as OpenMetrics.
cs::TelemetryGeneratorParams fiveMinutesOfTwoHosts() {
    cs::TelemetryGeneratorParams p;
    p.durationS = 300;
    p.maxHosts = 2;
    p.openMetrics = true;
    return p;
}
} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void opensPresetAndSelects();
    void badFileKeepsCurrentTopology();
    void foreignFabricSaysWhatWasInferred();
    void savesAScreenshotOfTheViewAtTheAskedSize();
    void exportsAMovieOfTheOpenRun();
    void sessionReopensCameraTimeAndSelection();
    void theViewHasHalfTheWindowAtStart();
    void presentationHidesChromeAndCaptionsTheView();
    void cameraTourVisitsTheBookmarks();
    void aboutNamesVersions();
    void helpListsTheKeysAndFindsTheGuide();
    void windowAndDocksAreRemembered();
    void aSelectedLinkListsWhatCrossesIt();
    void importsTelemetryFilesAfterAPreview();
    void searchSelectsAndFrames_data();
    void searchSelectsAndFrames();
    void clickInViewSelectsInTree();
    void bookmarksRoundTrip();
    void layoutSwitchKeepsSelection();
    void simulationDialogChecksTheForm();
    void simulationRunsOffTheGuiThreadAndOpensInTheView();
    void replayFollowsTheClockAndKeys();
    void replayOutlinesFailuresAndShowsLiveValues();
    void viewFlagsSetTheToolbar();
    void hostileStoresAreRefusedAndTheWindowStaysUsable();
    void simulatedRunsAreKeptAndReopened();
    void recordedRunsShowTheirDateAndTime();
    void importsFromAPrometheusServer();
    void recordsLiveFromAPrometheusServer();
    void atOpensARunAtAnOffsetOrADate_data();
    void atOpensARunAtAnOffsetOrADate();
    void runDescriptionFillsTheSimulateDialog();
    void defaultRunPlaysAndIsCached();
    void defaultRunCacheKeepsTheNewest();
    void comparisonShowsTwoRunsSideBySide();
    void designDockChangesTheFabricAndResimulates();
    void designFaultsAreMarkedAndKept();
};

void TestMainWindow::opensPresetAndSelects() {
    MainWindow w;
    QVERIFY(w.openSource("preset:small-256", false));
    QCOMPARE(w.document()->topology().gpus.size(), size_t(256));
    QVERIFY(w.windowTitle().contains("small-256"));
    QVERIFY(w.selectById("demo.pod1.rack2.host0.gpu4"));
    QCOMPARE(w.treeView()->currentIndex().data(Qt::ToolTipRole).toString(),
             QString("demo.pod1.rack2.host0.gpu4"));
    auto* table = w.findChild<QTableView*>("inspectorTable");
    QVERIFY(table);
    QCOMPARE(table->model()->index(0, 1).data().toString(), QString("demo.pod1.rack2.host0.gpu4"));
    QVERIFY(!w.selectById("no.such.thing"));
    // The Summary tab: the figures, then the bill of materials as `clusterscope bom` prints it.
    auto* summary = w.findChild<QPlainTextEdit*>("summary");
    const QString bom = QString::fromStdString(cs::bomToText(
        cs::billOfMaterials(w.document()->topology(), w.document()->index(), cs::shippedPrices())));
    QTRY_VERIFY(summary->toPlainText().contains(bom));
    QVERIFY(summary->toPlainText().startsWith("topology"));
    // Shown, the Summary is wide enough for its lines: no scrolling sideways to read them.
    w.resize(1500, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(summary->horizontalScrollBar()->maximum() > 0); // under the Inspector: narrow
    w.findChild<QDockWidget*>("summaryDock")->raise();
    QTRY_COMPARE(summary->horizontalScrollBar()->maximum(), 0);
    QVERIFY(w.findChild<QDockWidget*>("summaryDock")->width() <= w.width() / 2);
}

void TestMainWindow::badFileKeepsCurrentTopology() {
    MainWindow w;
    QVERIFY(w.openSource("preset:small-256", false));
    QTemporaryDir dir;
    QFile f(dir.filePath("bad.json"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{ not json");
    f.close();
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression("bad.json:1:"));
    QVERIFY(!w.openSource(f.fileName(), false));
    QCOMPARE(w.document()->topology().name, std::string("small-256"));
}

void TestMainWindow::foreignFabricSaysWhatWasInferred() {
    MainWindow w;
    QVERIFY(w.openSource(CS_SOURCE_DIR "/tests/fixtures/real/ibsim-net-examples-net.txt", false));
    auto* summary = w.findChild<QPlainTextEdit*>("summary");
    QVERIFY(summary);
    const QString text = summary->toPlainText();
    QVERIFY2(text.contains("inferred (the file does not say") && text.contains("switchTiers"),
             qPrintable(text));
    QVERIFY(text.contains("pod oversubscription       not applicable"));
    QVERIFY(w.selectById("Hca1"));
    auto* table = w.findChild<QTableView*>("inspectorTable");
    QStringList rows;
    for (int r = 0; r < table->model()->rowCount(); ++r)
        rows << table->model()->index(r, 0).data().toString();
    QVERIFY2(rows.contains("inferred: racks") && rows.contains("inferred: gpusPerHost"),
             qPrintable(rows.join(", ")));
}

void TestMainWindow::savesAScreenshotOfTheViewAtTheAskedSize() {
    MainWindow w;
    QVERIFY(showAt900x600(w));
    QVERIFY(w.openSource("preset:small-256", false));
    QVERIFY(w.selectById("demo.pod1.rack2"));
    QTemporaryDir dir;
    const QString path = dir.filePath("shot.png");
    QVERIFY(w.saveScreenshot(path, QSize(1000, 500), false));
    const QImage img(path);
    QCOMPARE(img.size(), QSize(1000, 500));
    // The scene is drawn, with the selection's white outline, not an empty background.
    int white = 0;
    QSet<QRgb> colours;
    for (int y = 0; y < img.height(); y += 2)
        for (int x = 0; x < img.width(); x += 2) {
            colours.insert(img.pixel(x, y));
            white += img.pixel(x, y) == qRgb(255, 255, 255);
        }
    QVERIFY2(colours.size() > 50, qPrintable(QString::number(colours.size())));
    QVERIFY(white > 20);
    QVERIFY(!w.saveScreenshot("/proc/no/such/dir/shot.png", QSize(100, 100), false));
    // The same view as a glTF scene.
    const QString gltf = dir.filePath("scene.gltf");
    QVERIFY(w.exportScene(gltf, false));
    QFile f(gltf);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(!QJsonDocument::fromJson(f.readAll()).object()["meshes"].toArray().isEmpty());
}

void TestMainWindow::exportsAMovieOfTheOpenRun() {
    MainWindow w;
    QVERIFY(showAt900x600(w));
    QVERIFY(w.openSource("preset:small-256", false));
    QTemporaryDir dir;
    const QString store = simulateSmallRun(w, dir.filePath("run.sqlite"), 2);
    cs::views::MovieRequest r;
    r.out = dir.filePath("run.webm");
    r.size = QSize(320, 180);
    r.fps = 5;
    r.toNs = 2'000'000'000;
    QVERIFY(!w.exportMovie(r, false)); // no run open yet
    QVERIFY(w.openRun(store, false));
    QVERIFY(w.exportMovie(r, false));
    QProcess probe;
    probe.start("ffprobe",
                {"-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                 "stream=width,height,nb_read_frames", "-of", "csv=p=0", r.out});
    QVERIFY(probe.waitForFinished(60000));
    QCOMPARE(QString::fromUtf8(probe.readAllStandardOutput()).trimmed(), QString("320,180,10"));
    // Refused before anything is written: an odd size.
    r.out = dir.filePath("odd.mp4");
    r.size = QSize(321, 180);
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression("even width and height"));
    QVERIFY(!w.exportMovie(r, false));
    QVERIFY(!QFileInfo::exists(r.out));
}

void TestMainWindow::sessionReopensCameraTimeAndSelection() {
    QTemporaryDir dir;
    const QString store = dir.filePath("run.sqlite"), session = dir.filePath("s.clusterscope");
    cs::views::CameraPose pose{};
    {
        MainWindow w;
        QVERIFY(showAt900x600(w));
        QVERIFY(w.openSource("preset:small-256", false));
        simulateSmallRun(w, store, 2);
        QVERIFY(w.openRun(store, false));
        w.viewControls()->layoutBox()->setCurrentIndex(1); // fabric
        w.viewControls()->aggregateBox()->setCurrentIndex(2);
        QCOMPARE(w.view()->scene().aggregate(), cs::Aggregate::Min);
        w.viewControls()->labelsAction()->trigger(); // View > Show Labels: off
        QVERIFY(!w.view()->state().labels);
        QVERIFY(w.selectById("demo.pod1.rack2.host0.gpu4"));
        pose = {{120, -340, 260}, {30, 40, 5}, {0, 0, 1}};
        w.view()->setCameraPose(pose);
        w.replay()->clock()->seek(1'250'000'000);
        QVERIFY(w.saveSession(session, false));
    }
    // The file holds the run relative to itself.
    QFile f(session);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray saved = f.readAll();
    QVERIFY(saved.contains("\"run\": \"run.sqlite\""));
    QVERIFY(saved.contains("\"aggregate\": \"min\""));
    QCOMPARE(sessionKeysNotDocumented(session), QStringList());
    // A bookmark as the session's list holds one.
    QCOMPARE(sessionKeysNotDocumented(QJsonArray{cs::views::bookmarkToJson(
                 {"mark", cs::LayoutKind::Fabric, {{1, 2, 3}, {4, 5, 6}, {0, 0, 1}}})}),
             QStringList());
    // Reopened as a user would, from the command line.
    const cs::app::GuiOptions o = cs::app::parseGuiOptions({"gui", session});
    QCOMPARE(o.session, session);
    MainWindow w2;
    QVERIFY(showAt900x600(w2));
    QCOMPARE(cs::app::openFromOptions(w2, o), QString());
    QCOMPARE(w2.runPath(), store);
    QCOMPARE(w2.replay()->clock()->nowNs(), int64_t(1'250'000'000));
    QCOMPARE(w2.viewControls()->layoutBox()->currentIndex(), 1);
    QCOMPARE(w2.viewControls()->aggregateBox()->currentText(), QString("Min"));
    QCOMPARE(w2.view()->scene().aggregate(), cs::Aggregate::Min);
    QVERIFY(!w2.viewControls()->labelsAction()->isChecked());
    w2.view()->update();
    QTRY_VERIFY(w2.view()->scene().labelTexts().empty()); // the view names nothing
    QCOMPARE(w2.treeView()->currentIndex().data(Qt::ToolTipRole).toString(),
             QString("demo.pod1.rack2.host0.gpu4"));
    const cs::views::CameraPose back = w2.view()->cameraPose();
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(back.position[i], pose.position[i]);
        QCOMPARE(back.focalPoint[i], pose.focalPoint[i]);
    }
    // A damaged session is refused with its line; the window keeps what it shows.
    QFile bad(dir.filePath("bad.clusterscope"));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("{\"format\": \"clusterscope-session\", \"version\": 1,\n \"topology\": 7}\n");
    bad.close();
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression("bad.clusterscope:2:.*topology"));
    QVERIFY(!w2.openSession(bad.fileName(), false));
    QCOMPARE(w2.runPath(), store);
    // A pipe named as the session's run, or as the session itself, is refused at once (a
    // pipe would block the window until something writes to it).
    const QString pipe = dir.filePath("pipe");
    QCOMPARE(::mkfifo(pipe.toUtf8().constData(), 0600), 0);
    QByteArray piped = saved;
    piped.replace("\"run\": \"run.sqlite\"", "\"run\": \"pipe\"");
    QFile withPipe(dir.filePath("pipe.clusterscope"));
    QVERIFY(withPipe.open(QIODevice::WriteOnly));
    withPipe.write(piped);
    withPipe.close();
    QTest::ignoreMessage(QtWarningMsg,
                         QRegularExpression("names .*pipe, which is not a regular file"));
    QVERIFY(!w2.openSession(withPipe.fileName(), false));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression("pipe: not a regular file"));
    QVERIFY(!w2.openSession(pipe, false));
    QCOMPARE(w2.runPath(), store);
}

// At its start size, with a run playing, the 3D view has at least half the window's width.
void TestMainWindow::theViewHasHalfTheWindowAtStart() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openSource("preset:small-256", false));
    QTemporaryDir dir;
    QVERIFY(w.openRun(simulateSmallRun(w, dir.filePath("run.sqlite"), 1), false));
    QTRY_VERIFY2(w.view()->width() >= w.width() / 2,
                 qPrintable(QString("%1 of %2").arg(w.view()->width()).arg(w.width())));
}

void TestMainWindow::presentationHidesChromeAndCaptionsTheView() {
    MainWindow w;
    QVERIFY(showAt900x600(w));
    QVERIFY(w.openSource("preset:small-256", false));
    QTemporaryDir dir;
    const QString store = simulateSmallRun(w, dir.filePath("run.sqlite"), 3);
    QVERIFY(w.openRun(store, false));
    QVERIFY(w.selectById("demo.pod1.rack2.host0.gpu4"));
    auto* tree = w.findChild<QDockWidget*>("topologyDock");
    QVERIFY(tree && tree->isVisible());
    // Not presenting, the view says the run's step and MFU as it plays, without the selection
    // (the inspector shows it).
    w.replay()->clock()->seek(w.replay()->clock()->startNs() + 1'000'000'000);
    QTRY_VERIFY(QString::fromStdString(w.view()->scene().caption()).contains("MFU "));
    QVERIFY(!QString::fromStdString(w.view()->scene().caption()).contains("selected"));
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QTest::keyClick(&w, Qt::Key_F11); // as the user presses it
    QVERIFY(w.presenting());
    QVERIFY(!tree->isVisible());
    QVERIFY(!w.menuBar()->isVisible());
    QVERIFY(w.windowState() & Qt::WindowFullScreen);
    // Halfway through the second step: its number and MFU, the time and the selection.
    const cs::Series& steps = w.replay()->overview()->stepTime;
    QVERIFY(!steps.value.empty());
    w.replay()->clock()->seek(steps.tsNs[0] + int64_t(steps.value[0] * 1.5e9));
    QTRY_VERIFY(w.presentationCaption().contains("step 2"));
    const QString caption = w.presentationCaption();
    QVERIFY2(caption.contains("t = ") && caption.contains("MFU ") &&
                 caption.contains("selected: demo.pod1.rack2.host0.gpu4"),
             qPrintable(caption));
    QTest::keyClick(&w, Qt::Key_Escape);
    QVERIFY(!w.presenting());
    QTRY_VERIFY(tree->isVisible());
    QVERIFY(w.menuBar()->isVisible());
    QVERIFY(!(w.windowState() & Qt::WindowFullScreen));
}

void TestMainWindow::cameraTourVisitsTheBookmarks() {
    MainWindow w;
    QVERIFY(showAt900x600(w));
    QVERIFY(w.openSource("preset:small-ib-256", false));
    cs::app::CameraBookmarks marks("small-ib-256");
    for (const cs::views::CameraBookmark& b : marks.list())
        marks.remove(QString::fromStdString(b.name));
    QVERIFY(!w.startTour(100)); // nothing to visit yet
    const cs::views::CameraPose a{{100, -200, 150}, {0, 0, 0}, {0, 0, 1}};
    const cs::views::CameraPose b{{-50, -120, 80}, {10, 20, 0}, {0, 0, 1}};
    marks.save({"a", cs::LayoutKind::Floor, a});
    marks.save({"b", cs::LayoutKind::Fabric, b});
    QVERIFY(w.startTour(300));
    auto at = [&](const cs::views::CameraPose& p) {
        const cs::views::CameraPose now = w.view()->cameraPose();
        for (int i = 0; i < 3; ++i)
            if (std::abs(now.position[i] - p.position[i]) > 1e-6) return false;
        return true;
    };
    QTRY_VERIFY_WITH_TIMEOUT(at(a), 2000);
    QTRY_VERIFY_WITH_TIMEOUT(at(b), 2000);
    QCOMPARE(w.viewControls()->layoutBox()->currentIndex(), 1); // b's layout
    QTRY_VERIFY_WITH_TIMEOUT(at(a), 2000);                      // and round again
    QTest::keyClick(&w, Qt::Key_Space);                         // any key ends it
    QVERIFY(!w.touring());
    for (const char* name : {"a", "b"})
        marks.remove(name);
}

void TestMainWindow::aboutNamesVersions() {
    const QString text = cs::app::aboutText();
    QVERIFY(text.contains(QString::fromLatin1(qVersion())));
    QVERIFY(text.contains("VTK 9."));
}

// A link found by its name in a simulated run: the inspector lists its peak, its time above
// 80 % and each traffic source that crosses it, by name, as the store has them.
void TestMainWindow::aSelectedLinkListsWhatCrossesIt() {
    MainWindow w;
    QVERIFY(w.openSource("preset:small-256", false));
    QTemporaryDir dir;
    const QString path = simulateSmallRun(w, dir.filePath("run.sqlite"), 1);
    QVERIFY(w.openRun(path, false));
    const cs::Topology& t = w.document()->topology();
    cs::RunReader reader(path, t);
    int32_t link = -1;
    std::optional<cs::LinkUse> use;
    for (int32_t l = 0; l < int32_t(t.links.size()) && link < 0; ++l)
        if ((use = reader.linkUse(l, 0)) && !use->sources.empty()) link = l;
    QVERIFY(link >= 0);
    const QString name = QString::fromStdString(t.nameOf({cs::EntityKind::Link, link}));
    QVERIFY(w.viewControls()->search(name));
    auto* table = w.findChild<QTableView*>("inspectorTable");
    auto rowOf = [&](const QString& label) {
        for (int r = 0; r < table->model()->rowCount(); ++r)
            if (table->model()->index(r, 0).data().toString() == label) return r;
        return -1;
    };
    QTRY_VERIFY(rowOf("peak (step)") >= 0);
    QVERIFY(rowOf("above 80% (step)") >= 0);
    const QJsonObject summary =
        QJsonDocument::fromJson(QByteArray::fromStdString(reader.info().summaryJson)).object();
    const QString first = summary.value("trafficSources")
                              .toArray()
                              .at(use->sources.front().source)
                              .toObject()
                              .value("name")
                              .toString();
    QVERIFY(!first.isEmpty());
    const int row = rowOf(first);
    QVERIFY2(row >= 0, qPrintable(first));
    QVERIFY2(table->model()->index(row, 1).data().toString().contains(" GB, on "),
             qPrintable(table->model()->index(row, 1).data().toString()));

    // The Hottest Links dock ranks the step's links by peak; a click selects the hottest.
    auto* hot = w.findChild<QTableView*>("hotLinksTable");
    QVERIFY(hot);
    QTRY_VERIFY(hot->model()->rowCount() > 0);
    QVERIFY(hot->isVisibleTo(&w));
    QAbstractItemModelTester tester(hot->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    const std::vector<cs::LinkHeat> expected = reader.hottestLinks(0, 50, cs::HotBy::Peak);
    QCOMPARE(hot->model()->rowCount(), int(expected.size()));
    QCOMPARE(hot->model()->index(0, 0).data().toString(),
             QString::fromStdString(t.nameOf({cs::EntityKind::Link, expected.front().link})));
    QCOMPARE(hot->model()->index(0, 1).data().toString(),
             QString("%1%").arg(expected.front().peakFraction * 100, 0, 'f', 0));
    QTest::mouseClick(hot->viewport(), Qt::LeftButton, {},
                      hot->visualRect(hot->model()->index(0, 0)).center());
    QVERIFY(w.view()->scene().selection().has_value());
    QCOMPARE(w.view()->scene().selection()->entity,
             (cs::Endpoint{cs::EntityKind::Link, expected.front().link}));
    QTRY_VERIFY(rowOf("peak (step)") >= 0);
    // Ranked by time above 80 % instead: the list is asked again.
    auto* by = w.findChild<QComboBox*>("hotLinksBy");
    by->setCurrentIndex(1);
    const std::vector<cs::LinkHeat> byTime = reader.hottestLinks(0, 50, cs::HotBy::TimeAbove);
    QTRY_COMPARE(hot->model()->index(0, 2).data().toString(),
                 QString("%1 s").arg(byTime.front().aboveS, 0, 'f', 3));
}

// File → Import Telemetry: the preview lists each metric with its mapped and unmapped series and
// why; Import keeps that very run in the runs folder and opens it; a lone counter scrape is
// refused with its reason, and nothing can be imported.
void TestMainWindow::importsTelemetryFilesAfterAPreview() {
    MainWindow w;
    QVERIFY(w.openSource("preset:small-256", false));
    cs::app::TelemetryImportDialog d(*w.document(), &w);
    d.setFiles({CS_SOURCE_DIR "/tests/fixtures/telemetry/dcgm-node-snmp.prom"});
    QVERIFY(d.preview());
    QTreeWidget* tree = d.previewTree();
    QTreeWidgetItem* util = nullptr;
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        if (tree->topLevelItem(i)->text(0) == "DCGM_FI_DEV_GPU_UTIL") util = tree->topLevelItem(i);
    QVERIFY(util);
    QCOMPARE(util->text(2),
             QString::number(d.report()->unmappedByMetric.at("DCGM_FI_DEV_GPU_UTIL")));
    QCOMPARE(util->text(1), QString::number(d.report()->mappedByMetric.at("DCGM_FI_DEV_GPU_UTIL")));
    QCOMPARE(util->childCount(), 1);
    QVERIFY(util->child(0)->text(0).startsWith("no host label names a host"));
    const auto buttons = d.findChildren<QPushButton*>();
    bool importEnabled = false;
    for (QPushButton* b : buttons)
        if (b->text() == "Import") importEnabled = b->isEnabled();
    QVERIFY(importEnabled);
    const QString kept = w.keepImport(d);
    QVERIFY(!kept.isEmpty());
    QCOMPARE(QFileInfo(kept).absolutePath(), QDir(cs::app::runsFolder()).absolutePath());
    QVERIFY(QFileInfo(kept).fileName().startsWith("recorded-small-256-"));
    QCOMPARE(w.runPath(), kept);
    QVERIFY(w.replay()->isOpen());

    // An nvidia-smi capture holds power, temperature and memory: the Colour box offers each,
    // and the view's GPUs take the stored value over the metric's fixed range.
    cs::app::TelemetryImportDialog smi(*w.document(), &w);
    smi.setFiles({CS_SOURCE_DIR "/tests/fixtures/telemetry/demo.pod0.rack1.host0.csv"});
    QVERIFY(smi.preview());
    const QString smiRun = w.keepImport(smi);
    QVERIFY(!smiRun.isEmpty());
    QComboBox* colour = w.viewControls()->colourBox();
    const int power = colour->findText("Run: GPU power, W");
    QVERIFY2(power >= 0, qPrintable(colour->itemText(colour->count() - 1)));
    QVERIFY(colour->findText("Run: GPU temperature, \u00b0C") >= 0);
    colour->setCurrentIndex(power);
    QVERIFY(w.view()->scene().state().gpuMetric == cs::Metric::GpuPowerW);
    const int32_t gpu0 = w.document()->index().find("demo.pod0.rack1.host0.gpu0")->index;
    QTRY_VERIFY(w.view()->scene().values().gpu.size() > size_t(gpu0) &&
                !std::isnan(w.view()->scene().values().gpu[size_t(gpu0)]));
    cs::RunReader smiReader(smiRun, w.document()->topology());
    const float watts =
        smiReader.frame(cs::Metric::GpuPowerW, *w.replay()->shownNs())[size_t(gpu0)];
    QCOMPARE(w.view()->scene().values().gpu[size_t(gpu0)], watts / 1000.f);
    QVERIFY(std::isnan(w.view()->scene().values().link.front())); // the bar speaks of GPUs

    // One counter scrape: no rate, so nothing to import, and the dialog says why.
    QTemporaryDir dir;
    QFile f(dir.filePath("counter.prom"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("# TYPE node_infiniband_port_data_transmitted_bytes_total counter\n"
            "node_infiniband_port_data_transmitted_bytes_total{device=\"mlx5_3\","
            "instance=\"demo.pod0.rack0.host0:9100\",port=\"1\"} 1000000000000 1717200000000\n");
    f.close();
    cs::app::TelemetryImportDialog once(*w.document(), &w);
    once.setFiles({f.fileName()});
    QVERIFY(!once.preview());
    QVERIFY2(once.problemLabel()->text().contains("counters read once have no rate"),
             qPrintable(once.problemLabel()->text()));
    QString error;
    QVERIFY(!once.keepAt(dir.filePath("x.sqlite"), &error));
}

// The docks where the user left them: closed with the Topology dock hidden and the Summary in
// front, the next window opens so; presenting (everything hidden) is not a layout to keep.
void TestMainWindow::windowAndDocksAreRemembered() {
    {
        MainWindow w;
        QVERIFY(showAt900x600(w));
        w.findChild<QDockWidget*>("topologyDock")->hide();
        w.resize(1000, 700);
        QVERIFY(w.close());
    }
    {
        MainWindow w;
        QVERIFY(w.restoreLayout());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.findChild<QDockWidget*>("topologyDock")->isHidden());
        QVERIFY(!w.findChild<QDockWidget*>("timelineDock")->isVisible()); // no run: no timeline
        w.findChild<QDockWidget*>("topologyDock")->show();
        w.setPresenting(true);
        QVERIFY(w.close()); // not kept: the hidden-everything layout
    }
    MainWindow w;
    QVERIFY(w.restoreLayout());
    QVERIFY(w.findChild<QDockWidget*>("topologyDock")->isHidden());
    QSettings().remove("window"); // the other tests start from the built-in layout
    // View → Docks brings a closed dock back, and lists every dock by its title.
    auto* docks = w.findChild<QMenu*>("docksMenu");
    QVERIFY(docks);
    QStringList titles;
    for (QAction* a : docks->actions())
        titles << a->text();
    for (const char* title : {"Events", "Hottest Links", "Step Breakdown", "Topology", "Summary"})
        QVERIFY2(titles.contains(title), qPrintable(titles.join(", ")));
    for (QAction* a : docks->actions())
        if (a->text() == "Topology") a->trigger();
    QVERIFY(!w.findChild<QDockWidget*>("topologyDock")->isHidden());
}

// Help → Keyboard Shortcuts lists the keys the window answers to, read off its own actions and
// shortcuts; Help → User Guide finds the user guide, docs/user/README.md.
void TestMainWindow::helpListsTheKeysAndFindsTheGuide() {
    MainWindow w;
    const auto keys = cs::app::windowShortcuts(&w);
    auto does = [&](const QString& key) {
        for (const auto& k : keys)
            if (k.first == key) return k.second;
        return QString();
    };
    QCOMPARE(does("Space"), QString("Replay: play or pause"));
    QCOMPARE(does("N"), QString("Replay: next event (failure, restart, checkpoint)"));
    QCOMPARE(does("F11"), QString("Presentation Mode"));
    QCOMPARE(does("Home"), QString("Overview"));
    // The dialog shows them all.
    int rows = -1;
    QTimer::singleShot(0, [&] {
        auto* d = qobject_cast<QDialog*>(QApplication::activeModalWidget());
        if (!d) return;
        if (auto* t = d->findChild<QTableWidget*>("shortcutsTable")) rows = t->rowCount();
        d->reject();
    });
    cs::app::showShortcutsDialog(&w);
    QCOMPARE(rows, int(keys.size()));
    const QString guide = cs::app::userGuidePath();
    QVERIFY2(guide.endsWith("docs/user/README.md") && QFileInfo::exists(guide), qPrintable(guide));
}

void TestMainWindow::searchSelectsAndFrames_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("id");
    QTest::newRow("host suffix") << "rack3.host1"
                                 << "demo.pod0.rack3.host1";
    QTest::newRow("gpu index") << "200"
                               << "demo.pod1.rack4.host1.gpu0"; // host 25 = pod 1, rack 4, host 1
    QTest::newRow("switch") << "demo.pod1.ctsw2"
                            << "demo.pod1.ctsw2";
}

void TestMainWindow::searchSelectsAndFrames() {
    QFETCH(QString, text);
    QFETCH(QString, id);
    MainWindow w;
    QVERIFY(w.openSource("preset:small-256", false));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QLineEdit* box = w.viewControls()->searchBox();
    box->setText(text);
    QTest::keyClick(box, Qt::Key_Return);
    const auto sel = w.view()->scene().selection();
    QVERIFY(sel.has_value());
    QCOMPARE(QString::fromStdString(w.document()->topology().nameOf(sel->entity)), id);
    // The camera flies there: at the end the entity is in the middle of the view.
    const cs::Bounds b = w.view()->scene().boundsOf(sel->entity);
    QVERIFY(QTest::qWaitFor(
        [&] {
            const QPoint at = w.view()->projectToWidget(b.center());
            return (at - w.view()->sceneRect().center()).manhattanLength() < 30;
        },
        3000));
    // The tree follows (a switch is shown at its rack or pod).
    QVERIFY(w.treeView()->currentIndex().isValid());
}

void TestMainWindow::clickInViewSelectsInTree() {
    MainWindow w;
    QVERIFY(w.openSource("preset:small-256", false));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const cs::Endpoint rack = *w.document()->index().find("demo.pod1.rack5");
    const cs::Box& box = w.view()->scene().layout()->racks[size_t(rack.index)];
    const QPoint at = w.view()->projectToWidget(
        {box.center.x, box.center.y, box.center.z + box.size.z / 2 - 0.05f});
    QTest::mouseClick(w.view(), Qt::LeftButton, {}, at);
    QCOMPARE(w.treeView()->currentIndex().data(Qt::ToolTipRole).toString(),
             QString("demo.pod1.rack5"));
    auto* table = w.findChild<QTableView*>("inspectorTable");
    QCOMPARE(table->model()->index(0, 1).data().toString(), QString("demo.pod1.rack5"));
}

void TestMainWindow::bookmarksRoundTrip() {
    cs::app::CameraBookmarks marks("bookmark-test");
    marks.remove("a");
    cs::views::CameraPose pose{{1, 2, 3}, {4, 5, 6}, {0, 0, 1}};
    marks.save({"a", cs::LayoutKind::Fabric, pose});
    marks.save({"a", cs::LayoutKind::Floor, pose}); // same name replaces
    const auto list = marks.list();
    QCOMPARE(list.size(), 1);
    QCOMPARE(list[0].layout, cs::LayoutKind::Floor);
    QCOMPARE(list[0].pose.focalPoint[2], 6.0);
    marks.remove("a");
    QVERIFY(marks.list().isEmpty());
    // Many at once (a session's 2,000): each kept, a repeated name replacing the earlier.
    marks.save({"m7", cs::LayoutKind::Fabric, pose});
    std::vector<cs::views::CameraBookmark> many;
    for (int i = 0; i < 2000; ++i)
        many.push_back({"m" + std::to_string(i), cs::LayoutKind::Floor, pose});
    marks.saveAll(many);
    const auto all = marks.list();
    QCOMPARE(all.size(), 2000);
    QCOMPARE(all[0].name, std::string("m7"));
    QCOMPARE(all[0].layout, cs::LayoutKind::Floor); // replaced in place
    QCOMPARE(all[1999].name, std::string("m1999"));
    QSettings().remove("cameraBookmarks/bookmark-test");
    QVERIFY(marks.list().isEmpty());
}

void TestMainWindow::layoutSwitchKeepsSelection() {
    MainWindow w;
    QVERIFY(w.openSource("preset:small-256", false));
    w.show();
    QVERIFY(w.selectById("demo.pod0.rack1.host0.gpu2"));
    w.viewControls()->layoutBox()->setCurrentIndex(1);
    QCOMPARE(w.view()->scene().layoutKind(), cs::LayoutKind::Fabric);
    QVERIFY(w.view()->scene().selection().has_value());
    QComboBox* colour = w.viewControls()->colourBox();
    QCOMPARE(colour->findText("Test pattern (animated)"), -1); // not offered to users
    // Bundles and racks show their hottest member unless the user asks otherwise.
    QCOMPARE(w.viewControls()->aggregateBox()->currentText(), QString("Max"));
    colour->setCurrentIndex(colour->findText("Link speed"));
    QCOMPARE(w.view()->scene().colorMode(), cs::views::ColorMode::Value);
}

void TestMainWindow::simulationDialogChecksTheForm() {
    const auto doc = cs::openTopology("small-256", {});
    cs::app::SimulationDialog d(doc.get());
    auto* tp = d.findChild<QLineEdit*>("parallel.tp");
    auto* pp = d.findChild<QLineEdit*>("parallel.pp");
    auto* dp = d.findChild<QLineEdit*>("parallel.dp");
    auto* problem = d.findChild<QLabel*>("problem");
    QVERIFY(tp && pp && dp && problem);
    QVERIFY(!tp->toolTip().isEmpty());
    d.findChild<QComboBox*>("model")->setCurrentText("llama3-8b");
    tp->setText("16"); // 8 KV heads cannot be split 16 ways
    QVERIFY(!d.checkSpec());
    QVERIFY2(problem->text().startsWith("Tensor parallel (TP): ") &&
                 problem->text().contains("KV heads"),
             qPrintable(problem->text()));
    tp->setText("8");
    pp->setText("4");
    dp->setText("16"); // 512 GPUs on a 256-GPU topology
    QVERIFY(!d.checkSpec());
    QVERIFY2(problem->text().startsWith("Data parallel (DP): the job needs 512 GPUs"),
             qPrintable(problem->text()));
    QCOMPARE(d.markedFields(), QStringList{"parallel.dp"}); // the field to change
    QVERIFY(dp->toolTip().startsWith("Data parallel (DP): "));
    // Two fields that do not parse: both marked, both listed, at once.
    dp->setText("eight");
    pp->setText("-4");
    QVERIFY(!d.checkSpec());
    QCOMPARE(d.markedFields(), (QStringList{"parallel.pp", "parallel.dp"}));
    QCOMPARE(problem->text().split('\n').size(), 2);
    QVERIFY2(problem->text().contains("Pipeline parallel (PP): ") &&
                 problem->text().contains("Data parallel (DP): "),
             qPrintable(problem->text()));
    pp->setText("4");
    dp->setText("8");
    QVERIFY2(d.checkSpec(), qPrintable(problem->text()));
    QVERIFY(problem->text().isEmpty());
    QVERIFY(d.markedFields().isEmpty());
    QVERIFY(!dp->toolTip().startsWith("Data parallel (DP): ")); // its help again
    QCOMPARE(d.spec().parallel.gpus(), 256LL);
    QCOMPARE(d.spec().model, std::string("llama3-8b"));
}

void TestMainWindow::simulationRunsOffTheGuiThreadAndOpensInTheView() {
    MainWindow w;
    QVERIFY(w.openSource("preset:small-256", false));
    cs::RunSpec spec = smallRunSpec();
    spec.steps = 2;
    QTemporaryDir dir;
    const auto r = cs::app::runWithProgress(&w, *w.document(), spec, dir.filePath("run.sqlite"));
    QVERIFY(r.has_value());
    QCOMPARE(r->steps, 2LL);
    QVERIFY(w.openRun(dir.filePath("run.sqlite"), false));
    QVERIFY(w.viewControls()->colourBox()->currentText().startsWith("Run: llama3-8b"));
    QCOMPARE(w.view()->scene().colorMode(), cs::views::ColorMode::Value);
    QTRY_VERIFY(w.replay()->shownNs().has_value()); // the first frame came from the reader
}

void TestMainWindow::replayFollowsTheClockAndKeys() {
    MainWindow w;
    QVERIFY(w.openSource("preset:small-256", false));
    QTemporaryDir dir;
    const QString path = dir.filePath("run.sqlite");
    {
        cs::RunSpec spec = smallRunSpec();
        spec.steps = 2;
        cs::RunStore store = cs::RunStore::openForWriting(path);
        cs::simulateRun(*w.document(), spec, &store);
    }
    // Not a run store: a clear error, nothing replaced.
    QFile junk(dir.filePath("junk.sqlite"));
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write("definitely not sqlite");
    junk.close();
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression("not a ClusterScope run store"));
    QVERIFY(!w.openRun(junk.fileName(), false));
    QVERIFY(!w.replay()->isOpen());

    QVERIFY(w.openRun(path, false));
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w)); // shortcuts go to the active window
    cs::PlaybackClock* clock = w.replay()->clock();
    QVERIFY(clock->endNs() > clock->startNs());
    QVERIFY(w.viewControls()->colourBox()->currentText().startsWith("Run: "));
    QTest::keyClick(&w, Qt::Key_Right);
    QVERIFY(clock->nowNs() > clock->startNs());
    QTRY_COMPARE(w.replay()->shownNs(), std::optional<int64_t>(clock->nowNs()));
    const int64_t before = clock->nowNs();
    QTest::keyClick(&w, Qt::Key_Plus);
    QCOMPARE(clock->rate(), 2.0);
    QTest::keyClick(&w, Qt::Key_Space);
    QVERIFY(clock->playing());
    QTRY_VERIFY(clock->nowNs() > before);
    QTest::keyClick(&w, Qt::Key_Space);
    QVERIFY(!clock->playing());
}

void TestMainWindow::hostileStoresAreRefusedAndTheWindowStaysUsable() {
    MainWindow w;
    QVERIFY(w.openSource("preset:small-256", false));
    QTemporaryDir dir;
    const QString good = dir.filePath("good.sqlite"), other = dir.filePath("other.sqlite"),
                  damaged = dir.filePath("damaged.sqlite");
    cs::RunSpec spec = smallRunSpec();
    spec.steps = 1;
    {
        cs::RunStore store = cs::RunStore::openForWriting(good);
        cs::simulateRun(*w.document(), spec, &store);
    }
    { // the same run on another topology of the same size
        const auto ib = cs::openTopology("small-ib-256", {});
        cs::RunStore store = cs::RunStore::openForWriting(other);
        cs::simulateRun(*ib, spec, &store);
    }
    QVERIFY(QFile::copy(good, damaged));
    { // a page in the middle of the file overwritten
        QFile f(damaged);
        QVERIFY(f.open(QIODevice::ReadWrite));
        const qint64 page = 65536, at = (f.size() / page / 2) * page;
        QVERIFY(at > 0);
        f.seek(at);
        f.write(QByteArray(256, char(0xff)));
    }
    w.show();
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression("recorded on topology"));
    QVERIFY(!w.openRun(other, false));
    QVERIFY(!w.replay()->isOpen());
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression("damaged"));
    QVERIFY(!w.openRun(damaged, false));
    QVERIFY(!w.replay()->isOpen());
    // The window still works: the good run opens and plays.
    QVERIFY(w.openRun(good, false));
    cs::PlaybackClock* clock = w.replay()->clock();
    clock->seek(clock->startNs() + (clock->endNs() - clock->startNs()) / 2);
    QTRY_COMPARE(w.replay()->shownNs(), std::optional<int64_t>(clock->nowNs()));
    // A run that cannot be opened keeps the open one: still replaying, still compared.
    QVERIFY(w.compareWith(good, false));
    QVERIFY(w.comparison()->isOpen());
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression("recorded on topology"));
    QVERIFY(!w.openRun(other, false));
    QVERIFY(w.replay()->isOpen());
    QCOMPARE(w.runPath(), good);
    QVERIFY(w.comparison()->isOpen());
    clock->seek(clock->startNs() + (clock->endNs() - clock->startNs()) / 4);
    QTRY_COMPARE(w.replay()->shownNs(), std::optional<int64_t>(clock->nowNs()));
}

// A run simulated in the window is kept in the runs folder under its model's and topology's
// name, listed in Open Recent, reopened there with its topology, and saved elsewhere.
void TestMainWindow::simulatedRunsAreKeptAndReopened() {
    MainWindow w;
    QVERIFY(w.openSource("preset:small-256", false));
    cs::RunSpec spec = smallRunSpec();
    spec.steps = 1;
    const QString run = w.simulateAndOpen(spec);
    QVERIFY(!run.isEmpty());
    QCOMPARE(QFileInfo(run).absolutePath(), QDir(cs::app::runsFolder()).absolutePath());
    // The new run waits at its start for the user to play it.
    QCOMPARE(w.replay()->clock()->nowNs(), w.replay()->clock()->startNs());
    QVERIFY(!w.replay()->clock()->playing());
    // Its Step Breakdown: one bar per pipeline stage, the step's parts adding up to the step.
    auto* chart = w.findChild<cs::views::StepBreakdownChart*>();
    QVERIFY(chart);
    QCOMPARE(int(chart->data().stages.size()), spec.parallel.pp);
    QVERIFY2(chart->title().startsWith("Step "), qPrintable(chart->title()));
    for (const cs::StepParts& parts : chart->data().stages)
        QVERIFY(std::fabs(parts.totalS() - chart->data().stepS) <= 0.005 * chart->data().stepS);
    QVERIFY(!chart->plot()->plottable(0)->name().isEmpty());
    // Colour by role: each GPU by its pipeline stage, first to last, as the run placed it.
    QComboBox* colour = w.viewControls()->colourBox();
    const int byStage = colour->findText("Run: Pipeline stage");
    QVERIFY(byStage >= 0);
    QVERIFY(colour->findText("Run: DP replica") >= 0 && colour->findText("Run: TP rank") >= 0);
    colour->setCurrentIndex(byStage);
    const auto roles = cs::GpuRoles::ofSummary(
        w.document()->topology(), w.document()->index(),
        QJsonDocument::fromJson(
            QByteArray::fromStdString(cs::RunReader::runsIn(run).back().summaryJson))
            .object());
    QVERIFY(roles);
    const std::vector<float> stages = roles->fractions(cs::GpuRoles::Axis::Stage);
    QTRY_VERIFY(w.view()->scene().values().gpu.size() == stages.size() &&
                w.view()->scene().values().gpu[size_t(roles->config().tp)] ==
                    stages[size_t(roles->config().tp)]);
    QCOMPARE(w.view()->scene().values().gpu, stages);
    QVERIFY(w.view()->scene().state().role == cs::views::GpuRole::Stage);
    colour->setCurrentIndex(colour->findText(QString("Run: ") + QString::fromStdString(spec.model),
                                             Qt::MatchStartsWith));
    QVERIFY2(
        QFileInfo(run).fileName().startsWith(QString::fromStdString(spec.model) + "-small-256-"),
        qPrintable(run));
    QCOMPARE(w.recentEntries().front(), "run:" + run);
    // As File → Open Recent lists it.
    bool listed = false;
    for (QMenu* m : w.findChildren<QMenu*>())
        if (m->title() == "Open &Recent")
            for (QAction* a : m->actions())
                listed |= a->text() == "Run: " + run;
    QVERIFY(listed);
    // Another topology open: the recent run brings its own back.
    QVERIFY(w.openSource("preset:small-ib-256", false));
    QVERIFY(!w.replay()->isOpen());
    QVERIFY(chart->data().empty()); // no run, no breakdown
    QVERIFY(w.openRunWithItsTopology(run, false));
    QCOMPARE(int(chart->data().stages.size()), spec.parallel.pp);
    QCOMPARE(QString::fromStdString(w.document()->topology().name), QString("small-256"));
    QCOMPARE(w.runPath(), run);
    // Save Run As: the copy is the run, and the window replays it from there.
    QTemporaryDir dir;
    const QString copy = dir.filePath("kept.sqlite");
    QVERIFY(w.saveRunAs(copy, false));
    QCOMPARE(w.runPath(), copy);
    QCOMPARE(cs::RunReader::runsIn(copy).back().summaryJson,
             cs::RunReader::runsIn(run).back().summaryJson);
    QCOMPARE(w.recentEntries().front(), "run:" + copy);
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression("cannot write .*x.sqlite"));
    QVERIFY(!w.saveRunAs(dir.filePath("no/such/folder/x.sqlite"), false));
    QCOMPARE(w.runPath(), copy);
    // Run → Simulate starts from the open run's settings, not the defaults.
    const auto [dp, model] = simulateDialogShows([&] { w.simulateDialog(); });
    QCOMPARE(dp, QString::number(spec.parallel.dp));
    QCOMPARE(model, QString::fromStdString(spec.model));
    QVERIFY(QString::fromStdString(spec.model) != QString::fromStdString(cs::RunSpec{}.model));
    // A run on a changed design of the preset (1:1 uplinks) reopens on that design, though the
    // preset as it ships, of the same name, is open.
    cs::SiteParams full = *w.document()->params();
    full.clusters[0].oversubscription = 1;
    QVERIFY(w.applyDesign(full));
    const QString fullRun = w.simulateAndOpen(spec);
    QVERIFY(!fullRun.isEmpty());
    QVERIFY(w.openSource("preset:small-256", false));
    QCOMPARE(w.document()->params()->clusters[0].oversubscription, 2.0);
    QVERIFY(w.openRunWithItsTopology(fullRun, false));
    QCOMPARE(w.runPath(), fullRun);
    QCOMPARE(w.document()->params()->clusters[0].oversubscription, 1.0);
}

void TestMainWindow::recordedRunsShowTheirDateAndTime() {
    MainWindow w;
    QVERIFY(w.openSource("preset:small-256", false));
    QTemporaryDir dir;
    const QString path = dir.filePath("rec.sqlite");
    {
        cs::RunStore store = cs::RunStore::openForWriting(path);
        cs::importTelemetry(*w.document(),
                            {CS_SOURCE_DIR "/resources/telemetry/small-256-4hosts-3m.prom"}, {},
                            store);
    }
    QVERIFY(w.openRun(path, false));
    w.show();
    cs::views::TimelineWidget* timeline = w.replay()->timeline();
    cs::PlaybackClock* clock = w.replay()->clock();
    clock->seek(clock->startNs() + 30'000'000'000LL);
    // What the label shows: the recording's date and time in UTC, and the offset.
    QTRY_VERIFY2(timeline->timeText().startsWith("2024-06-01 00:00:30 UTC"),
                 qPrintable(timeline->timeText()));
    QVERIFY(timeline->timeText().contains("+30.000 s"));
    QVERIFY(timeline->zoneButton()->isVisible());
    // The charts read in time of day, their axis naming the recording's start date.
    QCustomPlot* busy = w.replay()->charts()->plots().front();
    busy->replot();
    QVERIFY2(busy->xAxis->label().contains("UTC") &&
                 busy->xAxis->label().contains("2024-06-01 00:00:00"),
             qPrintable(busy->xAxis->label()));
    const QVector<QString> ticks = busy->xAxis->tickVectorLabels();
    QVERIFY(!ticks.isEmpty());
    for (const QString& tick : ticks)
        QVERIFY2(QRegularExpression("^00:0[0-3]:[0-5][0-9]$").match(tick).hasMatch(),
                 qPrintable(tick));
    // A recording without storage servers says so on the storage chart, with no legend.
    QCustomPlot* storage = w.replay()->charts()->plots()[2];
    auto* note = qobject_cast<QCPItemText*>(storage->item(0));
    QVERIFY(note && note->visible() && note->text() == "not in this run");
    QVERIFY(!storage->legend->visible());
    QVERIFY(!qobject_cast<QCPItemText*>(busy->item(0))->visible());
    // The inspector says when the values it shows were recorded.
    QVERIFY(w.selectById("#0"));
    auto* table = w.findChild<QTableView*>("inspectorTable");
    auto rowText = [&](const QString& name) {
        for (int r = 0; r < table->model()->rowCount(); ++r)
            if (table->model()->index(r, 0).data().toString() == name)
                return table->model()->index(r, 1).data().toString();
        return QString();
    };
    QTRY_VERIFY2(rowText("time (shown)").startsWith("2024-06-01 00:00:30 UTC"),
                 qPrintable(rowText("time (shown)")));
    timeline->zoneButton()->click(); // local time: no "UTC" anywhere
    QVERIFY(!timeline->timeText().contains("UTC"));
    QVERIFY(timeline->timeText().contains("+30.000 s"));
    QTRY_VERIFY2(!rowText("time (shown)").contains("UTC") &&
                     rowText("time (shown)").contains("+30.000 s"),
                 qPrintable(rowText("time (shown)")));
    QVERIFY2(busy->xAxis->label().startsWith("local time from"), qPrintable(busy->xAxis->label()));
}

void TestMainWindow::importsFromAPrometheusServer() {
    // File -> Import from Prometheus... against a real server: the form filled as a user
    // would, the import runs, the run opens and replays with the recording's date.
    MainWindow w;
    QVERIFY(w.openSource("preset:small-256", false));
    QTemporaryDir dir;
    const cs::TelemetryGeneratorParams p = fiveMinutesOfTwoHosts();
    PrometheusServer server;
    QVERIFY2(server.start(cs::generatePrometheusTelemetry(w.document()->topology(), p), dir.path()),
             qPrintable(server.error()));
    QAction* action = nullptr;
    for (QAction* a : w.menuBar()->actions().front()->menu()->actions())
        if (a->text().contains("Prometheus")) action = a;
    QVERIFY(action);
    const QString store = dir.filePath("imported.sqlite");
    // The form is filled inside the dialog's modal loop; what it saw is checked once the loop
    // is over (a failed check in here would leave the dialog open and the test waiting). A
    // form that goes wrong is closed, so the loop always ends.
    bool filled = false, stayedOpen = false;
    QString problem;
    QTimer::singleShot(0, &w, [&] {
        QWidget* modal = QApplication::activeModalWidget();
        auto* dialog = qobject_cast<cs::app::PrometheusImportDialog*>(modal);
        if (!dialog) {
            if (modal) modal->close();
            return;
        }
        // A step that is no duration: the form says so and stays open.
        dialog->stepEdit()->setText("soon");
        dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
        stayedOpen = dialog->isVisible();
        problem = dialog->problemLabel()->text();
        if (!stayedOpen || !problem.startsWith("Step")) {
            dialog->reject();
            return;
        }
        dialog->urlEdit()->setText(server.url().toString());
        dialog->stepEdit()->setText("15s");
        const QDateTime from = QDateTime::fromMSecsSinceEpoch(p.startMs, QTimeZone::utc());
        dialog->startEdit()->setDateTime(from);
        dialog->endEdit()->setDateTime(from.addSecs(300));
        dialog->storeEdit()->setText(store);
        filled = true;
        dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
    });
    action->trigger();
    QVERIFY2(stayedOpen, "the form closed on a step that is no duration");
    QVERIFY2(problem.startsWith("Step"), qPrintable("the form said: " + problem));
    QVERIFY(filled);
    QTRY_VERIFY(w.replay()->isOpen());
    QVERIFY(QFileInfo::exists(store));
    QTRY_VERIFY2(w.replay()->timeline()->timeText().startsWith("2024-06-01 00:00:00 UTC"),
                 qPrintable(w.replay()->timeline()->timeText()));
    const cs::Endpoint gpu = *w.document()->index().find("demo.pod0.rack0.host0.gpu0");
    w.replay()->selectEntity(gpu);
    QTRY_VERIFY(!w.replay()->selectedValues().empty());
}

void TestMainWindow::recordsLiveFromAPrometheusServer() {
    // Live against a real server: the first minute, then a poll every 100 ms while a test
    // clock moves "now" on 15 s per poll. The timeline follows the newest frame until the
    // user seeks back; Live checked again returns to it; Stop ends the recording.
    MainWindow w;
    QVERIFY(w.openSource("preset:small-256", false));
    QTemporaryDir dir;
    const cs::TelemetryGeneratorParams p = fiveMinutesOfTwoHosts();
    PrometheusServer server;
    QVERIFY2(server.start(cs::generatePrometheusTelemetry(w.document()->topology(), p), dir.path()),
             qPrintable(server.error()));
    const int64_t startS = p.startMs / 1000;
    cs::PrometheusQuery q;
    q.server = server.url();
    q.startS = startS;
    q.endS = startS + 60;
    q.stepS = 15;
    // What the whole range gives, imported at once.
    cs::ImportReport whole;
    {
        cs::PrometheusQuery all = q;
        all.endS = startS + 300;
        cs::RunStore store = cs::RunStore::openForWriting(dir.filePath("whole.sqlite"));
        whole = cs::importPrometheus(*w.document(), all, {}, store);
    }
    // The dialog's Live switch: the range runs to now, the button says what happens.
    {
        cs::app::PrometheusImportDialog dialog;
        dialog.liveCheck()->setChecked(true);
        QVERIFY(!dialog.endEdit()->isEnabled());
        QCOMPARE(dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->text(),
                 QString("Start Live"));
        dialog.stepEdit()->setText("1.5s");
        QVERIFY(!dialog.query());
        QVERIFY(dialog.problemLabel()->text().contains("whole seconds"));
    }
    w.show();
    int64_t now = startS + 60;
    const QString store = dir.filePath("live.sqlite");
    QVERIFY(w.startLive(
        q, store, [&] { return now = std::min(now + 15, startS + 300); }, 100));
    cs::PlaybackClock* clock = w.replay()->clock();
    cs::views::TimelineWidget* timeline = w.replay()->timeline();
    QVERIFY(!timeline->liveButton()->isHidden());
    QVERIFY(timeline->followsNow());
    // The run grows to the whole range and the view shows its newest frame.
    QTRY_COMPARE_WITH_TIMEOUT(clock->endNs(), whole.endNs, 20000);
    QCOMPARE(clock->nowNs(), clock->endNs());
    QTRY_COMPARE(w.replay()->shownNs(), std::optional<int64_t>(whole.endNs));
    QTRY_VERIFY2(
        timeline->timeText().startsWith(
            QDateTime::fromMSecsSinceEpoch(p.startMs + whole.endNs / 1'000'000, QTimeZone::utc())
                .toString("yyyy-MM-dd HH:mm:ss")),
        qPrintable(timeline->timeText()));
    QVERIFY(w.liveRecording()->polls() >= (300 - 60) / 15);
    // Seeking back stops following; Live checked again returns to the newest frame.
    clock->seek(0);
    QVERIFY(!timeline->followsNow());
    QCOMPARE(clock->nowNs(), 0LL);
    timeline->liveButton()->click();
    QVERIFY(timeline->followsNow());
    QCOMPARE(clock->nowNs(), clock->endNs());
    // Stop: the recording ends, the run stays open for replay.
    QAction* stop = nullptr;
    for (QAction* a : w.menuBar()->actions().front()->menu()->actions())
        if (a->text().contains("Live Recording")) stop = a;
    QVERIFY(stop && stop->isEnabled());
    stop->trigger();
    QVERIFY(!w.liveRecording());
    QVERIFY(timeline->liveButton()->isHidden());
    QVERIFY(w.replay()->isOpen());
    QVERIFY(!stop->isEnabled());
    // The recorded store holds what the one-off import holds.
    cs::RunReader live(store, w.document()->topology()),
        once(dir.filePath("whole.sqlite"), w.document()->topology());
    QCOMPARE(live.info().endNs, once.info().endNs);
    const std::vector<float> a = live.frame(cs::Metric::GpuPowerW, whole.endNs - 1),
                             b = once.frame(cs::Metric::GpuPowerW, whole.endNs - 1);
    QCOMPARE(a.size(), b.size());
    int powered = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        QVERIFY(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])));
        powered += a[i] > 0;
    }
    QCOMPARE(powered, 16); // the two hosts' GPUs
}

void TestMainWindow::atOpensARunAtAnOffsetOrADate_data() {
    QTest::addColumn<QString>("at");
    QTest::addColumn<qint64>("expectedNs"); // -1: refused
    QTest::addColumn<QString>("message");
    QTest::newRow("offset") << "45s" << qint64(45'000'000'000) << QString();
    QTest::newRow("start") << "0s" << qint64(0) << QString();
    QTest::newRow("RFC 3339") << "2024-06-01T00:00:30Z" << qint64(30'000'000'000) << QString();
    QTest::newRow("RFC 3339 with an offset zone")
        << "2024-06-01T02:01:00+02:00" << qint64(60'000'000'000) << QString();
    QTest::newRow("before the run")
        << "2024-05-31T23:59:00Z" << qint64(-1) << "the run covers 2024-06-01T00:00:00";
    QTest::newRow("no zone") << "2024-06-01T00:00:30" << qint64(-1) << "RFC 3339";
    QTest::newRow("after 2262") << "9999-12-31T00:00:00Z" << qint64(-1) << "from 1970 to 2262";
    QTest::newRow("before 1970") << "1969-12-31T23:59:59Z" << qint64(-1) << "from 1970 to 2262";
    QTest::newRow("not a time") << "1.2.3h" << qint64(-1) << "expected an offset";
}

void TestMainWindow::atOpensARunAtAnOffsetOrADate() {
    QFETCH(QString, at);
    QFETCH(qint64, expectedNs);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString path = dir.filePath("rec.sqlite");
    {
        const auto doc = cs::openTopology("small-256", {});
        cs::RunStore store = cs::RunStore::openForWriting(path);
        cs::importTelemetry(*doc, {CS_SOURCE_DIR "/resources/telemetry/small-256-4hosts-3m.prom"},
                            {}, store);
    }
    const QStringList args{"gui", "--preset", "small-256", "--run", path, "--at", at};
    QString problem;
    MainWindow w;
    try {
        problem = cs::app::openFromOptions(w, cs::app::parseGuiOptions(args));
    } catch (const cs::app::UsageError& e) {
        problem = e.what();
    }
    if (expectedNs < 0) {
        QVERIFY2(problem.contains(message), qPrintable(problem));
        return;
    }
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QCOMPARE(w.replay()->clock()->nowNs(), expectedNs);
    QTRY_COMPARE(w.replay()->shownNs(), std::optional<int64_t>(expectedNs));
}

// --layout, --color, --aggregate and --camera set the View toolbar as a user would; a run on a
// --set variant given with --run opens on its own design.
void TestMainWindow::viewFlagsSetTheToolbar() {
    QTemporaryDir dir;
    const QString run = dir.filePath("os1.sqlite");
    {
        cs::TopologyReadOptions read;
        read.sets = {"generator.clusters[0].oversubscription=1"};
        const auto doc = cs::openTopology("small-256", {}, read);
        cs::RunSpec spec = smallRunSpec();
        spec.steps = 1;
        cs::RunStore store = cs::RunStore::openForWriting(run);
        (void)cs::simulateRun(*doc, spec, &store);
    }
    const QStringList args{"gui",      "--preset", "small-256", "--run", run,
                           "--layout", "fabric",   "--color",   "value", "--aggregate",
                           "mean",     "--camera", "pod:1"};
    MainWindow w;
    QCOMPARE(cs::app::openFromOptions(w, cs::app::parseGuiOptions(args)), QString());
    QCOMPARE(QString::fromStdString(w.document()->topology().name),
             QString("small-256 \u00b7 oversubscription 1"));
    QCOMPARE(w.runPath(), run);
    const cs::views::ViewState s = w.view()->state();
    QVERIFY(s.layout == cs::LayoutKind::Fabric);
    QVERIFY(s.aggregate == cs::Aggregate::Mean);
    QVERIFY(s.metric == cs::views::ValueMetric::Run);
    QCOMPARE(w.viewControls()->layoutBox()->currentText(), QString("Fabric"));
    QCOMPARE(w.viewControls()->aggregateBox()->currentText(), QString("Mean"));
    // Refused by name, or said when the window has no such colouring.
    for (const auto& [extra, says] :
         {std::pair{QStringList{"--color", "difference"}, "--compare"},
          std::pair{QStringList{"--color", "rainbow"}, "kind|value|job|difference"},
          std::pair{QStringList{"--layout", "spiral"}, "--layout"}}) {
        try {
            (void)cs::app::parseGuiOptions(QStringList{"gui", "--run", run} + extra);
            QFAIL("accepted");
        } catch (const cs::app::UsageError& e) {
            QVERIFY2(QString(e.what()).contains(says), e.what());
        }
    }
    MainWindow other;
    QVERIFY(cs::app::openFromOptions(
                other, cs::app::parseGuiOptions({"gui", "--run", run, "--color", "job"}))
                .contains("no jobs"));
}

void TestMainWindow::replayOutlinesFailuresAndShowsLiveValues() {
    MainWindow w;
    QVERIFY(w.openSource("preset:small-256", false));
    QTemporaryDir dir;
    const QString path = dir.filePath("span.sqlite");
    {
        cs::RunSpec spec = smallRunSpec();
        spec.spanS = 300 * 86400.0; // long enough for failures on 256 GPUs
        spec.failures = true;
        spec.seed = 11;
        cs::RunStore store = cs::RunStore::openForWriting(path);
        const cs::RunResult r = cs::simulateRun(*w.document(), spec, &store);
        QVERIFY(!r.interruptions.empty());
    }
    QVERIFY(w.openRun(path, false));
    const auto& events = w.replay()->overview()->events;
    const auto failure = std::find_if(events.begin(), events.end(), [](const cs::RunEvent& e) {
        return e.kind == cs::EventKind::Failure && e.entity;
    });
    QVERIFY(failure != events.end());
    w.replay()->clock()->seek(failure->tsNs + 1);
    QTRY_VERIFY(!w.view()->scene().marked().empty());
    QCOMPARE(w.view()->scene().marked().front(), *failure->entity);
    // The inspector shows GPU 3's busy at now as the reader has it: down, 0%.
    QVERIFY(w.selectById("#3"));
    auto* table = w.findChild<QTableView*>("inspectorTable");
    auto liveText = [&] {
        for (int r = 0; r < table->model()->rowCount(); ++r)
            if (table->model()->index(r, 0).data().toString() == "busy (now)")
                return table->model()->index(r, 1).data().toString();
        return QString();
    };
    cs::RunReader reader(path, w.document()->topology());
    const float busy = reader.frame(cs::Metric::GpuBusy, failure->tsNs + 1)[3];
    QTRY_COMPARE(liveText(), QString("%1%").arg(double(busy) * 100, 0, 'f', 0));
    // Its ranks in the job, as the run placed them.
    auto valueOf = [&](const QString& label) {
        for (int r = 0; r < table->model()->rowCount(); ++r)
            if (table->model()->index(r, 0).data().toString() == label)
                return table->model()->index(r, 1).data().toString();
        return QString();
    };
    QVERIFY2(valueOf("pipeline stage").endsWith(" of 4"), qPrintable(valueOf("pipeline stage")));
    QVERIFY(valueOf("rank").endsWith(" of 256"));
    // Below them, the small Gantt of its stage's step: the stage the ranks name, its passes
    // as the stored run keeps them, a line where the frame shown is within its step.
    auto* gantt = w.findChild<cs::views::StageGanttWidget*>("stageGantt");
    QVERIFY(gantt && gantt->isVisibleTo(&w));
    const int stage = valueOf("pipeline stage").section(' ', 0, 0).toInt();
    QCOMPARE(gantt->title().left(gantt->title().indexOf(':')), QString("Stage %1 of 4").arg(stage));
    const auto stored = cs::stageGanttOf(
        QJsonDocument::fromJson(
            QByteArray::fromStdString(cs::RunReader::runsIn(path).back().summaryJson))
            .object(),
        stage);
    QVERIFY(stored);
    QCOMPARE(gantt->gantt()->row(cs::GanttRow::Forward).size(),
             stored->row(cs::GanttRow::Forward).size());
    QVERIFY(!stored->row(cs::GanttRow::Forward).empty());
    // A host shows no Gantt.
    QVERIFY(w.selectById(QString::fromStdString(w.document()->topology().hosts[0].name)));
    QVERIFY(!gantt->isVisibleTo(&w));
    QVERIFY(w.selectById("#3"));
    QVERIFY(gantt->isVisibleTo(&w));
    // ... near the top, after the id, the kind and the time shown, where a short dock shows it
    // without scrolling.
    QCOMPARE(table->model()->index(2, 0).data().toString(), QString("time (shown)"));
    QCOMPARE(table->model()->index(3, 0).data().toString(), QString("busy (now)"));

    // The Events dock lists every failure, restart and checkpoint in time order, none of the
    // per-step marks; clicking one seeks there and selects its entity.
    auto* eventsTable = w.findChild<QTableView*>("eventsTable");
    QVERIFY(eventsTable && eventsTable->isVisibleTo(&w));
    QAbstractItemModelTester tester(eventsTable->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    // Checkpoints (every few minutes) only when asked for.
    auto count = [&](bool checkpoints) {
        return int(std::count_if(events.begin(), events.end(), [&](const cs::RunEvent& e) {
            return e.kind != cs::EventKind::Step &&
                   (checkpoints || e.kind != cs::EventKind::Checkpoint);
        }));
    };
    QCOMPARE(eventsTable->model()->rowCount(), count(false));
    auto* checkpoints = w.findChild<QCheckBox*>("eventsCheckpoints");
    checkpoints->setChecked(true);
    QCOMPARE(eventsTable->model()->rowCount(), count(true));
    QVERIFY(count(true) > count(false));
    checkpoints->setChecked(false);
    int failureRow = -1;
    for (int r = 0; r < eventsTable->model()->rowCount() && failureRow < 0; ++r)
        if (eventsTable->model()->index(r, 1).data().toString() == "Failure") failureRow = r;
    QVERIFY(failureRow >= 0);
    const QString where = eventsTable->model()->index(failureRow, 2).data().toString();
    QCOMPARE(where, QString::fromStdString(w.document()->topology().nameOf(*failure->entity)));
    QCOMPARE(eventsTable->model()->index(failureRow, 0).data().toString(),
             QString::fromStdString(cs::formatElapsed(failure->tsNs)));
    w.replay()->clock()->seek(0);
    eventsTable->scrollTo(eventsTable->model()->index(failureRow, 0));
    QTest::mouseClick(eventsTable->viewport(), Qt::LeftButton, {},
                      eventsTable->visualRect(eventsTable->model()->index(failureRow, 0)).center());
    QCOMPARE(w.replay()->clock()->nowNs(), failure->tsNs);
    QVERIFY(w.view()->scene().selection().has_value());
    QCOMPARE(w.view()->scene().selection()->entity, *failure->entity);
    // N goes to the next event after now, Shift+N back to the one before.
    const int64_t before = w.replay()->clock()->nowNs();
    QVERIFY(w.replay()->nextEvent(true));
    QVERIFY(w.replay()->clock()->nowNs() > before);
    QVERIFY(w.replay()->nextEvent(false));
    QCOMPARE(w.replay()->clock()->nowNs(), before);
}

void TestMainWindow::runDescriptionFillsTheSimulateDialog() {
    MainWindow w;
    QVERIFY(w.openSource("preset:small-256", false));
    QTemporaryDir dir;
    const QString good = dir.filePath("run.json"), bad = dir.filePath("bad.json");
    auto write = [](const QString& path, const QByteArray& text) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
    };
    write(good, R"({"format": "clusterscope-run", "version": 1, "model": "llama3-8b",
 "parallel": {"tp": 8, "pp": 4, "dp": 8}, "steps": 2})");
    write(bad,
          "{\"format\": \"clusterscope-run\", \"version\": 1,\n \"parallel\": {\"tp\": \"x\"}}");
    bool opened = false;
    const auto [dp, model] =
        simulateDialogShows([&] { opened = w.openRunDescription(good, false); });
    QVERIFY(opened);
    QCOMPARE(dp, QString("8"));
    QCOMPARE(model, QString("llama3-8b"));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression("bad.json:2:.*parallel.tp"));
    QVERIFY(!w.openRunDescription(bad, false));
    // The recent files list the run description beside topologies.
    bool listed = false;
    for (QMenu* m : w.findChildren<QMenu*>())
        for (QAction* a : m->actions())
            listed |= a->text().contains("Run description: " + good);
    QVERIFY(listed);
}

void TestMainWindow::defaultRunPlaysAndIsCached() {
    const QString path = [] {
        const auto doc = cs::openTopology("meta-roce-24k", {});
        return cs::app::defaultRunCachePath(cs::app::defaultRunSpec405b(), *doc);
    }();
    QFile::remove(path);
    {
        MainWindow w;
        QVERIFY(w.openSource("preset:meta-roce-24k", false));
        w.startDefaultRun();
        QVERIFY(w.defaultRunPending()); // simulating in the background, the window responsive
        QTRY_VERIFY_WITH_TIMEOUT(w.replay()->isOpen(), 120000);
        QVERIFY(w.replay()->clock()->playing());
        QVERIFY(w.replay()->overview()->info.name.find("llama3-405b") != std::string::npos);
        QVERIFY(QFileInfo::exists(path));
        QVERIFY(!QFileInfo::exists(path + ".part"));
    }
    // The next start opens the cached run at once.
    MainWindow w;
    QVERIFY(w.openSource("preset:meta-roce-24k", false));
    w.startDefaultRun();
    QVERIFY(!w.defaultRunPending());
    QVERIFY(w.replay()->isOpen());
    // Another preset has no default run.
    MainWindow other;
    QVERIFY(other.openSource("preset:small-256", false));
    other.startDefaultRun();
    QVERIFY(!other.defaultRunPending() && !other.replay()->isOpen());
}

// Every build and engine revision caches its own default run: the cache keeps the newest few
// and deletes the rest (with their logs), nothing else in the folder.
void TestMainWindow::defaultRunCacheKeepsTheNewest() {
    QTemporaryDir dir;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QStringList names;
    for (int i = 0; i < 5; ++i) {
        const QString name = dir.filePath(QString("default-run-%1.sqlite").arg(i));
        QFile f(name);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("x");
        f.flush(); // else closing writes it and moves the time set here to now
        QVERIFY(f.setFileTime(now.addSecs(-3600 * (5 - i)), QFileDevice::FileModificationTime));
        names << name;
    }
    QFile(names[0] + "-wal").open(QIODevice::WriteOnly);
    QFile other(dir.filePath("mine.sqlite"));
    QVERIFY(other.open(QIODevice::WriteOnly));
    other.close();
    const QStringList removed = cs::app::pruneDefaultRunCache(dir.path(), 3);
    QCOMPARE(removed.size(), 2);
    QVERIFY(!QFileInfo::exists(names[0]) && !QFileInfo::exists(names[1]));
    QVERIFY(!QFileInfo::exists(names[0] + "-wal"));
    for (int i = 2; i < 5; ++i)
        QVERIFY(QFileInfo::exists(names[i]));
    QVERIFY(QFileInfo::exists(dir.filePath("mine.sqlite")));
}

// View > Compare: a second run in a second view on one clock, linked cameras, the table with
// the difference, and the first view coloured by A - B.
void TestMainWindow::comparisonShowsTwoRunsSideBySide() {
    MainWindow w;
    QVERIFY(showAt900x600(w));
    QVERIFY(w.openSource("preset:small-256", false));
    QTemporaryDir dir;
    const QString a = simulateSmallRun(w, dir.filePath("a.sqlite"), 2);
    // B: the same job with its DP replicas spread over the pods: more traffic on the uplinks.
    const QString b = dir.filePath("b.sqlite");
    {
        cs::RunSpec spec = smallRunSpec();
        spec.steps = 2;
        spec.parallel.placement = cs::Placement::Fragmented;
        cs::RunStore s = cs::RunStore::openForWriting(b);
        cs::simulateRun(*w.document(), spec, &s);
    }
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression("open or simulate a run first"));
    QVERIFY(!w.compareWith(b, false)); // nothing to compare it with yet
    QVERIFY(!w.comparison()->isOpen());
    QVERIFY(w.openRun(a, false));
    QVERIFY(w.compareWith(b, false));
    cs::app::ComparisonController* c = w.comparison();
    QVERIFY(c->isOpen());
    auto* split = w.findChild<QSplitter*>("viewSplit");
    QCOMPARE(split->count(), 2);
    QTRY_VERIFY(c->viewB()->isVisible() && w.view()->isVisible());
    // The two views take at least 60 % of the window: the left column's docks went to tabs.
    QTRY_VERIFY2(w.view()->width() + c->viewB()->width() >= w.width() * 6 / 10,
                 qPrintable(QString("%1 + %2 of %3")
                                .arg(w.view()->width())
                                .arg(c->viewB()->width())
                                .arg(w.width())));
    QVERIFY(w.dockWidgetArea(w.findChild<QDockWidget*>("topologyDock")) == Qt::RightDockWidgetArea);
    // One clock: the second view shows the frame of the time the timeline shows.
    w.replay()->clock()->seek(1'500'000'000);
    QTRY_COMPARE(c->shownNsB(), std::optional<int64_t>(1'500'000'000));
    // The table, as the user reads it: both step times and their difference.
    auto* table = w.findChild<QTableView*>("comparisonTable");
    QVERIFY(table && w.findChild<QDockWidget*>("comparisonDock")->isVisible());
    QCOMPARE(table->model()->index(0, 0).data().toString(), QString("Step time"));
    const cs::ComparisonRow* step = c->comparison().find("stepTimeS");
    QVERIFY(step && step->a > 0 && step->b > 0);
    QCOMPARE(table->model()->index(0, 1).data().toString(),
             QString::fromStdString(cs::formatFigure(step->a, "s")));
    QVERIFY(table->model()->index(0, 3).data().toString().contains(" s"));
    QAbstractItemModelTester tester(c->table(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    // The Collectives dock draws a curve for each design, named A's and B's.
    w.collectives()->setGroup(16, 8, false);
    QVERIFY(w.collectives()->run());
    QCustomPlot* collectivePlot = w.collectives()->chart()->plot();
    QCOMPARE(collectivePlot->graphCount(), 2);
    QVERIFY(collectivePlot->graph(0)->name().endsWith("(A)"));
    QVERIFY(collectivePlot->graph(1)->name().endsWith("(B)"));
    // Linked cameras: the second view follows the first, and no longer once unlinked.
    const cs::views::CameraPose there{{60, -90, 70}, {10, 20, 0}, {0, 0, 1}};
    w.view()->setCameraPose(there);
    QCOMPARE(c->viewB()->cameraPose().position[0], 60.0);
    auto* link = w.findChild<QAction*>("linkCamerasAction");
    link->trigger(); // unlinked
    w.view()->setCameraPose({{5, -9, 7}, {1, 2, 0}, {0, 0, 1}});
    QCOMPARE(c->viewB()->cameraPose().position[0], 60.0);
    link->trigger();
    // The second view follows the first's layout.
    w.viewControls()->layoutBox()->setCurrentIndex(1);
    QCOMPARE(c->viewB()->scene().layoutKind(), cs::LayoutKind::Fabric);
    // Colour by the difference: A - B per GPU, each from -1 to 1, not all equal (the
    // placements differ).
    QComboBox* colour = w.viewControls()->colourBox();
    const int difference = colour->findText("Difference A - B");
    QVERIFY(difference >= 0);
    colour->setCurrentIndex(difference);
    QCOMPARE(w.view()->scene().metric(), cs::views::ValueMetric::Difference);
    QTRY_VERIFY(!w.view()->scene().values().gpu.empty());
    const std::vector<float>& d = w.view()->scene().values().gpu;
    float lo = 1, hi = -1;
    for (float v : d)
        if (!std::isnan(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    QVERIFY2(lo >= -1 && hi <= 1 && lo < hi, qPrintable(QString("%1 %2").arg(lo).arg(hi)));
    // A session keeps both sides: reopened, the window compares the same runs, coloured alike.
    link->trigger(); // unlinked, as the session will say
    const QString session = dir.filePath("compare.clusterscope");
    QVERIFY(w.saveSession(session, false));
    QCOMPARE(sessionKeysNotDocumented(session), QStringList()); // compare's keys too
    {
        MainWindow w2;
        QVERIFY(showAt900x600(w2));
        QVERIFY(w2.openSession(session, false));
        QVERIFY(w2.comparison()->isOpen());
        QCOMPARE(w2.comparison()->runPathB(), b);
        QVERIFY(!w2.comparison()->camerasLinked());
        QCOMPARE(w2.view()->scene().metric(), cs::views::ValueMetric::Difference);
    }
    // Closing the comparison takes the second view away; the run stays.
    c->close();
    QCOMPARE(split->count(), 1);
    QVERIFY(colour->findText("Difference A - B") < 0);
    QCOMPARE(w.view()->scene().metric(), cs::views::ValueMetric::Run);
    QVERIFY(w.replay()->isOpen());
}

// The Design dock as a designer uses it: oversubscription 2:1 -> 4:1 typed into its field
// regenerates the fabric in place (the camera stays), undo and redo walk the edit, a value
// the field refuses changes nothing, and Simulate on This Design runs the open run's settings
// on the new fabric: the comparison table then reads the new step time beside the earlier.
void TestMainWindow::designDockChangesTheFabricAndResimulates() {
    MainWindow w;
    QVERIFY(showAt900x600(w));
    QVERIFY(w.openSource("preset:small-256", false));
    QTemporaryDir dir;
    const QString earlier = dir.filePath("earlier.sqlite");
    {
        cs::RunSpec spec = smallRunSpec();
        spec.steps = 1;
        spec.parallel.placement = cs::Placement::Fragmented; // DP crosses the pods' uplinks
        cs::RunStore s = cs::RunStore::openForWriting(earlier);
        cs::simulateRun(*w.document(), spec, &s);
    }
    QVERIFY(w.openRun(earlier, false));
    cs::app::DesignDock* dock = w.designDock();
    auto* field = dock->findChild<QLineEdit*>("generator.clusters[0].oversubscription");
    QVERIFY(field);
    QCOMPARE(field->text(), QString("2"));
    const cs::views::CameraPose pose{{80, -120, 90}, {20, 30, 0}, {0, 0, 1}};
    w.view()->setCameraPose(pose);
    field->selectAll();
    QTest::keyClicks(field, "4");
    QTest::keyClick(field, Qt::Key_Return);
    QVERIFY2(dock->problem().isEmpty(), qPrintable(dock->problem()));
    QCOMPARE(QString::fromStdString(w.document()->topology().name), QString("small-256 (edited)"));
    QCOMPARE(w.document()->stats().oversubscription, 4.0);
    QVERIFY(w.view()->cameraPose() == pose); // the camera stays where the user looked
    QVERIFY(w.runPath().isEmpty());          // the run was made on the earlier fabric
    QVERIFY(dock->findChild<QPushButton*>("designSimulate")->isVisible());
    QVERIFY(dock->findChild<QLabel*>("designFigures")->text().contains("4.00:1"));
    // Undo and redo walk the edit, in the form and in the topology.
    dock->findChild<QPushButton*>("designUndo")->click();
    QCOMPARE(field->text(), QString("2"));
    QCOMPARE(w.document()->stats().oversubscription, 2.0);
    dock->findChild<QPushButton*>("designRedo")->click();
    QCOMPARE(field->text(), QString("4"));
    QCOMPARE(w.document()->stats().oversubscription, 4.0);
    // A value the field refuses: said under the form, the design unchanged.
    field->selectAll();
    QTest::keyClicks(field, "abc");
    QTest::keyClick(field, Qt::Key_Return);
    QVERIFY2(dock->problem().startsWith("Oversubscription") && dock->problem().contains("expected"),
             qPrintable(dock->problem()));
    QCOMPARE(w.document()->stats().oversubscription, 4.0);
    // Save Design As: the form asks for a name and a description (it offers the design's own
    // name and refuses none), and the file opens as this design under them; the window says
    // the new name and the Summary the description.
    const QString saved = dir.filePath("mine.json");
    QString offered, refusal;
    QTimer::singleShot(0, &w, [&] {
        QWidget* modal = QApplication::activeModalWidget();
        auto* d = qobject_cast<cs::app::DesignSaveDialog*>(modal);
        if (!d) {
            if (modal) modal->close();
            return;
        }
        offered = d->nameEdit()->text();
        QPushButton* save = d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Save);
        d->nameEdit()->setText("  ");
        save->click();
        refusal = d->isVisible() ? d->problemLabel()->text() : QString();
        d->nameEdit()->setText("small-256 4:1");
        d->descriptionEdit()->setText("fewer pod uplinks for the DP traffic");
        d->pathEdit()->setText(dir.filePath("mine")); // .json added
        save->click();
        if (d->isVisible()) d->reject();
    });
    dock->findChild<QPushButton*>("designSave")->click();
    QCOMPARE(offered, QString("small-256 (edited)"));
    QVERIFY2(refusal.startsWith("Name: expected"), qPrintable(refusal));
    const cs::LoadedTopology back = cs::loadTopologyFile(saved);
    QVERIFY(back.params && *back.params == *w.document()->params());
    QCOMPARE(QString::fromStdString(back.topology.name), QString("small-256 4:1"));
    QCOMPARE(QString::fromStdString(back.topology.description),
             QString("fewer pod uplinks for the DP traffic"));
    QVERIFY2(w.windowTitle().startsWith("small-256 4:1"), qPrintable(w.windowTitle()));
    QVERIFY(w.findChild<QPlainTextEdit*>("summary")->toPlainText().contains(
        "fewer pod uplinks for the DP traffic"));
    // Re-simulated on the new fabric, beside the earlier run, which is the baseline A (left),
    // the new run B: B - A reads as what the edit changed.
    QVERIFY(w.simulateOnDesign(false));
    QVERIFY(w.comparison()->isOpen());
    QCOMPARE(w.comparison()->runPathB(), earlier);
    auto stepOf = [](const QString& path) {
        const cs::RunInfo r = cs::RunReader::runsIn(path).back();
        return QJsonDocument::fromJson(QByteArray::fromStdString(r.summaryJson))["stepTimeS"]
            .toDouble();
    };
    auto* table = w.findChild<QTableView*>("comparisonTable");
    QCOMPARE(table->model()->index(0, 0).data().toString(), QString("Step time"));
    QCOMPARE(table->model()->index(0, 1).data().toString(),
             QString::fromStdString(cs::formatFigure(stepOf(earlier), "s")));
    QCOMPARE(table->model()->index(0, 2).data().toString(),
             QString::fromStdString(cs::formatFigure(stepOf(w.runPath()), "s")));
    const cs::ComparisonRow* step = w.comparison()->comparison().find("stepTimeS");
    QVERIFY2(step->b > step->a, "4:1 uplinks slow the fragmented job's DP traffic");
    const QString names = w.findChild<QLabel*>("comparisonNames")->text();
    QVERIFY2(names.startsWith("A (left): llama3-8b on small-256, earlier.sqlite") &&
                 names.contains("B (right): llama3-8b on small-256 4:1"),
             qPrintable(names));
    // The earlier design's view is on the left of the window's own.
    auto* split = qobject_cast<QSplitter*>(w.view()->parentWidget());
    QVERIFY(split);
    QCOMPARE(split->indexOf(w.comparison()->viewB()), 0);
    QCOMPARE(split->indexOf(w.view()), 1);
    // The charts name the dashed run A.
    QStringList legends;
    for (QCustomPlot* plot : w.findChildren<QCustomPlot*>())
        for (int g = 0; g < plot->graphCount(); ++g)
            legends << plot->graph(g)->name();
    QVERIFY2(legends.contains("A: step time") && !legends.contains("B: step time"),
             qPrintable(legends.join(", ")));
    // The Collectives dock runs on both designs, A the earlier; closing the comparison leaves it
    // the window's design alone (the second is gone with the comparison).
    auto* collectives = w.findChild<cs::app::CollectivesDock*>();
    collectives->setGroup(16, 8, false);
    QVERIFY2(collectives->run(), qPrintable(collectives->problem()));
    QCOMPARE(collectives->chart()->curves().size(), size_t(2));
    QVERIFY2(collectives->chart()->curves()[0].label.contains("small-256 (A)"),
             qPrintable(collectives->chart()->curves()[0].label));
    QVERIFY2(collectives->chart()->curves()[1].label.contains("small-256 4:1 (B)"),
             qPrintable(collectives->chart()->curves()[1].label));
    w.comparison()->close();
    QVERIFY2(collectives->run(), qPrintable(collectives->problem()));
    QCOMPARE(collectives->chart()->curves().size(), size_t(1));
    QVERIFY(collectives->chart()->curves()[0].label.contains("small-256 4:1"));
    QVERIFY(w.simulateOnDesign(false)); // the comparison again, for the session
    const double baselineStepS = w.comparison()->comparison().find("stepTimeS")->a;
    // A session keeps the sides.
    const QString session = dir.filePath("design.clusterscope");
    QVERIFY(w.saveSession(session, false));
    QCOMPARE(sessionKeysNotDocumented(session), QStringList()); // design, baseline
    MainWindow again;
    QVERIFY(showAt900x600(again));
    QVERIFY(again.openSession(session, false));
    QVERIFY(again.comparison()->secondIsBaseline());
    QCOMPARE(again.comparison()->comparison().find("stepTimeS")->a, baselineStepS);
}

// A spine uplink failed in the Design dock: outlined in red in the view, kept by Save Design
// As, marked again when the file opens, and routed around by a run on the design.
void TestMainWindow::designFaultsAreMarkedAndKept() {
    MainWindow w;
    QVERIFY(showAt900x600(w));
    QVERIFY(w.openSource("preset:small-256", false));
    const cs::Topology& t = w.document()->topology();
    cs::Endpoint uplink{cs::EntityKind::Link, -1};
    for (size_t l = 0; l < t.links.size() && uplink.index < 0; ++l)
        if (t.links[l].a.kind == cs::EntityKind::Switch &&
            t.links[l].b.kind == cs::EntityKind::Switch)
            uplink.index = int32_t(l);
    QVERIFY(uplink.index >= 0);
    const QString id = QString::fromStdString(t.nameOf(uplink));
    cs::app::DesignDock* dock = w.designDock();
    dock->findChild<QPlainTextEdit*>("design.fabric.failed")->setPlainText(id);
    dock->findChild<QPushButton*>("designApplyFaults")->click();
    QVERIFY2(dock->problem().isEmpty(), qPrintable(dock->problem()));
    auto marked = [&] {
        const auto m = w.view()->state().marked;
        return std::find(m.begin(), m.end(), uplink) != m.end();
    };
    QVERIFY(marked());
    QVERIFY(dock->findChild<QLabel*>("designFigures")->text().contains("1 part failed"));
    QTemporaryDir dir;
    const QString saved = dir.filePath("spine-down.json");
    QVERIFY(w.saveDesign(saved, false));
    QVERIFY(w.openSource("preset:small-256", false));
    QVERIFY(!marked());
    QVERIFY(w.openSource(saved, false));
    QVERIFY(marked());
    QCOMPARE(dock->findChild<QPlainTextEdit*>("design.fabric.failed")->toPlainText(), id);
    cs::RunSpec spec = smallRunSpec();
    spec.steps = 1;
    const cs::RunResult r = cs::simulateRun(*w.document(), spec, nullptr);
    QCOMPARE(r.failedLinks, std::vector<int32_t>{uplink.index});
}

int main(int argc, char** argv) {
    cs::views::useVtkSurfaceFormat(); // as the app does
    QApplication app(argc, argv);
    TestMainWindow t;
    return QTest::qExec(&t, argc, argv);
}
#include "tst_main_window.moc"
