// The one field table (FieldTable.h): what each type of field says it takes, which texts and
// JSON values it reads, how it refuses the rest, and that run options and design fields are
// rows of that one kind (a row of each refused in the same words for the same range).
#include "DesignFields.h"
#include "FieldTable.h"
#include "InputError.h"
#include "RunOptions.h"

#include <QJsonValue>
#include <QTest>

using namespace cs;

namespace {

std::string lengthProblem(const std::string& s) {
    return s.find('!') != std::string::npos ? "no '!' here" : std::string();
}

FieldInfo fieldOf(const QString& kind) {
    FieldInfo f{.key = "k"};
    if (kind == "integer") f.type = FieldType::Integer, f.min = 1, f.max = 64;
    if (kind == "number") f.type = FieldType::Number, f.min = 0, f.max = 2;
    if (kind == "speed") f.type = FieldType::Number, f.min = 0, f.max = 800, f.aboveMin = true;
    if (kind == "choice") f.type = FieldType::Choice, f.choices = {"ring", "tree"};
    if (kind == "bool") f.type = FieldType::Bool;
    if (kind == "duration") f.type = FieldType::Duration, f.min = 1, f.max = 86400;
    if (kind == "name") f.type = FieldType::Text, f.min = 1, f.max = 8, f.identifier = true;
    if (kind == "layout") {
        f.type = FieldType::Text, f.max = 16, f.textForm = "a layout";
        f.textProblem = lengthProblem;
    }
    return f;
}

// The refusal's message, or "" when the text is taken.
QString outcome(const FieldInfo& f, const QString& text, FieldValue* taken = nullptr) {
    try {
        const FieldValue v = fieldValueOrThrow(f, "k", text);
        if (taken) *taken = v;
        return {};
    } catch (const InputException& e) {
        if (e.error().field != "k") return "wrong field " + QString::fromStdString(e.error().field);
        return QString::fromStdString(e.error().message);
    }
}

} // namespace

class TestFieldTable : public QObject {
    Q_OBJECT
private slots:
    void readsTextOrRefusesIt_data();
    void readsTextOrRefusesIt();
    void jsonValuesAsTheTypeHoldsThem_data();
    void jsonValuesAsTheTypeHoldsThem();
    void runOptionsAndDesignFieldsRefuseAlike();
};

void TestFieldTable::readsTextOrRefusesIt_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("refusal"); // empty: taken, and written back as the same text
    const QString i = "expected an integer from 1 to 64, got ";
    QTest::newRow("integer") << "integer"
                             << "8"
                             << "";
    QTest::newRow("integer, a fraction") << "integer"
                                         << "8.5" << i + "\"8.5\"";
    QTest::newRow("integer, out of range") << "integer"
                                           << "65" << i + "\"65\"";
    QTest::newRow("integer, a space") << "integer"
                                      << " 8" << i + "\" 8\"";
    QTest::newRow("number") << "number"
                            << "0.25"
                            << "";
    QTest::newRow("number, inf") << "number"
                                 << "inf"
                                 << "expected a number from 0 to 2, got \"inf\"";
    QTest::newRow("speed above 0") << "speed"
                                   << "0"
                                   << "expected a number above 0 and at most 800, got \"0\"";
    QTest::newRow("choice") << "choice"
                            << "tree"
                            << "";
    QTest::newRow("choice, unknown") << "choice"
                                     << "star"
                                     << "expected ring or tree, got \"star\"";
    QTest::newRow("bool") << "bool"
                          << "off"
                          << "";
    QTest::newRow("bool, true") << "bool"
                                << "true"
                                << "expected on or off, got \"true\"";
    QTest::newRow("duration") << "duration"
                              << "1h30m"
                              << "";
    QTest::newRow("duration, past the range")
        << "duration"
        << "2d"
        << "expected a duration from 1s to 1d (such as 54d, 12h, 1h30m or 2.5s), got \"2d\"";
    QTest::newRow("name") << "name"
                          << "pod"
                          << "";
    QTest::newRow("name with a dot")
        << "name"
        << "a.b"
        << "expected a name of 1 to 8 characters without spaces or dots, got \"a.b\"";
    QTest::newRow("name, empty")
        << "name"
        << ""
        << "expected a name of 1 to 8 characters without spaces or dots, got \"\"";
    QTest::newRow("layout, empty") << "layout"
                                   << ""
                                   << "";
    QTest::newRow("layout, its own check") << "layout"
                                           << "Et!"
                                           << "expected a layout, got \"Et!\": no '!' here";
    QTest::newRow("layout, too long")
        << "layout"
        << "Et|Et|Et|Et|Et|Et|"
        << "expected a layout, got \"Et|Et|Et|Et|Et|Et|\": longer than 16 characters";
}

void TestFieldTable::readsTextOrRefusesIt() {
    QFETCH(QString, kind);
    QFETCH(QString, text);
    QFETCH(QString, refusal);
    const FieldInfo f = fieldOf(kind);
    FieldValue v;
    QCOMPARE(outcome(f, text, &v), refusal);
    if (refusal.isEmpty()) {
        QCOMPARE(fieldValueText(f, v), text);
        QVERIFY(fieldValueAllowed(f, v));
    }
}

void TestFieldTable::jsonValuesAsTheTypeHoldsThem_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QJsonValue>("json");
    QTest::addColumn<bool>("read"); // the JSON type is the field's
    QTest::newRow("integer") << "integer" << QJsonValue(8) << true;
    QTest::newRow("integer, 8.0") << "integer" << QJsonValue(8.0) << true;
    QTest::newRow("integer, 8.5") << "integer" << QJsonValue(8.5) << false;
    QTest::newRow("integer as a string") << "integer" << QJsonValue("8") << false;
    QTest::newRow("number") << "number" << QJsonValue(0.1) << true;
    QTest::newRow("bool") << "bool" << QJsonValue(true) << true;
    QTest::newRow("bool as on") << "bool" << QJsonValue("on") << false;
    QTest::newRow("duration") << "duration" << QJsonValue("12h") << true;
    QTest::newRow("duration as seconds") << "duration" << QJsonValue(3600) << false;
    QTest::newRow("choice") << "choice" << QJsonValue("ring") << true;
}

void TestFieldTable::jsonValuesAsTheTypeHoldsThem() {
    QFETCH(QString, kind);
    QFETCH(QJsonValue, json);
    QFETCH(bool, read);
    const FieldInfo f = fieldOf(kind);
    const std::optional<FieldValue> v = fieldValueOfJson(f, json);
    QCOMPARE(v.has_value(), read);
    QCOMPARE(fieldTextOfJson(f, json).has_value(),
             read || (kind == "integer" && json.isDouble())); // 8.5 is text the parse refuses
    if (!v) return;
    // Written back, the value reads the same (numbers exactly).
    QCOMPARE(fieldValueOfJson(f, fieldValueToJson(f, *v)), v);
}

void TestFieldTable::runOptionsAndDesignFieldsRefuseAlike() {
    // parallel.tp (a run option) and a cluster's oversubscription (a design field):
    // each refusal is the table's own words for its range, under the key its input uses.
    const RunOption* tp = findRunOption("parallel.tp");
    QVERIFY(tp);
    RunSpec spec = defaultRunSpec();
    try {
        setRunOption(spec, *tp, "0");
        QFAIL("TP 0 taken");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), QString("parallel.tp"));
        QCOMPARE(QString::fromStdString(e.error().message),
                 QString::fromStdString("expected " + fieldExpected(*tp) + ", got \"0\""));
    }
    const auto ref = parseDesignFieldKey("generator.clusters[0].oversubscription");
    QVERIFY(ref);
    SiteParams site = defaultDesign();
    try {
        setDesignField(site, *ref->field, 0, "x");
        QFAIL("oversubscription x taken");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field),
                 QString("generator.clusters[0].oversubscription"));
        QCOMPARE(QString::fromStdString(e.error().message),
                 QString::fromStdString("expected " + fieldExpected(*ref->field) + ", got \"x\""));
    }
    // Every row of both tables describes its default in words its own parse takes back.
    for (const RunOption& o : runOptions())
        if (!o.defaultText.empty())
            QVERIFY2(parseFieldText(o, QString::fromStdString(o.defaultText)), o.key.c_str());
    for (const DesignField& f : designFields())
        QVERIFY2(fieldValueAllowed(f, *parseFieldText(f, QString::fromStdString(f.defaultText))),
                 f.key.c_str());
}

QTEST_GUILESS_MAIN(TestFieldTable)
#include "tst_field_table.moc"
