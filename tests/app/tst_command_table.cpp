// The commands' descriptions (CommandSpec.h) as the parser, --help and the docs use them:
// what a synopsis names, the parser takes; names are unique; lines fit 100 columns; an option
// the description does not hold is refused, naming it.
#include "CommandLine.h"
#include "GuiOptions.h"

#include <QRegularExpression>
#include <QTest>

#include <set>

using namespace cs::app;

Q_DECLARE_METATYPE(const cs::app::CommandSpec*)

namespace {
std::vector<const CommandSpec*> every() {
    std::vector<const CommandSpec*> all{&guiSpec(), &guiSessionSpec()};
    for (const CliCommand& c : cliCommands())
        all.push_back(&c.spec);
    return all;
}
QString nameOf(const CommandSpec& c) {
    return c.name.empty() ? QString("(gui %1)").arg(QString::fromStdString(c.head))
                          : QString::fromStdString(c.name);
}
} // namespace

class TestCommandTable : public QObject {
    Q_OBJECT
private slots:
    void synopsisNamesOnlyWhatTheParserTakes_data();
    void synopsisNamesOnlyWhatTheParserTakes();
    void namesAreUnique();
    void usageFitsTheColumns();
    void parserRefusesWhatTheDescriptionLacks();
    void undeclaredLookupsFail();
};

void TestCommandTable::synopsisNamesOnlyWhatTheParserTakes_data() {
    QTest::addColumn<const CommandSpec*>("spec");
    for (const CommandSpec* c : every())
        QTest::newRow(qPrintable(nameOf(*c))) << c;
}

void TestCommandTable::synopsisNamesOnlyWhatTheParserTakes() {
    QFETCH(const CommandSpec*, spec);
    std::set<std::string> flags;
    for (const CommandOption& o : spec->options)
        flags.insert(o.flag);
    const QRegularExpression flag(R"((?:^|[\s\[(|])(--?[a-z][a-z0-9-]*))");
    for (auto m = flag.globalMatch(QString::fromStdString(spec->head)); m.hasNext();) {
        const std::string f = m.next().captured(1).toStdString();
        QVERIFY2(flags.count(f), qPrintable(nameOf(*spec) + " names " + QString::fromStdString(f)));
    }
    // And every option the parser takes is listed by the command's help.
    const std::string help = commandHelp(*spec);
    for (const CommandOption& o : spec->options)
        QVERIFY2(help.find("  " + o.flag + (o.value.empty() ? "" : " " + o.value)) !=
                     std::string::npos,
                 o.flag.c_str());
}

void TestCommandTable::namesAreUnique() {
    std::set<std::string> names;
    for (const CliCommand& c : cliCommands()) {
        QVERIFY2(names.insert(c.spec.name).second, c.spec.name.c_str());
        QVERIFY(c.run);
        QCOMPARE(findCommand(QString::fromStdString(c.spec.name)), &c);
        std::set<std::string> flags;
        for (const CommandOption& o : c.spec.options)
            QVERIFY2(flags.insert(o.flag).second, (c.spec.name + " " + o.flag).c_str());
    }
    QVERIFY(!findCommand("--help") && !findCommand("nonesuch"));
}

void TestCommandTable::usageFitsTheColumns() {
    const QStringList lines = QString::fromStdString(usageText(every())).split('\n');
    for (const QString& line : lines)
        if (!line.startsWith("Presets:")) QVERIFY2(line.size() <= 100, qPrintable(line));
}

void TestCommandTable::parserRefusesWhatTheDescriptionLacks() {
    for (const CliCommand& c : cliCommands()) {
        const QString name = QString::fromStdString(c.spec.name);
        QVERIFY_THROWS_EXCEPTION(UsageError, parseCommandArgs(c.spec, {name, "--no-such-option"}));
        for (const CommandOption& o : c.spec.options)
            if (!o.value.empty()) {
                try {
                    parseCommandArgs(c.spec, {name, QString::fromStdString(o.flag)});
                    QFAIL(qPrintable(name + " " + QString::fromStdString(o.flag) +
                                     " without a value was accepted"));
                } catch (const UsageError& e) {
                    QCOMPARE(QString(e.what()),
                             QString::fromStdString(o.flag) + ": expected a value");
                }
            }
    }
}

// Code that asks a command for an option it does not declare (a typo such as "--presets")
// fails loudly instead of reading "not given"; declared ones answer as parsed.
void TestCommandTable::undeclaredLookupsFail() {
    for (const CliCommand& c : cliCommands()) {
        const QString name = QString::fromStdString(c.spec.name);
        const CommandArgs a = parseCommandArgs(c.spec, {name});
        QVERIFY_THROWS_EXCEPTION(UndeclaredOption, a.value("--presets"));
        QVERIFY_THROWS_EXCEPTION(UndeclaredOption, a.values("--presets"));
        QVERIFY_THROWS_EXCEPTION(UndeclaredOption, a.has("--presets"));
        QVERIFY_THROWS_EXCEPTION(UndeclaredOption, a.flag("--presets"));
        for (const CommandOption& o : c.spec.options) {
            const QString flag = QString::fromStdString(o.flag);
            QVERIFY(a.declares(flag));
            if (o.value.empty()) {
                QVERIFY(!a.flag(flag));
                QVERIFY_THROWS_EXCEPTION(UndeclaredOption, a.value(flag)); // a switch has none
            } else {
                QVERIFY(!a.has(flag));
                QVERIFY_THROWS_EXCEPTION(UndeclaredOption, a.flag(flag));
            }
        }
    }
    const CommandArgs given = parseCommandArgs(simulateSpec(), {"simulate", "--tp", "4", "--json"});
    QCOMPARE(given.value("--tp"), QString("4"));
    QVERIFY(given.flag("--json"));
}

QTEST_GUILESS_MAIN(TestCommandTable)
#include "tst_command_table.moc"
