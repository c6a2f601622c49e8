// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"
#include "scenario/cluster_config.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lse::parallel {

// The collectives of NCCL / MPI. Message size follows nccl-tests (doc/PERFORMANCE.md): all-reduce,
// broadcast and reduce move a buffer of S bytes; all-gather S is the full output (each rank
// contributes S/n), reduce-scatter S is the full input (each rank keeps S/n); all-to-all S is each
// rank's send buffer (S/n to every rank).
enum class CollectiveOp { AllReduce, ReduceScatter, AllGather, Broadcast, Reduce, AllToAll };

// Ring: the n ranks form a ring and every step each rank sends one of n blocks to its successor
//   (all-reduce = reduce-scatter then all-gather, 2(n-1) steps; Patarasuk & Yuan 2009); broadcast
//   and reduce are a pipelined chain from / to the root with n blocks (n-1 + n-1 steps), all-to-all
//   sends in step k to rank r+k (n-1 steps).
// Tree: recursive halving (reduce-scatter), recursive doubling (all-gather), Rabenseifner's
//   halving + doubling (all-reduce) (Thakur, Rabenseifner & Gropp 2005 §4); a binomial tree rooted
//   at the root (broadcast, reduce: ceil(log2 n) steps with the whole message); pairwise exchange
//   for all-to-all (rank r swaps with r XOR k for a power of two n, otherwise with r+k / r-k: n-1
//   steps). Non-power-of-two n for halving/doubling: the standard pre-step folds the first
//   2(n - 2^floor(log2 n)) ranks pairwise onto 2^floor(log2 n) ranks and a post-step copies the
//   results back (Thakur et al. 2005 §4.4/§4.5).
enum class CollectiveAlgorithm { Ring, Tree };

std::string_view toString(CollectiveOp value);       // "allreduce", "reducescatter", ...
std::string_view toString(CollectiveAlgorithm value);  // "ring", "tree"
std::string_view displayName(CollectiveOp value);    // "all-reduce", "reduce-scatter", ...
std::optional<CollectiveOp> collectiveOpFromString(std::string_view text);  // also accepts "all-reduce", "all_reduce"
std::optional<CollectiveAlgorithm> collectiveAlgorithmFromString(std::string_view text);
std::string collectiveOpChoices();         // "allreduce|reducescatter|..."
std::string collectiveAlgorithmChoices();  // "ring|tree"

// The alpha-beta model: a message of b bytes over one link costs latency + b / bandwidth.
struct LinkModel {
    double bandwidth_bytes_per_second = 0;  // unidirectional, per rank
    double latency_seconds = 0;
};

// One message of one step: from_rank sends data block `chunk` to to_rank.
struct ChunkTransfer {
    int from_rank = 0;
    int to_rank = 0;
    int chunk = 0;       // index of the data block (blocks partition the message)
    int chunk_count = 1; // consecutive blocks sent together (recursive halving/doubling sends a range)
    double bytes = 0;
    bool reduces = false;  // accumulated (summed) into the receiver's block, vs copied
};

struct CollectiveStep {
    std::vector<ChunkTransfer> transfers;
    // latency + (max bytes sent or received by one rank in this step) / bandwidth.
    double seconds = 0;
};

struct CollectiveSimulation {
    CollectiveOp op = CollectiveOp::AllReduce;
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
    int ranks = 1;
    int root = 0;
    double message_bytes = 0;
    int chunks = 1;  // blocks the message is cut into
    std::vector<CollectiveStep> steps;
    double bytes_sent_per_rank = 0;  // max over ranks, summed over steps
    double seconds = 0;              // sum of step times
    // nccl-tests: algbw = S / t, busbw = algbw * busBandwidthFactor(op, n).
    double algorithm_bandwidth_bytes_per_second = 0;
    double bus_bandwidth_bytes_per_second = 0;
    // [rank][element]: the values the simulation really moved and summed, one element per block
    // (element e of the message = block e). Rank r's initial element i = (r + 1) * 1000 + i.
    // For all-to-all, final_values is the receive buffer ordered by source rank. Elements that are
    // not part of the result (see isOutputElement) hold what the algorithm left there.
    std::vector<std::vector<double>> initial_values;
    std::vector<std::vector<double>> final_values;
};

// The alpha-beta link of a cluster: the accelerator's unidirectional intra- or inter-node bandwidth
// times the achievable fraction (ClusterConfig::link_efficiency, nccl-tests bus bandwidth ≈ 80% of
// line rate) and the matching per-step latency; the same link the cost engine's communication uses.
LinkModel clusterLink(const ClusterConfig &cluster, bool inter_node);

// Validates ranks (1..1024, field "ranks"), message_bytes (> 0, "message_bytes"),
// link.bandwidth_bytes_per_second (> 0, "bandwidth"), link.latency_seconds (>= 0, "latency"),
// root (0..ranks-1, "root").
Result<CollectiveSimulation> simulateCollective(CollectiveOp op, CollectiveAlgorithm algorithm, int ranks,
                                                double message_bytes, const LinkModel &link, int root = 0);

// The same with the caller's values: initial_values[rank][block], ranks x collectiveBlockCount()
// (field "initial_values", rule "shape" otherwise). Tests feed random inputs through this.
Result<CollectiveSimulation> simulateCollective(CollectiveOp op, CollectiveAlgorithm algorithm, int ranks,
                                                double message_bytes, const LinkModel &link, int root,
                                                const std::vector<std::vector<double>> &initial_values);
// Blocks the message is cut into (and elements per rank in the simulated buffers).
int collectiveBlockCount(CollectiveOp op, CollectiveAlgorithm algorithm, int ranks);

// nccl-tests doc/PERFORMANCE.md: all-reduce 2(n-1)/n; reduce-scatter, all-gather, all-to-all
// (n-1)/n; broadcast, reduce 1.
double busBandwidthFactor(CollectiveOp op, int ranks);

// Whether element `element` of rank `rank` is part of the collective's result (reduce-scatter: the
// rank's own block; reduce: every element of the root; otherwise all); other elements hold
// whatever partial sums the algorithm left there.
bool isOutputElement(const CollectiveSimulation &simulation, int rank, int element);

// Closed-form alpha-beta time (Thakur, Rabenseifner & Gropp 2005; Patarasuk & Yuan 2009), equal to
// the simulation's seconds. E.g. ring all-reduce 2(n-1)·α + 2(n-1)/n·S/β. Returns 0 for n = 1 and
// NaN for invalid input.
double collectiveSeconds(CollectiveOp op, CollectiveAlgorithm algorithm, int ranks, double message_bytes,
                         const LinkModel &link);

// Number of communication steps of the closed form (ring all-reduce 2(n-1), ...).
int collectiveStepCount(CollectiveOp op, CollectiveAlgorithm algorithm, int ranks);

}  // namespace lse::parallel
