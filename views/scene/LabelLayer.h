#pragma once
// Draws the labels placeLabels chose: a fixed pool of text actors (kMaxLabels), reused frame
// after frame, never one per entity.
#include "SceneLabels.h"

#include <vtkSmartPointer.h>

#include <vector>

class vtkRenderer;
class vtkTextActor;

namespace cs::views {

class LabelLayer {
public:
    explicit LabelLayer(vtkRenderer* renderer);
    ~LabelLayer();
    LabelLayer(const LabelLayer&) = delete;
    LabelLayer& operator=(const LabelLayer&) = delete;

    // fontScale: display pixels per font point (the window's DPI / 72).
    void show(const std::vector<LabelCandidate>& labels, const std::vector<PlacedLabel>& placed,
              double fontScale);
    size_t shown() const { return shown_; }

private:
    vtkRenderer* renderer_;
    std::vector<vtkSmartPointer<vtkTextActor>> pool_;
    size_t shown_ = 0;
};

} // namespace cs::views
