// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace lse::distributed {

// The collectives data-parallel and ZeRO training use, on float buffers, as torch.distributed
// offers them (issue 19). Every collective is a ring algorithm written over point-to-point
// transfers (Transport), so the bytes each rank sends are counted exactly as they go out and can be
// set beside the engine's communication volume (ZeRO §7: all-reduce 2(n-1)/n·S per rank,
// reduce-scatter and all-gather (n-1)/n·S each, broadcast along the ring).
// Send and Recv are the point-to-point transfers pipeline parallelism uses between neighbouring
// stages (Narayanan et al. 2021 §2.2): activations forward, their gradients backward.
enum class Collective { AllReduce, ReduceScatter, AllGather, Broadcast, Barrier, Send, Recv };
std::string_view toString(Collective collective);  // "all_reduce", "reduce_scatter", ..., "send", "recv"

// One collective as it ran on this rank.
struct CollectiveRecord {
    Collective collective = Collective::AllReduce;
    std::int64_t elements = 0;    // the full buffer's element count (S / 4 bytes)
    std::int64_t bytes_sent = 0;  // counted on this rank, every transfer
    std::int64_t bytes_received = 0;  // Recv only: the message's bytes (collectives leave it 0)
    int peer = -1;                    // Send and Recv: the other rank; -1 for collectives
    double seconds = 0;           // from the start of the collective to its completion on this rank
    double waited_seconds = 0;    // how long the caller blocked in wait(): the exposed part
    // When this rank's communication thread began running it (collectives run one after another
    // there, so these intervals never overlap): where a trace places it (op_trace.h).
    std::chrono::steady_clock::time_point ran_from;
    std::chrono::steady_clock::time_point ran_to;
};

// A collective started without blocking; wait() returns once this rank's part is complete.
class CollectiveHandle {
public:
    virtual ~CollectiveHandle() = default;
    virtual void wait() = 0;
    virtual bool done() const = 0;
};

class Communicator {
public:
    virtual ~Communicator() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;

    // Blocking collectives. `count` is the whole buffer's length on every rank.
    // allReduceSum: data[i] = Σ_ranks data[i].
    virtual void allReduceSum(float *data, std::int64_t count) = 0;
    // allReduceMax: data[i] = max over ranks of data[i] (the vocabulary-parallel cross-entropy's
    // row maxima); recorded as an all-reduce, with the same bytes as the sum.
    virtual void allReduceMax(float *data, std::int64_t count) = 0;
    // reduceScatterSum: this rank's shard (shardRange(count, size, rank)) of the sum of every
    // rank's `data`, written into data at the shard's offset (the rest of `data` is scratch).
    virtual void reduceScatterSum(float *data, std::int64_t count) = 0;
    // allGather: every rank's shard of `data` (at its offset) copied into every rank's `data`.
    virtual void allGather(float *data, std::int64_t count) = 0;
    virtual void broadcast(float *data, std::int64_t count, int root) = 0;
    virtual void barrier() = 0;

    // Point-to-point, blocking. send returns once the message has been handed off (buffered, as
    // MPI_Bsend: it never waits for the receiver to post its receive, so two stages sending to
    // each other, or a 1F1B stage sending before it receives, cannot deadlock); `data` may be
    // reused at once. recv blocks until the message from `from` arrives and needs exactly `count`
    // elements (another length throws std::runtime_error). Messages between two ranks arrive in
    // send order. `to`/`from` must be another rank of the group.
    virtual void send(const float *data, std::int64_t count, int to) = 0;
    virtual void recv(float *data, std::int64_t count, int from) = 0;

    // Non-blocking variants: the collective runs on the communicator's own thread while the caller
    // computes (bucketed DP overlaps the all-reduce of one bucket with the backward of the next).
    // Collectives complete in the order they were started. `data` must stay valid until wait().
    virtual std::unique_ptr<CollectiveHandle> startAllReduceSum(float *data, std::int64_t count) = 0;
    virtual std::unique_ptr<CollectiveHandle> startReduceScatterSum(float *data, std::int64_t count) = 0;
    virtual std::unique_ptr<CollectiveHandle> startAllGather(float *data, std::int64_t count) = 0;

    // What ran since the last takeRecords(), in start order; clears the list.
    virtual std::vector<CollectiveRecord> takeRecords() = 0;

    // MPI_Comm_split: every rank of this group calls it (collectively, in the same order); the
    // ranks passing the same `color` form one new group, ranked by (key, rank here). The new
    // communicator has its own communication thread and its own records (the parent's records
    // never show its traffic, nor the split's own exchange). It must be destroyed before this one.
    // Combined layouts (dp x tp, dp x pp) take their groups from parallel::DeviceMesh.
    virtual std::unique_ptr<Communicator> split(int color, int key) = 0;
};

// The elements of rank `rank`'s shard of a buffer of `count` elements split over `ranks`: as even
// as possible, the first count % ranks shards one element longer (torch's ZeRO pads instead; the
// bytes counted then equal (n-1)/n·S only when n divides S, which the engine assumes).
struct ShardRange {
    std::int64_t offset = 0;
    std::int64_t count = 0;
};
ShardRange shardRange(std::int64_t count, int ranks, int rank);

}  // namespace lse::distributed
