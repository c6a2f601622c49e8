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
    // What overlapping leaves of traffic T behind a window W: the part W cannot cover, and never
    // less than the share no pipelining can hide (one chunk, one block, one bucket).
    const auto behind = [](double traffic, double window_seconds, double unhidden_share) {
        return std::max(traffic * unhidden_share, traffic - window_seconds);
    };
    const double m = std::max(1.0, window.micro_batches);

    exposed.tp_seconds = window.tp_comm_overlap && window.tp > 1
        ? behind(comm.tp.seconds, window.gemm_seconds, 1.0 / window.tp)
        : comm.tp.seconds;
    exposed.cp_seconds = window.cp > 1 ? behind(comm.cp.seconds, window.attention_seconds, 1.0 / window.cp)
                                       : comm.cp.seconds;
    exposed.ep_seconds = comm.ep.seconds;
    exposed.pp_seconds = window.pp_comm_overlap ? comm.pp.seconds / (m * std::max(1.0, window.virtual_stages))
                                                : comm.pp.seconds;

    // Data parallel: see the header. With gradient accumulation only the last micro-batch's
    // backward can hide the reduction (and only the first micro-batch's forward the gather).
    if (comm.dp.seconds > 0 && !window.dp_overlap) {
        exposed.dp_seconds = comm.dp.seconds;  // reduced after backward: nothing hides it
    } else if (comm.dp.seconds > 0) {
        const double last_bucket_share = 1.0 / std::max(1.0, window.layers_per_stage);
        if (window.zero_stage >= 3) {
            exposed.dp_seconds = behind(comm.dp.seconds, window.compute_seconds, last_bucket_share);
        } else {
            const double gather = comm.dp.gather_seconds;
            const double reduce = comm.dp.seconds - gather;
            const double backward = window.compute_seconds * window.backward_share / m;
            const double forward = window.compute_seconds * (1.0 - window.backward_share) / m;
            exposed.dp_seconds = behind(reduce, backward, last_bucket_share);
            if (gather > 0)
                exposed.dp_seconds += window.dp_param_gather_overlap ? behind(gather, forward, last_bucket_share) : gather;
        }
    }
    return exposed;
}

}  // namespace lse::parallel
