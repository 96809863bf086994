// One value, three ways in: `clusterscope simulate` flags (through the real argument parser),
// the simulation dialog (typed into its fields, Run pressed) and a run file. For every option
// of the table and values at and beyond its limits, all three accept it and hold the same run,
// or all three refuse it, the dialog naming the option by its label.
#include "DialogMessage.h"
#include "RunOptions.h"
#include "RunSpecJson.h"
#include "SimulateArgs.h"
#include "SimulationDialog.h"
#include "TopologyDocument.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <variant>

using namespace cs;

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString textOf(const RunSpec& s) {
    QString all;
    for (const RunOption& o : runOptions())
        all += qs(o.key) + "=" + runOptionText(s, o) + "\n";
    return all;
}

// The text as a run file holds it: numbers as numbers (when the text is one), on / off as
// true / false, everything else as a string (which the reader refuses for numbers and bools).
QJsonValue fileValue(const RunOption& o, const QString& text) {
    if (o.type == FieldType::Integer || o.type == FieldType::Number) {
        const QJsonDocument d = QJsonDocument::fromJson(("[" + text + "]").toUtf8());
        if (d.isArray() && d.array().size() == 1 && d.array()[0].isDouble()) return d.array()[0];
    }
    if (o.type == FieldType::Bool && (text == "on" || text == "off")) return text == "on";
    return text;
}

struct Outcome {
    std::optional<RunSpec> spec;
    QString error;
};

Outcome viaCli(const RunOption& o, const QString& text) {
    try {
        return {app::parseSimulateArgs({"simulate", qs(o.flag), text}), {}};
    } catch (const std::exception& e) {
        return {std::nullopt, e.what()};
    }
}

Outcome viaFile(const RunOption& o, const QString& text) {
    QJsonObject root{{"format", "clusterscope-run"}, {"version", 2}};
    if (o.key != "steps" && o.key != "span") root["steps"] = 1;
    // The value at its dotted path ("parallel.overlap.tpComm"), objects nested on the way.
    const QStringList path = qs(o.key).split('.');
    QJsonValue value = fileValue(o, text);
    for (qsizetype i = path.size() - 1; i > 0; --i)
        value = QJsonObject{{path[i], value}};
    root[path.front()] = value;
    try {
        return {parseRunSpec(QJsonDocument(root).toJson(), "row.json"), {}};
    } catch (const std::exception& e) {
        return {std::nullopt, e.what()};
    }
}

// Types the value into the dialog's field and presses Run. Nothing when the field cannot hold
// the value at all (a name not in a combo box, a bool other than on / off).
std::optional<bool> viaDialog(app::SimulationDialog& d, const RunOption& o, const QString& text) {
    const QString key = qs(o.key);
    d.findChild<QCheckBox*>("useSpan")->setChecked(key == "span");
    QWidget* w = d.findChild<QWidget*>(key);
    if (!w) return false;
    if (auto* edit = qobject_cast<QLineEdit*>(w)) {
        if (!edit->isEnabled()) return false;
        edit->clear();
        QTest::keyClicks(edit, text);
        if (edit->text() != text) return false;
    } else if (auto* box = qobject_cast<QComboBox*>(w)) {
        if (box->findText(text) < 0) return std::nullopt;
        box->setCurrentText(text);
    } else if (auto* check = qobject_cast<QCheckBox*>(w)) {
        if (text != "on" && text != "off") return std::nullopt;
        check->setChecked(text == "on");
    }
    d.setResult(QDialog::Rejected);
    d.findChild<QPushButton*>("run")->click();
    return d.result() == QDialog::Accepted;
}

// What the dialog checks beyond the fields, for a spec the parsers accepted.
QString crossProblem(const RunSpec& s) {
    try {
        validateRunSpec(s);
        checkTrainingConfig(*findModel(s.model), *findGpu(s.gpu), s.parallel);
    } catch (const std::exception& e) {
        return app::dialogMessage(e);
    }
    return {};
}

// What a row's text must give: accepted or refused by every parser and, when accepted, the
// option's value (nothing: the text itself reads back).
struct Expected {
    bool accepted = false;
    std::optional<FieldValue> value;
};

// A choice reads back as itself, an alias as the name it stands for (the option's help says
// "dp-innermost (or linear)").
std::string canonicalChoice(const std::string& choice) {
    return choice == "linear" ? "dp-innermost" : choice;
}

// A duration row: the seconds its text means (none where it is no duration by Duration.h's
// grammar: two dots, a sign, no number, a space), accepted when within the option's range.
Expected durationRow(const RunOption& o, const QString& text) {
    static const std::map<QString, double> seconds{{"15m", 15 * 60.0},
                                                   {"0.5s", 0.5},
                                                   {"1h30m", 90 * 60.0},
                                                   {"366d", 366 * 86400.0},
                                                   {"367d", 367 * 86400.0}};
    const auto s = seconds.find(text);
    if (s == seconds.end()) return {};
    return {s->second >= o.min && s->second <= o.max, FieldValue{s->second}};
}

QString numberText(double v) {
    return std::floor(v) == v ? QString::number((long long)v) : QString::number(v, 'g', 17);
}

} // namespace

Q_DECLARE_METATYPE(Expected)

class TestRunOptionsUi : public QObject {
    Q_OBJECT
private slots:
    void dialogFitsTheScreen();
    void everyWayInAgrees_data();
    void everyWayInAgrees();
    void dialogSavesAndOpensRunFiles();
    void dialogKeepsAndChecksFabricFaults();
};

void TestRunOptionsUi::everyWayInAgrees_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("mustAccept"); // a value every check passes
    QTest::addColumn<Expected>("expected");
    for (const RunOption& o : runOptions()) {
        struct Row {
            QString name, text;
            Expected expected;
        };
        std::vector<Row> rows;
        // Span's default is none (steps are simulated); Llama 3's 54 days stands in for it.
        const QString typical = o.key == "span" ? "54d" : qs(o.defaultText);
        switch (o.type) {
        case FieldType::Integer:
        case FieldType::Number: {
            // (Spaces and exponents are no row: a run file writes 8 for " 8" and 1e3.)
            const bool integer = o.type == FieldType::Integer;
            auto number = [&](double v) {
                return integer ? FieldValue{(long long)v} : FieldValue{v};
            };
            const double fraction = o.min + 0.5;
            rows = {{"min", numberText(o.min), {true, number(o.min)}},
                    {"max", numberText(o.max), {true, number(o.max)}},
                    {"min-1", numberText(o.min - 1), {}},
                    {"max+1", numberText(o.max + 1), {}},
                    {"not a number", "abc", {}},
                    {"fraction",
                     numberText(fraction),
                     {!integer && fraction <= o.max, FieldValue{fraction}}},
                    {"empty", "", {}}};
            break;
        }
        case FieldType::Choice:
            for (const std::string& c : o.choices)
                rows.push_back({qs(c), qs(c), {true, canonicalChoice(c)}});
            rows.push_back({"unknown", "nonesuch", {}});
            {
                // Names are matched exactly: upper case is only a choice if it is one.
                const std::string upper = qs(o.choices.front()).toUpper().toStdString();
                const bool listed =
                    std::find(o.choices.begin(), o.choices.end(), upper) != o.choices.end();
                rows.push_back({"upper case", qs(upper), {listed, upper}});
            }
            break;
        case FieldType::Duration:
            for (const char* t : {"15m", "0.5s", "1h30m", "1.2.3h", "-5s", ".", "", "5 m"})
                rows.push_back({t, t, durationRow(o, t)});
            rows.push_back({"max", "366d", durationRow(o, "366d")});
            rows.push_back({"max+1", "367d", durationRow(o, "367d")});
            break;
        case FieldType::Text: // the pipeline layout: its syntax here, the model's fit later
            rows = {{"empty", "", {true, std::string()}},
                    {"layout", "Et*4|(t*4|)*14tmL", {true, std::string("Et*4|(t*4|)*14tmL")}},
                    {"open group", "E(t|L", {}},
                    {"unknown symbol", "Etx|L", {}}};
            break;
        case FieldType::Bool:
            rows = {{"on", "on", {true, true}},
                    {"off", "off", {true, false}},
                    {"yes", "yes", {}},
                    {"true", "true", {}},
                    {"", "", {}}};
            break;
        }
        QTest::newRow(qPrintable(qs(o.key) + " typical"))
            << qs(o.key) << typical << true << Expected{true, {}};
        for (const Row& r : rows)
            QTest::newRow(qPrintable(qs(o.key) + " " + r.name + " \"" + r.text + "\""))
                << qs(o.key) << r.text << false << r.expected;
    }
}

void TestRunOptionsUi::everyWayInAgrees() {
    QFETCH(QString, key);
    QFETCH(QString, text);
    QFETCH(bool, mustAccept);
    QFETCH(Expected, expected);
    const RunOption& o = *findRunOption(key.toStdString());
    const Outcome cli = viaCli(o, text), file = viaFile(o, text);
    // The answer the option's declared range or choices give, and the value read back.
    QVERIFY2(cli.spec.has_value() == expected.accepted,
             qPrintable(QString("expected %1, the command line %2")
                            .arg(expected.accepted ? "accepted" : "refused",
                                 cli.spec ? "accepted it" : "refused it: " + cli.error)));
    if (cli.spec && expected.value)
        QVERIFY2(o.get(*cli.spec) == *expected.value,
                 qPrintable("read back " + runOptionText(*cli.spec, o)));
    if (cli.spec && !expected.value) QCOMPARE(runOptionText(*cli.spec, o), text);
    QVERIFY2(cli.spec.has_value() == file.spec.has_value(),
             qPrintable("command line: " + (cli.spec ? "accepted" : cli.error) +
                        "\nrun file: " + (file.spec ? "accepted" : file.error)));
    app::SimulationDialog d(nullptr);
    const std::optional<bool> accepted = viaDialog(d, o, text);
    const QString problem = d.findChild<QLabel*>("problem")->text();
    if (!cli.spec) {
        QVERIFY2(!mustAccept, qPrintable(cli.error));
        // Refused by the flag, at the file's value, and in the dialog by the option's label.
        QVERIFY2(cli.error.startsWith(qs(o.flag) + ": expected "), qPrintable(cli.error));
        QVERIFY2(file.error.startsWith("row.json:") && file.error.contains(" " + key + ": "),
                 qPrintable(file.error));
        if (!accepted.has_value()) return; // the field cannot even hold it
        QVERIFY2(!*accepted, "the dialog accepted it");
        QVERIFY2(problem.startsWith(qs(o.label) + ": expected "), qPrintable(problem));
        QVERIFY2(!problem.contains(qs(o.flag)) && !problem.contains("parallel."),
                 qPrintable(problem));
        return;
    }
    QCOMPARE(runOptionText(*file.spec, o), runOptionText(*cli.spec, o));
    QCOMPARE(textOf(*file.spec), textOf(*cli.spec));
    QVERIFY2(accepted.has_value(), "the dialog cannot hold a value the parsers accept");
    // The dialog also checks the run can train (heads, layers, memory): the same problem as
    // the model finds in the command line's spec, in the dialog's words.
    const QString cross = crossProblem(*cli.spec);
    if (mustAccept) QVERIFY2(cross.isEmpty(), qPrintable(cross));
    if (!cross.isEmpty()) {
        QVERIFY(!*accepted);
        QCOMPARE(problem, cross);
        QVERIFY2(!problem.contains("--") && !problem.contains("parallel."), qPrintable(problem));
        return;
    }
    QVERIFY2(*accepted, qPrintable(problem));
    QVERIFY(problem.isEmpty());
    QCOMPARE(runOptionText(d.spec(), o), runOptionText(*cli.spec, o));
    QCOMPARE(textOf(d.spec()), textOf(*cli.spec));
}

void TestRunOptionsUi::dialogSavesAndOpensRunFiles() {
    QTemporaryDir dir;
    const QString path = dir.filePath("run.json");
    app::SimulationDialog d(nullptr);
    d.findChild<QComboBox*>("model")->setCurrentText("llama3-70b");
    d.findChild<QLineEdit*>("parallel.pp")->setText("4");
    d.findChild<QLineEdit*>("parallel.virtualStages")->setText("4"); // 80 layers: 4 x 4 x 5
    d.findChild<QLineEdit*>("parallel.dp")->setText("32");
    d.findChild<QCheckBox*>("useSpan")->setChecked(true);
    d.findChild<QLineEdit*>("span")->setText("12h");
    d.findChild<QCheckBox*>("failures")->setChecked(true);
    QString error;
    QVERIFY2(d.saveRunFile(path, &error), qPrintable(error));
    QVERIFY2(d.checkSpec(), qPrintable(d.findChild<QLabel*>("problem")->text()));
    const RunSpec saved = d.spec();
    QCOMPARE(saved.spanS, 12 * 3600.0);

    app::SimulationDialog opened(nullptr);
    QVERIFY2(opened.loadRunFile(path, &error), qPrintable(error));
    QVERIFY(opened.findChild<QCheckBox*>("useSpan")->isChecked());
    QVERIFY(opened.checkSpec());
    QCOMPARE(textOf(opened.spec()), textOf(saved));
    QCOMPARE(textOf(loadRunSpec(path)), textOf(saved)); // the file the CLI's --run reads

    // A bad file: located as the reader reports it, the form left as it was.
    QFile bad(dir.filePath("bad.json"));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("{\"format\": \"clusterscope-run\", \"version\": 1, \"steps\": 1,\n"
              "  \"parallel\": {\"tp\": 2000}}\n");
    bad.close();
    QVERIFY(!opened.loadRunFile(bad.fileName(), &error));
    QVERIFY2(error.startsWith(bad.fileName() + ":2:") &&
                 error.contains("parallel.tp: expected an integer from 1 to 1024"),
             qPrintable(error));
    QCOMPARE(opened.findChild<QLineEdit*>("parallel.tp")->text(), QString("8"));
    QVERIFY(!d.saveRunFile(dir.filePath("no/such/dir/run.json"), &error));
    QVERIFY(error.contains("cannot write"));
}

void TestRunOptionsUi::dialogKeepsAndChecksFabricFaults() {
    // A run file's faults come into the form, go out again with Run and Save, and parts the
    // topology does not have are marked with what was expected.
    const auto doc = openTopology("small-256", {});
    const Topology& t = doc->topology();
    const std::string spine = t.switches.back().name;
    const std::string link = t.nameOf({EntityKind::Link, 0});
    QTemporaryDir dir;
    const QString path = dir.filePath("run.json");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QString(R"({"format": "clusterscope-run", "version": 2, "model": "llama3-8b",
  "parallel": {"tp": 8, "pp": 1, "dp": 16}, "steps": 1,
  "fabric": {"failed": ["%1"], "degraded": {"%2": 0.5}}})")
                   .arg(QString::fromStdString(spine), QString::fromStdString(link))
                   .toUtf8());
    file.close();
    app::SimulationDialog d(doc.get());
    QString error;
    QVERIFY2(d.loadRunFile(path, &error), qPrintable(error));
    auto* failed = d.findChild<QPlainTextEdit*>("fabric.failed");
    auto* degraded = d.findChild<QPlainTextEdit*>("fabric.degraded");
    QCOMPARE(failed->toPlainText(), QString::fromStdString(spine));
    QCOMPARE(degraded->toPlainText(), QString::fromStdString(link) + "=0.5");
    QVERIFY2(d.checkSpec(), qPrintable(d.findChild<QLabel*>("problem")->text()));
    QVERIFY(d.spec().fabric == loadRunSpec(path).fabric);
    if (qEnvironmentVariableIsSet("CS_SCREENSHOT_DIR")) // to look at the form as users see it
        d.grab().save(qEnvironmentVariable("CS_SCREENSHOT_DIR") + "/simulation-dialog.png");
    // A part the topology lacks, and a fraction out of range: marked, the run refused.
    failed->setPlainText(QString::fromStdString(spine) + "\nno-such-switch");
    QVERIFY(!d.checkSpec());
    QCOMPARE(d.markedFields(), QStringList{"fabric.failed"});
    QVERIFY(d.findChild<QLabel*>("problem")->text().contains("fabric.failed[1]"));
    failed->setPlainText(QString::fromStdString(spine));
    degraded->setPlainText(QString::fromStdString(link) + "=2");
    QVERIFY(!d.checkSpec());
    QCOMPARE(d.markedFields(), QStringList{"fabric.degraded"});
    QVERIFY(d.findChild<QLabel*>("problem")->text().contains("line 1"));
}

// Every option has a row, more than a 1080-pixel screen holds: the form scrolls, and the dialog
// with its buttons stays on the screen.
void TestRunOptionsUi::dialogFitsTheScreen() {
    app::SimulationDialog d(nullptr);
    d.show();
    QVERIFY(QTest::qWaitForWindowExposed(&d));
    const QRect screen = d.screen()->availableGeometry();
    QVERIFY2(d.frameGeometry().height() <= screen.height(),
             qPrintable(QString("%1 of %2").arg(d.frameGeometry().height()).arg(screen.height())));
    auto* run = d.findChild<QPushButton*>("run");
    QVERIFY(run->isVisible());
    QVERIFY(d.rect().contains(QRect(run->mapTo(&d, QPoint(0, 0)), run->size())));
    // The last field is reached by scrolling, not cut off.
    auto* scroll = d.findChild<QScrollArea*>("formScroll");
    QWidget* last = d.findChild<QWidget*>("seed");
    scroll->ensureWidgetVisible(last);
    QVERIFY(scroll->viewport()->rect().contains(last->mapTo(scroll->viewport(), QPoint(0, 0))));
    // The empty pipeline layout says what it means, and its example fits the field.
    auto* layout = d.findChild<QLineEdit*>("parallel.pipelineLayout");
    QVERIFY(layout->text().isEmpty());
    QVERIFY(layout->placeholderText().startsWith("even split"));
    QVERIFY2(layout->fontMetrics().horizontalAdvance(layout->placeholderText()) <
                 layout->contentsRect().width(),
             qPrintable(QString::number(layout->contentsRect().width())));
}

QTEST_MAIN(TestRunOptionsUi)
#include "tst_run_options_ui.moc"
