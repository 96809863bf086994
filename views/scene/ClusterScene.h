#pragma once
// The 3D scene of a topology on a vtkRenderer: one glyph mapper per kind of box (racks,
// lone switches, hosts, GPUs, rack switches, storage) and one polydata per kind of line
// (link bundles, individual links). Far away the scene shows racks and bundles; near the
// camera's focus racks open into their members. Colours come from kinds or from a frame of
// values. Used by the interactive widget and by headless export alike.
#include "CableSegments.h"
#include "CameraFit.h"
#include "ColorMaps.h"
#include "FrameValues.h"
#include "SceneDetail.h"
#include "SceneLabels.h"
#include "TopologyDocument.h"
#include "ViewState.h"

#include <vtkNew.h>

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

class vtkLookupTable;
class vtkRenderer;

namespace cs::views {

class GlyphLayer;
class LabelLayer;
class LineLayer;
class RackRunLayer;
class SceneOutlines;
class SceneOverlays;
struct OutlineGeometry;

class ClusterScene {
public:
    explicit ClusterScene(vtkRenderer* renderer);
    ~ClusterScene();
    // What the overview frames: the racks and lone switches, and the bundles' paths as boxes
    // of no size (cable trays run above the racks).
    std::vector<Box> overviewBoxes() const;

    // The topology shown, laid out as `kind`; the selection, marks and values start empty.
    void setDocument(const TopologyDocument* doc, LayoutKind kind = LayoutKind::Floor);
    const SceneLayout* layout() const { return layout_.get(); }

    // What the view shows as one value (ViewState.h), the camera as it stands now.
    ViewState state() const;
    // Shows `s`: what differs from the scene's state changes, the camera last (when `s` has
    // one; a new layout is framed whole otherwise). A new metric brings its own values (test
    // pattern, link speeds) or none until setValues (a run).
    void apply(const ViewState& s);

    // The fields of the state one at a time, for the paths that change one per event or frame.
    void setLayoutKind(LayoutKind kind);
    LayoutKind layoutKind() const { return state_.layout; }
    void setColorMode(ColorMode m);
    ColorMode colorMode() const { return state_.colorMode; }
    ValueMetric metric() const { return state_.metric; }
    void setAggregate(Aggregate a);
    Aggregate aggregate() const { return state_.aggregate; }
    void select(std::optional<PickHit> hit);
    const std::optional<PickHit>& selection() const { return state_.selection; }
    // Entities shown as failed (red outlines), e.g. during a replay between failure and restart.
    void setMarked(std::vector<Endpoint> entities);
    const std::vector<Endpoint>& marked() const { return state_.marked; }
    // Entities that stand out from their rack (reddish-purple outlines, their racks too): a
    // replay's GPUs far from their rack's mean. Not part of the view state: each frame says.
    void setFlagged(std::vector<Endpoint> entities);
    const std::vector<Endpoint>& flagged() const { return flagged_; }
    // A selected job's GPUs and links (sky-blue outlines, their racks too); empty: none.
    void setHighlighted(std::vector<Endpoint> entities);
    const std::vector<Endpoint>& highlighted() const { return highlighted_; }
    size_t highlightedLines() const; // the outlines' line cells drawn (12 a box, 1 a link)
    // GPUs by role: how many stages (replicas, TP ranks) the colour bar numbers.
    void setRoleCount(int count);
    void setLabelsShown(bool on);
    CameraPose cameraPose() const;
    void setCameraPose(const CameraPose& pose); // leaves the detail updated

    // The test pattern at `timeS` when the metric is the test pattern (it moves with time).
    void setPatternTimeS(double timeS);
    // Puts the values into the colour arrays (the per-frame path). Taken by value: a frame
    // made for the view moves in without a copy (24 MB at 1M GPUs).
    void setValues(FrameValues v);
    const FrameValues& values() const { return values_; }
    const RackMembers& rackMembers() const { return rackMembers_; } // of the document
    // The scene as it is drawn (boxes, cells, lines, colours, camera) as one glTF 2.0 file
    // with its data inline, for slides and web viewers. Throws std::runtime_error.
    void exportGltf(const std::string& path) const;
    // Text after the title line's own (a movie's run time and step); empty: none.
    void setCaption(const std::string& caption);
    const std::string& caption() const { return caption_; }
    // What an entity without a value is called, in the legend and the tooltip: "no data" for
    // recorded telemetry, "idle" for a simulated run's GPUs outside every job.
    void setNoValueLabel(const std::string& label);

    // Re-evaluates the level of detail from the camera; true when it changed.
    bool updateDetail();
    const SceneDetail& detail() const { return detail_; }
    // What is under a display position (pixels from the bottom-left of the viewport).
    std::optional<PickHit> pickDisplay(double x, double y) const;
    // The world point under a display position: on what is drawn there, else on the floor.
    std::optional<Vec3> worldPointAt(double x, double y) const;
    // The camera as the level of detail sees it.
    SceneView sceneView() const;

    // Camera presets; each leaves the detail updated. False when there is no such thing.
    void viewOverview();
    // Whether the camera is where the last viewOverview put it (the user has not moved it):
    // a view that changes its size then frames the whole cluster again.
    bool atOverview() const;
    bool viewPod(int32_t pod);
    bool viewRack(int32_t rack);
    bool viewEntity(Endpoint e); // frames the entity close up
    Bounds boundsOf(Endpoint e) const;
    // One or two lines for a tooltip: what it is, and its value when colouring by value.
    std::string describe(const PickHit& hit) const;

    // Keeps the legend and scalar bar a readable size in pixels, in a panel right of the 3D
    // view that never overlaps it; call before rendering.
    void fitOverlays(int widthPx, int heightPx, double dpiScale = 1.0);

    // The labels drawn at the last fitOverlays, in precedence order (selection first).
    const std::vector<std::string>& labelTexts() const { return placedTexts_; }
    const std::vector<PlacedLabel>& placedLabels() const { return placed_; }

    size_t drawnBoxes() const;
    size_t drawnLines() const;
    vtkRenderer* renderer() const { return renderer_; }

private:
    void rebuildFar();
    void rebuildNear();
    void applyColors();       // all three of:
    void applyRackColors();   // the far racks' sides, tops and cells
    void applyBundleColors(); // the far bundles' colours and widths (not committed)
    void applyOtherColors();  // switches, hosts, GPUs, NICs, storage, links; commits all
    void aggregateValues();   // racks and bundles from values_
    void updateLegend();
    OutlineGeometry outlineGeometry() const;
    void updateOutlines(); // all four, after the layout changed
    void outlineSelection(const OutlineGeometry& g);
    void updateTitle();
    std::optional<Ray> rayAt(double x, double y) const;
    std::string caption_;
    std::optional<CameraPose> overviewPose_;
    std::vector<uint8_t> bundleAsLinks_; // per bundle: drawn link by link at this detail
    void setMetric(ValueMetric m);
    void fillScale();
    void fillMetricValues(double patternTimeS);
    void frame(const Bounds& b, double closeness, bool closeUp = false);
    // turnToFill: may look from another side when the boxes then cover more of the picture;
    // keepCentre: the boxes' centre stays in the middle (an entity flown to).
    void frameBoxes(std::span<const Box> boxes, double closeness, bool closeUp, bool turnToFill,
                    bool keepCentre = false);

    vtkRenderer* renderer_;
    const TopologyDocument* doc_ = nullptr;
    ViewState state_; // all but the camera, which the renderer holds
    std::unique_ptr<SceneLayout> layout_;
    SceneDetail detail_;
    FrameValues values_;

    std::unique_ptr<GlyphLayer> farSwitches_, hosts_, gpus_, nics_, switches_, storage_;
    // The closed far racks as runs, their GPUs as cells on top (RackRuns.h).
    std::unique_ptr<RackRunLayer> rackRuns_;
    std::unique_ptr<LineLayer> bundles_, links_;
    std::unique_ptr<LabelLayer> labels_;
    std::vector<LabelCandidate> labelCandidates_; // pods, rows, tiers (SceneLabels.h)
    std::vector<PlacedLabel> placed_;
    std::vector<std::string> placedTexts_;
    void updateLabels();
    std::vector<int32_t> nicCable_; // per drawn NIC: its network cable (kNone: none)
    std::vector<int32_t> farRackIds_, farSwitchIds_, hostIds_, gpuIds_, nicIds_, switchIds_,
        storageIds_;
    CableSegments linkSegments_; // the open links, each stretch they share drawn once
    std::vector<float> rackValues_, bundleValues_, segmentValues_;
    RackMembers rackMembers_; // of the document's topology
    std::vector<KindClass> linkClass_;

    std::unique_ptr<SceneOutlines> outlines_;
    std::vector<Endpoint> flagged_;
    std::vector<Endpoint> highlighted_;
    int roleCount_ = 1;
    std::string noValueLabel_ = "no data";
    vtkNew<vtkLookupTable> lut_;
    std::unique_ptr<SceneOverlays> overlays_; // legend, colour bar, title
};

} // namespace cs::views
