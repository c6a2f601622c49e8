// SPDX-License-Identifier: GPL-3.0-or-later
// Links each GPU activity to the CPU operator that launched it, after loading:
//   activity ─(args.correlation)→ its cuda_runtime/cuda_driver launch call
//            ─(time nesting on the launching thread)→ the innermost enclosing CPU operator
//            ─(up the parents)→ the innermost matrix-multiply or attention operator, if any.
// "External id" is not used for the link: in some traces (HTA's sampled_rank-*) a kernel's
// External id repeats its correlation rather than naming the operator, while time nesting holds in
// every trace. Flow events (ac2g) carry the same correlation ids and add nothing.
#pragma once

#include "traces/trace_model.h"

#include <cstdint>
#include <unordered_map>

namespace lse::traces {

// A launch call's start on the CPU and its thread, by correlation id.
struct TraceLaunch {
    double start_us = 0;
    std::int64_t thread = 0;
};
using TraceLaunches = std::unordered_map<std::int64_t, TraceLaunch>;

// Sets every CPU operator's parent (cpu_ops sorted by thread and start first), every activity's
// launch_start_us, launch_thread and op_index, classifies it and shares its operator's FLOPs and
// bytes among the operator's activities by duration. counts.linked_kernels is updated.
void linkTrace(TraceRank &rank, const TraceLaunches &launches);

}  // namespace lse::traces
