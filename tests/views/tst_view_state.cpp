// ViewState as sessions and bookmarks keep it: every state reads back as written, the names
// come from the enums' tables, sessions of version 1 (the colour box's text) still read, and
// a bad value is refused naming its field and what was expected.
#include "ViewStateJson.h"

#include <QJsonDocument>
#include <QTest>

using namespace cs;
using namespace cs::views;

Q_DECLARE_METATYPE(cs::views::ViewState)

namespace {
ViewState readBack(const QJsonObject& o) {
    JsonObjectReader r(o, JsonPath());
    ViewState s = readViewState(r);
    r.finish();
    return s;
}

QString refusal(const QJsonObject& o) {
    try {
        readBack(o);
    } catch (const JsonFieldError& e) {
        return QString::fromStdString(e.path().toString() + ": " + e.what());
    }
    return {};
}
} // namespace

class TestViewState : public QObject {
    Q_OBJECT
private slots:
    void roundTrips_data();
    void roundTrips();
    void namesComeFromTheTables();
    void readsVersion1Colours_data();
    void readsVersion1Colours();
    void refusesBadValues_data();
    void refusesBadValues();
    void bookmarkRoundTrips();
};

void TestViewState::roundTrips_data() {
    QTest::addColumn<ViewState>("state");
    QTest::newRow("default") << ViewState{};
    for (const auto& layout : kLayoutNames)
        for (const auto& metric : kValueMetricNames)
            for (const auto& aggregate : kAggregateNames) {
                ViewState s = coloredBy(ViewState{}, metric.value);
                s.layout = layout.value;
                s.aggregate = aggregate.value;
                s.labels = aggregate.value != Aggregate::Max;
                s.camera = CameraPose{{1.5, -2, 3e6}, {0, 0, 0}, {0, 0, 1}};
                QTest::newRow(qPrintable(
                    QString("%1 %2 %3")
                        .arg(layout.name.data(), metric.name.data(), aggregate.name.data())))
                    << s;
            }
    for (Metric m : gpuColourMetrics()) { // a run's GPUs by power, temperature, ...
        ViewState s = coloredBy(ViewState{}, ValueMetric::Run);
        s.gpuMetric = m;
        QTest::newRow(metricDef(m).name) << s;
    }
    for (const auto& role : kGpuRoleNames) { // a simulated run's GPUs by stage, replica, rank
        ViewState s = coloredBy(ViewState{}, ValueMetric::Run);
        s.role = role.value;
        QTest::newRow(qPrintable(QString("role ") + role.name.data())) << s;
    }
}

void TestViewState::roundTrips() {
    QFETCH(ViewState, state);
    QJsonObject o;
    writeViewState(state, o);
    const ViewState back = readBack(o);
    QCOMPARE(back.layout, state.layout);
    QCOMPARE(back.colorMode, state.colorMode);
    QCOMPARE(back.metric, state.metric);
    QCOMPARE(back.aggregate, state.aggregate);
    QVERIFY(back.gpuMetric == state.gpuMetric);
    QVERIFY(back.role == state.role);
    QCOMPARE(back.labels, state.labels);
    QCOMPARE(back.camera.has_value(), state.camera.has_value());
    if (state.camera)
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(back.camera->position[i], state.camera->position[i]);
            QCOMPARE(back.camera->focalPoint[i], state.camera->focalPoint[i]);
            QCOMPARE(back.camera->viewUp[i], state.camera->viewUp[i]);
        }
}

void TestViewState::namesComeFromTheTables() {
    ViewState s = coloredBy(ViewState{}, ValueMetric::LinkSpeed);
    s.layout = LayoutKind::Fabric;
    s.aggregate = Aggregate::Min;
    QJsonObject o;
    writeViewState(s, o);
    QCOMPARE(o["layout"].toString(), QString("fabric"));
    QCOMPARE(o["colour"].toString(), QString("speed"));
    QCOMPARE(o["aggregate"].toString(), QString("min"));
    QJsonObject kinds;
    writeViewState(ViewState{}, kinds);
    QCOMPARE(kinds["colour"].toString(), QString("kind"));
    // Each table's names are distinct and read back to their value.
    for (const auto& e : kLayoutNames)
        QCOMPARE(kLayoutNames.parse(e.name), std::optional(e.value));
    for (const auto& e : kValueMetricNames)
        QCOMPARE(kValueMetricNames.parse(e.name), std::optional(e.value));
    for (const auto& e : kColorModeNames)
        QCOMPARE(kColorModeNames.parse(e.name), std::optional(e.value));
    QCOMPARE(QString::fromStdString(kLayoutNames.choices()), QString("floor or fabric"));
    QCOMPARE(QString::fromStdString(kAggregateNames.choices()), QString("mean, max or min"));
    QVERIFY(!kLayoutNames.parse("Floor")); // names, not labels
}

void TestViewState::readsVersion1Colours_data() {
    QTest::addColumn<QString>("colour");
    QTest::addColumn<int>("metric");
    QTest::newRow("by kind") << "By kind" << int(ValueMetric::None);
    QTest::newRow("test pattern") << "Test pattern (animated)" << int(ValueMetric::TestPattern);
    QTest::newRow("link speed") << "Link speed" << int(ValueMetric::LinkSpeed);
    QTest::newRow("a run") << "Run: llama3-405b" << int(ValueMetric::Run);
}

void TestViewState::readsVersion1Colours() {
    QFETCH(QString, colour);
    QFETCH(int, metric);
    const ViewState s = readBack({{"colour", colour}});
    QCOMPARE(s.metric, ValueMetric(metric));
    QCOMPARE(s.colorMode, metric == int(ValueMetric::None) ? ColorMode::Kind : ColorMode::Value);
}

void TestViewState::refusesBadValues_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("expected");
    QTest::newRow("layout") << QByteArray(R"({"layout": "side"})")
                            << R"(layout: expected floor or fabric, got "side")";
    QTest::newRow("aggregate") << QByteArray(R"({"aggregate": "median"})")
                               << R"(aggregate: expected mean, max or min, got "median")";
    QTest::newRow("colour") << QByteArray(R"({"colour": "rainbow"})")
                            << R"(colour: expected kind, test, speed or run, got "rainbow")";
    QTest::newRow("gpu metric")
        << QByteArray(R"({"gpuMetric": "link_bytes_per_s"})")
        << R"(gpuMetric: expected gpu_busy, gpu_power_w, gpu_temperature_c, gpu_memory_used_bytes or gpu_sm_clock_hz, got "link_bytes_per_s")";
    QTest::newRow("labels") << QByteArray(R"({"labels": "yes"})")
                            << "labels: expected true or false";
    QTest::newRow("camera short") << QByteArray(R"({"camera": {"position": [1, 2],
        "focalPoint": [0, 0, 0], "viewUp": [0, 0, 1]}})")
                                  << "camera.position: expected three numbers [x, y, z]";
    QTest::newRow("camera huge") << QByteArray(R"({"camera": {"position": [1, 2, 1e300],
        "focalPoint": [0, 0, 0], "viewUp": [0, 0, 1]}})")
                                 << "camera.position[2]: expected a finite number";
}

void TestViewState::refusesBadValues() {
    QFETCH(QByteArray, json);
    QFETCH(QString, expected);
    QCOMPARE(refusal(QJsonDocument::fromJson(json).object()), expected);
}

void TestViewState::bookmarkRoundTrips() {
    const CameraBookmark b{"aisle 3", LayoutKind::Fabric, {{1, 2, 3}, {4, 5, 6}, {0, 0, 1}}};
    const CameraBookmark back = readBookmark(JsonObjectReader(bookmarkToJson(b), JsonPath()));
    QCOMPARE(back.name, b.name);
    QCOMPARE(back.layout, b.layout);
    QCOMPARE(back.pose.focalPoint[1], 5.0);
    QVERIFY_THROWS_EXCEPTION(JsonFieldError,
                             readBookmark(JsonObjectReader(QJsonObject{{"name", ""}}, JsonPath())));
}

QTEST_GUILESS_MAIN(TestViewState)
#include "tst_view_state.moc"
