// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal steps of estimate(): each fills one part of the Estimate from the same operator and
// parameter lists, so every figure has exactly one home.

#include "cost/estimate.h"
#include "ops/operator.h"
#include "ops/parameter_tensors.h"
#include "scenario/stage_layers.h"  // memory, communication and step time read the placement

namespace lse::detail {

// The scenario's shapes, derived once.
struct StepShape {
    std::int64_t micro_batches = 1;   // per pipeline flush: global_batch / (micro_batch * dp)
    std::int64_t local_seq_len = 0;   // seq_len / cp
    double peak_flops = 0;
};

StepShape stepShape(const Scenario &scenario);
OperatorShapes operatorShapes(const Scenario &scenario, const StepShape &shape, bool full_sequence);

FlopsEstimate estimateFlops(const Scenario &scenario, const ForwardOperators &forward,
                            const ParameterCounts &params);
Result<MemoryEstimate> estimateMemory(const Scenario &scenario, const StepShape &shape,
                                      const ForwardOperators &forward, const ModelParameters &parameters);
CommunicationEstimate estimateCommunication(const Scenario &scenario, const StepShape &shape,
                                            const ModelParameters &parameters);

}  // namespace lse::detail
