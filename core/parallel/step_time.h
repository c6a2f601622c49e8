// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"
#include "cost/estimate.h"
#include "scenario/scenario.h"

namespace lse::parallel {

// One optimizer step of a layout as the layout search reports it: where the time goes
// (performance::predictStep fills it, layout_search.h predictedBreakdown).
struct StepTimeBreakdown {
    double compute_seconds = 0;                // the busiest stage's kernels (recomputation included)
    double optimizer_seconds = 0;              // the optimizer step
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

}  // namespace lse::parallel
