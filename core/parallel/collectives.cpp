// SPDX-License-Identifier: GPL-3.0-or-later
// Step-by-step simulation of ring and tree collectives on real values, and their alpha-beta cost.
#include "parallel/collectives.h"
#include "scenario/cluster_links.h"

#include "common/enum_names.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace lse::parallel {

namespace {

constexpr EnumName<CollectiveOp> kOpNames[] = {
    {CollectiveOp::AllReduce, "allreduce"}, {CollectiveOp::ReduceScatter, "reducescatter"},
    {CollectiveOp::AllGather, "allgather"}, {CollectiveOp::Broadcast, "broadcast"},
    {CollectiveOp::Reduce, "reduce"},       {CollectiveOp::AllToAll, "alltoall"},
};
constexpr EnumName<CollectiveOp> kOpDisplayNames[] = {
    {CollectiveOp::AllReduce, "all-reduce"}, {CollectiveOp::ReduceScatter, "reduce-scatter"},
    {CollectiveOp::AllGather, "all-gather"}, {CollectiveOp::Broadcast, "broadcast"},
    {CollectiveOp::Reduce, "reduce"},        {CollectiveOp::AllToAll, "all-to-all"},
};
constexpr EnumName<CollectiveAlgorithm> kAlgorithmNames[] = {
    {CollectiveAlgorithm::Ring, "ring"},
    {CollectiveAlgorithm::Tree, "tree"},
};

constexpr int kMaxRanks = 1024;

bool isPowerOfTwo(int n) { return n > 0 && (n & (n - 1)) == 0; }

// Largest power of two <= n.
int powerOfTwoFloor(int n)
{
    int p = 1;
    while (p * 2 <= n)
        p *= 2;
    return p;
}

int log2Exact(int power_of_two)
{
    int k = 0;
    while ((1 << k) < power_of_two)
        ++k;
    return k;
}

int log2Ceil(int n) { return log2Exact(n <= 1 ? 1 : (isPowerOfTwo(n) ? n : powerOfTwoFloor(n) * 2)); }

int mod(int a, int n) { return ((a % n) + n) % n; }

// Blocks the message is cut into. Thakur et al. 2005 use p' = 2^floor(log2 n) blocks for
// Rabenseifner's all-reduce on a non-power-of-two n (the folded ranks get the whole result back).
int blockCount(CollectiveOp op, CollectiveAlgorithm algorithm, int ranks)
{
    if (op == CollectiveOp::AllReduce && algorithm == CollectiveAlgorithm::Tree)
        return powerOfTwoFloor(ranks);
    return ranks;
}

// The non-power-of-two fold of Thakur et al. 2005 §4.4: with r = n - p', ranks 2i and 2i+1
// (i < r) form a pair whose odd member takes part in the power-of-two phase as virtual rank i;
// rank j >= 2r is virtual rank j - r.
struct Fold {
    int ranks = 1;
    int virtual_ranks = 1;  // p'
    int folded_pairs = 0;   // r
    int realRank(int virtual_rank) const
    {
        return virtual_rank < folded_pairs ? 2 * virtual_rank + 1 : virtual_rank + folded_pairs;
    }
};

Fold foldFor(int ranks)
{
    Fold fold;
    fold.ranks = ranks;
    fold.virtual_ranks = powerOfTwoFloor(ranks);
    fold.folded_pairs = ranks - fold.virtual_ranks;
    return fold;
}

// Builds the step list and moves the values as it goes.
class Simulator {
public:
    Simulator(CollectiveSimulation &sim, const LinkModel &link) : sim_(sim), link_(link)
    {
        block_bytes_ = sim.message_bytes / sim.chunks;
        sent_total_.assign(std::size_t(sim.ranks), 0.0);
    }

    // Transfers of blocks [first, first + count) (one message).
    void send(int from, int to, int first, int count, bool reduces)
    {
        if (count <= 0)
            return;
        pending_.push_back(ChunkTransfer{from, to, first, count, block_bytes_ * count, reduces});
    }

    // Applies every pending transfer at once, as on a real network where all ranks send
    // simultaneously.
    void finishStep(bool all_to_all = false)
    {
        if (pending_.empty())
            return;
        std::vector<std::vector<double>> &values = sim_.final_values;
        // All reads see the buffers as they were before the step: gather first, then write.
        std::vector<double> payload;
        for (const ChunkTransfer &t : pending_)
            for (int b = t.chunk; b < t.chunk + t.chunk_count; ++b)
                // All-to-all sends from the untouched send buffer (the initial values).
                payload.push_back(all_to_all ? sim_.initial_values[std::size_t(t.from_rank)][std::size_t(b)]
                                             : values[std::size_t(t.from_rank)][std::size_t(b)]);
        std::vector<double> sent(std::size_t(sim_.ranks), 0.0), received(std::size_t(sim_.ranks), 0.0);
        std::size_t next = 0;
        for (const ChunkTransfer &t : pending_) {
            for (int b = t.chunk; b < t.chunk + t.chunk_count; ++b) {
                // All-to-all: block b of the sender is destined for rank b and lands in the
                // receiver's slot from_rank (receive buffer ordered by source).
                const int target = all_to_all ? t.from_rank : b;
                double &slot = values[std::size_t(t.to_rank)][std::size_t(target)];
                const double value = payload[next++];
                slot = t.reduces ? slot + value : value;
            }
            sent[std::size_t(t.from_rank)] += t.bytes;
            received[std::size_t(t.to_rank)] += t.bytes;
        }
        double busiest = 0;
        for (int r = 0; r < sim_.ranks; ++r) {
            busiest = std::max({busiest, sent[std::size_t(r)], received[std::size_t(r)]});
            sent_total_[std::size_t(r)] += sent[std::size_t(r)];
        }
        CollectiveStep step;
        step.transfers = std::move(pending_);
        pending_.clear();
        // Alpha-beta per step (Thakur et al. 2005 §2): every rank's link works in parallel, the
        // step ends when the busiest rank has moved its bytes.
        step.seconds = link_.latency_seconds + busiest / link_.bandwidth_bytes_per_second;
        sim_.steps.push_back(std::move(step));
    }

    double maxSentBytes() const
    {
        return sent_total_.empty() ? 0.0 : *std::max_element(sent_total_.begin(), sent_total_.end());
    }

private:
    CollectiveSimulation &sim_;
    LinkModel link_;
    double block_bytes_ = 0;
    std::vector<ChunkTransfer> pending_;
    std::vector<double> sent_total_;
};

// --- Ring (Patarasuk & Yuan 2009) -----------------------------------------------------------

// Step t: rank r sends block (r - t - 1) to r + 1, which adds it; after n - 1 steps rank r holds
// the complete sum of block r.
void ringReduceScatter(Simulator &s, int n)
{
    for (int t = 0; t < n - 1; ++t) {
        for (int r = 0; r < n; ++r)
            s.send(r, mod(r + 1, n), mod(r - t - 1, n), 1, true);
        s.finishStep();
    }
}

// Step t: rank r forwards block (r - t) (its own block first) to r + 1.
void ringAllGather(Simulator &s, int n)
{
    for (int t = 0; t < n - 1; ++t) {
        for (int r = 0; r < n; ++r)
            s.send(r, mod(r + 1, n), mod(r - t, n), 1, false);
        s.finishStep();
    }
}

// A pipelined chain root -> root+1 -> ... (broadcast) or ... -> root-1... reversed (reduce): in
// step t the link at chain position q carries block t - q, so n blocks cross n - 1 links in
// 2n - 2 steps.
void ringChain(Simulator &s, int n, int root, bool reduce)
{
    const int blocks = n;
    for (int t = 0; t < n - 1 + blocks - 1; ++t) {
        for (int q = 0; q < n - 1; ++q) {
            const int block = t - q;
            if (block < 0 || block >= blocks)
                continue;
            if (reduce)  // chain position q is rank root + 1 + q, flowing towards the root
                s.send(mod(root + n - 1 - q, n), mod(root + n - 2 - q, n), block, 1, true);
            else
                s.send(mod(root + q, n), mod(root + q + 1, n), block, 1, false);
        }
        s.finishStep();
    }
}

// All-to-all as n - 1 shifted exchanges: in step k rank r sends the block destined for r + k.
void shiftedAllToAll(Simulator &s, int n)
{
    for (int k = 1; k < n; ++k) {
        for (int r = 0; r < n; ++r)
            s.send(r, mod(r + k, n), mod(r + k, n), 1, false);
        s.finishStep(true);
    }
}

// --- Tree family (Thakur, Rabenseifner & Gropp 2005) -----------------------------------------

// Virtual rank v of the power-of-two phase owns blocks [firstBlock(v), firstBlock(v + 1)).
struct BlockOwnership {
    Fold fold;
    bool pairs_own_two = false;  // reduce-scatter / all-gather on n blocks: a pair owns two blocks
    int firstBlock(int v) const
    {
        if (!pairs_own_two)
            return v;
        return v <= fold.folded_pairs ? 2 * v : v + fold.folded_pairs;
    }
};

// Recursive halving (§4.3): at distance d = p'/2 .. 1 each virtual rank sends the half of its
// current block range that its partner v XOR d keeps, and the partner adds it.
void recursiveHalving(Simulator &s, const BlockOwnership &own)
{
    const int p = own.fold.virtual_ranks;
    for (int d = p / 2; d >= 1; d /= 2) {
        for (int v = 0; v < p; ++v) {
            const int partner = v ^ d;
            const int half = partner & ~(d - 1);  // first virtual rank of the half the partner keeps
            const int first = own.firstBlock(half);
            s.send(own.fold.realRank(v), own.fold.realRank(partner), first, own.firstBlock(half + d) - first, true);
        }
        s.finishStep();
    }
}

// Recursive doubling (§4.2): at distance d = 1 .. p'/2 each virtual rank sends everything it has
// (its aligned group of d virtual ranks) to v XOR d.
void recursiveDoubling(Simulator &s, const BlockOwnership &own)
{
    const int p = own.fold.virtual_ranks;
    for (int d = 1; d < p; d *= 2) {
        for (int v = 0; v < p; ++v) {
            const int group = v & ~(d - 1);
            const int first = own.firstBlock(group);
            s.send(own.fold.realRank(v), own.fold.realRank(v ^ d), first, own.firstBlock(group + d) - first, false);
        }
        s.finishStep();
    }
}

// Pre-step of the non-power-of-two fold: rank 2i hands blocks to rank 2i + 1.
void foldIn(Simulator &s, const Fold &fold, int blocks, bool own_block_only)
{
    for (int i = 0; i < fold.folded_pairs; ++i) {
        if (own_block_only)
            s.send(2 * i, 2 * i + 1, 2 * i, 1, false);
        else
            s.send(2 * i, 2 * i + 1, 0, blocks, true);
    }
    s.finishStep();
}

void treeReduceScatter(Simulator &s, int n)
{
    BlockOwnership own{foldFor(n), true};
    if (own.fold.folded_pairs > 0)
        foldIn(s, own.fold, n, false);
    recursiveHalving(s, own);
    // Post-step: the odd member returns the even member's finished block.
    for (int i = 0; i < own.fold.folded_pairs; ++i)
        s.send(2 * i + 1, 2 * i, 2 * i, 1, false);
    s.finishStep();
}

void treeAllGather(Simulator &s, int n)
{
    BlockOwnership own{foldFor(n), true};
    if (own.fold.folded_pairs > 0)
        foldIn(s, own.fold, n, true);
    recursiveDoubling(s, own);
    // Post-step: the odd member sends the even member every block but its own.
    for (int i = 0; i < own.fold.folded_pairs; ++i) {
        s.send(2 * i + 1, 2 * i, 0, 2 * i, false);
        s.send(2 * i + 1, 2 * i, 2 * i + 1, n - 2 * i - 1, false);
    }
    s.finishStep();
}

// Rabenseifner's all-reduce (§4.5): reduce-scatter by recursive halving, then all-gather by
// recursive doubling, on p' equal blocks.
void treeAllReduce(Simulator &s, int n, int blocks)
{
    BlockOwnership own{foldFor(n), false};
    if (own.fold.folded_pairs > 0)
        foldIn(s, own.fold, blocks, false);
    recursiveHalving(s, own);
    recursiveDoubling(s, own);
    for (int i = 0; i < own.fold.folded_pairs; ++i)
        s.send(2 * i + 1, 2 * i, 0, blocks, false);
    s.finishStep();
}

// Binomial tree on ranks relative to the root: in step k the ranks v < 2^k that have the data
// send it to v + 2^k (broadcast); reduce runs the same tree backwards.
void binomialTree(Simulator &s, int n, int root, int blocks, bool reduce)
{
    const int depth = log2Ceil(n);
    for (int step = 0; step < depth; ++step) {
        const int k = reduce ? depth - 1 - step : step;
        const int distance = 1 << k;
        for (int v = 0; v < distance; ++v) {
            if (v + distance >= n)
                continue;
            if (reduce)
                s.send(mod(v + distance + root, n), mod(v + root, n), 0, blocks, true);
            else
                s.send(mod(v + root, n), mod(v + distance + root, n), 0, blocks, false);
        }
        s.finishStep();
    }
}

// Pairwise exchange: with a power-of-two n rank r swaps blocks with r XOR k in step k; otherwise
// it sends to r + k and receives from r - k (Thakur et al. 2005 §3, all-to-all).
void pairwiseAllToAll(Simulator &s, int n)
{
    if (!isPowerOfTwo(n)) {
        shiftedAllToAll(s, n);
        return;
    }
    for (int k = 1; k < n; ++k) {
        for (int r = 0; r < n; ++r)
            s.send(r, r ^ k, r ^ k, 1, false);
        s.finishStep(true);
    }
}

Problems validate(int ranks, double message_bytes, const LinkModel &link, int root)
{
    Problems problems;
    if (ranks < 1 || ranks > kMaxRanks)
        problems.push_back({"ranks", "range",
                            "ranks must be between 1 and " + std::to_string(kMaxRanks) + ", got " + std::to_string(ranks)});
    // At least one byte: 1e-30 bytes simulated as "0.000 B". Fractions above it stay, for the
    // smooth time-versus-size curves that sample sizes between whole numbers.
    if (!(message_bytes >= 1) || !std::isfinite(message_bytes) || message_bytes > 1e18)
        problems.push_back({"message_bytes", "positive", "message_bytes must be from 1 byte to 1e18 bytes"});
    if (!(link.bandwidth_bytes_per_second > 0) || !std::isfinite(link.bandwidth_bytes_per_second))
        problems.push_back({"bandwidth", "positive", "the link bandwidth must be a positive number of bytes per second"});
    if (!(link.latency_seconds >= 0) || !std::isfinite(link.latency_seconds))
        problems.push_back({"latency", "non_negative", "the link latency must be zero or a positive number of seconds"});
    if (ranks >= 1 && (root < 0 || root >= ranks))
        problems.push_back({"root", "range", "root must be a rank between 0 and " + std::to_string(ranks - 1) +
                                                 ", got " + std::to_string(root)});
    return problems;
}

}  // namespace

std::string_view toString(CollectiveOp value) { return enumToString(kOpNames, value); }
std::string_view toString(CollectiveAlgorithm value) { return enumToString(kAlgorithmNames, value); }
std::string_view displayName(CollectiveOp value) { return enumToString(kOpDisplayNames, value); }

std::optional<CollectiveOp> collectiveOpFromString(std::string_view text)
{
    std::string compact;
    for (char c : text)
        if (c != '-' && c != '_')
            compact += c;
    return enumFromString(kOpNames, compact);
}

std::optional<CollectiveAlgorithm> collectiveAlgorithmFromString(std::string_view text)
{
    return enumFromString(kAlgorithmNames, text);
}

std::string collectiveOpChoices() { return enumChoices(kOpNames); }
std::string collectiveAlgorithmChoices() { return enumChoices(kAlgorithmNames); }

double busBandwidthFactor(CollectiveOp op, int ranks)
{
    const double n = double(std::max(1, ranks));
    switch (op) {
    case CollectiveOp::AllReduce:
        return 2.0 * (n - 1.0) / n;
    case CollectiveOp::ReduceScatter:
    case CollectiveOp::AllGather:
    case CollectiveOp::AllToAll:
        return (n - 1.0) / n;
    case CollectiveOp::Broadcast:
    case CollectiveOp::Reduce:
        return 1.0;
    }
    return 1.0;
}

int collectiveStepCount(CollectiveOp op, CollectiveAlgorithm algorithm, int ranks)
{
    const int n = ranks;
    if (n <= 1)
        return 0;
    const int log_p = log2Exact(powerOfTwoFloor(n));
    const int fold_steps = isPowerOfTwo(n) ? 0 : 2;  // pre-step and post-step
    if (algorithm == CollectiveAlgorithm::Ring) {
        switch (op) {
        case CollectiveOp::AllReduce:
        case CollectiveOp::Broadcast:
        case CollectiveOp::Reduce:
            return 2 * (n - 1);
        default:
            return n - 1;
        }
    }
    switch (op) {
    case CollectiveOp::AllReduce:
        return 2 * log_p + fold_steps;
    case CollectiveOp::ReduceScatter:
    case CollectiveOp::AllGather:
        return log_p + fold_steps;
    case CollectiveOp::Broadcast:
    case CollectiveOp::Reduce:
        return log2Ceil(n);
    case CollectiveOp::AllToAll:
        return n - 1;
    }
    return 0;
}

double collectiveSeconds(CollectiveOp op, CollectiveAlgorithm algorithm, int ranks, double message_bytes,
                         const LinkModel &link)
{
    if (!validate(ranks, message_bytes, link, 0).empty())
        return std::numeric_limits<double>::quiet_NaN();
    const double n = ranks;
    if (ranks == 1)
        return 0;
    const double alpha = link.latency_seconds;
    const double beta_inverse = 1.0 / link.bandwidth_bytes_per_second;  // seconds per byte
    const double S = message_bytes;
    const double steps = collectiveStepCount(op, algorithm, ranks);
    if (algorithm == CollectiveAlgorithm::Ring || op == CollectiveOp::AllToAll)
        return steps * (alpha + S / n * beta_inverse);  // every step moves one block S/n per rank
    if (op == CollectiveOp::Broadcast || op == CollectiveOp::Reduce)
        return steps * (alpha + S * beta_inverse);  // binomial tree: log2 n steps with the whole message
    const Fold fold = foldFor(ranks);
    const double p = fold.virtual_ranks;
    const double r = fold.folded_pairs;
    if (op == CollectiveOp::AllReduce) {
        // Thakur et al. 2005 §4.5: 2 lg p·α + 2 (p-1)/p·S·β, plus one full message in and out
        // when n is not a power of two.
        const double fold_cost = r > 0 ? 2.0 * (alpha + S * beta_inverse) : 0.0;
        return 2.0 * log2Exact(fold.virtual_ranks) * alpha + 2.0 * (p - 1.0) / p * S * beta_inverse + fold_cost;
    }
    // Reduce-scatter / all-gather on n blocks of S/n: at distance d a rank moves the blocks of d
    // virtual ranks, of which min(d, r) own two blocks (a folded pair).
    double blocks = 0;
    for (int d = 1; d < fold.virtual_ranks; d *= 2)
        blocks += d + std::min(double(d), r);
    double seconds = log2Exact(fold.virtual_ranks) * alpha + blocks * S / n * beta_inverse;
    if (r > 0) {
        if (op == CollectiveOp::ReduceScatter)  // whole buffer in, own block back
            seconds += (alpha + S * beta_inverse) + (alpha + S / n * beta_inverse);
        else  // own block in, the other n-1 blocks back
            seconds += (alpha + S / n * beta_inverse) + (alpha + (n - 1.0) / n * S * beta_inverse);
    }
    return seconds;
}

LinkModel clusterLink(const ClusterConfig &cluster, bool inter_node)
{
    LinkModel link;
    link.bandwidth_bytes_per_second = linkBytesPerSecondPerGpu(cluster, inter_node) * cluster.link_efficiency;
    link.latency_seconds = inter_node ? cluster.inter_node_latency_seconds : cluster.intra_node_latency_seconds;
    return link;
}

int collectiveBlockCount(CollectiveOp op, CollectiveAlgorithm algorithm, int ranks)
{
    return ranks >= 1 ? blockCount(op, algorithm, ranks) : 0;
}

Result<CollectiveSimulation> simulateCollective(CollectiveOp op, CollectiveAlgorithm algorithm, int ranks,
                                                double message_bytes, const LinkModel &link, int root)
{
    if (Problems problems = validate(ranks, message_bytes, link, root); !problems.empty())
        return problems;
    const int chunks = blockCount(op, algorithm, ranks);
    std::vector<std::vector<double>> initial(std::size_t(ranks), std::vector<double>(std::size_t(chunks), 0.0));
    for (int r = 0; r < ranks; ++r)
        for (int i = 0; i < chunks; ++i)
            initial[std::size_t(r)][std::size_t(i)] = (r + 1) * 1000.0 + i;
    return simulateCollective(op, algorithm, ranks, message_bytes, link, root, initial);
}

Result<CollectiveSimulation> simulateCollective(CollectiveOp op, CollectiveAlgorithm algorithm, int ranks,
                                                double message_bytes, const LinkModel &link, int root,
                                                const std::vector<std::vector<double>> &initial_values)
{
    Problems problems = validate(ranks, message_bytes, link, root);
    if (!problems.empty())
        return problems;
    CollectiveSimulation sim;
    sim.op = op;
    sim.algorithm = algorithm;
    sim.ranks = ranks;
    sim.root = root;
    sim.message_bytes = message_bytes;
    sim.chunks = blockCount(op, algorithm, ranks);
    bool shaped = initial_values.size() == std::size_t(ranks);
    for (const std::vector<double> &row : initial_values)
        shaped = shaped && row.size() == std::size_t(sim.chunks);
    if (!shaped)
        return Result<CollectiveSimulation>::failure(
            "initial_values", "shape",
            "initial values must be " + std::to_string(ranks) + " ranks x " + std::to_string(sim.chunks)
                + " blocks (collectiveBlockCount)");
    sim.initial_values = initial_values;
    sim.final_values = sim.initial_values;

    Simulator s(sim, link);
    const bool ring = algorithm == CollectiveAlgorithm::Ring;
    if (ranks > 1) {
        switch (op) {
        case CollectiveOp::AllReduce:
            if (ring) {
                ringReduceScatter(s, ranks);
                ringAllGather(s, ranks);
            } else {
                treeAllReduce(s, ranks, sim.chunks);
            }
            break;
        case CollectiveOp::ReduceScatter:
            ring ? ringReduceScatter(s, ranks) : treeReduceScatter(s, ranks);
            break;
        case CollectiveOp::AllGather:
            ring ? ringAllGather(s, ranks) : treeAllGather(s, ranks);
            break;
        case CollectiveOp::Broadcast:
            ring ? ringChain(s, ranks, root, false) : binomialTree(s, ranks, root, sim.chunks, false);
            break;
        case CollectiveOp::Reduce:
            ring ? ringChain(s, ranks, root, true) : binomialTree(s, ranks, root, sim.chunks, true);
            break;
        case CollectiveOp::AllToAll:
            // The receive buffer starts with the rank's own block in its own slot.
            for (int r = 0; r < ranks; ++r)
                for (int i = 0; i < ranks; ++i)
                    sim.final_values[std::size_t(r)][std::size_t(i)] = i == r ? sim.initial_values[std::size_t(r)][std::size_t(r)] : 0.0;
            ring ? shiftedAllToAll(s, ranks) : pairwiseAllToAll(s, ranks);
            break;
        }
    }
    for (const CollectiveStep &step : sim.steps)
        sim.seconds += step.seconds;
    sim.bytes_sent_per_rank = s.maxSentBytes();
    if (sim.seconds > 0) {
        // nccl-tests doc/PERFORMANCE.md: algbw = S / t, busbw = algbw x the op's factor.
        sim.algorithm_bandwidth_bytes_per_second = message_bytes / sim.seconds;
        sim.bus_bandwidth_bytes_per_second = sim.algorithm_bandwidth_bytes_per_second * busBandwidthFactor(op, ranks);
    }
    return sim;
}

bool isOutputElement(const CollectiveSimulation &simulation, int rank, int element)
{
    switch (simulation.op) {
    case CollectiveOp::ReduceScatter:
        return element == rank;
    case CollectiveOp::Reduce:
        return rank == simulation.root;
    default:
        return true;
    }
}

}  // namespace lse::parallel
