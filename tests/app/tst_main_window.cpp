// The GUI shell: opening presets and files, selection linking tree and inspector, and a bad
// file that leaves the open topology untouched.
#include "AboutDialog.h"
#include "MainWindow.h"

#include <QItemSelectionModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using cs::app::MainWindow;

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void opensPresetAndSelects();
    void badFileKeepsCurrentTopology();
    void aboutNamesVersions();
};

void TestMainWindow::opensPresetAndSelects() {
    MainWindow w;
    QVERIFY(w.openSource("preset:small-256", false));
    QCOMPARE(w.document()->topology().gpus.size(), size_t(256));
    QVERIFY(w.windowTitle().contains("small-256"));
    QVERIFY(w.selectById("demo.pod1.rack2.host0.gpu4"));
    QCOMPARE(w.treeView()->currentIndex().data(Qt::ToolTipRole).toString(),
             QString("demo.pod1.rack2.host0.gpu4"));
    auto* table = w.findChild<QTableView*>();
    QVERIFY(table);
    QCOMPARE(table->model()->index(0, 1).data().toString(), QString("demo.pod1.rack2.host0.gpu4"));
    QVERIFY(!w.selectById("no.such.thing"));
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

void TestMainWindow::aboutNamesVersions() {
    const QString text = cs::app::aboutText();
    QVERIFY(text.contains(QString::fromLatin1(qVersion())));
    QVERIFY(text.contains("VTK 9."));
}

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
