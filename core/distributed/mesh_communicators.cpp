// SPDX-License-Identifier: GPL-3.0-or-later
#include "distributed/mesh_communicators.h"

#include <stdexcept>
#include <string>

namespace lse::distributed {

namespace {

// Color: the index of this rank's group among the dimension's groups (ordered by smallest rank);
// key: its coordinate along the dimension.
std::unique_ptr<Communicator> splitAlong(Communicator &world, const parallel::DeviceMesh &mesh, parallel::MeshDim dim)
{
    const int rank = world.rank();
    const std::vector<int> mine = mesh.group(rank, dim);
    const std::vector<std::vector<int>> all = mesh.groups(dim);
    int color = -1;
    for (std::size_t i = 0; i < all.size(); ++i)
        if (all[i] == mine)
            color = int(i);
    if (color < 0)
        throw std::logic_error("splitByMesh: rank " + std::to_string(rank) + " is in no " + std::string(parallel::toString(dim)) + " group");
    return world.split(color, mesh.coordinate(rank, dim));
}

}  // namespace

MeshCommunicators splitByMesh(Communicator &world, const parallel::DeviceMesh &mesh)
{
    if (mesh.gpus != world.size())
        throw std::invalid_argument("splitByMesh: the mesh has " + std::to_string(mesh.gpus) + " ranks, the world "
                                    + std::to_string(world.size()));
    if (mesh.size(parallel::MeshDim::CP) != 1)
        throw std::invalid_argument("splitByMesh: context parallelism (cp > 1) has no trainer");
    MeshCommunicators split;
    split.tp = splitAlong(world, mesh, parallel::MeshDim::TP);
    split.dp = splitAlong(world, mesh, parallel::MeshDim::DP);
    split.pp = splitAlong(world, mesh, parallel::MeshDim::PP);
    split.tp_rank = mesh.coordinate(world.rank(), parallel::MeshDim::TP);
    split.dp_rank = mesh.coordinate(world.rank(), parallel::MeshDim::DP);
    split.pp_rank = mesh.coordinate(world.rank(), parallel::MeshDim::PP);
    return split;
}

Result<parallel::DeviceMesh> localMesh(int dp, int tp, int pp)
{
    ClusterConfig cluster;
    cluster.gpus = dp * tp * pp;
    cluster.gpus_per_node = dp * tp * pp;  // one machine
    ParallelConfig parallel;
    parallel.dp = dp;
    parallel.tp = tp;
    parallel.pp = pp;
    return parallel::makeDeviceMesh(cluster, parallel);
}

}  // namespace lse::distributed
