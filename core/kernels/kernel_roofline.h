// SPDX-License-Identifier: GPL-3.0-or-later
// A kernel's HBM bytes and FLOPs as one point on an accelerator's roofline (Williams, Waterman &
// Patterson 2009): its arithmetic intensity, the attainable rate min(peak, I · bandwidth)
// (roofline_machine.h) and the time that bound allows, max(FLOPs / peak, bytes / bandwidth).
#pragma once

#include "kernels/flash_attention_io.h"
#include "roofline/roofline_machine.h"

#include <optional>

namespace lse::kernels {

struct KernelRooflinePoint {
    double intensity_flop_per_byte = 0;
    double attainable_flops_per_second = 0;
    double seconds = 0;  // the roofline's lower bound on the kernel's time
    bool memory_bound = false;  // intensity below the ridge point
};
KernelRooflinePoint rooflinePoint(const IoCounts &counts, const RooflineMachine &machine);

// The dtype whose peak a kernel with `element_bytes` per element runs at on the tensor cores:
// 1 → FP8, 2 → BF16, 4 → TF32 (fp32 inputs on the tensor cores); nothing for other sizes.
std::optional<DType> tensorDTypeForElementBytes(std::int64_t element_bytes);

}  // namespace lse::kernels
