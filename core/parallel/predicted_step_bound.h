// SPDX-License-Identifier: GPL-3.0-or-later
// A lower bound on the predicted step time (performance::predictStep) from figures the layout
// search's fast path already has, so the search predicts only the layouts that could rank in its
// top list: a layout whose bound exceeds the K-th best predicted step cannot be among the K best.
//
// Each term is at most its part of the prediction (performance/step_prediction.h):
// - compute ≥ the matmul FLOPs outside the attention core (hardware count, recomputation included)
//   per GPU at gemm_peak_fraction of the peak: every product runs at most at that fraction (tile,
//   wave and depth factors are ≤ 1, kernel_time.h), the busiest pipeline stage does at least the
//   average stage's work, and tp's rounded-up shards do at least their share. The attention core,
//   the memory-bound kernels, the kernel overheads and the optimizer step count as 0.
// - bubble = (pp − 1) / v busiest-stage micro-batch times ≥ (pp − 1) / v · compute bound / m.
// - exposed communication ≥ what no compute can hide: EP whole; TP, CP and PP whole or, where they
//   overlap, the share no pipelining hides (one chunk, one block, one transfer); DP with overlap at
//   least its last bucket (one layer's share), without overlap all of it
//   (parallel::exposedCommunication with unbounded compute windows).
// - the straggler term (≥ 0) counts as 0.
// With FP8 matmuls the compute bound takes the larger of the two GEMM fractions.
#pragma once

#include "cost/estimate.h"
#include "hardware/efficiency_factors.h"

namespace lse::parallel {

struct StepBoundInputs {
    FlopsEstimate flops;  // per-token figures are used
    CommunicationEstimate communication;
    EfficiencyFactors efficiency;
    double peak_flops_per_gpu = 0;
    int gpus = 1;
    int pp = 1;
    int virtual_stages = 1;
    int zero_stage = 0;
    bool dp_overlap = true;
    bool dp_param_gather_overlap = true;
    bool tp_comm_overlap = false;
    bool pp_comm_overlap = false;
    int tp = 1;
    int cp = 1;
    double micro_batches = 1;   // per step per data-parallel rank
    double layers_per_stage = 1;  // an upper bound on the busiest stage's layers (its last DP bucket)
    double tokens_per_step = 0;  // global_batch · seq_len
};

double predictedStepLowerBound(const StepBoundInputs &inputs);

// The same from a scenario (through estimate()), for tests that compare it with predictStep.
Result<double> predictedStepLowerBound(const Scenario &scenario);

}  // namespace lse::parallel
