#pragma once
// The 2D layer of the scene: the panel right of the 3D view with the legend and the colour
// bar, the title line over the view, and the backdrop that clears the window; laid out for the
// window's size before each render, so that nothing covers the fabric wherever the camera goes.
#include "ColorMaps.h"
#include "TopologyDocument.h"
#include "ViewState.h"

#include <vtkNew.h>

#include <string>
#include <vector>

class vtkLegendBoxActor;
class vtkLookupTable;
class vtkRenderer;
class vtkScalarBarActor;
class vtkTextActor;

namespace cs::views {

// The kinds the legend lists for a topology shown in `layout` by kind: only those it holds (a
// fabric read from another tool's file often has no storage, frontend or core tier).
std::vector<KindClass> legendKinds(const TopologyDocument& doc, LayoutKind layout);

class SceneOverlays {
public:
    // `view`: the 3D view's renderer, whose viewport ends where the panel begins; `lut`: the
    // table the colour bar shows.
    SceneOverlays(vtkRenderer* view, vtkLookupTable* lut);
    ~SceneOverlays();
    SceneOverlays(const SceneOverlays&) = delete;
    SceneOverlays& operator=(const SceneOverlays&) = delete;

    // The legend's entries (none: no legend) and whether the colour bar shows; the panel's
    // width follows, at the last size laid out (or the window's).
    void setContents(const std::vector<KindClass>& legend, bool colourBar);
    void setColourBarScale(const std::string& title, const char* labelFormat, bool tickLabels);
    void setNoValueLabel(const std::string& label); // the bar's grey swatch
    // The title's parts, on as few lines as the view's width holds.
    void setTitle(std::vector<std::string> parts);

    void fit(int widthPx, int heightPx, double dpiScale);
    double dpiScale() const { return dpi_; }
    double labelScale() const { return labelScale_; } // the overlays' size factor
    double titleHeightPx() const;                     // the title's lines, where labels must not go

private:
    void refit();
    void wrapTitle();

    vtkRenderer* view_;
    vtkNew<vtkLegendBoxActor> legend_;
    vtkNew<vtkScalarBarActor> scalarBar_;
    vtkNew<vtkTextActor> title_;
    vtkNew<vtkRenderer> panel_;    // right of the 3D view: legend and colour bar
    vtkNew<vtkRenderer> backdrop_; // clears the whole window before the view and the panel
    int legendEntries_ = 0;
    std::vector<std::string> titleParts_;
    int titleLines_ = 0;
    int widthPx_ = 0, heightPx_ = 0; // the last fit's window, for relayouts
    double dpi_ = 1;
    double labelScale_ = 1;
};

} // namespace cs::views
