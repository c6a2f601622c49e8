// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario/cluster_config.h"

namespace lse {

// The link bandwidths the engine uses, bytes/s per GPU in one direction, before link_efficiency:
// the scenario's intra_/inter_node_gbps_per_gpu when set, else the accelerator's catalog value.
// Every bandwidth the engine reads goes through these, so a scenario override reaches them all.
double intraNodeBytesPerSecondPerGpu(const ClusterConfig &cluster);
double interNodeBytesPerSecondPerGpu(const ClusterConfig &cluster);
double linkBytesPerSecondPerGpu(const ClusterConfig &cluster, bool inter_node);

// 1 Gbit/s = 1e9 / 8 bytes/s (SI prefixes, as link rates are quoted).
constexpr double bytesPerSecondFromGbps(double gbps) { return gbps * 1e9 / 8.0; }
constexpr double gbpsFromBytesPerSecond(double bytes_per_second) { return bytes_per_second * 8.0 / 1e9; }

}  // namespace lse
