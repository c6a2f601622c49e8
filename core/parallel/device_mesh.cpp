// SPDX-License-Identifier: GPL-3.0-or-later
#include "parallel/device_mesh.h"

#include <algorithm>
#include <string>

namespace lse::parallel {

std::string_view toString(MeshDim dim)
{
    switch (dim) {
    case MeshDim::TP:
        return "tp";
    case MeshDim::CP:
        return "cp";
    case MeshDim::EP:
        return "ep";
    case MeshDim::DP:
        return "dp";
    case MeshDim::PP:
        return "pp";
    }
    return "?";
}

std::vector<MeshDim> defaultMeshOrder() { return {MeshDim::TP, MeshDim::CP, MeshDim::DP, MeshDim::PP}; }

int DeviceMesh::size(MeshDim dim) const
{
    switch (dim) {
    case MeshDim::TP:
        return degrees.tp;
    case MeshDim::CP:
        return degrees.cp;
    case MeshDim::EP:
        return degrees.ep;
    case MeshDim::DP:
        return degrees.dp;
    case MeshDim::PP:
        return degrees.pp;
    }
    return 1;
}

namespace {

// Rank distance between neighbours along an axis: the product of the sizes of the axes inside it.
int strideOf(const DeviceMesh &mesh, MeshDim dim)
{
    int stride = 1;
    for (MeshDim axis : mesh.order) {
        if (axis == dim)
            return stride;
        stride *= mesh.size(axis);
    }
    return stride;
}

bool cpInsideDp(const DeviceMesh &mesh)
{
    for (MeshDim axis : mesh.order) {
        if (axis == MeshDim::CP)
            return true;
        if (axis == MeshDim::DP)
            return false;
    }
    return true;
}

// Megatron-LM flattens the dp×cp ranks (the ones that reduce gradients together) into one index,
// the inner of the two axes varying fastest; expert groups are blocks of ep consecutive indices.
int dpCpIndex(const DeviceMesh &mesh, int cp, int dp)
{
    return cpInsideDp(mesh) ? cp + mesh.degrees.cp * dp : dp + mesh.degrees.dp * cp;
}

struct AxisCoordinates {
    int tp = 0, cp = 0, dp = 0, pp = 0;
};

AxisCoordinates axisCoordinates(const DeviceMesh &mesh, int rank)
{
    AxisCoordinates c;
    c.tp = mesh.coordinate(rank, MeshDim::TP);
    c.cp = mesh.coordinate(rank, MeshDim::CP);
    c.dp = mesh.coordinate(rank, MeshDim::DP);
    c.pp = mesh.coordinate(rank, MeshDim::PP);
    return c;
}

// The member of `rank`'s group with coordinate 0 along `dim`.
int groupLeader(const DeviceMesh &mesh, int rank, MeshDim dim)
{
    if (dim != MeshDim::EP)
        return rank - mesh.coordinate(rank, dim) * strideOf(mesh, dim);
    return mesh.group(rank, dim).front();
}

}  // namespace

int DeviceMesh::coordinate(int rank, MeshDim dim) const
{
    if (dim == MeshDim::EP) {
        const int index = dpCpIndex(*this, coordinate(rank, MeshDim::CP), coordinate(rank, MeshDim::DP));
        return index % std::max(1, degrees.ep);
    }
    return (rank / strideOf(*this, dim)) % std::max(1, size(dim));
}

int DeviceMesh::rankAt(int tp, int cp, int dp, int pp) const
{
    return tp * strideOf(*this, MeshDim::TP) + cp * strideOf(*this, MeshDim::CP)
        + dp * strideOf(*this, MeshDim::DP) + pp * strideOf(*this, MeshDim::PP);
}

std::vector<int> DeviceMesh::group(int rank, MeshDim dim) const
{
    std::vector<int> members;
    if (dim != MeshDim::EP) {
        const int stride = strideOf(*this, dim);
        const int first = rank - coordinate(rank, dim) * stride;
        for (int i = 0; i < size(dim); ++i)
            members.push_back(first + i * stride);
        return members;
    }
    const AxisCoordinates c = axisCoordinates(*this, rank);
    const int ep = std::max(1, degrees.ep);
    const int block_start = dpCpIndex(*this, c.cp, c.dp) / ep * ep;
    for (int index = block_start; index < block_start + ep; ++index) {
        const bool cp_inner = cpInsideDp(*this);
        const int cp = cp_inner ? index % degrees.cp : index / degrees.dp;
        const int dp = cp_inner ? index / degrees.cp : index % degrees.dp;
        members.push_back(rankAt(c.tp, cp, dp, c.pp));
    }
    std::sort(members.begin(), members.end());
    return members;
}

std::vector<std::vector<int>> DeviceMesh::groups(MeshDim dim) const
{
    std::vector<std::vector<int>> result;
    for (int rank = 0; rank < gpus; ++rank)
        if (coordinate(rank, dim) == 0) {
            std::vector<int> members = group(rank, dim);
            if (members.front() == rank || dim != MeshDim::EP)
                result.push_back(std::move(members));
        }
    std::sort(result.begin(), result.end());
    return result;
}

bool DeviceMesh::groupCrossesNodes(MeshDim dim) const
{
    if (size(dim) <= 1)
        return false;
    for (int rank = 0; rank < gpus; ++rank)
        if (node(rank) != node(groupLeader(*this, rank, dim)))
            return true;
    return false;
}

int DeviceMesh::nodesPerGroup(MeshDim dim) const
{
    int most = gpus > 0 ? 1 : 0;
    if (size(dim) <= 1)
        return most;
    for (const std::vector<int> &members : groups(dim)) {
        std::vector<int> nodes_seen;
        for (int rank : members)
            nodes_seen.push_back(node(rank));
        std::sort(nodes_seen.begin(), nodes_seen.end());
        const int distinct = int(std::unique(nodes_seen.begin(), nodes_seen.end()) - nodes_seen.begin());
        most = std::max(most, distinct);
    }
    return most;
}

Result<DeviceMesh> makeDeviceMesh(const ClusterConfig &cluster, const ParallelConfig &parallel,
                                  std::vector<MeshDim> order)
{
    Problems problems;
    const auto positive = [&](const char *field, int value) {
        if (value < 1) {
            problems.push_back({field, "positive", std::string(field) + " is " + std::to_string(value)
                                                       + "; it must be at least 1"});
            return false;
        }
        return true;
    };
    bool ok = positive("cluster.gpus", cluster.gpus);
    ok = positive("cluster.gpus_per_node", cluster.gpus_per_node) && ok;
    ok = positive("parallel.dp", parallel.dp) && ok;
    ok = positive("parallel.tp", parallel.tp) && ok;
    ok = positive("parallel.pp", parallel.pp) && ok;
    ok = positive("parallel.cp", parallel.cp) && ok;
    ok = positive("parallel.ep", parallel.ep) && ok;
    if (ok) {
        const long long product = 1LL * parallel.dp * parallel.tp * parallel.pp * parallel.cp;
        if (product != cluster.gpus)
            problems.push_back({"parallel.dp", "gpu_count",
                                "dp·tp·pp·cp = " + std::to_string(product) + " ≠ cluster.gpus "
                                    + std::to_string(cluster.gpus),
                                {"parallel.tp", "parallel.pp", "parallel.cp", "cluster.gpus"}});
        if ((1LL * parallel.dp * parallel.cp) % parallel.ep != 0)
            problems.push_back({"parallel.ep", "divisible",
                                "parallel.ep " + std::to_string(parallel.ep) + " does not divide dp·cp = "
                                    + std::to_string(1LL * parallel.dp * parallel.cp)
                                    + "; expert groups are carved out of the dp×cp ranks"});
    }
    std::vector<MeshDim> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    const std::vector<MeshDim> axes{MeshDim::TP, MeshDim::CP, MeshDim::DP, MeshDim::PP};
    if (sorted != axes)
        problems.push_back({"order", "permutation",
                            "the mesh order must list tp, cp, dp and pp exactly once (ep is carved out of dp×cp)"});
    if (!problems.empty())
        return problems;
    DeviceMesh mesh;
    mesh.gpus = cluster.gpus;
    mesh.gpus_per_node = cluster.gpus_per_node;
    mesh.nodes = (cluster.gpus + cluster.gpus_per_node - 1) / cluster.gpus_per_node;
    mesh.degrees = parallel;
    mesh.order = std::move(order);
    return mesh;
}

std::vector<Problem> meshWarnings(const DeviceMesh &mesh)
{
    std::vector<Problem> warnings;
    // These groups talk on every layer of every micro-batch; over the network instead of NVLink
    // they usually dominate the step (Narayanan et al. 2021 §3.2: keep tp within a node).
    for (MeshDim dim : {MeshDim::TP, MeshDim::CP, MeshDim::EP}) {
        if (!mesh.groupCrossesNodes(dim))
            continue;
        const std::string name(toString(dim));
        warnings.push_back({"training." + name, name + "_crosses_nodes",
                            name + " " + std::to_string(mesh.size(dim)) + " crosses nodes ("
                                + std::to_string(mesh.gpus_per_node) + " GPUs per node): its groups span "
                                + std::to_string(mesh.nodesPerGroup(dim)) + " nodes"});
    }
    return warnings;
}

}  // namespace lse::parallel
