#include "ViewState.h"

namespace cs::views {

std::string_view valueTitle(ValueMetric m) {
    switch (m) {
    case ValueMetric::TestPattern:
        return "Test pattern, %";
    case ValueMetric::LinkSpeed:
        return "Link speed, log %";
    case ValueMetric::Run:
        return "Busy / load, %";
    case ValueMetric::Difference:
        return "A - B, % points";
    case ValueMetric::None:
        break;
    }
    return "Load, %";
}

} // namespace cs::views
