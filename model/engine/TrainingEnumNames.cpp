#include "TrainingEnumNames.h"

namespace cs {

template <> std::span<const EnumName<FfnKind>> enumNames<FfnKind>() {
    static constexpr EnumName<FfnKind> names[] = {{FfnKind::SwiGlu, "swiglu"},
                                                  {FfnKind::Gelu, "gelu"}};
    return names;
}

template <> std::span<const EnumName<Precision>> enumNames<Precision>() {
    static constexpr EnumName<Precision> names[] = {{Precision::Bf16, "bf16"},
                                                    {Precision::Fp8, "fp8"}};
    return names;
}

template <> std::span<const EnumName<Placement>> enumNames<Placement>() {
    static constexpr EnumName<Placement> names[] = {{Placement::TopologyAware, "topology"},
                                                    {Placement::Linear, "dp-innermost"},
                                                    {Placement::Fragmented, "fragmented"},
                                                    {Placement::Linear, "linear"}};
    return names;
}

template <> std::span<const EnumName<Recompute>> enumNames<Recompute>() {
    static constexpr EnumName<Recompute> names[] = {
        {Recompute::None, "none"}, {Recompute::Selective, "selective"}, {Recompute::Full, "full"}};
    return names;
}

template <> std::span<const EnumName<AllReduceAlgorithm>> enumNames<AllReduceAlgorithm>() {
    static constexpr EnumName<AllReduceAlgorithm> names[] = {{AllReduceAlgorithm::Auto, "auto"},
                                                             {AllReduceAlgorithm::Ring, "ring"},
                                                             {AllReduceAlgorithm::Tree, "tree"}};
    return names;
}

} // namespace cs
