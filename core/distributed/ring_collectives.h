// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "distributed/transport.h"

#include <cstdint>

namespace lse::distributed {

// The ring algorithms of communicator.h, written once over a Transport. Each returns the bytes
// this rank sent (every transfer counted as it goes out). Buffers are split into shards by
// shardRange; with n ranks and S = 4·count bytes (Patarasuk & Yuan 2009; ZeRO §7):
//   reduce-scatter: n-1 steps, rank r sends every shard but its own: S - shard_r bytes
//   all-gather:     n-1 steps, rank r sends every shard but shard r+1: S - shard_(r+1)
//   all-reduce:     reduce-scatter then all-gather: 2(n-1)/n·S when n divides count
//   broadcast:      the whole buffer forwarded along the ring from root; the last rank sends 0
//   barrier:        n-1 empty messages around the ring; 0 bytes
// With one rank every collective is a no-op that sends 0 bytes.
std::int64_t ringReduceScatterSum(Transport &transport, float *data, std::int64_t count);
std::int64_t ringAllGather(Transport &transport, float *data, std::int64_t count);
std::int64_t ringAllReduceSum(Transport &transport, float *data, std::int64_t count);
// The element-wise maximum instead of the sum (the same transfers, so the same bytes).
std::int64_t ringAllReduceMax(Transport &transport, float *data, std::int64_t count);
std::int64_t ringBroadcast(Transport &transport, float *data, std::int64_t count, int root);
std::int64_t ringBarrier(Transport &transport);

}  // namespace lse::distributed
