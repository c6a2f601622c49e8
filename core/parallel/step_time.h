// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"
#include "cost/estimate.h"
#include "scenario/scenario.h"

namespace lse::parallel {

// One optimizer step of a layout: where the time goes.
struct StepTimeBreakdown {
    double compute_seconds = 0;                // hardware FLOPs (recomputation included) at peak·efficiency
    double optimizer_seconds = 0;              // the optimizer step (predicted steps only; 0 here)
    double exposed_communication_seconds = 0;  // communication compute cannot hide
    double bubble_seconds = 0;                 // pipeline fill and drain
    double total_seconds = 0;
    double tokens_per_second = 0;
    double mfu = 0;  // model FLOPs (no recomputation) / (gpus · peak · total_seconds)
    double memory_bytes_per_gpu = 0;  // estimate(scenario).memory.total
    bool fits = false;
    // The exposed communication by dimension (they add up to exposed_communication_seconds).
    double exposed_tp_seconds = 0, exposed_cp_seconds = 0, exposed_ep_seconds = 0;
    double exposed_pp_seconds = 0, exposed_dp_seconds = 0;
};

// compute = FLOPs per GPU per step / (peak · compute_efficiency), with the engine's hardware
// FLOPs per token (matmuls + recomputation) times global_batch·seq_len / gpus.
// Exposed communication: TP/SP, CP, EP and PP traffic sits on the critical path of every layer and
// is counted whole (Megatron issues them synchronously; a conservative bound for ring attention,
// which can overlap). DP gradient reduction overlaps with the backward pass of the last
// micro-batch (PyTorch DDP / Megatron bucketed reduction, Li et al. 2020 §3.2.3) except the last
// bucket, taken as one layer's share: exposed = max(dp − backward of one micro-batch, dp / layers
// per stage); with parallel.dp_overlap off all of it is exposed. ZeRO-3 parameter gathers are prefetched during the whole step: window = compute.
// bubble = (p − 1) / (v · m) × compute (Narayanan et al. 2021 §2.2, interleaved 1F1B).
// Problems: the engine's validation, or "compute_efficiency" "range" outside (0, 1].
Result<StepTimeBreakdown> stepTime(const Scenario &scenario, double compute_efficiency);

// Communication compute cannot hide, by dimension. TP/SP, CP, EP and PP traffic sits between the
// operators that need it (Megatron-LM issues it synchronously): all of it is exposed. DP gradient
// reduction runs in buckets during the backward pass of the last micro-batch (PyTorch DDP, Li et
// al. 2020 §3.2.3), except the last bucket (one layer's share); ZeRO-3's gathers are prefetched
// over the whole step; with dp_overlap off the whole reduction waits for backward.
struct ExposedCommunication {
    double tp_seconds = 0, cp_seconds = 0, ep_seconds = 0, pp_seconds = 0, dp_seconds = 0;
    double total() const { return tp_seconds + cp_seconds + ep_seconds + pp_seconds + dp_seconds; }
};
struct OverlapWindow {
    double compute_seconds = 0;  // forward + backward (+ recomputation) of the whole step on one GPU
    double backward_share = 0;   // part of compute_seconds that is backward (+ recomputation)
    double micro_batches = 1;
    double layers_per_stage = 1;
    int zero_stage = 0;
    bool dp_overlap = true;
};
ExposedCommunication exposedCommunication(const CommunicationEstimate &communication, const OverlapWindow &window);

// The same model from an existing estimate (the layout search's fast path feeds it cached parts).
struct StepTimeInputs {
    FlopsEstimate flops;  // per token figures are used
    CommunicationEstimate communication;
    double memory_total_bytes = 0;
    double memory_capacity_bytes = 0;
    double peak_flops_per_gpu = 0;
    int gpus = 1;
    int pp = 1;
    int virtual_stages = 1;
    int zero_stage = 0;
    bool dp_overlap = true;  // ParallelConfig::dp_overlap; false = the whole DP reduction is exposed
    double micro_batches = 1;       // per step per data-parallel rank
    double layers_per_stage = 1;
    double tokens_per_step = 0;     // global_batch · seq_len
};
StepTimeBreakdown combineStepTime(const StepTimeInputs &inputs, double compute_efficiency);

// The two time models side by side. The cost engine (Overview, Time pages) divides the FLOPs by an
// MFU the scenario assumes; the step-time model (Search page) derives the step from compute at
// peak · compute_efficiency plus exposed communication and the pipeline bubble, which implies an
// MFU of its own.
struct TimeModelComparison {
    double assumed_mfu = 0;       // training.mfu, as typed
    double assumed_days = 0;      // estimate().time.days: C / (N_gpu · peak · assumed MFU)
    double step_model_mfu = 0;    // stepTime().mfu: model FLOPs / (N_gpu · peak · step time)
    double step_model_days = 0;   // training.tokens / stepTime().tokens_per_second / 86,400 s
    double step_seconds = 0;      // stepTime().total_seconds
};
// Problems: as stepTime().
Result<TimeModelComparison> compareTimeModels(const Scenario &scenario, double compute_efficiency);

}  // namespace lse::parallel
