// SPDX-License-Identifier: GPL-3.0-or-later
// Which slice of each model state every data-parallel rank keeps under ZeRO, and what it sends.
#include "parallel/zero_sharding.h"

#include "cost/estimate.h"
#include "hardware/accelerator.h"

#include <string>

namespace lse::parallel {

namespace {

constexpr int kMaxRanks = 1024;

ShardRange shardOf(int rank, int ranks, bool sharded)
{
    if (!sharded)
        return ShardRange{0.0, 1.0};
    // ZeRO §5.1: the flattened states are split into N equal contiguous partitions.
    return ShardRange{double(rank) / ranks, double(rank + 1) / ranks};
}

}  // namespace

Result<ZeroLayout> zeroLayout(double parameters, const TrainingConfig &training, int dp, int stage)
{
    Problems problems;
    if (!(parameters > 0) || parameters > 1e15)
        problems.push_back({"parameters", "positive", "parameters must be a positive count up to 1e15"});
    if (dp < 1 || dp > kMaxRanks)
        problems.push_back({"dp", "range", "dp must be between 1 and " + std::to_string(kMaxRanks) + ", got " +
                                               std::to_string(dp)});
    if (stage < 0 || stage > 3)
        problems.push_back({"stage", "range", "the ZeRO stage must be 0, 1, 2 or 3, got " + std::to_string(stage)});
    if (!problems.empty())
        return problems;

    TrainingConfig staged = training;
    staged.parallel.zero_stage = stage;
    // The same per-rank bytes as the cost engine (core/cost/memory.cpp).
    const ModelStateBytes bytes =
        modelStateBytes(parameters, staged, dp, optimizerStateBytesPerParameter(training.optimizer));

    ZeroLayout layout;
    layout.stage = stage;
    layout.ranks = dp;
    layout.parameters = parameters;
    for (int rank = 0; rank < dp; ++rank) {
        RankHoldings holding;
        holding.rank = rank;
        holding.optimizer_states = shardOf(rank, dp, stage >= 1);
        holding.gradients = shardOf(rank, dp, stage >= 2);
        holding.parameters = shardOf(rank, dp, stage >= 3);
        holding.parameter_bytes = bytes.params;
        holding.gradient_bytes = bytes.grads;
        holding.optimizer_bytes = bytes.optimizer;
        holding.total_bytes = bytes.total();
        layout.holdings.push_back(holding);
    }

    if (dp > 1) {
        const double n = dp;
        const double gradient_bytes = parameters * bytesPerElement(training.precision.gradient_dtype);
        const double parameter_bytes = parameters * bytesPerElement(training.precision.weight_dtype);
        // Ring volumes per rank (Patarasuk & Yuan 2009): all-reduce 2(N-1)/N of the buffer,
        // reduce-scatter and all-gather (N-1)/N of the full buffer.
        const double share = (n - 1.0) / n;
        auto add = [&layout](std::string collective, std::string when, double bytes_per_rank, double volume) {
            layout.communication.push_back(ZeroCommunication{std::move(collective), std::move(when), bytes_per_rank, volume});
        };
        if (stage == 0) {
            // ZeRO §7.1: plain data parallelism all-reduces the gradients, 2Ψ.
            add("all-reduce", "gradients after backward", 2.0 * share * gradient_bytes, 2.0);
        } else if (stage <= 2) {
            // ZeRO §7.2.1: reduce-scatter of the gradients (each rank needs only the gradients of
            // its optimizer shard), then an all-gather of the updated parameters: 2Ψ, as DP.
            add("reduce-scatter", "gradients after backward", share * gradient_bytes, 1.0);
            add("all-gather", "updated parameters after the optimizer step", share * parameter_bytes, 1.0);
        } else {
            // ZeRO §7.2.2: parameters are all-gathered before each layer's forward and again before
            // its backward, and the gradients reduce-scattered after it: 3Ψ, 1.5x DP.
            add("all-gather", "parameters before forward (per layer)", share * parameter_bytes, 1.0);
            add("all-gather", "parameters before backward (per layer)", share * parameter_bytes, 1.0);
            add("reduce-scatter", "gradients after backward (per layer)", share * gradient_bytes, 1.0);
        }
        for (const ZeroCommunication &c : layout.communication) {
            layout.communication_bytes_per_step += c.bytes_per_rank;
            layout.communication_volume_in_psi += c.volume_in_psi;
        }
    }
    return layout;
}

}  // namespace lse::parallel
