#include "ClusterScene.h"

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
    vtkNew<vtkPolyDataMapper> highlightedMapper;
    highlightedMapper->SetInputData(highlightedPoly_);
    highlightedActor_->SetMapper(highlightedMapper);
    // Okabe-Ito's sky blue: a selected job, apart from the white selection and the outlines
    // of failed and outlying parts.
    highlightedActor_->GetProperty()->SetColor(86 / 255.0, 180 / 255.0, 233 / 255.0);
    highlightedActor_->GetProperty()->SetLineWidth(1.5); // racks side by side stay apart
    highlightedActor_->GetProperty()->SetLighting(false);
    highlightedActor_->SetVisibility(false);
    renderer_->AddActor(highlightedActor_);

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
    renderer_->RemoveActor(highlightedActor_);
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
    highlighted_.clear();
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
    outlineWithRacks(highlighted_, highlightedPoly_, highlightedActor_, false);
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
    // Ranks (and watts, degrees, ...) are not percentages; jobs have no order on the bar (each
    // job's colour is in the Jobs list), so it names no values.
    scalarBar_->SetLabelFormat(role || gpuMetric ? "%.0f" : "%.0f%%");
    scalarBar_->SetDrawTickLabels(
        state_.metric == ValueMetric::Run && state_.role == GpuRole::Job ? 0 : 1);
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

void ClusterScene::setNoValueLabel(const std::string& label) {
    noValueLabel_ = label;
    scalarBar_->SetNanAnnotation(label.c_str());
}

std::string ClusterScene::describe(const PickHit& hit) const {
    if (!doc_ || !layout_) return {};
    const Topology& t = doc_->topology();
    auto percent = [this](float v) {
        if (std::isnan(v)) return noValueLabel_;
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
