// SPDX-License-Identifier: GPL-3.0-or-later
#include "parallel/step_time.h"

#include "cost/estimate_parts.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace lse::parallel {

ExposedCommunication exposedCommunication(const CommunicationEstimate &comm, const OverlapWindow &window)
{
    ExposedCommunication exposed;
    // Tensor-, context- and expert-parallel collectives and pipeline sends sit between the
    // operators that need their results (Megatron-LM runs them synchronously on the critical path).
    exposed.tp_seconds = comm.tp.seconds;
    exposed.cp_seconds = comm.cp.seconds;
    exposed.ep_seconds = comm.ep.seconds;
    exposed.pp_seconds = comm.pp.seconds;

    // Data-parallel gradient reduction runs in buckets while backward still computes (Li et al. 2020,
    // PyTorch DDP §3.2.3; Megatron's overlap_grad_reduce). With gradient accumulation only the last
    // micro-batch's backward can hide it; the bucket of the last layer to finish never hides
    // (one layer's share of the traffic). ZeRO-3 also prefetches parameters during every forward
    // and backward, so the whole step is its window.
    if (comm.dp.seconds > 0 && !window.dp_overlap) {
        exposed.dp_seconds = comm.dp.seconds;  // reduced after backward: nothing hides it
    } else if (comm.dp.seconds > 0) {
        const double overlap = window.zero_stage >= 3
            ? window.compute_seconds
            : window.compute_seconds * window.backward_share / std::max(1.0, window.micro_batches);
        const double last_bucket = comm.dp.seconds / std::max(1.0, window.layers_per_stage);
        exposed.dp_seconds = std::max(comm.dp.seconds - overlap, last_bucket);
    }
    return exposed;
}

StepTimeBreakdown combineStepTime(const StepTimeInputs &in, double compute_efficiency)
{
    StepTimeBreakdown out;
    const double gpus = double(std::max(1, in.gpus));
    const double peak = in.peak_flops_per_gpu;

    // Hardware FLOPs (matmuls + recomputation) spread evenly over the GPUs; tp, pp and cp divide the
    // work, dp the batch.
    const double hardware_flops_per_gpu = in.flops.hardware_train_per_token * in.tokens_per_step / gpus;
    out.compute_seconds = hardware_flops_per_gpu / (peak * compute_efficiency);

    OverlapWindow window;
    window.compute_seconds = out.compute_seconds;
    window.backward_share = in.flops.hardware_train_per_token > 0
        ? (in.flops.backward_per_token + in.flops.recompute_per_token) / in.flops.hardware_train_per_token
        : 0.0;
    window.micro_batches = in.micro_batches;
    window.layers_per_stage = in.layers_per_stage;
    window.zero_stage = in.zero_stage;
    window.dp_overlap = in.dp_overlap;
    const ExposedCommunication exposed = exposedCommunication(in.communication, window);
    out.exposed_tp_seconds = exposed.tp_seconds;
    out.exposed_cp_seconds = exposed.cp_seconds;
    out.exposed_ep_seconds = exposed.ep_seconds;
    out.exposed_pp_seconds = exposed.pp_seconds;
    out.exposed_dp_seconds = exposed.dp_seconds;
    out.exposed_communication_seconds = exposed.total();

    // Narayanan et al. 2021 §2.2.1-2.2.2: the 1F1B bubble is (p-1)/m of the ideal time, divided by v
    // with interleaved stages.
    if (in.pp > 1)
        out.bubble_seconds = double(in.pp - 1) / (double(std::max(1, in.virtual_stages)) * in.micro_batches)
            * out.compute_seconds;

    out.total_seconds = out.compute_seconds + out.exposed_communication_seconds + out.bubble_seconds;
    out.tokens_per_second = in.tokens_per_step / out.total_seconds;
    // Model FLOPs utilisation: matmul FLOPs without recomputation (PaLM App. B).
    out.mfu = in.flops.train_per_token * in.tokens_per_step / (gpus * peak * out.total_seconds);
    out.memory_bytes_per_gpu = in.memory_total_bytes;
    out.fits = in.memory_total_bytes <= in.memory_capacity_bytes;
    return out;
}

Result<StepTimeBreakdown> stepTime(const Scenario &scenario, double compute_efficiency)
{
    if (!std::isfinite(compute_efficiency) || compute_efficiency <= 0 || compute_efficiency > 1)
        return Result<StepTimeBreakdown>::failure(
            "compute_efficiency", "range",
            "compute_efficiency is " + std::to_string(compute_efficiency) + "; it must be in (0, 1]");
    const Result<Estimate> result = estimate(scenario);
    if (!result)
        return result.problems();
    const Estimate &e = *result;
    const TrainingConfig &training = scenario.training;
    StepTimeInputs in;
    in.flops = e.flops;
    in.communication = e.communication;
    in.memory_total_bytes = double(e.memory.total);
    in.memory_capacity_bytes = double(e.memory.capacity);
    in.peak_flops_per_gpu = e.time.peak_flops_per_gpu;
    in.gpus = scenario.cluster.gpus;
    in.pp = training.parallel.pp;
    in.virtual_stages = training.parallel.virtual_stages;
    in.zero_stage = training.parallel.zero_stage;
    in.dp_overlap = training.parallel.dp_overlap;
    in.micro_batches = double(detail::stepShape(scenario).micro_batches);
    in.layers_per_stage = mostLoadedStageLayers(scenario.model.n_layers, training.parallel);
    in.tokens_per_step = double(training.global_batch) * double(training.seq_len);
    return combineStepTime(in, compute_efficiency);
}

Result<TimeModelComparison> compareTimeModels(const Scenario &scenario, double compute_efficiency)
{
    const Result<StepTimeBreakdown> step = stepTime(scenario, compute_efficiency);
    if (!step)
        return step.problems();
    const Result<Estimate> engine = estimate(scenario);  // valid: stepTime() accepted the scenario
    if (!engine)
        return engine.problems();
    constexpr double kSecondsPerDay = 86400;
    TimeModelComparison comparison;
    comparison.assumed_mfu = engine->time.mfu;
    comparison.assumed_days = engine->time.days;
    comparison.step_model_mfu = step->mfu;
    comparison.step_model_days = double(scenario.training.tokens) / step->tokens_per_second / kSecondsPerDay;
    comparison.step_seconds = step->total_seconds;
    return comparison;
}

}  // namespace lse::parallel
