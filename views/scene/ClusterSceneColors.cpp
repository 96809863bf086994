// Colours and widths: what a frame's values (or the kinds of things) paint on the scene's
// layers, and the racks' and bundles' aggregates they are painted from.
#include "ClusterScene.h"

#include "ConcurrentTask.h"
#include "GlyphLayer.h"
#include "LineLayer.h"
#include "RackRunLayer.h"
#include "SceneShading.h"

#include <cmath>

namespace cs::views {

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
