// SPDX-License-Identifier: GPL-3.0-or-later
#include "distributed/ring_collectives.h"

#include "distributed/communicator.h"

#include <algorithm>
#include <vector>

namespace lse::distributed {

namespace {

constexpr std::int64_t kFloatBytes = sizeof(float);

int wrap(int rank, int size) { return ((rank % size) + size) % size; }

}  // namespace

namespace {

enum class Reduction { Sum, Max };

std::int64_t ringReduceScatter(Transport &transport, float *data, std::int64_t count, Reduction reduction)
{
    const int size = transport.size();
    const int rank = transport.rank();
    if (size == 1)
        return 0;
    const int next = wrap(rank + 1, size);
    const int previous = wrap(rank - 1, size);
    std::vector<float> incoming(std::size_t(shardRange(count, size, 0).count));  // shard 0 is the longest
    std::int64_t bytes_sent = 0;
    // Step s: send the partial sum of shard r-s-1, receive shard r-s-2 and add to it; after n-1
    // steps the last shard received (r-n ≡ r) holds every rank's contribution.
    for (int step = 0; step < size - 1; ++step) {
        const ShardRange out = shardRange(count, size, wrap(rank - step - 1, size));
        const ShardRange in = shardRange(count, size, wrap(rank - step - 2, size));
        transport.sendRecv(next, data + out.offset, out.count * kFloatBytes, previous, incoming.data(),
                           in.count * kFloatBytes);
        bytes_sent += out.count * kFloatBytes;
        float *target = data + in.offset;
        if (reduction == Reduction::Sum)
            for (std::int64_t i = 0; i < in.count; ++i)
                target[i] += incoming[std::size_t(i)];
        else
            for (std::int64_t i = 0; i < in.count; ++i)
                target[i] = std::max(target[i], incoming[std::size_t(i)]);
    }
    return bytes_sent;
}

}  // namespace

std::int64_t ringReduceScatterSum(Transport &transport, float *data, std::int64_t count)
{
    return ringReduceScatter(transport, data, count, Reduction::Sum);
}

std::int64_t ringAllGather(Transport &transport, float *data, std::int64_t count)
{
    const int size = transport.size();
    const int rank = transport.rank();
    if (size == 1)
        return 0;
    const int next = wrap(rank + 1, size);
    const int previous = wrap(rank - 1, size);
    std::int64_t bytes_sent = 0;
    // Step s: pass on shard r-s (own shard first), receive shard r-s-1 in place.
    for (int step = 0; step < size - 1; ++step) {
        const ShardRange out = shardRange(count, size, wrap(rank - step, size));
        const ShardRange in = shardRange(count, size, wrap(rank - step - 1, size));
        transport.sendRecv(next, data + out.offset, out.count * kFloatBytes, previous, data + in.offset,
                           in.count * kFloatBytes);
        bytes_sent += out.count * kFloatBytes;
    }
    return bytes_sent;
}

std::int64_t ringAllReduceSum(Transport &transport, float *data, std::int64_t count)
{
    const std::int64_t reduce_bytes = ringReduceScatterSum(transport, data, count);
    return reduce_bytes + ringAllGather(transport, data, count);
}

std::int64_t ringAllReduceMax(Transport &transport, float *data, std::int64_t count)
{
    const std::int64_t reduce_bytes = ringReduceScatter(transport, data, count, Reduction::Max);
    return reduce_bytes + ringAllGather(transport, data, count);
}

std::int64_t ringBroadcast(Transport &transport, float *data, std::int64_t count, int root)
{
    const int size = transport.size();
    if (size == 1)
        return 0;
    // Position along the ring starting at root: receive from the previous position, forward to
    // the next; the last position only receives.
    const int position = wrap(transport.rank() - root, size);
    const int from = position == 0 ? Transport::kNoPeer : wrap(transport.rank() - 1, size);
    const int to = position == size - 1 ? Transport::kNoPeer : wrap(transport.rank() + 1, size);
    const std::int64_t bytes = count * kFloatBytes;
    if (from != Transport::kNoPeer)
        transport.sendRecv(Transport::kNoPeer, nullptr, 0, from, data, bytes);
    if (to != Transport::kNoPeer)
        transport.sendRecv(to, data, bytes, Transport::kNoPeer, nullptr, 0);
    return to != Transport::kNoPeer ? bytes : 0;
}

std::int64_t ringBarrier(Transport &transport)
{
    const int size = transport.size();
    const int next = wrap(transport.rank() + 1, size);
    const int previous = wrap(transport.rank() - 1, size);
    // After step k a rank knows the k ranks before it have arrived; after n-1 steps, all have.
    for (int step = 0; step < size - 1; ++step)
        transport.sendRecv(next, nullptr, 0, previous, nullptr, 0);
    return 0;
}

}  // namespace lse::distributed
