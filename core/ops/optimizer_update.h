// SPDX-License-Identifier: GPL-3.0-or-later
// The optimizer update's FLOPs and bytes per parameter, stated once: the roofline's optimizer row
// and the step predictor (GPUs and this CPU) both read it.
#pragma once

#include "scenario/training_config.h"

namespace lse::ops {

struct OptimizerUpdateCost {
    double flops = 0;
    double bytes_read = 0;
    double bytes_written = 0;
    double bytes() const { return bytes_read + bytes_written; }
};

// FLOPs of one update per parameter, counting each multiply, add, divide and square root as one
// FLOP (as flop_rules does for element-wise work).
double optimizerFlopsPerParameter(Optimizer optimizer);

// One parameter's update: it reads the gradient, the optimizer states and the fp32 master weight
// (or the weight itself without a master copy) and writes the states, the master weight and the
// working copy at the weight dtype (ZeRO, Rajbhandari et al. 2020, §3.1 lists the same states).
// `state_bytes_per_parameter`: the optimizer's states without the master copy
// (optimizerStateBytesPerParameter in cost/estimate.h).
OptimizerUpdateCost optimizerUpdatePerParameter(Optimizer optimizer, const PrecisionConfig &precision,
                                                double state_bytes_per_parameter);

}  // namespace lse::ops
