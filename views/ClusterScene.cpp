#include "ClusterScene.h"

#include "ConcurrentTask.h"
#include "GlyphLayer.h"
#include "LabelLayer.h"
#include "LineLayer.h"
#include "RackRunLayer.h"

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkLegendBoxActor.h>
#include <vtkLookupTable.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkProperty2D.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace cs::views {
namespace {

void styleText(vtkTextProperty* p, int size) {
    p->SetFontFamilyToArial();
    p->SetFontSize(size);
    p->SetColor(0.93, 0.94, 0.96);
    p->SetShadow(false);
}

} // namespace

ClusterScene::ClusterScene(vtkRenderer* renderer) : renderer_(renderer) {
    const Rgba bg = sceneBackground(); // the 3D view clears nothing: the backdrop is its background
    backdrop_->SetBackground(bg[0] / 255.0, bg[1] / 255.0, bg[2] / 255.0);
    backdrop_->SetBackgroundAlpha(1); // an opaque picture: nothing behind it shows through
    backdrop_->InteractiveOff();
    // The legend and colour bar live in a panel of their own at the right: the 3D view ends
    // where the panel begins, so they never cover the fabric, wherever the camera goes.
    panel_->SetBackground(0.10, 0.11, 0.14);
    panel_->SetBackgroundAlpha(1);
    panel_->InteractiveOff();
    // Layer 0 clears the whole window at once, then the panel; the 3D view (layer 1) clears
    // nothing. A software rasteriser clears part of a window by drawing over it: clearing
    // the view's own part cost 1.5 ms a frame at 1280x720 (bench_render).
    renderer_->SetLayer(1);
    renderer_->PreserveDepthBufferOn();
    if (vtkRenderWindow* w = renderer_->GetRenderWindow()) {
        w->SetNumberOfLayers(std::max(2, w->GetNumberOfLayers()));
        w->AddRenderer(backdrop_);
        w->AddRenderer(panel_);
    }
    bundles_ = std::make_unique<LineLayer>(renderer_);
    links_ = std::make_unique<LineLayer>(renderer_);
    rackRuns_ = std::make_unique<RackRunLayer>(renderer_);
    farSwitches_ = std::make_unique<GlyphLayer>(renderer_);
    hosts_ = std::make_unique<GlyphLayer>(renderer_);
    gpus_ = std::make_unique<GlyphLayer>(renderer_);
    nics_ = std::make_unique<GlyphLayer>(renderer_);
    switches_ = std::make_unique<GlyphLayer>(renderer_);
    storage_ = std::make_unique<GlyphLayer>(renderer_);
    labels_ = std::make_unique<LabelLayer>(renderer_);

    vtkNew<vtkPolyDataMapper> selMapper;
    selMapper->SetInputData(selectionPoly_);
    selectionActor_->SetMapper(selMapper);
    selectionActor_->GetProperty()->SetColor(1, 1, 1);
    selectionActor_->GetProperty()->SetLineWidth(4);
    selectionActor_->GetProperty()->SetLighting(false);
    selectionActor_->SetVisibility(false);
    renderer_->AddActor(selectionActor_);
    vtkNew<vtkPolyDataMapper> markedMapper;
    markedMapper->SetInputData(markedPoly_);
    markedActor_->SetMapper(markedMapper);
    const Rgba failed = kindColor(KindClass::StorageRack); // vermillion: failed
    markedActor_->GetProperty()->SetColor(failed[0] / 255.0, failed[1] / 255.0, failed[2] / 255.0);
    markedActor_->GetProperty()->SetLineWidth(4);
    markedActor_->GetProperty()->SetLighting(false);
    markedActor_->SetVisibility(false);
    renderer_->AddActor(markedActor_);
    vtkNew<vtkPolyDataMapper> flaggedMapper;
    flaggedMapper->SetInputData(flaggedPoly_);
    flaggedActor_->SetMapper(flaggedMapper);
    // Okabe-Ito's reddish purple: apart from every viridis colour, and from failed vermillion.
    flaggedActor_->GetProperty()->SetColor(204 / 255.0, 121 / 255.0, 167 / 255.0);
    flaggedActor_->GetProperty()->SetLineWidth(4);
    flaggedActor_->GetProperty()->SetLighting(false);
    flaggedActor_->SetVisibility(false);
    renderer_->AddActor(flaggedActor_);

    styleText(legend_->GetEntryTextProperty(), 13);
    legend_->SetBorder(false);
    legend_->SetBox(true);
    legend_->GetBoxProperty()->SetColor(0.05, 0.06, 0.08);
    legend_->GetBoxProperty()->SetOpacity(0.55);
    legend_->SetPadding(4);
    legend_->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
    legend_->GetPositionCoordinate()->SetValue(0.01, 0.05);
    legend_->GetPosition2Coordinate()->SetCoordinateSystemToNormalizedViewport();
    legend_->GetPosition2Coordinate()->SetValue(0.22, 0.36);
    panel_->AddActor2D(legend_);

    lut_->SetNumberOfTableValues(256);
    fillScale();
    lut_->SetNanColor(noDataColor()[0] / 255.0, noDataColor()[1] / 255.0, noDataColor()[2] / 255.0,
                      1);
    scalarBar_->SetLookupTable(lut_);
    scalarBar_->SetNumberOfLabels(5);
    scalarBar_->SetLabelFormat("%.0f%%");
    scalarBar_->SetOrientationToVertical();
    scalarBar_->SetDrawNanAnnotation(true);
    scalarBar_->SetNanAnnotation("no data");
    styleText(scalarBar_->GetTitleTextProperty(), 14);
    styleText(scalarBar_->GetLabelTextProperty(), 12);
    styleText(scalarBar_->GetAnnotationTextProperty(), 12); // "no data", at the bar's left
    scalarBar_->UnconstrainedFontSizeOn();
    scalarBar_->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
    scalarBar_->GetPositionCoordinate()->SetValue(0.90, 0.10);
    scalarBar_->SetWidth(0.08);
    scalarBar_->SetHeight(0.75);
    scalarBar_->SetVisibility(false);
    panel_->AddActor2D(scalarBar_);
    scalarBar_->SetTitle(std::string(valueTitle(state_.metric)).c_str());

    styleText(title_->GetTextProperty(), 16);
    title_->GetTextProperty()->SetBold(true);
    title_->GetTextProperty()->SetVerticalJustificationToTop();
    title_->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
    title_->GetPositionCoordinate()->SetValue(0.01, 0.98);
    renderer_->AddActor2D(title_);
}

ClusterScene::~ClusterScene() {
    renderer_->RemoveActor(selectionActor_);
    renderer_->RemoveActor(markedActor_);
    renderer_->RemoveActor(flaggedActor_);
    panel_->RemoveActor2D(legend_);
    panel_->RemoveActor2D(scalarBar_);
    renderer_->RemoveActor2D(title_);
    if (vtkRenderWindow* w = renderer_->GetRenderWindow()) {
        w->RemoveRenderer(panel_);
        w->RemoveRenderer(backdrop_);
    }
}

void ClusterScene::setDocument(const TopologyDocument* doc, LayoutKind kind) {
    doc_ = doc;
    state_.layout = kind;
    state_.selection.reset();
    state_.marked.clear();
    flagged_.clear();
    fillMetricValues(0);
    linkClass_.clear();
    if (doc_)
        for (const Link& l : doc_->topology().links)
            linkClass_.push_back(classOfLink(doc_->topology(), l));
    setLayoutKind(kind);
}

void ClusterScene::setLayoutKind(LayoutKind kind) {
    state_.layout = kind;
    layout_.reset();
    detail_ = {};
    if (doc_)
        layout_ =
            std::make_unique<SceneLayout>(computeLayout(doc_->topology(), doc_->index(), kind));
    labelCandidates_ =
        layout_ ? sceneLabels(doc_->topology(), *layout_) : std::vector<LabelCandidate>{};
    rebuildFar();
    rebuildNear();
    rackMembers_ = doc_ ? RackMembers::of(doc_->topology()) : RackMembers{};
    aggregateValues();
    applyColors();
    updateLegend();
    updateSelectionActor();
    updateMarkedActor();
    outlineWithRacks(flagged_, flaggedPoly_, flaggedActor_);
    viewOverview();
}

void ClusterScene::rebuildFar() {
    farRackIds_.clear();
    farSwitchIds_.clear();
    std::vector<Box> switchBoxes;
    std::vector<CablePath> bundlePaths;
    if (layout_) {
        for (size_t r = 0; r < layout_->racks.size(); ++r)
            if (layout_->racks[r].drawn() && layout_->rackFar[r]) farRackIds_.push_back(int32_t(r));
        for (size_t s = 0; s < layout_->switches.size(); ++s)
            if (layout_->switches[s].drawn() && layout_->switchFar[s]) {
                farSwitchIds_.push_back(int32_t(s));
                switchBoxes.push_back(layout_->switches[s]);
            }
        for (size_t k = 0; k < layout_->bundles.a.size(); ++k)
            bundlePaths.push_back(bundlePath(*layout_, int32_t(k)));
    }
    farSwitches_->setBoxes(switchBoxes);
    bundles_->setLines(bundlePaths);
}

void ClusterScene::rebuildNear() {
    hostIds_.clear();
    gpuIds_.clear();
    nicIds_.clear();
    nicCable_.clear();
    switchIds_.clear();
    storageIds_.clear();
    linkSegments_ = {};
    std::vector<Box> hostBoxes, gpuBoxes, nicBoxes, switchBoxes, storageBoxes;
    if (layout_ && doc_ && detail_.near) {
        const Topology& t = doc_->topology();
        const TopologyIndex& ix = doc_->index();
        for (int32_t r : detail_.openRacks) {
            for (int32_t h : ix.hostsOfRack(r)) {
                hostIds_.push_back(h);
                hostBoxes.push_back(layout_->hosts[size_t(h)]);
                const Host& host = t.hosts[size_t(h)];
                for (int g = 0; g < host.gpuCount; ++g) {
                    gpuIds_.push_back(host.firstGpu + g);
                    gpuBoxes.push_back(layout_->gpus[size_t(host.firstGpu + g)]);
                }
                for (int32_t n : ix.nicsOfHost(h))
                    if (layout_->nics[size_t(n)].drawn()) {
                        nicIds_.push_back(n);
                        nicBoxes.push_back(layout_->nics[size_t(n)]);
                        int32_t cable = kNone;
                        for (int32_t l : ix.linksOf({EntityKind::Nic, n}))
                            if (t.links[size_t(l)].medium == LinkMedium::Fibre ||
                                t.links[size_t(l)].medium == LinkMedium::CopperDac)
                                cable = l;
                        nicCable_.push_back(cable);
                    }
            }
            for (int32_t s : ix.switchesOfRack(r))
                if (layout_->switches[size_t(s)].drawn() && !layout_->switchFar[size_t(s)]) {
                    switchIds_.push_back(s);
                    switchBoxes.push_back(layout_->switches[size_t(s)]);
                }
            for (int32_t s : ix.storageOfRack(r)) {
                storageIds_.push_back(s);
                storageBoxes.push_back(layout_->storage[size_t(s)]);
            }
        }
        const std::vector<int32_t> open = openLinks(t, ix, *layout_, detail_);
        linkSegments_ = cableSegments(*layout_, open);
        bundleAsLinks_ = bundlesDrawnAsLinks(*layout_, open);
    } else {
        bundleAsLinks_.assign(bundles_->size(), 0);
    }
    for (size_t k = 0; k < bundles_->size() && k < bundleAsLinks_.size(); ++k)
        bundles_->setHidden(k, bundleAsLinks_[k]);
    std::vector<CablePath> linkPaths(linkSegments_.a.size());
    for (size_t k = 0; k < linkPaths.size(); ++k) {
        linkPaths[k].add(linkSegments_.a[k]);
        linkPaths[k].add(linkSegments_.b[k]);
    }
    hosts_->setBoxes(hostBoxes);
    gpus_->setBoxes(gpuBoxes);
    nics_->setBoxes(nicBoxes);
    switches_->setBoxes(switchBoxes);
    storage_->setBoxes(storageBoxes);
    links_->setLines(linkPaths);
    // Open racks give way to their members: the runs are cut where they stand.
    std::vector<int32_t> closed;
    for (int32_t r : farRackIds_)
        if (!detail_.near || !detail_.isOpen(r)) closed.push_back(r);
    rackRuns_->setAtlas(doc_ && layout_
                            ? buildRackRuns(doc_->topology(), doc_->index(), *layout_, closed)
                            : RackRunAtlas{});
}

ViewState ClusterScene::state() const {
    ViewState s = state_;
    s.camera = cameraPose();
    return s;
}

void ClusterScene::apply(const ViewState& s) {
    if (s.layout != state_.layout) setLayoutKind(s.layout);
    if (s.metric != state_.metric) setMetric(s.metric);
    if (s.gpuMetric != state_.gpuMetric || s.role != state_.role) {
        state_.gpuMetric = s.gpuMetric;
        state_.role = s.role;
        fillScale();
    }
    if (s.aggregate != state_.aggregate) setAggregate(s.aggregate);
    if (s.colorMode != state_.colorMode) setColorMode(s.colorMode);
    setMarked(s.marked);
    if (s.labels != state_.labels) setLabelsShown(s.labels);
    if (s.camera) setCameraPose(*s.camera);
    select(s.selection); // after the camera: the detail it opens can draw the selection
}

// The colour bar's table and range: viridis over 0 to 100 %, or the diverging scale of a
// difference over -100 to 100 % points. The scene's colours come from valueColor() and
// differenceColor(); the bar only labels them.
void ClusterScene::fillScale() {
    const bool difference = state_.metric == ValueMetric::Difference;
    lut_->SetRange(difference ? -100 : 0, 100);
    // A run's GPUs by another metric than busy: the bar in that metric's unit and range.
    const bool gpuMetric = state_.metric == ValueMetric::Run && state_.gpuMetric != Metric::GpuBusy;
    const GpuMetricScale scale = gpuMetricScale(state_.gpuMetric);
    if (gpuMetric) lut_->SetRange(scale.lo * scale.display, scale.hi * scale.display);
    // By role: the bar numbers the stages (replicas, TP ranks) from first to last.
    const bool role = state_.metric == ValueMetric::Run && state_.role != GpuRole::None;
    if (role) lut_->SetRange(0, std::max(1, roleCount_ - 1));
    scalarBar_->SetTitle(role        ? std::string(kGpuRoleNames.label(state_.role)).c_str()
                         : gpuMetric ? std::string(scale.title).c_str()
                                     : std::string(valueTitle(state_.metric)).c_str());
    const auto& table = difference ? differenceTable() : valueTable();
    for (int i = 0; i < 256; ++i)
        lut_->SetTableValue(i, table[size_t(i)][0] / 255.0, table[size_t(i)][1] / 255.0,
                            table[size_t(i)][2] / 255.0, 1);
    lut_->Modified();
}

void ClusterScene::setRoleCount(int count) {
    if (count == roleCount_) return;
    roleCount_ = count;
    fillScale();
}

void ClusterScene::setMetric(ValueMetric m) {
    state_.metric = m;
    fillScale();
    fillMetricValues(0);
    aggregateValues();
    if (state_.colorMode == ColorMode::Value) applyColors();
}

void ClusterScene::fillMetricValues(double patternTimeS) {
    values_ = {};
    if (!doc_) return;
    if (state_.metric == ValueMetric::TestPattern)
        fillTestPattern(doc_->topology(), patternTimeS, values_);
    if (state_.metric == ValueMetric::LinkSpeed) fillLinkSpeed(doc_->topology(), values_);
}

void ClusterScene::setPatternTimeS(double timeS) {
    if (state_.metric != ValueMetric::TestPattern) return;
    fillMetricValues(timeS);
    aggregateValues();
    if (state_.colorMode == ColorMode::Value) applyColors();
}

void ClusterScene::setLabelsShown(bool on) {
    state_.labels = on; // placed again before the next picture (fitOverlays)
}

CameraPose ClusterScene::cameraPose() const {
    CameraPose p;
    vtkCamera* c = renderer_->GetActiveCamera();
    c->GetPosition(p.position);
    c->GetFocalPoint(p.focalPoint);
    c->GetViewUp(p.viewUp);
    return p;
}

void ClusterScene::setCameraPose(const CameraPose& p) {
    vtkCamera* c = renderer_->GetActiveCamera();
    c->SetPosition(p.position);
    c->SetFocalPoint(p.focalPoint);
    c->SetViewUp(p.viewUp);
    renderer_->ResetCameraClippingRange();
    updateDetail(); // the racks near this camera open
}

void ClusterScene::setColorMode(ColorMode m) {
    state_.colorMode = m;
    applyColors();
    updateLegend();
}

void ClusterScene::setAggregate(Aggregate a) {
    state_.aggregate = a;
    aggregateValues();
    applyColors();
}

void ClusterScene::aggregateValues() {
    if (!doc_) return;
    aggregateRacks(rackMembers_, values_, state_.aggregate, rackValues_);
    if (layout_) aggregateBundles(layout_->bundles, values_, state_.aggregate, bundleValues_);
}

namespace {
// Bundles with this many member links in all are aggregated on another core (1M GPUs: 1.5M).
constexpr size_t kConcurrentBundleMembers = 200'000;
} // namespace

void ClusterScene::setValues(FrameValues v) {
    values_ = std::move(v);
    if (!doc_ || !layout_) return;
    // The bundles on another core while the racks are aggregated and painted: at a million
    // GPUs each reads a few milliseconds of memory, and a frame has five to be applied in.
    const bool large = layout_->bundles.members.items.size() >= kConcurrentBundleMembers;
    const bool byValue = state_.colorMode == ColorMode::Value;
    ConcurrentTask bundles(large, [this, byValue] {
        aggregateBundles(layout_->bundles, values_, state_.aggregate, bundleValues_);
        if (byValue) applyBundleColors();
    });
    aggregateRacks(rackMembers_, values_, state_.aggregate, rackValues_);
    if (byValue) applyRackColors();
    bundles.wait();
    if (byValue) applyOtherColors();
}

void ClusterScene::applyColors() {
    applyRackColors();
    applyBundleColors();
    applyOtherColors();
}

void ClusterScene::applyRackColors() {
    if (!doc_ || !layout_) return;
    const Topology& t = doc_->topology();
    const bool byValue = state_.colorMode == ColorMode::Value;
    const bool difference = state_.metric == ValueMetric::Difference;
    auto shade = [difference](float v) { return difference ? differenceColor(v) : valueColor(v); };
    auto value = [](const std::vector<float>& v, int32_t i) {
        return size_t(i) < v.size() ? v[size_t(i)] : std::numeric_limits<float>::quiet_NaN();
    };
    // A closed rack: its aggregate (mean, max or min) on its sides, each GPU's own value on
    // its top (where a cell would not be too small to see).
    const bool cells = byValue && detail_.cells;
    rackRuns_->setTopShowsCells(cells);
    const RackRunAtlas& runs = rackRuns_->atlas();
    for (size_t i = 0; i < runs.rackSlots.size(); ++i) {
        const int32_t id = runs.rackSlots[i].rack;
        const Rack& r = t.racks[size_t(id)];
        const bool hasValue = r.role != RackRole::Network;
        rackRuns_->paintRack(i,
                             byValue ? (hasValue ? shade(value(rackValues_, id)) : neutralColor())
                                     : kindColor(classOf(r.role)),
                             cells);
    }
    if (cells && difference)
        rackRuns_->paintCells(values_.gpu, differenceColor);
    else if (cells)
        rackRuns_->paintCells(values_.gpu, ValueColors());
}

void ClusterScene::applyBundleColors() {
    if (!doc_ || !layout_) return;
    const bool byValue = state_.colorMode == ColorMode::Value;
    const bool difference = state_.metric == ValueMetric::Difference;
    for (size_t k = 0; k < bundles_->size(); ++k) {
        const int32_t first = layout_->bundles.members.of(int32_t(k))[0];
        const float v = byValue && k < bundleValues_.size() ? bundleValues_[k] : std::nanf("");
        bundles_->setColor(k, !byValue     ? kindColor(linkClass_[size_t(first)])
                              : difference ? differenceColor(v)
                                           : valueColor(v));
        // Width by load (or by the difference either way): a hot bundle stands out by more
        // than hue.
        bundles_->setLoad(k, difference ? std::fabs(v) : v);
    }
}

void ClusterScene::applyOtherColors() {
    if (!doc_ || !layout_) return;
    const Topology& t = doc_->topology();
    const bool byValue = state_.colorMode == ColorMode::Value;
    const bool difference = state_.metric == ValueMetric::Difference;
    auto shade = [difference](float v) { return difference ? differenceColor(v) : valueColor(v); };
    // A line is as wide as its load, or as its difference from the other run either way.
    auto loadOf = [difference](float v) { return difference ? std::fabs(v) : v; };
    auto value = [](const std::vector<float>& v, int32_t i) {
        return size_t(i) < v.size() ? v[size_t(i)] : std::numeric_limits<float>::quiet_NaN();
    };
    for (size_t i = 0; i < farSwitchIds_.size(); ++i)
        farSwitches_->setColor(
            i, byValue ? neutralColor()
                       : kindColor(classOf(t.switches[size_t(farSwitchIds_[i])].role)));
    for (size_t i = 0; i < hostIds_.size(); ++i)
        hosts_->setColor(i, byValue ? neutralColor() : kindColor(KindClass::Host));
    // A NIC shows its cable's load: what its port carries.
    for (size_t i = 0; i < nicIds_.size(); ++i)
        nics_->setColor(i, !byValue                ? kindColor(KindClass::Nic)
                           : nicCable_[i] == kNone ? neutralColor()
                                                   : shade(value(values_.link, nicCable_[i])));
    for (size_t i = 0; i < gpuIds_.size(); ++i)
        gpus_->setColor(i, byValue ? shade(value(values_.gpu, gpuIds_[i]))
                                   : kindColor(KindClass::Gpu));
    for (size_t i = 0; i < switchIds_.size(); ++i)
        switches_->setColor(i, byValue
                                   ? neutralColor()
                                   : kindColor(classOf(t.switches[size_t(switchIds_[i])].role)));
    for (size_t i = 0; i < storageIds_.size(); ++i)
        storage_->setColor(i, byValue ? shade(value(values_.storage, storageIds_[i]))
                                      : kindColor(KindClass::Storage));
    // A stretch that cables share shows the hottest of them, and is as wide as it.
    if (byValue) hottestPerSegment(linkSegments_, values_.link, segmentValues_);
    for (size_t k = 0; k < linkSegments_.a.size(); ++k) {
        const float v = byValue ? segmentValues_[k] : std::nanf("");
        const int32_t first = linkSegments_.links.of(int32_t(k))[0];
        links_->setColor(k, byValue ? shade(v) : kindColor(linkClass_[size_t(first)]));
        links_->setLoad(k, loadOf(v));
    }
    for (GlyphLayer* g : {farSwitches_.get(), hosts_.get(), gpus_.get(), nics_.get(),
                          switches_.get(), storage_.get()})
        g->commit();
    rackRuns_->commit();
    bundles_->commit();
    links_->commit();
}

bool ClusterScene::updateDetail() {
    if (!layout_) return false;
    SceneDetail d = detailFor(*layout_, sceneView());
    if (d == detail_) return false;
    detail_ = std::move(d);
    rebuildNear();
    applyColors();
    updateTitle();
    return true;
}

SceneView ClusterScene::sceneView() const {
    vtkCamera* cam = renderer_->GetActiveCamera();
    double pos[3], dir[3], up[3];
    cam->GetPosition(pos);
    cam->GetDirectionOfProjection(dir);
    cam->GetViewUp(up);
    SceneView v;
    v.eye = {float(pos[0]), float(pos[1]), float(pos[2])};
    v.forward = {float(dir[0]), float(dir[1]), float(dir[2])};
    // The view up made orthogonal to the direction, as VTK projects with it.
    const Vec3 u{float(up[0]), float(up[1]), float(up[2])};
    const Vec3 ortho = u - v.forward * u.dot(v.forward);
    v.up = ortho * (1.f / std::max(1e-6f, ortho.length()));
    v.tanHalfHeight = float(std::tan(cam->GetViewAngle() * M_PI / 360.0));
    const int* size = renderer_->GetSize();
    // Before the first render the renderer has no size: assume the default view's.
    const bool sized = size[0] > 1 && size[1] > 1;
    v.heightPx = sized ? float(size[1]) : 720.f;
    v.aspect = sized ? float(size[0]) / float(size[1]) : 16.f / 9;
    return v;
}

std::optional<Ray> ClusterScene::rayAt(double x, double y) const {
    double nearW[4], farW[4];
    renderer_->SetDisplayPoint(x, y, 0);
    renderer_->DisplayToWorld();
    renderer_->GetWorldPoint(nearW);
    renderer_->SetDisplayPoint(x, y, 1);
    renderer_->DisplayToWorld();
    renderer_->GetWorldPoint(farW);
    if (nearW[3] == 0 || farW[3] == 0) return std::nullopt;
    const Vec3 a{float(nearW[0] / nearW[3]), float(nearW[1] / nearW[3]),
                 float(nearW[2] / nearW[3])};
    const Vec3 b{float(farW[0] / farW[3]), float(farW[1] / farW[3]), float(farW[2] / farW[3])};
    return Ray{a, (b - a) * (1.f / std::max(1e-6f, (b - a).length()))};
}

std::optional<Vec3> ClusterScene::worldPointAt(double x, double y) const {
    const std::optional<Ray> ray = rayAt(x, y);
    if (!ray) return std::nullopt;
    if (const std::optional<PickHit> hit = pickDisplay(x, y))
        return ray->origin + ray->direction * hit->distance;
    // Nothing there: the floor (z = 0) where the ray comes down to it.
    if (ray->direction.z < -1e-4f) {
        const float t = -ray->origin.z / ray->direction.z;
        if (t > 0) return ray->origin + ray->direction * t;
    }
    return std::nullopt;
}

std::optional<PickHit> ClusterScene::pickDisplay(double x, double y) const {
    if (!layout_ || !doc_) return std::nullopt;
    const std::optional<Ray> ray = rayAt(x, y);
    if (!ray) return std::nullopt;
    // 4 pixels of tolerance around lines, as metres per metre of distance.
    const int* size = renderer_->GetSize();
    const double angle = renderer_->GetActiveCamera()->GetViewAngle() * M_PI / 180.0;
    const float tolerance = float(4.0 * 2.0 * std::tan(angle / 2) / std::max(1, size[1]));
    return pickRay(doc_->topology(), doc_->index(), *layout_, detail_, *ray, tolerance);
}

Bounds ClusterScene::boundsOf(Endpoint e) const {
    Bounds b;
    if (!layout_ || !doc_) return b;
    const Topology& t = doc_->topology();
    switch (e.kind) {
    case EntityKind::Cluster:
        for (int32_t p : doc_->index().podsOfCluster(e.index))
            if (layout_->podBounds[size_t(p)].valid()) {
                b.add(layout_->podBounds[size_t(p)].min);
                b.add(layout_->podBounds[size_t(p)].max);
            }
        break;
    case EntityKind::Pod:
        return layout_->podBounds[size_t(e.index)];
    case EntityKind::Link: {
        b.add(layout_->linkA[size_t(e.index)]);
        b.add(layout_->linkB[size_t(e.index)]);
        break;
    }
    case EntityKind::Nic:
        if (layout_->nics[size_t(e.index)].drawn()) {
            b.add(layout_->nics[size_t(e.index)]);
            return b;
        }
        return boundsOf({EntityKind::Host, t.nics[size_t(e.index)].host});
    case EntityKind::Row:
        for (int32_t r = 0; r < int32_t(t.racks.size()); ++r)
            if (t.racks[size_t(r)].row == e.index) b.add(layout_->racks[size_t(r)]);
        break;
    default: {
        const Box& box = layout_->boxOf(e);
        if (box.drawn())
            b.add(box);
        else if (e.kind == EntityKind::Switch) {
            const Switch& w = t.switches[size_t(e.index)];
            if (w.host != kNone) return boundsOf({EntityKind::Host, w.host});
            if (w.rack != kNone) return boundsOf({EntityKind::Rack, w.rack});
        }
    }
    }
    return b;
}

void ClusterScene::frame(const Bounds& b, double closeness, bool closeUp) {
    if (!b.valid()) return;
    const Box box{b.center(), b.max - b.min};
    frameBoxes({&box, 1}, closeness, closeUp, false, true);
}

namespace {
std::array<Vec3, 8> cornersOf(const Box& b) {
    std::array<Vec3, 8> out;
    for (int i = 0; i < 8; ++i)
        out[size_t(i)] = {b.center.x + (i & 1 ? 0.5f : -0.5f) * b.size.x,
                          b.center.y + (i & 2 ? 0.5f : -0.5f) * b.size.y,
                          b.center.z + (i & 4 ? 0.5f : -0.5f) * b.size.z};
    return out;
}
} // namespace

void ClusterScene::frameBoxes(std::span<const Box> boxes, double closeness, bool closeUp,
                              bool turnToFill, bool keepCentre) {
    vtkCamera* cam = renderer_->GetActiveCamera();
    Vec3d dir{0.25, -1.0, 0.85}; // from the front, above: rows read left to right
    if (state_.layout == LayoutKind::Fabric) dir.x = 0.15, dir.z = 0.45;
    // Close up, look down into the aisle at about 50 degrees: the row in front of a rack
    // hides nothing of its front, where the GPUs are.
    if (closeUp && state_.layout == LayoutKind::Floor) dir.x = 0.2, dir.z = 1.2;
    std::vector<Vec3> points; // a box's corners, or a point for a box of no size
    std::vector<size_t> firstPoint;
    points.reserve(8 * boxes.size());
    for (const Box& b : boxes) {
        firstPoint.push_back(points.size());
        if (b.size.x == 0 && b.size.y == 0 && b.size.z == 0) {
            points.push_back(b.center);
            continue;
        }
        const auto corners = cornersOf(b);
        points.insert(points.end(), corners.begin(), corners.end());
    }
    firstPoint.push_back(points.size());
    const int* size = renderer_->GetSize();
    const double aspect = size[1] > 0 ? double(size[0]) / double(size[1]) : 16.0 / 9.0;
    const double tanHalf = std::tan(cam->GetViewAngle() * M_PI / 360.0);
    // The top 12 % stay clear for the title line above the fabric, and in the fabric layout
    // the left 15 % for the tiers' names; a little room elsewhere.
    const bool fabric = state_.layout == LayoutKind::Fabric;
    const PictureWindow window{fabric ? -0.7 : -0.97, 0.97, -0.95, 0.88};
    std::optional<CameraFit> fit = fitCamera(points, dir, tanHalf, aspect, window, keepCentre);
    if (!fit) return;
    if (turnToFill) {
        // A floor much deeper than wide fills a wide picture better seen from another side:
        // of views turned about the vertical (the racks' fronts still towards the camera),
        // the one whose boxes cover most of the picture (cells of a coarse grid under a
        // box's outline), taken only when it covers 15 % more than the front view.
        auto covered = [&](const CameraFit& f, Vec3d d) {
            constexpr int kCols = 64, kRows = 36;
            std::vector<uint8_t> cells(kCols * kRows, 0);
            auto cell = [](double v, int n) { return std::clamp(int((v + 1) / 2 * n), 0, n - 1); };
            for (size_t b = 0; b < boxes.size(); ++b) {
                double x0 = 2, x1 = -2, y0 = 2, y1 = -2;
                for (size_t i = firstPoint[b]; i < firstPoint[b + 1]; ++i) {
                    const PicturePoint q = projectThrough(f, d, tanHalf, aspect, points[i]);
                    x0 = std::min(x0, q.x), x1 = std::max(x1, q.x);
                    y0 = std::min(y0, q.y), y1 = std::max(y1, q.y);
                }
                for (int r = cell(y0, kRows); r <= cell(y1, kRows); ++r)
                    for (int c = cell(x0, kCols); c <= cell(x1, kCols); ++c)
                        cells[size_t(r * kCols + c)] = 1;
            }
            return double(std::count(cells.begin(), cells.end(), 1));
        };
        double best = 1.15 * covered(*fit, dir);
        for (double turnDeg : {-60.0, -30.0, 30.0, 60.0}) {
            const double a = turnDeg * M_PI / 180, c = std::cos(a), s = std::sin(a);
            const Vec3d turned{dir.x * c - dir.y * s, dir.x * s + dir.y * c, dir.z};
            const auto turnedFit = fitCamera(points, turned, tanHalf, aspect, window);
            if (!turnedFit) continue;
            const double cells = covered(*turnedFit, turned);
            if (cells > best) best = cells, fit = turnedFit, dir = turned;
        }
    }
    const double n = std::sqrt(dir.x * dir.x + dir.y * dir.y + dir.z * dir.z);
    const double distance = std::max(fit->distance, 1.5) * closeness / n; // a GPU shows its host
    const Vec3d& c = fit->focalPoint;
    cam->SetFocalPoint(c.x, c.y, c.z);
    cam->SetPosition(c.x + dir.x * distance, c.y + dir.y * distance, c.z + dir.z * distance);
    cam->SetViewUp(0, 0, 1);
    renderer_->ResetCameraClippingRange();
    updateDetail();
}

std::vector<Box> ClusterScene::overviewBoxes() const {
    std::vector<Box> out;
    for (size_t r = 0; r < layout_->racks.size(); ++r)
        if (layout_->rackFar[r] && layout_->racks[r].drawn()) out.push_back(layout_->racks[r]);
    for (size_t s = 0; s < layout_->switches.size(); ++s)
        if (layout_->switchFar[s] && layout_->switches[s].drawn())
            out.push_back(layout_->switches[s]);
    // The bundles' paths too: cable trays run above the racks.
    for (size_t k = 0; k < layout_->bundles.a.size(); ++k) {
        const CablePath path = bundlePath(*layout_, int32_t(k));
        for (int i = 0; i < path.count; ++i)
            out.push_back({path.points[size_t(i)], {0, 0, 0}});
    }
    // And the pods' and tiers' names: a line of text above or below their anchor.
    for (const LabelCandidate& c : labelCandidates_)
        if (c.kind == LabelKind::Pod || c.kind == LabelKind::Tier)
            out.push_back(
                {c.anchor + Vec3{0, 0, (c.below ? -1.5f : 1.5f) * c.worldSizeM}, {0, 0, 0}});
    return out;
}

void ClusterScene::viewOverview() {
    if (!layout_) return;
    // Every rack and lone switch in the picture, as large as the picture allows.
    const std::vector<Box> boxes = overviewBoxes();
    if (boxes.empty())
        frame(layout_->bounds, 1.0);
    else
        frameBoxes(boxes, 1.0, false, state_.layout == LayoutKind::Floor);
    overviewPose_ = cameraPose();
}

bool ClusterScene::atOverview() const {
    return overviewPose_ && cameraPose() == *overviewPose_;
}

bool ClusterScene::viewPod(int32_t pod) {
    if (!layout_ || pod < 0 || size_t(pod) >= layout_->podBounds.size()) return false;
    frame(layout_->podBounds[size_t(pod)], 1.0);
    return true;
}

bool ClusterScene::viewRack(int32_t rack) {
    if (!layout_ || rack < 0 || size_t(rack) >= layout_->racks.size() ||
        !layout_->racks[size_t(rack)].drawn())
        return false;
    frame(boundsOf({EntityKind::Rack, rack}), 2.2, true);
    return true;
}

bool ClusterScene::viewEntity(Endpoint e) {
    if (!layout_ || !doc_ || e.index < 0 || size_t(e.index) >= doc_->topology().count(e.kind))
        return false;
    if (e.kind == EntityKind::Pod) return viewPod(e.index);
    if (e.kind == EntityKind::Cluster) {
        frame(boundsOf(e), 1.0);
        return true;
    }
    const Bounds b = boundsOf(e);
    if (!b.valid()) return false;
    // Small things (hosts, GPUs, NICs) a few times their own size away: their host and its
    // neighbours fill the view.
    frame(b, e.kind == EntityKind::Link ? 1.0 : 2.0, true);
    return true;
}

std::string ClusterScene::describe(const PickHit& hit) const {
    if (!doc_ || !layout_) return {};
    const Topology& t = doc_->topology();
    auto percent = [](float v) {
        if (std::isnan(v)) return std::string("no data");
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.0f%%", double(v) * 100);
        return std::string(buf);
    };
    const bool byValue = state_.colorMode == ColorMode::Value;
    const char* agg = aggregateName(state_.aggregate);
    if (hit.bundle != kNone) {
        const auto members = layout_->bundles.members.of(hit.bundle);
        const Link& first = t.links[size_t(members[0])];
        std::string s = std::to_string(members.size()) + " links: " + t.nameOf(first.a) + " ... " +
                        t.nameOf(first.b);
        if (byValue)
            s += "\n" + std::string(agg) + " " + percent(bundleValues_[size_t(hit.bundle)]);
        return s;
    }
    const Endpoint e = hit.entity;
    std::string s = std::string(toString(e.kind)) + " " + t.nameOf(e);
    if (!byValue) return s;
    auto at = [](const std::vector<float>& v, int32_t i) {
        return size_t(i) < v.size() ? v[size_t(i)] : std::numeric_limits<float>::quiet_NaN();
    };
    if (e.kind == EntityKind::Gpu) s += "\n" + percent(at(values_.gpu, e.index));
    if (e.kind == EntityKind::Link) s += "\n" + percent(at(values_.link, e.index));
    if (e.kind == EntityKind::Storage) s += "\n" + percent(at(values_.storage, e.index));
    if (e.kind == EntityKind::Rack)
        s += "\n" + std::string(agg) + " " + percent(at(rackValues_, e.index));
    return s;
}

size_t ClusterScene::drawnBoxes() const {
    return rackRuns_->racks() + rackRuns_->cells() + farSwitches_->size() + hosts_->size() +
           gpus_->size() + nics_->size() + switches_->size() + storage_->size();
}

size_t ClusterScene::drawnLines() const {
    return bundles_->size() + links_->size();
}

} // namespace cs::views
