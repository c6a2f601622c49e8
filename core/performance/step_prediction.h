// SPDX-License-Identifier: GPL-3.0-or-later
// Step time predicted from the step's operators, not from an assumed MFU.
//
//   step = Σ over the busiest pipeline stage's kernels (forward, backward, recomputation; every
//          micro-batch) of each kernel's time on the accelerator (kernel_time.h)
//        + the optimizer step (a streaming kernel over the GPU's optimizer shard)
//        + communication the compute cannot hide (parallel/step_time.h, exposedCommunication)
//        + the pipeline bubble, (pp − 1) / v busiest-stage micro-batch times (Narayanan et al. 2021 §2.2)
//
// The kernels are the operator list's (core/ops, through roofline_detail::stepOperators for the
// bytes of each pass) at the shapes one GPU runs: the sequence divided by cp, column-parallel
// products split in n, row-parallel ones in k, the attention core in heads (Shoeybi et al. 2019
// §3), element-wise work split by tp where Megatron splits it (and by sequence parallelism).
// MFU and HFU follow from the predicted time with the engine's definitions (matmul FLOPs without /
// with recomputation, PaLM App. B).
#pragma once

#include "common/problem.h"
#include "hardware/efficiency_factors.h"
#include "hardware/machine_kernel_factors.h"
#include "parallel/step_time.h"
#include "scenario/scenario.h"

#include <string>
#include <vector>

namespace lse::performance {

enum class KernelClass { Gemm, Attention, MemoryBound, Optimizer };
std::string_view toString(KernelClass value);  // "gemm", "attention", "memory_bound", "optimizer"

// One operator's kernels on the busiest GPU over the whole step.
struct OperatorTime {
    std::string name;     // the operator list's name ("qkv_projection", "softmax", ...)
    std::string pass;     // "forward", "backward", "recompute", "optimizer"
    KernelClass kernel_class = KernelClass::MemoryBound;
    std::string shape;    // the shape one GPU runs, e.g. "[8192×2304]·[2304×864]"
    double count = 0;     // kernel calls per step (layers × micro-batches)
    double flops = 0;     // per step
    double bytes = 0;     // per step
    double seconds = 0;   // per step
    double efficiency = 0;  // achieved / peak (matmuls) or / bandwidth (streaming), one call
};

struct StepPrediction {
    // Compute of the busiest stage over all micro-batches, by pass and by kernel class.
    double forward_seconds = 0;
    double backward_seconds = 0;
    double recompute_seconds = 0;
    double gemm_seconds = 0;         // weight matmuls (projections, MLP, router, head)
    double attention_seconds = 0;    // attention-core matmuls, or FlashAttention kernels
    double memory_bound_seconds = 0; // norms, softmax, activations, residuals, dropout, embedding, loss
    double compute_seconds = 0;      // forward + backward + recompute
    double optimizer_seconds = 0;
    parallel::ExposedCommunication exposed;  // by dimension
    double exposed_communication_seconds = 0;
    double bubble_seconds = 0;
    // The slowest of the step's GPUs sets its pace: compute · gpu_speed_spread · z(gpus).
    double straggler_seconds = 0;
    double total_seconds = 0;

    double tokens_per_step = 0;
    double tokens_per_second = 0;
    double peak_flops_per_gpu = 0;
    double model_flops_per_step = 0;     // matmul FLOPs, no recomputation (the engine's MFU basis)
    double hardware_flops_per_step = 0;  // matmul FLOPs with recomputation
    double mfu = 0;  // model_flops_per_step / (gpus · peak · total_seconds)
    double hfu = 0;  // hardware_flops_per_step / (gpus · peak · total_seconds)
    double micro_batches = 1;  // per step per data-parallel rank
    int busiest_stage = 0;
    int busiest_stage_layers = 0;
    EfficiencyFactors efficiency;  // the factors used
    // How sure the prediction is: the accelerator's leave-one-source-out 90th-percentile error p
    // (PredictionAccuracy, catalog data); 0 when it has no published runs. A prediction that
    // errs by e = (predicted − actual) / actual with |e| ≤ p puts the actual step in
    // [predicted / (1 + p), predicted / (1 − p)]: low_seconds and high_seconds.
    PredictionAccuracy accuracy;
    double band_fraction = 0;
    double low_seconds = 0;
    double high_seconds = 0;
    std::vector<OperatorTime> operators;  // the busiest GPU's kernels, forward → backward → recompute → optimizer
};

// A named part of the step for charts and JSON ("compute_gemm", "exposed_tp", "bubble", ...): the
// parts add up to total_seconds.
struct StepPart {
    std::string id;
    double seconds = 0;
};
std::vector<StepPart> stepParts(const StepPrediction &prediction);

// The interval [t / (1 + p), t / (1 − p)] for a predicted time t and band p (p < 1); [t, t] for none.
std::pair<double, double> bandInterval(double predicted, double band_fraction);

// z(n): the expected largest of n standard normal samples, Φ⁻¹((n − 0.375)/(n + 0.25)) (Blom 1958);
// 0 for one GPU. By the formula z(8) = 1.434, z(1024) = 3.234, z(16384) = 3.956.
double stragglerQuantile(int gpus);

// The scenario's accelerator's efficiency factors (cluster.accelerator.efficiency).
// Problems: the engine's validation.
Result<StepPrediction> predictStep(const Scenario &scenario);
// The same with other factors (calibration, leave-one-paper-out); problems also name
// "efficiency.<key>" when the factors are out of range.
Result<StepPrediction> predictStep(const Scenario &scenario, const EfficiencyFactors &factors);
// This CPU (the reference transformer's step): every kernel timed from the measured kernel factors
// (performance/cpu_kernel_time.h) instead of the accelerator's peaks and efficiency factors.
Result<StepPrediction> predictStep(const Scenario &scenario, const CpuKernelFactors &cpu);

}  // namespace lse::performance
