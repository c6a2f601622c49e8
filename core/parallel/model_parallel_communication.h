// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "parallel/device_mesh.h"
#include "scenario/scenario.h"

#include <string>
#include <vector>

namespace lse::parallel {

// One kind of collective a GPU takes part in during an optimizer step.
struct CommunicationEvent {
    MeshDim dim = MeshDim::TP;
    std::string collective;  // "all-reduce", "all-gather", "reduce-scatter", "all-to-all", "send/recv", ...
    std::string where;       // "attention forward: after out-proj (row-parallel)"
    int count_per_step = 0;  // how many times per optimizer step one GPU runs it
    double bytes_per_rank = 0;  // bytes one GPU sends per occurrence (nccl-tests bus-bandwidth factors)
    bool crosses_nodes = false;
    double seconds = 0;         // per occurrence, alpha-beta model of the engine
    bool overlappable = false;  // can hide behind compute (DP gradient buckets, ZeRO-3 prefetch)

    double totalBytes() const { return bytes_per_rank * count_per_step; }
    double totalSeconds() const { return seconds * count_per_step; }
};

// Every collective of one optimizer step on the most loaded GPU, in execution order within a layer:
// TP (Megatron column/row-parallel pairs, Korthikanti et al. 2022 §4.2.2; with sequence
// parallelism all-gather + reduce-scatter of equal total volume, cost-model-notes F15; then the
// vocabulary-parallel embedding's, LM head's and cross-entropy's collectives and SP's norm
// gradients, each with the engine's own bytes, CommunicationEstimate::tp_outside_layers), CP (ring
// attention K/V passes, Liu et al. 2023), EP (all-to-all dispatch + combine, Lepikhin et al. 2020),
// PP (send/recv between stages, Narayanan et al. 2021) and DP (all-reduce or ZeRO reduce-scatter +
// all-gather, Rajbhandari et al. 2020 §7). Per dimension the events' totalBytes() and
// totalSeconds() add up to the engine's estimate(scenario).communication part (TP: tp plus
// tp_outside_layers): the events divide the engine's figures, they do not recompute them. Empty
// when the scenario is invalid.
std::vector<CommunicationEvent> communicationEvents(const Scenario &scenario, const DeviceMesh &mesh);

}  // namespace lse::parallel
