// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"
#include "distributed/communicator.h"
#include "parallel/collectives.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace lse::distributed {

// One message size of a sweep, reported as nccl-tests does (doc/PERFORMANCE.md).
struct SweepPoint {
    std::int64_t bytes = 0;  // S: the message (ping-pong) or the whole buffer (all-reduce)
    double seconds = 0;      // median over the timed iterations: one-way time, or the collective's time
    double algorithm_bandwidth_bytes_per_second = 0;  // algbw = S / seconds
    double bus_bandwidth_bytes_per_second = 0;        // busbw = algbw · busBandwidthFactor (ping-pong: 1)
};

// 4 B to 4 MiB in steps of ×4: latency-bound at the small end, bandwidth-bound at the large one.
std::vector<std::int64_t> defaultSweepBytes();

struct SweepOptions {
    std::vector<std::int64_t> message_bytes = defaultSweepBytes();  // each > 0 and a multiple of 4 (floats)
    int warmup_iterations = 2;  // not timed: first-touch pages, connection set-up
    int iterations = 10;        // timed, >= 1
    // Called on every rank after each size of a sweep (for progress lines; may be empty).
    std::function<void(std::int64_t bytes)> point_measured;
};

// Ping-pong on a 2-rank communicator: a broadcast from rank 0 then one from rank 1 is one round
// trip (on two ranks each is a single transfer); one-way seconds = round trip / 2. Every rank
// calls it; each returns its own timing. Throws std::invalid_argument unless size() == 2 or when
// an option breaks its rule (the message names it). Clears the communicator's records.
std::vector<SweepPoint> measurePingPong(Communicator &communicator, const SweepOptions &options = {});

// Ring all-reduce of each size on every rank (a barrier first, so the ranks start together);
// seconds are this rank's start-to-completion times. Clears the communicator's records.
std::vector<SweepPoint> measureAllReduce(Communicator &communicator, const SweepOptions &options = {});

// Least-squares fits of the alpha-beta link (latency α, bandwidth β) to a sweep, the link model
// the engine's collective times use (parallel::collectiveSeconds):
//   ping-pong:           t = α + S/β
//   ring all-reduce, n:  t = 2(n-1)·α + 2(n-1)/n·S/β   (Patarasuk & Yuan 2009)
// i.e. a straight line t = a + b·V in the bytes V each rank sends per step chain, α = a / steps,
// β = 1 / b, fitted to relative residuals (weights 1/t²) so that the latency-bound small sizes
// count as much as the bandwidth-bound large ones. A negative intercept (noise on a latency far below the smallest time) is reported as
// α = 0. Problems: fewer than two distinct sizes (field "points", rule "distinct_sizes"), a
// non-positive slope (field "points", rule "bandwidth_positive"), ranks < 2 (field "ranks").
Result<parallel::LinkModel> fitPingPong(const std::vector<SweepPoint> &points);
Result<parallel::LinkModel> fitRingAllReduce(const std::vector<SweepPoint> &points, int ranks);

}  // namespace lse::distributed
