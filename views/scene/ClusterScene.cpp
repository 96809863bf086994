#include "ClusterScene.h"

#include "ConcurrentTask.h"
#include "GlyphLayer.h"
#include "LabelLayer.h"
#include "LineLayer.h"
#include "RackRunLayer.h"
#include "SceneGltf.h"
#include "SceneOutlines.h"
#include "SceneOverlays.h"
#include "SceneShading.h"

#include <vtkCamera.h>
#include <vtkLookupTable.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace cs::views {

ClusterScene::ClusterScene(vtkRenderer* renderer) : renderer_(renderer) {
    lut_->SetNumberOfTableValues(256);
    lut_->SetNanColor(noDataColor()[0] / 255.0, noDataColor()[1] / 255.0, noDataColor()[2] / 255.0,
                      1);
    overlays_ = std::make_unique<SceneOverlays>(renderer_, lut_);
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

    outlines_ = std::make_unique<SceneOutlines>(renderer_);

    fillScale();
}

ClusterScene::~ClusterScene() = default;

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
    updateOutlines();
    viewOverview();
}

void ClusterScene::exportGltf(const std::string& path) const {
    // The instanced boxes materialised as polygons; the far racks are polygons already.
    std::vector<GltfPart> parts;
    for (const GlyphLayer* g : {farSwitches_.get(), hosts_.get(), gpus_.get(), nics_.get(),
                                switches_.get(), storage_.get()})
        parts.push_back({g->boxesAsPolyData(), g->actor(), false});
    for (const LineLayer* l : {bundles_.get(), links_.get()})
        parts.push_back({l->polyData(), l->actor(), true});
    exportSceneGltf(renderer_->GetActiveCamera(), parts, rackRuns_->actor(), path);
}

OutlineGeometry ClusterScene::outlineGeometry() const {
    if (!doc_ || !layout_) return {};
    return {&doc_->topology(), layout_.get(), [this](Endpoint e) { return boundsOf(e); }};
}

void ClusterScene::updateOutlines() {
    const OutlineGeometry g = outlineGeometry();
    outlineSelection(g);
    outlines_->show(OutlineKind::Failed, state_.marked, g);
    outlines_->show(OutlineKind::Outlier, flagged_, g);
    outlines_->show(OutlineKind::Job, highlighted_, g);
}

void ClusterScene::outlineSelection(const OutlineGeometry& g) {
    const std::optional<PickHit>& hit = state_.selection;
    outlines_->show(OutlineKind::Selection,
                    hit ? std::vector<Endpoint>{hit->entity} : std::vector<Endpoint>{}, g,
                    hit ? hit->bundle : kNone);
}

void ClusterScene::select(std::optional<PickHit> hit) {
    state_.selection = hit;
    outlineSelection(outlineGeometry());
}

void ClusterScene::setMarked(std::vector<Endpoint> entities) {
    if (entities == state_.marked) return;
    state_.marked = std::move(entities);
    outlines_->show(OutlineKind::Failed, state_.marked, outlineGeometry());
}

void ClusterScene::setHighlighted(std::vector<Endpoint> entities) {
    if (entities == highlighted_) return;
    highlighted_ = std::move(entities);
    outlines_->show(OutlineKind::Job, highlighted_, outlineGeometry());
}

size_t ClusterScene::highlightedLines() const {
    return outlines_->lineCells(OutlineKind::Job);
}

void ClusterScene::setFlagged(std::vector<Endpoint> entities) {
    if (entities == flagged_) return;
    flagged_ = std::move(entities);
    outlines_->show(OutlineKind::Outlier, flagged_, outlineGeometry());
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
    overlays_->setColourBarScale(
        role        ? std::string(kGpuRoleNames.label(state_.role))
        : gpuMetric ? std::string(scale.title)
                    : std::string(valueTitle(state_.metric)),
        role || gpuMetric ? "%.0f" : "%.0f%%",
        !(state_.metric == ValueMetric::Run && state_.role == GpuRole::Job));
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
    overlays_->setNoValueLabel(label);
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

// The 2D layer: the legend and colour bar (SceneOverlays) and the 3D labels, laid out for the
// window's size before each render.
void ClusterScene::updateLegend() {
    const bool byValue = state_.colorMode == ColorMode::Value;
    overlays_->setContents(doc_ && !byValue ? legendKinds(*doc_, state_.layout)
                                            : std::vector<KindClass>{},
                           byValue && doc_);
    updateLabels();
    updateTitle();
}

void ClusterScene::setCaption(const std::string& caption) {
    caption_ = caption;
    updateTitle();
}

void ClusterScene::updateTitle() {
    std::vector<std::string> parts;
    if (doc_) {
        parts = {doc_->topology().name, std::string(kLayoutNames.name(state_.layout)) + " layout",
                 detail_.near ? std::to_string(detail_.openRacks.size()) +
                                    (detail_.openRacks.size() == 1 ? " rack open" : " racks open")
                              : std::string("racks and link bundles")};
        // A fabric read from another tool's file: its structure was partly inferred.
        if (doc_->format() != TopologyFormat::Native)
            parts.push_back(std::string(topologyFormatName(doc_->format())) +
                            (doc_->inferred().empty() ? "" : ", structure inferred"));
        if (!caption_.empty()) parts.push_back(caption_);
    }
    overlays_->setTitle(std::move(parts));
}

void ClusterScene::fitOverlays(int widthPx, int heightPx, double dpiScale) {
    overlays_->fit(widthPx, heightPx, dpiScale);
    updateLabels();
}

void ClusterScene::updateLabels() {
    std::vector<LabelCandidate> all =
        state_.labels ? labelCandidates_ : std::vector<LabelCandidate>{};
    if (state_.labels && state_.selection && doc_ && layout_) {
        // The selection's name over it: a link at its middle, anything else above its box.
        const Endpoint e = state_.selection->entity;
        Vec3 at;
        if (e.kind == EntityKind::Link && state_.selection->bundle == kNone)
            at = (layout_->linkA[size_t(e.index)] + layout_->linkB[size_t(e.index)]) * 0.5f;
        else if (e.kind == EntityKind::Link)
            at = (layout_->bundles.a[size_t(state_.selection->bundle)] +
                  layout_->bundles.b[size_t(state_.selection->bundle)]) *
                 0.5f;
        else {
            const Bounds b = boundsOf(e);
            at = b.valid() ? Vec3{b.center().x, b.center().y, b.max.z} : Vec3{};
        }
        std::string name = doc_->topology().nameOf(e);
        if (state_.selection->bundle != kNone)
            name = std::to_string(layout_->bundles.members.of(state_.selection->bundle).size()) +
                   " links";
        all.push_back({name, at, 1, LabelKind::Selection});
    }
    const int* size = renderer_->GetSize();
    // Labels stay clear of the title's lines at the top.
    placed_ = placeLabels(all, sceneView(), float(std::max(1, size[0])),
                          float(overlays_->titleHeightPx()), float(overlays_->labelScale()));
    placedTexts_.clear();
    for (const PlacedLabel& p : placed_)
        placedTexts_.push_back(all[p.candidate].text);
    labels_->show(all, placed_, overlays_->dpiScale());
}

// Colours and widths: what a frame's values (or the kinds of things) paint on the scene's
// layers, and the racks' and bundles' aggregates they are painted from.
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
    const Shading shading(state_);
    // A closed rack: its aggregate (mean, max or min) on its sides, each GPU's own value on
    // its top (where a cell would not be too small to see).
    const bool cells = shading.byValue && detail_.cells;
    rackRuns_->setTopShowsCells(cells);
    const RackRunAtlas& runs = rackRuns_->atlas();
    for (size_t i = 0; i < runs.rackSlots.size(); ++i) {
        const int32_t id = runs.rackSlots[i].rack;
        const Rack& r = t.racks[size_t(id)];
        const bool hasValue = r.role != RackRole::Network;
        rackRuns_->paintRack(i,
                             !shading.byValue ? kindColor(classOf(r.role))
                             : hasValue       ? shading.color(valueAt(rackValues_, id))
                                              : neutralColor(),
                             cells);
    }
    if (cells && shading.difference)
        rackRuns_->paintCells(values_.gpu, differenceColor);
    else if (cells)
        rackRuns_->paintCells(values_.gpu, ValueColors());
}

void ClusterScene::applyBundleColors() {
    if (!doc_ || !layout_) return;
    const Shading shading(state_);
    for (size_t k = 0; k < bundles_->size(); ++k) {
        const int32_t first = layout_->bundles.members.of(int32_t(k))[0];
        const float v = shading.byValue ? valueAt(bundleValues_, int32_t(k)) : std::nanf("");
        bundles_->setColor(k, shading.byValue ? shading.color(v)
                                              : kindColor(linkClass_[size_t(first)]));
        // Width by load (or by the difference either way): a hot bundle stands out by more
        // than hue.
        bundles_->setLoad(k, shading.width(v));
    }
}

void ClusterScene::applyOtherColors() {
    if (!doc_ || !layout_) return;
    const Topology& t = doc_->topology();
    const Shading shading(state_);
    const bool byValue = shading.byValue;
    for (size_t i = 0; i < farSwitchIds_.size(); ++i)
        farSwitches_->setColor(
            i, byValue ? neutralColor() : kindColor(classOf(t.switches[size_t(farSwitchIds_[i])])));
    for (size_t i = 0; i < hostIds_.size(); ++i)
        hosts_->setColor(i, byValue ? neutralColor() : kindColor(KindClass::Host));
    // A NIC shows its cable's load: what its port carries.
    for (size_t i = 0; i < nicIds_.size(); ++i)
        nics_->setColor(i, !byValue ? kindColor(KindClass::Nic)
                           : nicCable_[i] == kNone
                               ? neutralColor()
                               : shading.color(valueAt(values_.link, nicCable_[i])));
    for (size_t i = 0; i < gpuIds_.size(); ++i)
        gpus_->setColor(i, byValue ? shading.color(valueAt(values_.gpu, gpuIds_[i]))
                                   : kindColor(KindClass::Gpu));
    for (size_t i = 0; i < switchIds_.size(); ++i)
        switches_->setColor(i, byValue ? neutralColor()
                                       : kindColor(classOf(t.switches[size_t(switchIds_[i])])));
    for (size_t i = 0; i < storageIds_.size(); ++i)
        storage_->setColor(i, byValue ? shading.color(valueAt(values_.storage, storageIds_[i]))
                                      : kindColor(KindClass::Storage));
    // A stretch that cables share shows the hottest of them, and is as wide as it.
    if (byValue) hottestPerSegment(linkSegments_, values_.link, segmentValues_);
    for (size_t k = 0; k < linkSegments_.a.size(); ++k) {
        const float v = byValue ? segmentValues_[k] : std::nanf("");
        const int32_t first = linkSegments_.links.of(int32_t(k))[0];
        links_->setColor(k, byValue ? shading.color(v) : kindColor(linkClass_[size_t(first)]));
        links_->setLoad(k, shading.width(v));
    }
    for (GlyphLayer* g : {farSwitches_.get(), hosts_.get(), gpus_.get(), nics_.get(),
                          switches_.get(), storage_.get()})
        g->commit();
    rackRuns_->commit();
    bundles_->commit();
    links_->commit();
}

} // namespace cs::views
