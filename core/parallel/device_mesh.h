// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"
#include "scenario/cluster_config.h"
#include "scenario/training_config.h"

#include <string_view>
#include <vector>

namespace lse::parallel {

// The parallel dimensions of a training run's device mesh.
enum class MeshDim { TP, CP, EP, DP, PP };

std::string_view toString(MeshDim dim);  // "tp", "cp", "ep", "dp", "pp"

// The four mesh axes in rank order, innermost (fastest-varying rank) first: TP, CP, DP, PP.
// This is Megatron-LM's "tp-cp-ep-dp-pp" order (parallel_state.py RankGenerator) and the Llama 3
// paper's [TP, CP, PP, DP] inner-to-outer order with DP and PP swapped the Megatron way (Dubey et
// al. 2024 §3.3.2). EP is not an axis of its own: as in Megatron-LM, expert groups are sub-groups
// of the dp×cp ranks (blocks of `ep` consecutive dp×cp indices, CP before DP), so an order lists
// TP, CP, DP and PP exactly once and never EP.
std::vector<MeshDim> defaultMeshOrder();

// Where every rank sits. Ranks 0..gpus-1 are placed on nodes in blocks of gpus_per_node.
struct DeviceMesh {
    int gpus = 0;
    int gpus_per_node = 8;
    int nodes = 0;  // ceil(gpus / gpus_per_node)
    ParallelConfig degrees;
    std::vector<MeshDim> order;  // innermost first; a permutation of TP, CP, DP, PP

    int size(MeshDim dim) const;  // the degree of that dimension (ep for EP)
    // Index of `rank` along `dim`, in [0, size(dim)). For EP: the position inside its expert group.
    int coordinate(int rank, MeshDim dim) const;
    // Rank at the given coordinates of the four axes.
    int rankAt(int tp, int cp, int dp, int pp) const;
    // All ranks sharing every other coordinate with `rank`, ascending; for EP the expert group
    // (same tp and pp coordinates, same block of ep consecutive dp×cp indices).
    std::vector<int> group(int rank, MeshDim dim) const;
    // Every group of that dimension, each ascending, ordered by their smallest rank.
    std::vector<std::vector<int>> groups(MeshDim dim) const;
    int node(int rank) const { return rank / gpus_per_node; }
    // Whether any group of that dimension holds ranks on more than one node.
    bool groupCrossesNodes(MeshDim dim) const;
    // Distinct nodes the largest-spread group of that dimension touches.
    int nodesPerGroup(MeshDim dim) const;
};

// Problems: "parallel.<dim>" "positive"; "parallel.dp" "gpu_count" when dp·tp·pp·cp ≠ gpus;
// "parallel.ep" "divisible" when ep does not divide dp·cp; "order" "permutation" when the order is
// not a permutation of TP, CP, DP, PP; "cluster.gpus_per_node" "positive".
Result<DeviceMesh> makeDeviceMesh(const ClusterConfig &cluster, const ParallelConfig &parallel,
                                  std::vector<MeshDim> order = defaultMeshOrder());

// Layout smells, one per dimension whose groups span nodes although they talk on every layer:
// rule "tp_crosses_nodes" (field "training.tp"), "cp_crosses_nodes" ("training.cp"),
// "ep_crosses_nodes" ("training.ep"). DP and PP groups crossing nodes is normal and not reported.
std::vector<Problem> meshWarnings(const DeviceMesh &mesh);

}  // namespace lse::parallel
