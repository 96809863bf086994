#include "ViewStateJson.h"

#include <algorithm>

#include <QJsonArray>

#include <cmath>

namespace cs::views {
namespace {

QJsonArray vec(const double v[3]) {
    return {v[0], v[1], v[2]};
}

void readVec(JsonObjectReader& r, const char* key, double out[3]) {
    const QJsonArray a = r.array(key, 3);
    if (a.size() != 3) r.fail(key, "expected three numbers [x, y, z]");
    for (int i = 0; i < 3; ++i) {
        if (!a[i].isDouble() || !std::isfinite(a[i].toDouble()) || std::abs(a[i].toDouble()) > 1e12)
            throw JsonFieldError(r.pathOf(key).child(i), "expected a finite number");
        out[i] = a[i].toDouble();
    }
}

// "colour": how the view colours, one word: "kind", or the metric it colours by value.
std::string colourName(const ViewState& s) {
    return std::string(s.colorMode == ColorMode::Kind ? kColorModeNames.name(ColorMode::Kind)
                                                      : kValueMetricNames.name(s.metric));
}

ViewState colouredAs(ViewState s, JsonObjectReader& r) {
    const std::string text = r.string("colour", "kind");
    if (text == kColorModeNames.name(ColorMode::Kind)) return coloredBy(s, ValueMetric::None);
    if (const auto m = kValueMetricNames.parse(text); m && *m != ValueMetric::None)
        return coloredBy(s, *m);
    // Sessions of version 1 kept the colour box's entry as shown: "By kind", "Run: NAME".
    if (text == kColorModeNames.label(ColorMode::Kind)) return coloredBy(s, ValueMetric::None);
    if (text.rfind("Run:", 0) == 0) return coloredBy(s, ValueMetric::Run);
    if (const auto m = kValueMetricNames.parseLabel(text)) return coloredBy(s, *m);
    r.fail("colour", "expected kind, test, speed or run, got \"" + text + "\"");
}

} // namespace

void writeViewState(const ViewState& s, QJsonObject& o) {
    o.insert("layout", QString::fromUtf8(kLayoutNames.name(s.layout).data()));
    o.insert("colour", QString::fromStdString(colourName(s)));
    o.insert("aggregate", QString::fromUtf8(kAggregateNames.name(s.aggregate).data()));
    if (s.gpuMetric != Metric::GpuBusy) o.insert("gpuMetric", metricDef(s.gpuMetric).name);
    if (s.role != GpuRole::None)
        o.insert("gpuRole", QString::fromUtf8(kGpuRoleNames.name(s.role).data()));
    o.insert("labels", s.labels);
    if (s.camera) o.insert("camera", cameraPoseToJson(*s.camera));
}

ViewState readViewState(JsonObjectReader& r) {
    ViewState s;
    s.layout = r.choice("layout", kLayoutNames, LayoutKind::Floor);
    s = colouredAs(s, r);
    s.aggregate = r.choice("aggregate", kAggregateNames, Aggregate::Max);
    s.role = r.choice("gpuRole", kGpuRoleNames, GpuRole::None);
    if (r.has("gpuMetric")) {
        const std::string name = r.string("gpuMetric", "");
        const auto m = metricByName(name);
        const auto& allowed = gpuColourMetrics();
        if (!m || std::find(allowed.begin(), allowed.end(), *m) == allowed.end())
            r.fail("gpuMetric", "expected gpu_busy, gpu_power_w, gpu_temperature_c, "
                                "gpu_memory_used_bytes or gpu_sm_clock_hz, got \"" +
                                    name + "\"");
        s.gpuMetric = *m;
    }
    if (r.has("labels")) {
        const QJsonValue v = r.value("labels");
        if (!v.isBool()) r.fail("labels", "expected true or false");
        s.labels = v.toBool();
    }
    if (r.has("camera")) s.camera = readCameraPose(r.object("camera"));
    return s;
}

QJsonObject cameraPoseToJson(const CameraPose& p) {
    return {{"position", vec(p.position)},
            {"focalPoint", vec(p.focalPoint)},
            {"viewUp", vec(p.viewUp)}};
}

CameraPose readCameraPose(JsonObjectReader r) {
    CameraPose p;
    readVec(r, "position", p.position);
    readVec(r, "focalPoint", p.focalPoint);
    readVec(r, "viewUp", p.viewUp);
    r.finish();
    return p;
}

QJsonObject bookmarkToJson(const CameraBookmark& b) {
    return {{"name", QString::fromStdString(b.name)},
            {"layout", QString::fromUtf8(kLayoutNames.name(b.layout).data())},
            {"camera", cameraPoseToJson(b.pose)}};
}

CameraBookmark readBookmark(JsonObjectReader r) {
    CameraBookmark b;
    b.name = r.string("name");
    if (b.name.empty()) r.fail("name", "expected a name");
    b.layout = r.choice("layout", kLayoutNames, LayoutKind::Floor);
    b.pose = readCameraPose(r.object("camera"));
    r.finish();
    return b;
}

} // namespace cs::views
