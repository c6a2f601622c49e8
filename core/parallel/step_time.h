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
    double straggler_seconds = 0;              // waiting for the slowest GPU (performance::stragglerSeconds)
    double total_seconds = 0;
    double tokens_per_second = 0;
    double mfu = 0;  // model FLOPs (no recomputation) / (gpus · peak · total_seconds)
    double memory_bytes_per_gpu = 0;  // estimate(scenario).memory.total
    bool fits = false;
    // The exposed communication by dimension (they add up to exposed_communication_seconds).
    double exposed_tp_seconds = 0, exposed_cp_seconds = 0, exposed_ep_seconds = 0;
    double exposed_pp_seconds = 0, exposed_dp_seconds = 0;
};

// Communication compute cannot hide, by dimension:
// - TP/SP: on the critical path (Megatron-LM of 2021/22 issues it synchronously); with
//   tp_comm_overlap each collective is split into tp chunks pipelined with the GEMM that produces
//   or consumes it (Wang et al. 2023, ASPLOS, "Overlap Communication with Dependent Computation via
//   Decomposition"; Megatron-Core --tp-comm-overlap): one chunk stays exposed, and whatever the
//   GEMMs are too short to hide: max(T / tp, T − GEMM time).
// - CP (ring attention): each KV block's transfer overlaps the attention on the previous block
//   (Liu et al. 2023, "Ring Attention with Blockwise Transformers", §3): max(T / cp, T − attention).
// - PP: exposed; with pp_comm_overlap the sends run while the next chunk computes (Megatron-Core
//   overlap_p2p_comm): only the first and last of the step's 2·m·v transfers stay exposed, T / (m·v).
// - EP: exposed (the all-to-all feeds the experts directly).
// - DP: gradient reduction runs in buckets during the backward pass of the last micro-batch
//   (PyTorch DDP, Li et al. 2020 §3.2.3), except the last bucket (one layer's share); with ZeRO-1/2
//   the parameter all-gather runs during the first micro-batch's forward when
//   dp_param_gather_overlap is on (Megatron-Core overlap_param_gather), after the optimizer step
//   otherwise; ZeRO-3's gathers are prefetched over the whole step; with dp_overlap off the whole
//   reduction waits for backward.
struct ExposedCommunication {
    double tp_seconds = 0, cp_seconds = 0, ep_seconds = 0, pp_seconds = 0, dp_seconds = 0;
    double total() const { return tp_seconds + cp_seconds + ep_seconds + pp_seconds + dp_seconds; }
};
struct OverlapWindow {
    double compute_seconds = 0;  // forward + backward (+ recomputation) of the whole step on one GPU
    double backward_share = 0;   // part of compute_seconds that is backward (+ recomputation)
    double micro_batches = 1;
    double layers_per_stage = 1;
    double virtual_stages = 1;
    // The work each overlap can hide behind, over the whole step on one GPU: the weight GEMMs
    // (TP's chunks pipeline with them) and the attention core (ring attention's transfers).
    double gemm_seconds = 0;
    double attention_seconds = 0;
    int tp = 1;
    int cp = 1;
    int zero_stage = 0;
    bool dp_overlap = true;
    bool dp_param_gather_overlap = true;
    bool tp_comm_overlap = false;
    bool pp_comm_overlap = false;
};
ExposedCommunication exposedCommunication(const CommunicationEstimate &communication, const OverlapWindow &window);

}  // namespace lse::parallel
