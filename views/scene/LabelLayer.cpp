#include "LabelLayer.h"

#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

#include <algorithm>

namespace cs::views {

LabelLayer::LabelLayer(vtkRenderer* renderer) : renderer_(renderer) {
    pool_.reserve(kMaxLabels);
    for (size_t i = 0; i < kMaxLabels; ++i) {
        auto a = vtkSmartPointer<vtkTextActor>::New();
        vtkTextProperty* p = a->GetTextProperty();
        p->SetFontFamilyToArial();
        p->SetJustificationToCentered();
        p->SetColor(0.95, 0.96, 0.98);
        p->SetBackgroundColor(0.04, 0.05, 0.07);
        p->SetBackgroundOpacity(0.55); // readable over cables and racks alike
        p->SetShadow(false);
        a->SetVisibility(false);
        a->SetPickable(false);
        renderer_->AddActor2D(a);
        pool_.push_back(a);
    }
}

LabelLayer::~LabelLayer() {
    for (const auto& a : pool_)
        renderer_->RemoveActor2D(a);
}

void LabelLayer::show(const std::vector<LabelCandidate>& labels,
                      const std::vector<PlacedLabel>& placed, double fontScale) {
    shown_ = std::min(placed.size(), pool_.size());
    for (size_t i = 0; i < pool_.size(); ++i) {
        vtkTextActor* a = pool_[i];
        if (i >= shown_) {
            a->SetVisibility(false);
            continue;
        }
        const PlacedLabel& p = placed[i];
        const LabelCandidate& c = labels[p.candidate];
        a->SetInput(c.text.c_str());
        vtkTextProperty* tp = a->GetTextProperty();
        tp->SetFontSize(std::max(1, int(p.fontPx / std::max(0.1, fontScale) + 0.5)));
        tp->SetBold(c.kind == LabelKind::Selection || c.kind == LabelKind::Tier);
        tp->SetVerticalJustificationToBottom();
        // The placed box's bottom-centre, in the viewport's pixels.
        a->SetDisplayPosition(int(p.xPx), int(p.bottom));
        a->SetVisibility(true);
    }
}

} // namespace cs::views
