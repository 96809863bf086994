// The design table: for every generator field, a value reaches the parameters the same way
// through a topology file's "generator" object and through --set, or is refused by both with
// the same "expected ...", the file naming file:line:column and the key, --set the FIELD.
// What each row must give is derived from the field's declared range or choices.
#include "DesignFieldRows.h"
#include "DesignFields.h"
#include "DesignSets.h"
#include "SiteParamsJson.h"
#include "TopologyDocument.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

using namespace cs;

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString numberText(double v) {
    return std::floor(v) == v ? QString::number((long long)v)
                              : QString::number(v, 'g', QLocale::FloatingPointShortest);
}

struct Outcome {
    std::optional<SiteParams> params;
    QString error;
    InputError where; // of a refusal
};

// The value as a file holds it: numbers as JSON numbers when the text is one, else strings.
QJsonValue fileValue(const DesignField& f, const QString& text) {
    if (f.type == FieldType::Integer || f.type == FieldType::Number) {
        const QJsonDocument d = QJsonDocument::fromJson(("[" + text + "]").toUtf8());
        if (d.isArray() && d.array().size() == 1 && d.array()[0].isDouble()) return d.array()[0];
    }
    return text;
}

// A topology file whose generator object sets the one field (in cluster 0 for a cluster's).
QByteArray generatorFile(const DesignField& f, const QString& text) {
    QJsonObject site, cluster, storage;
    QJsonObject& scope = f.scope == DesignScope::Site      ? site
                         : f.scope == DesignScope::Cluster ? cluster
                                                           : storage;
    scope.insert(qs(f.key), fileValue(f, text));
    site.insert("clusters", QJsonArray{cluster});
    if (!storage.isEmpty()) site.insert("storage", storage);
    const QJsonObject root{
        {"format", "clusterscope-topology"}, {"version", 1}, {"generator", site}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

// (a) The file's generator object, read as the topology reader reads it.
Outcome viaFile(const DesignField& f, const QString& text) {
    try {
        return {readJsonDocument(generatorFile(f, text), "design.json",
                                 [](const QJsonDocument& d) {
                                     return siteParamsFromJson(d.object().value("generator"),
                                                               JsonPath().child("generator"));
                                 }),
                {},
                {}};
    } catch (const InputException& e) {
        return {std::nullopt, e.what(), e.error()};
    }
}

// (b) --set KEY=TEXT on the site a file with no other field reads as.
Outcome viaSet(const DesignField& f, const QString& text) {
    SiteParams p = defaultDesign();
    try {
        applyDesignSets(p, {designFieldKey(f, 0) + "=" + text.toStdString()});
        return {p, {}, {}};
    } catch (const InputException& e) {
        return {std::nullopt, e.what(), e.error()};
    }
}

// "expected a number from 0.01 to 1000" of "...: expected a number from 0.01 to 1000, got ...".
QString expectedPart(const QString& message) {
    const qsizetype from = message.indexOf("expected ");
    return message.mid(from, message.lastIndexOf(", got ") - from);
}

// The block between the markers in docs/user/file-format.md, and what the table makes of it.
const char* const kTableStart =
    "<!-- design fields: made from model/topology/DesignFields.cpp, checked by tst_design_fields "
    "-->\n";
const char* const kTableEnd = "<!-- end of design fields -->\n";

QString markdownTable() {
    QString s = "| Field (`--set` key) | Meaning | Takes | Default | Unit | Source |\n"
                "|---|---|---|---|---|---|\n";
    for (const DesignField& f : designFields()) {
        const QString key = qs(designFieldKey(f, 0)).replace("clusters[0]", "clusters[N]");
        s += QString("| `%1` | %2 | %3 | %4 | %5 | %6 |\n")
                 .arg(key, qs(f.help), qs(fieldExpected(f)), qs(f.defaultText), qs(f.unit),
                      qs(f.source));
    }
    return s;
}

} // namespace

class TestDesignFields : public QObject {
    Q_OBJECT
private slots:
    void everyWayInAgrees_data();
    void everyWayInAgrees();
    void eachFieldSetsItsOwnMember();
    void fieldsAreDescribed();
    void keysReadBack();
    void badSetsNameTheField_data();
    void badSetsNameTheField();
    void readmeListsEveryField();
    void variantsAreNamedFromWhatChanged_data();
    void variantsAreNamedFromWhatChanged();
};

void TestDesignFields::everyWayInAgrees_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("accepted"); // by the declared range or choices
    for (const DesignField& f : designFields()) {
        const std::vector<test::DesignFieldRow> rows = test::designFieldRows(f);
        for (const test::DesignFieldRow& r : rows)
            QTest::newRow(qPrintable(qs(designFieldKey(f)) + " " + r.name))
                << qs(designFieldKey(f)) << r.text << r.accepted;
    }
}

void TestDesignFields::everyWayInAgrees() {
    QFETCH(QString, key);
    QFETCH(QString, text);
    QFETCH(bool, accepted);
    const DesignField& f = *parseDesignFieldKey(key.toStdString())->field;
    const Outcome file = viaFile(f, text), set = viaSet(f, text);
    QVERIFY2(file.params.has_value() == accepted,
             qPrintable(QString("expected %1; the file: %2")
                            .arg(accepted ? "accepted" : "refused",
                                 file.params ? "accepted" : file.error)));
    QVERIFY2(set.params.has_value() == accepted,
             qPrintable(
                 QString("expected %1; --set: %2")
                     .arg(accepted ? "accepted" : "refused", set.params ? "accepted" : set.error)));
    if (accepted) {
        // The same parameters, holding the value as it was written.
        QVERIFY(*file.params == *set.params);
        QCOMPARE(designFieldText(*set.params, f), text);
        return;
    }
    // The file names its place and the key; --set names the argument; both say the same.
    QCOMPARE(qs(file.where.file), QString("design.json"));
    QVERIFY(file.where.line > 0 && file.where.column > 0);
    QCOMPARE(qs(file.where.field), key);
    QVERIFY2(file.error.startsWith(QString("design.json:%1:%2: %3: expected ")
                                       .arg(file.where.line)
                                       .arg(file.where.column)
                                       .arg(key)),
             qPrintable(file.error));
    QCOMPARE(qs(set.where.field), "--set " + key + "=" + text);
    QVERIFY2(set.error.startsWith("--set " + key + "=" + text + ": expected "),
             qPrintable(set.error));
    QCOMPARE(expectedPart(file.error), "expected " + qs(fieldExpected(f)));
    QCOMPARE(expectedPart(set.error), expectedPart(file.error));
}

// Setting a field changes its value and no other field's: no two fields share a member.
void TestDesignFields::eachFieldSetsItsOwnMember() {
    const SiteParams base = defaultDesign();
    for (const DesignField& f : designFields()) {
        SiteParams p = base;
        // A value the field takes and the default is not.
        QString other;
        switch (f.type) {
        case FieldType::Integer:
        case FieldType::Number:
            other = numberText(designFieldText(base, f) == numberText(f.max) ? f.max - 1 : f.max);
            break;
        case FieldType::Choice:
            other = qs(f.choices.back() == f.defaultText ? f.choices.front() : f.choices.back());
            break;
        case FieldType::Text:
            other = "other";
            break;
        }
        setDesignField(p, f, 0, other);
        QCOMPARE(designFieldText(p, f), other);
        for (const DesignField& g : designFields())
            if (&g != &f)
                QVERIFY2(designFieldText(p, g) == designFieldText(base, g),
                         qPrintable(qs(f.key) + " changed " + qs(designFieldKey(g))));
    }
}

// What a dialog needs of each field, and a default the field itself takes.
void TestDesignFields::fieldsAreDescribed() {
    const std::set<std::string> tags{"[paper]", "[2nd]", "[derived]", "[assumption]"};
    std::set<std::string> keys;
    for (const DesignField& f : designFields()) {
        const QByteArray key = designFieldKey(f).c_str();
        QVERIFY2(keys.insert(key.toStdString()).second, key);
        QVERIFY2(!f.label.empty() && !f.help.empty(), key);
        QVERIFY2(tags.count(f.source.substr(0, f.source.find(' '))), key);
        QVERIFY2(f.get && f.set, key);
        QVERIFY2(fieldValueAllowed(f, f.get(defaultDesign(), 0)), key);
        QCOMPARE(qs(f.defaultText), designFieldText(defaultDesign(), f));
        if (f.type == FieldType::Choice)
            QVERIFY2(!f.choices.empty(), key);
        else
            QVERIFY2(f.min < f.max, key);
    }
}

void TestDesignFields::keysReadBack() {
    SiteParams p = defaultDesign();
    p.clusters.push_back(p.clusters.front());
    for (const DesignFieldRef& r : designFieldRefs(p)) {
        const std::string key = designFieldKey(*r.field, r.cluster);
        const std::optional<DesignFieldRef> back = parseDesignFieldKey(key);
        QVERIFY2(back && back->field == r.field && back->cluster == r.cluster, key.c_str());
    }
    for (const char* bad :
         {"generator.clusters[0]pods", "generator.clusters[-1].pods", "generator.clusters[x].pods",
          "clusters[0].pods", "generator.storage.pods", "generator.nonesuch", "generator.",
          "generator.clusters[0].", "generator.clusters[99999999999].pods"})
        QVERIFY2(!parseDesignFieldKey(bad), bad);
}

void TestDesignFields::badSetsNameTheField_data() {
    QTest::addColumn<QString>("set");
    QTest::addColumn<QString>("message");
    QTest::newRow("misspelt") << "generator.clusters[0].podz=2"
                              << "no such field; nearest: generator.clusters[0].pods";
    QTest::newRow("no generator.") << "clusters[0].pods=2"
                                   << "no such field; nearest: generator.clusters[0].pods";
    QTest::newRow("storage field in a cluster")
        << "generator.clusters[0].tectonicServers=2"
        << "no such field; nearest: generator.storage.tectonicServers";
    QTest::newRow("cluster not in the design")
        << "generator.clusters[1].pods=2"
        << "no such field: the design has 1 cluster; nearest: generator.clusters[0].pods";
    QTest::newRow("no value") << "generator.clusters[0].pods"
                              << "expected FIELD=VALUE, such as";
    QTest::newRow("space in the value") << "generator.clusters[0].pods= 2"
                                        << "expected an integer from 1 to 4096, got \" 2\"";
}

void TestDesignFields::badSetsNameTheField() {
    QFETCH(QString, set);
    QFETCH(QString, message);
    SiteParams p = defaultDesign();
    try {
        applyDesignSets(p, {set.toStdString()});
        QFAIL("accepted");
    } catch (const InputException& e) {
        QCOMPARE(qs(e.error().field), "--set " + set);
        QVERIFY2(qs(e.error().message).startsWith(message), e.what());
    }
    QVERIFY(p == defaultDesign()); // nothing half set
}

void TestDesignFields::readmeListsEveryField() {
    QFile f(CS_SOURCE_DIR "/docs/user/file-format.md");
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString readme = QString::fromUtf8(f.readAll());
    const qsizetype from = readme.indexOf(kTableStart), to = readme.indexOf(kTableEnd);
    QVERIFY2(from >= 0 && to > from, "docs/user/file-format.md has no design field table");
    const QString listed = readme.mid(from + qsizetype(strlen(kTableStart)),
                                      to - from - qsizetype(strlen(kTableStart)));
    if (listed != markdownTable()) {
        // The table to paste, for a field added or changed.
        QFile out(QDir::temp().filePath("design-fields.md"));
        if (out.open(QIODevice::WriteOnly)) out.write(markdownTable().toUtf8());
        QFAIL(qPrintable(
            "docs/user/file-format.md's design field table differs from the table; the new one is "
            "in " +
            out.fileName()));
    }
}

QTEST_GUILESS_MAIN(TestDesignFields)
void TestDesignFields::variantsAreNamedFromWhatChanged_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QStringList>("sets");
    QTest::addColumn<QString>("name");
    const QString c0 = "generator.clusters[0].", c1 = "generator.clusters[1].";
    QTest::newRow("none") << "meta-roce-24k" << QStringList{} << "meta-roce-24k";
    QTest::newRow("one") << "meta-roce-24k" << QStringList{c0 + "oversubscription=3"}
                         << "meta-roce-24k \u00b7 oversubscription 3";
    QTest::newRow("the last of a key")
        << "meta-roce-24k"
        << QStringList{c0 + "oversubscription=3", c0 + "planes=8", c0 + "oversubscription=1"}
        << "meta-roce-24k \u00b7 planes 8, oversubscription 1";
    QTest::newRow("a site field") << "small-256"
                                  << QStringList{"generator.storage.tectonicServers=80"}
                                  << "small-256 \u00b7 tectonicServers 80";
    QTest::newRow("clusters named") << "meta-both" << QStringList{c1 + "oversubscription=3"}
                                    << "meta-both \u00b7 ib oversubscription 3";
}

// A --set variant of a design is named from what changed: its runs, stats and comparisons say
// which variant they show.
void TestDesignFields::variantsAreNamedFromWhatChanged() {
    QFETCH(QString, preset);
    QFETCH(QStringList, sets);
    QFETCH(QString, name);
    TopologyReadOptions o;
    for (const QString& x : sets)
        o.sets.push_back(x.toStdString());
    const auto doc = openTopology(preset.toStdString(), {}, o);
    QCOMPARE(QString::fromStdString(doc->topology().name), name);
    // A parameters file with the same sets is named the same way from its own name.
    SiteParams p = *doc->params();
    QCOMPARE(QString::fromStdString(designVariantName("x", p, o.sets)),
             QString(name).replace(preset, "x"));
}

#include "tst_design_fields.moc"
