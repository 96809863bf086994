#include "RunSpec.h"

namespace cs {

std::optional<ModelSpec> modelOf(const RunSpec& spec) {
    if (spec.customModel) return spec.customModel;
    return findModel(spec.model);
}

} // namespace cs
