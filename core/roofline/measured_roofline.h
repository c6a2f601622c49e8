// SPDX-License-Identifier: GPL-3.0-or-later
// The reference transformer's measured operators on the CPU roofline. The op profiler
// (core/reference/op_profiler.h) records name, pass, FLOPs and seconds; bytes come from the
// predicted operator of the same name and pass, scaled by measured / predicted FLOPs (the profiler
// accumulates several steps and all layers); achieved = flops / seconds.
#pragma once

#include "reference/op_profiler.h"
#include "roofline/roofline.h"

#include <string>
#include <vector>

namespace lse {

struct MeasuredRooflinePoint {
    std::string name;
    OpPass pass = OpPass::Forward;
    double flops = 0;
    double bytes = 0;
    double seconds = 0;
    double intensity_flop_per_byte = 0;
    double achieved_flops_per_second = 0;
};

// One point per record whose name and pass have a predicted operator with FLOPs; others skipped.
std::vector<MeasuredRooflinePoint> measuredRooflinePoints(const std::vector<reference::OpRecord> &records,
                                                          const RooflineReport &predicted_same_config);

}  // namespace lse
