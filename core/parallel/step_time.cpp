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

}  // namespace lse::parallel
