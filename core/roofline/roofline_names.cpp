// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/enum_names.h"
#include "roofline/roofline.h"

namespace lse {

namespace {

constexpr EnumName<StepPhase> kStepPhaseNames[] = {
    {StepPhase::Train, "train"}, {StepPhase::Prefill, "prefill"}, {StepPhase::Decode, "decode"}};
constexpr EnumName<OpPass> kOpPassNames[] = {{OpPass::Forward, "forward"},
                                             {OpPass::Backward, "backward"},
                                             {OpPass::Recompute, "recompute"},
                                             {OpPass::Optimizer, "optimizer"}};
constexpr EnumName<Bound> kBoundNames[] = {{Bound::Compute, "compute"}, {Bound::Memory, "memory"}};

}  // namespace

std::string_view toString(StepPhase value) { return enumToString(kStepPhaseNames, value); }
std::string_view toString(OpPass value) { return enumToString(kOpPassNames, value); }
std::string_view toString(Bound value) { return enumToString(kBoundNames, value); }
std::optional<StepPhase> stepPhaseFromString(std::string_view text) { return enumFromString(kStepPhaseNames, text); }
std::optional<OpPass> opPassFromString(std::string_view text) { return enumFromString(kOpPassNames, text); }

}  // namespace lse
