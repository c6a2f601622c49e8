// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"
#include "scenario/training_config.h"

#include <string>
#include <vector>

namespace lse::parallel {

// ZeRO (Rajbhandari et al. 2020) partitions the model states over the N data-parallel ranks:
// stage 1 the optimizer states (P_os), stage 2 also the gradients (P_os+g), stage 3 also the
// parameters (P_os+g+p). Stage 0 = plain data parallelism (everything replicated).
enum class ModelState { Parameters, Gradients, OptimizerStates };

// A slice of the flattened parameter vector, [begin, end) as fractions of its length.
struct ShardRange {
    double begin_fraction = 0;
    double end_fraction = 1;
    double fraction() const { return end_fraction - begin_fraction; }
};

struct RankHoldings {
    int rank = 0;
    // Full range [0, 1) when the state is replicated on this rank.
    ShardRange parameters, gradients, optimizer_states;
    double parameter_bytes = 0;
    double gradient_bytes = 0;
    double optimizer_bytes = 0;  // fp32 master copy (if any) + optimizer moments
    double total_bytes = 0;
};

struct ZeroCommunication {
    std::string collective;  // "all-reduce", "reduce-scatter", "all-gather"
    std::string when;        // "after backward", "before forward (per layer)", ...
    // Bytes each rank sends for this collective in one step, with the ring algorithm
    // (all-reduce 2(N-1)/N·Ψ·b, reduce-scatter and all-gather (N-1)/N·Ψ·b).
    double bytes_per_rank = 0;
    // The same volume as a multiple of Ψ times the element size, as ZeRO §7 counts it (1 for an
    // all-gather or reduce-scatter of Ψ elements, 2 for an all-reduce), ignoring (N-1)/N.
    double volume_in_psi = 0;
};

struct ZeroLayout {
    int stage = 0;
    int ranks = 1;
    double parameters = 0;  // Ψ
    std::vector<RankHoldings> holdings;  // one per rank
    std::vector<ZeroCommunication> communication;
    // Per rank per step, sum of bytes_per_rank.
    double communication_bytes_per_step = 0;
    // ZeRO §7: 2Ψ for DP and ZeRO-1/2, 3Ψ for ZeRO-3 (in units of Ψ elements of the gradient dtype).
    double communication_volume_in_psi = 0;
};

// Bytes per rank equal modelStateBytes() (core/cost/estimate.h) with zero_group_size = dp and the
// optimizer's optimizerStateBytesPerParameter(); training.parallel.zero_stage is ignored in favour
// of `stage`. Validates parameters > 0 ("parameters"), dp 1..1024 ("dp"), stage 0..3 ("stage").
// Adafactor's factored state depends on tensor shapes and counts 0 here as in modelStateBytes.
Result<ZeroLayout> zeroLayout(double parameters, const TrainingConfig &training, int dp, int stage);

}  // namespace lse::parallel
