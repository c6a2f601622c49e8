// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "hardware/accelerator.h"

#include <optional>

namespace lse {

// The machines a run uses. The accelerator is stored whole so a scenario file stays meaningful
// even if the catalog changes; `accelerator.id` says which catalog entry it came from ("custom"
// for a user-defined one).
struct ClusterConfig {
    Accelerator accelerator;
    int gpus = 0;
    int gpus_per_node = 8;
    // Replaces the catalog's dense peak for the matmul dtype (e.g. to reproduce a paper that used
    // the sparse headline figure).
    std::optional<double> peak_flops_per_second_override;
    // Link bandwidth per GPU in one direction, Gbit/s (the unit network cards and the issue use;
    // NVLink's 300 GB/s per direction is 2400 Gbit/s). Unset = the accelerator's catalog value
    // (accelerator.intra_/inter_node_bandwidth_bytes_per_second); read through clusterLinks.h.
    std::optional<double> intra_node_gbps_per_gpu;
    std::optional<double> inter_node_gbps_per_gpu;
    // Alpha-beta link model: time = steps * latency + bytes / (bandwidth * efficiency).
    double intra_node_latency_seconds = 3e-6;
    double inter_node_latency_seconds = 10e-6;
    // Fraction of the unidirectional line rate a collective achieves (nccl-tests bus bandwidth
    // typically reaches ~80% of it).
    double link_efficiency = 0.8;
    double price_per_gpu_hour = 2.0;  // in the user's currency
};

}  // namespace lse
