// SPDX-License-Identifier: GPL-3.0-or-later
// The reference run's step time predicted by the one operator-level predictor the GPUs use
// (performance/step_prediction.h), with this CPU's measured kernel factors
// (hardware/machine_kernel_factors.h), and compared with the measured step, operator by operator.
//
// The step the trainer runs: the engine's view of it (engine_scenario.h) with every element-wise
// op its own kernel (the reference fuses none), forward, backward and the AdamW update, plus what
// the trainer adds around them: zeroing the gradients, their global norm (clipping) and the finite
// check of the updated weights, each a pass over every parameter.
#pragma once

#include "common/problem.h"
#include "hardware/machine_kernel_factors.h"
#include "performance/step_prediction.h"
#include "reference/op_profiler.h"
#include "reference/trainer.h"

#include <optional>
#include <string>
#include <vector>

namespace lse::reference {

struct ReferenceStepPrediction {
    int threads = 1;
    performance::StepPrediction step;  // the operators, forward → backward → optimizer
    // The passes over every gradient outside forward and backward: zeroing before backward, the
    // global norm and, when it clips, the scaling.
    double gradient_passes_seconds = 0;
    double finite_check_seconds = 0;   // the updated weights checked for NaN/inf
    double idle_seconds = 0;           // step.total_seconds + the two above: the step on idle cores
    // The time other processes hold the cores: idle_seconds · (1 / cpu_share − 1), with the share
    // of the cores this process got while the kernel factors were measured (0 on an idle machine).
    double other_processes_seconds = 0;
    double cpu_share = 1;
    double seconds = 0;                // idle_seconds + other_processes_seconds
};

// Fails when the configuration is invalid or the factors are incomplete.
Result<ReferenceStepPrediction> predictReferenceStep(const TrainConfig &config, const CpuKernelFactors &kernels);

// The name of the row that gathers what the op profiler does not time: the optimizer step, the
// gradient norm, the finite check and batch sampling (measured: the step less the timed ops).
inline constexpr const char *kOptimizerAndRestName = "optimizer_and_rest";

// One operator (forward or backward, over one step) predicted and measured. The predicted times
// include the step's share of other processes (ReferenceStepPrediction), so the rows add up to the
// predicted step. An operator whose forward the profiler never timed on its own ran fused with its
// backward (the cross-entropy loss and its gradient): one row, pass "forward+backward".
struct OperatorComparison {
    std::string name;   // the operator list's name, or kOptimizerAndRestName
    std::string pass;   // "forward", "backward", "optimizer"
    double predicted_seconds = 0;
    double measured_seconds = 0;
    double difference_fraction = 0;  // (measured − predicted) / predicted; 0 without a prediction
};

// The op profiler's records over the steps after the first: `end` less `after_first`, divided by
// `steps` (all of `end` when after_first is empty). `measured_step_seconds` (typicalStepSeconds)
// gives the optimizer_and_rest row its measured time. Sorted by |measured − predicted|, largest first.
std::vector<OperatorComparison> compareOperators(const ReferenceStepPrediction &prediction,
                                                 const std::vector<OpRecord> &after_first, const std::vector<OpRecord> &end,
                                                 double steps, double measured_step_seconds);

// The measured step time to compare with: the median of the steps after the first (which pays
// page faults and cold caches), the first step's when there is only one, 0 for none. The median
// because on a shared machine one step can stall for seconds (measured: one of 12 steps took 16 s
// instead of 0.17 s at load 7 on 2 cores) and would dominate a mean.
double typicalStepSeconds(const std::vector<double> &step_seconds);

// (measured − predicted) / predicted: positive when the run was slower than predicted; nothing
// when there is no positive prediction.
std::optional<double> signedDifference(double measured, double predicted);

}  // namespace lse::reference
