#include "ClusterScene.h"

#include "LabelLayer.h"

#include <algorithm>

#include <vtkCubeSource.h>
#include <vtkLegendBoxActor.h>
#include <vtkPolyData.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

#include <algorithm>
#include <cmath>

// The 2D layer of the scene: the legend and colour bar in their panel, the title line and
// the 3D labels, laid out for the window's size before each render.
namespace cs::views {
namespace {

void setRgb(double out[3], Rgba c) {
    for (int i = 0; i < 3; ++i)
        out[i] = c[size_t(i)] / 255.0;
}

} // namespace

void ClusterScene::updateLegend() {
    const bool byValue = state_.colorMode == ColorMode::Value;
    scalarBar_->SetVisibility(byValue && doc_);
    std::vector<KindClass> entries;
    if (byValue) {
        entries = {};
    } else if (state_.layout == LayoutKind::Floor) {
        entries = {KindClass::ComputeRack, KindClass::NetworkRack,  KindClass::StorageRack,
                   KindClass::Gpu,         KindClass::Host,         KindClass::Nic,
                   KindClass::RackSwitch,  KindClass::NvlinkSwitch, KindClass::FrontendSwitch,
                   KindClass::BackendLink, KindClass::FrontendLink};
    } else {
        entries = {KindClass::ComputeRack,    KindClass::StorageRack, KindClass::Gpu,
                   KindClass::RackSwitch,     KindClass::PodSwitch,   KindClass::CoreSwitch,
                   KindClass::FrontendSwitch, KindClass::BackendLink, KindClass::FrontendLink};
    }
    // Only what this topology holds: a fabric read from another tool's file often has no
    // storage, frontend or core tier, and a legend listing them misleads.
    if (doc_) {
        const TopologyStats& s = doc_->stats();
        auto holds = [&](KindClass k) {
            switch (k) {
            case KindClass::ComputeRack:
                return s.racks > 0;
            case KindClass::NetworkRack:
                return s.networkRacks > 0;
            case KindClass::StorageRack:
                return s.storageRacks > 0;
            case KindClass::Gpu:
                return s.gpus > 0;
            case KindClass::Host:
                return s.hosts > 0;
            case KindClass::Nic:
                return s.nics > 0;
            case KindClass::NvlinkSwitch:
                return std::any_of(
                    doc_->topology().switches.begin(), doc_->topology().switches.end(),
                    [](const Switch& w) { return classOf(w) == KindClass::NvlinkSwitch; });
            case KindClass::FrontendLink:
                k = KindClass::FrontendSwitch;
                [[fallthrough]];
            case KindClass::RackSwitch:
            case KindClass::PodSwitch:
            case KindClass::CoreSwitch:
            case KindClass::FrontendSwitch:
                for (int r = 0; r < kSwitchRoleCount; ++r)
                    if (s.switchesByRole[size_t(r)] > 0 && SwitchRole(r) != SwitchRole::NvSwitch &&
                        classOf(SwitchRole(r)) == k)
                        return true;
                return false;
            default:
                return true;
            }
        };
        std::erase_if(entries, [&](KindClass k) { return !holds(k); });
    }
    vtkNew<vtkCubeSource> square;
    square->Update();
    legend_->SetNumberOfEntries(int(entries.size()));
    for (size_t i = 0; i < entries.size(); ++i) {
        double rgb[3];
        setRgb(rgb, kindColor(entries[i]));
        legend_->SetEntry(int(i), square->GetOutput(), kindLabel(entries[i]), rgb);
    }
    legendEntries_ = int(entries.size());
    legend_->SetVisibility(!entries.empty() && doc_);
    // The panel's width follows what it shows; framing then sees the view's own size.
    if (overlayW_ > 0)
        fitOverlays(overlayW_, overlayH_, overlayDpi_);
    else if (vtkRenderWindow* w = renderer_->GetRenderWindow())
        fitOverlays(w->GetSize()[0], w->GetSize()[1]);
    updateTitle();
}

void ClusterScene::setCaption(const std::string& caption) {
    caption_ = caption;
    updateTitle();
}

void ClusterScene::updateTitle() {
    titleParts_.clear();
    if (doc_) {
        titleParts_ = {
            doc_->topology().name, std::string(kLayoutNames.name(state_.layout)) + " layout",
            detail_.near ? std::to_string(detail_.openRacks.size()) +
                               (detail_.openRacks.size() == 1 ? " rack open" : " racks open")
                         : std::string("racks and link bundles")};
        // A fabric read from another tool's file: its structure was partly inferred.
        if (doc_->format() != TopologyFormat::Native)
            titleParts_.push_back(std::string(topologyFormatName(doc_->format())) +
                                  (doc_->inferred().empty() ? "" : ", structure inferred"));
        if (!caption_.empty()) titleParts_.push_back(caption_);
    }
    wrapTitle();
}

void ClusterScene::wrapTitle() {
    // The title's parts on as few lines as the view's width holds (a character is about
    // 0.6 of the font size wide), never cut at the panel.
    double vp[4];
    renderer_->GetViewport(vp);
    const double viewPx = (vp[2] - vp[0]) * std::max(1, overlayW_ > 0 ? overlayW_ : 1280);
    const double charPx = 0.6 * std::max(1, title_->GetTextProperty()->GetFontSize());
    const auto maxChars = size_t(std::max(20.0, (viewPx - 20) / charPx));
    std::string text, line;
    for (const std::string& part : titleParts_) {
        if (!line.empty() && line.size() + 5 + part.size() > maxChars) {
            text += line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : "  |  ") + part;
    }
    text += line;
    titleLines_ = text.empty() ? 0 : 1 + int(std::count(text.begin(), text.end(), '\n'));
    title_->SetInput(text.c_str());
}

void ClusterScene::fitOverlays(int widthPx, int heightPx, double dpiScale) {
    overlayW_ = widthPx, overlayH_ = heightPx, overlayDpi_ = dpiScale;
    const double w = std::max(1, widthPx), h = std::max(1, heightPx);
    // Small views (a 640x360 thumbnail) get a smaller legend, never below 60%.
    dpiScale *= std::clamp(h / (720.0 * dpiScale), 0.6, 1.0);
    labelScale_ = dpiScale;
    // The panel: 230 px for the kind legend, 190 px for the colour bar (its title, "Link
    // speed, log %", centred over it), at most a third.
    const bool bar = scalarBar_->GetVisibility(), legend = legend_->GetVisibility();
    const double panelPx = (bar ? 190 : legend ? 230 : 0) * dpiScale;
    const double f = std::min(1.0 / 3, panelPx / w);
    renderer_->SetViewport(0, 0, 1 - f, 1);
    panel_->SetViewport(1 - f, 0, 1, 1);
    panel_->SetDraw(f > 0);
    const double pw = std::max(1.0, f * w);
    // 22 px a legend entry, from below the title line down.
    const double entryPx = 22 * dpiScale;
    const double legendH = std::min(0.9, entryPx * legendEntries_ / h);
    legend_->GetPositionCoordinate()->SetValue(6 * dpiScale / pw, 1 - 44 * dpiScale / h - legendH);
    legend_->GetPosition2Coordinate()->SetValue(1 - 12 * dpiScale / pw, legendH);
    // The bar with its labels at the right and "no data" at the left, 60% of the height.
    scalarBar_->SetWidth(std::min(0.45, 70 * dpiScale / pw));
    scalarBar_->SetHeight(0.6);
    scalarBar_->GetPositionCoordinate()->SetValue(std::min(0.55, 70 * dpiScale / pw), 0.2);
    title_->GetTextProperty()->SetFontSize(int(16 * dpiScale));
    scalarBar_->GetTitleTextProperty()->SetFontSize(int(14 * dpiScale));
    scalarBar_->GetLabelTextProperty()->SetFontSize(int(12 * dpiScale));
    scalarBar_->GetAnnotationTextProperty()->SetFontSize(int(12 * dpiScale));
    wrapTitle();
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
    // Labels stay clear of the title's lines at the top (font points times the DPI scale).
    const double titlePx =
        titleLines_ * 1.3 * title_->GetTextProperty()->GetFontSize() * overlayDpi_ + 12;
    placed_ = placeLabels(all, sceneView(), float(std::max(1, size[0])), float(titlePx),
                          float(labelScale_));
    placedTexts_.clear();
    for (const PlacedLabel& p : placed_)
        placedTexts_.push_back(all[p.candidate].text);
    labels_->show(all, placed_, overlayDpi_);
}

} // namespace cs::views
