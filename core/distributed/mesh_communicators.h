// SPDX-License-Identifier: GPL-3.0-or-later
// The sub-groups of a combined layout (issue 33: dp x tp, dp x pp, tp x pp) split from the world by
// the same rank mapping the Layout page draws (parallel::DeviceMesh, the engine's order of mesh
// dimensions, TP innermost): a rank's tp group is DeviceMesh::group(rank, TP), and so on. There is
// no second mapping here, only Communicator::split with the mesh's groups as colors.
#pragma once

#include "distributed/communicator.h"
#include "parallel/device_mesh.h"

#include <memory>

namespace lse::distributed {

// One rank's communicators of the tp, dp and pp dimensions (a group of one rank where that degree is
// 1), and its coordinates on the mesh.
struct MeshCommunicators {
    std::unique_ptr<Communicator> tp, dp, pp;
    int tp_rank = 0, dp_rank = 0, pp_rank = 0;
};

// Collective over `world` (every rank calls it). The mesh must have world.size() ranks and cp = 1
// (std::invalid_argument otherwise). Within each group, ranks are ordered by their coordinate
// along that dimension, so group rank == DeviceMesh::coordinate.
MeshCommunicators splitByMesh(Communicator &world, const parallel::DeviceMesh &mesh);

// The mesh of dp x tp x pp ranks on one node of this machine, in the engine's default order.
Result<parallel::DeviceMesh> localMesh(int dp, int tp, int pp);

}  // namespace lse::distributed
