#include "ViewArguments.h"

#include "ChoiceArgument.h"

namespace cs::app {

std::vector<CommandOption> viewOptions() {
    return {{"--layout", kLayoutNames.alternatives(), "the data halls as built, or the tiers"},
            {"--camera", "overview|pod:N|rack:R|ID", "where the camera looks from"},
            {"--aggregate", kAggregateNames.alternatives(), "what a rack or bundle shows"}};
}

std::vector<CommandOption> slideOptions() {
    return {
        {"--compare", "B.sqlite",
         "a second run beside the first (--run) on the same clock, each under its design's "
         "name, the figures that differ in the caption"},
        {"--title", "TEXT", "a title line over the picture"},
        {"--caption", "TEXT", "a caption line under it (with --compare: instead of the figures)"}};
}

views::ViewState viewStateOfArgs(const CommandArgs& a) {
    views::ViewState s;
    s.layout = choiceArgument(a, "--layout", kLayoutNames, s.layout);
    s.aggregate = choiceArgument(a, "--aggregate", kAggregateNames, s.aggregate);
    return s;
}

} // namespace cs::app
