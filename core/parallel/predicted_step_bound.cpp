// SPDX-License-Identifier: GPL-3.0-or-later
#include "parallel/predicted_step_bound.h"

#include "cost/estimate_parts.h"
#include "parallel/step_time.h"
#include "scenario/stage_layers.h"

#include <algorithm>
#include <limits>

namespace lse::parallel {

double predictedStepLowerBound(const StepBoundInputs &in)
{
    const FlopsEstimate &flops = in.flops;
    // The attention core (QK^T, softmax, A·V or the fused FlashAttention kernel) forward, its
    // backward (2×, Kaplan et al. 2020) and its recomputation under either mode are left out.
    const double attention_forward = flops.forward_per_token_by_component[std::size_t(Component::AttentionScores)];
    const double attention_hardware = attention_forward * (flops.recompute_per_token > 0 ? 4.0 : 3.0);
    const double other_per_token = std::max(0.0, flops.hardware_train_per_token - attention_hardware);
    const double gpus = double(std::max(1, in.gpus));
    const double fraction = std::max(in.efficiency.gemm_peak_fraction, in.efficiency.fp8_gemm_peak_fraction);
    const double compute = other_per_token * in.tokens_per_step / gpus / (in.peak_flops_per_gpu * fraction);

    double bubble = 0;
    if (in.pp > 1)
        bubble = double(in.pp - 1) / double(std::max(1, in.virtual_stages)) * compute / std::max(1.0, in.micro_batches);

    OverlapWindow unbounded;
    unbounded.compute_seconds = std::numeric_limits<double>::infinity();
    unbounded.backward_share = 1;
    unbounded.micro_batches = 1;
    unbounded.layers_per_stage = in.layers_per_stage;
    unbounded.zero_stage = in.zero_stage;
    unbounded.dp_overlap = in.dp_overlap;
    unbounded.dp_param_gather_overlap = in.dp_param_gather_overlap;
    unbounded.tp_comm_overlap = in.tp_comm_overlap;
    unbounded.pp_comm_overlap = in.pp_comm_overlap;
    unbounded.tp = in.tp;
    unbounded.cp = in.cp;
    unbounded.gemm_seconds = std::numeric_limits<double>::infinity();
    unbounded.attention_seconds = std::numeric_limits<double>::infinity();
    unbounded.virtual_stages = in.virtual_stages;
    unbounded.micro_batches = in.micro_batches;
    const double exposed = exposedCommunication(in.communication, unbounded).total();
    return compute + bubble + exposed;
}

Result<double> predictedStepLowerBound(const Scenario &scenario)
{
    Scenario given = scenario;
    given.training.mfu_source = MfuSource::Given;  // the bound needs no prediction
    const Result<Estimate> estimated = estimate(given);
    if (!estimated)
        return estimated.problems();
    const TrainingConfig &training = scenario.training;
    StepBoundInputs in;
    in.flops = estimated->flops;
    in.communication = estimated->communication;
    in.efficiency = scenario.cluster.accelerator.efficiency;
    in.peak_flops_per_gpu = estimated->time.peak_flops_per_gpu;
    in.gpus = scenario.cluster.gpus;
    in.pp = training.parallel.pp;
    in.virtual_stages = training.parallel.virtual_stages;
    in.zero_stage = training.parallel.zero_stage;
    in.dp_overlap = training.parallel.dp_overlap;
    in.dp_param_gather_overlap = training.parallel.dp_param_gather_overlap;
    in.tp_comm_overlap = training.parallel.tp_comm_overlap;
    in.pp_comm_overlap = training.parallel.pp_comm_overlap;
    in.tp = training.parallel.tp;
    in.cp = training.parallel.cp;
    in.micro_batches = double(detail::stepShape(scenario).micro_batches);
    // The busiest stage's layers, as predictStep() takes them (scenario/stage_layers.h).
    in.layers_per_stage = mostLoadedStageLayers(scenario.model.n_layers, training.parallel);
    in.tokens_per_step = double(training.global_batch) * double(training.seq_len);
    return predictedStepLowerBound(in);
}

}  // namespace lse::parallel
