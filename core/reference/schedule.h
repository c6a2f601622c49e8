// SPDX-License-Identifier: GPL-3.0-or-later
// Learning-rate schedule of the reference trainer: linear warm-up then cosine annealing
// (Loshchilov & Hutter, "SGDR", ICLR 2017, eq. 5, without restarts), in the CS336 handout's form.
#pragma once

#include "common/problem.h"

#include <cstdint>

namespace lse {

struct CosineSchedule {
    double maxLearningRate = 1e-3;      // α_max
    double minLearningRate = 1e-4;      // α_min
    std::int64_t warmupIters = 0;       // T_w
    std::int64_t cosineCycleIters = 0;  // T_c, the step at which the rate reaches α_min

    // For step t:
    //   t < T_w:          α = t / T_w · α_max
    //   T_w ≤ t ≤ T_c:    α = α_min + ½(1 + cos((t − T_w)/(T_c − T_w) · π))(α_max − α_min)
    //   t > T_c:          α = α_min
    // When T_c = T_w the cosine phase is the single step t = T_w, at α_max.
    double at(std::int64_t t) const;

    // Empty when usable: 0 ≤ α_min ≤ α_max, 0 ≤ T_w ≤ T_c. Fields are named "schedule.*".
    Problems validate() const;
};

}  // namespace lse
