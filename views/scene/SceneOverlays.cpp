#include "SceneOverlays.h"

#include <vtkCoordinate.h>
#include <vtkCubeSource.h>
#include <vtkLegendBoxActor.h>
#include <vtkLookupTable.h>
#include <vtkPolyData.h>
#include <vtkProperty2D.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

#include <algorithm>

namespace cs::views {
namespace {

void styleText(vtkTextProperty* p, int size) {
    p->SetFontFamilyToArial();
    p->SetFontSize(size);
    p->SetColor(0.93, 0.94, 0.96);
    p->SetShadow(false);
}

void setRgb(double out[3], Rgba c) {
    for (int i = 0; i < 3; ++i)
        out[i] = c[size_t(i)] / 255.0;
}

} // namespace

std::vector<KindClass> legendKinds(const TopologyDocument& doc, LayoutKind layout) {
    std::vector<KindClass> entries;
    if (layout == LayoutKind::Floor) {
        entries = {KindClass::ComputeRack, KindClass::NetworkRack,  KindClass::StorageRack,
                   KindClass::Gpu,         KindClass::Host,         KindClass::Nic,
                   KindClass::RackSwitch,  KindClass::NvlinkSwitch, KindClass::FrontendSwitch,
                   KindClass::BackendLink, KindClass::FrontendLink};
    } else {
        entries = {KindClass::ComputeRack,    KindClass::StorageRack, KindClass::Gpu,
                   KindClass::RackSwitch,     KindClass::PodSwitch,   KindClass::CoreSwitch,
                   KindClass::FrontendSwitch, KindClass::BackendLink, KindClass::FrontendLink};
    }
    const TopologyStats& s = doc.stats();
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
                doc.topology().switches.begin(), doc.topology().switches.end(),
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
    return entries;
}

SceneOverlays::SceneOverlays(vtkRenderer* view, vtkLookupTable* lut) : view_(view) {
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
    view_->SetLayer(1);
    view_->PreserveDepthBufferOn();
    if (vtkRenderWindow* w = view_->GetRenderWindow()) {
        w->SetNumberOfLayers(std::max(2, w->GetNumberOfLayers()));
        w->AddRenderer(backdrop_);
        w->AddRenderer(panel_);
    }

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

    scalarBar_->SetLookupTable(lut);
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

    styleText(title_->GetTextProperty(), 16);
    title_->GetTextProperty()->SetBold(true);
    title_->GetTextProperty()->SetVerticalJustificationToTop();
    title_->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
    title_->GetPositionCoordinate()->SetValue(0.01, 0.98);
    view_->AddActor2D(title_);
}

SceneOverlays::~SceneOverlays() {
    panel_->RemoveActor2D(legend_);
    panel_->RemoveActor2D(scalarBar_);
    view_->RemoveActor2D(title_);
    if (vtkRenderWindow* w = view_->GetRenderWindow()) {
        w->RemoveRenderer(panel_);
        w->RemoveRenderer(backdrop_);
    }
}

void SceneOverlays::setContents(const std::vector<KindClass>& legend, bool colourBar) {
    scalarBar_->SetVisibility(colourBar);
    vtkNew<vtkCubeSource> square;
    square->Update();
    legend_->SetNumberOfEntries(int(legend.size()));
    for (size_t i = 0; i < legend.size(); ++i) {
        double rgb[3];
        setRgb(rgb, kindColor(legend[i]));
        legend_->SetEntry(int(i), square->GetOutput(), kindLabel(legend[i]), rgb);
    }
    legendEntries_ = int(legend.size());
    legend_->SetVisibility(!legend.empty());
    refit(); // the panel's width follows what it shows; framing then sees the view's own size
}

void SceneOverlays::setColourBarScale(const std::string& title, const char* labelFormat,
                                      bool tickLabels) {
    scalarBar_->SetLabelFormat(labelFormat);
    scalarBar_->SetDrawTickLabels(tickLabels ? 1 : 0);
    scalarBar_->SetTitle(title.c_str());
}

void SceneOverlays::setNoValueLabel(const std::string& label) {
    scalarBar_->SetNanAnnotation(label.c_str());
}

void SceneOverlays::setTitle(std::vector<std::string> parts) {
    titleParts_ = std::move(parts);
    wrapTitle();
}

void SceneOverlays::refit() {
    if (widthPx_ > 0)
        fit(widthPx_, heightPx_, dpi_);
    else if (vtkRenderWindow* w = view_->GetRenderWindow())
        fit(w->GetSize()[0], w->GetSize()[1], 1.0);
}

void SceneOverlays::wrapTitle() {
    // The title's parts on as few lines as the view's width holds (a character is about
    // 0.6 of the font size wide), never cut at the panel.
    double vp[4];
    view_->GetViewport(vp);
    const double viewPx = (vp[2] - vp[0]) * std::max(1, widthPx_ > 0 ? widthPx_ : 1280);
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

double SceneOverlays::titleHeightPx() const {
    // Font points times the DPI scale, and a margin.
    return titleLines_ * 1.3 * title_->GetTextProperty()->GetFontSize() * dpi_ + 12;
}

void SceneOverlays::fit(int widthPx, int heightPx, double dpiScale) {
    widthPx_ = widthPx, heightPx_ = heightPx, dpi_ = dpiScale;
    const double w = std::max(1, widthPx), h = std::max(1, heightPx);
    // Small views (a 640x360 thumbnail) get a smaller legend, never below 60%.
    dpiScale *= std::clamp(h / (720.0 * dpiScale), 0.6, 1.0);
    labelScale_ = dpiScale;
    // The panel: 230 px for the kind legend, 190 px for the colour bar (its title, "Link
    // speed, log %", centred over it), at most a third.
    const bool bar = scalarBar_->GetVisibility(), legend = legend_->GetVisibility();
    const double panelPx = (bar ? 190 : legend ? 230 : 0) * dpiScale;
    const double f = std::min(1.0 / 3, panelPx / w);
    view_->SetViewport(0, 0, 1 - f, 1);
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
}

} // namespace cs::views
