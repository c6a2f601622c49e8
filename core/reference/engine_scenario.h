// SPDX-License-Identifier: GPL-3.0-or-later
// The cost engine's view of one training step of the reference transformer, so a prediction and a
// measurement describe the same work: the same model on one device (this CPU), batch × context
// tokens, fp32 weights, gradients and AdamW moments without a master copy, no recomputation, the
// non-fused attention path (the reference keeps the softmax probabilities for backward) and the
// whole s × s score products counted, as the reference computes them.
#pragma once

#include "reference/trainer.h"
#include "scenario/scenario.h"

namespace lse::reference {

// `peak_flops_per_s` is this machine's measured SGEMM peak (0: a nominal 100 GFLOP/s, for which the
// engine's time is only indicative); `mfu` the utilisation the engine's time assumes. The run's
// `tokens` are one step's, so every engine total is per step.
Scenario engineScenarioFor(const TrainConfig &config, double peak_flops_per_s, double mfu = 0.4);

}  // namespace lse::reference
