// SPDX-License-Identifier: GPL-3.0-or-later
#include "distributed/communicator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace lse::distributed {

std::string_view toString(Collective collective)
{
    switch (collective) {
    case Collective::AllReduce: return "all_reduce";
    case Collective::ReduceScatter: return "reduce_scatter";
    case Collective::AllGather: return "all_gather";
    case Collective::Broadcast: return "broadcast";
    case Collective::Barrier: return "barrier";
    case Collective::Send: return "send";
    case Collective::Recv: return "recv";
    }
    return "unknown";
}

ShardRange shardRange(std::int64_t count, int ranks, int rank)
{
    if (count < 0)
        throw std::invalid_argument("shardRange: count must be >= 0, got " + std::to_string(count));
    if (ranks < 1 || rank < 0 || rank >= ranks)
        throw std::invalid_argument("shardRange: rank must be in [0, ranks), got rank " + std::to_string(rank)
                                    + " of " + std::to_string(ranks));
    const std::int64_t base = count / ranks;
    const std::int64_t longer = count % ranks;  // the first `longer` shards hold one more element
    ShardRange shard;
    shard.count = base + (rank < longer ? 1 : 0);
    shard.offset = std::int64_t(rank) * base + std::min<std::int64_t>(rank, longer);
    return shard;
}

}  // namespace lse::distributed
