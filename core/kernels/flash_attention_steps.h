// SPDX-License-Identifier: GPL-3.0-or-later
// The forward pass of one attention head as a sequence of steps an animation can play: which tiles
// of Q, K, V and O sit in SRAM, which block (i, j) of the score matrix is computed or skipped under a
// causal mask, and the cumulative HBM bytes and FLOPs, for standard attention (Dao et al. 2022
// Algorithm 0), FlashAttention (Algorithm 1: outer loop over K/V blocks) and FlashAttention-2's loop
// order (Dao 2023 Algorithm 1: outer loop over Q blocks).
//
// The steps are generated block by block, independently of the closed forms in
// flash_attention_io.h; the tests check that the counters equal those closed forms at every step.
// With `with_values` the steps also carry the running row statistics m and ℓ of a small random
// example, so the online-softmax rescaling (Milakov & Gimelshein 2018, "Online normalizer
// calculation for softmax") can be shown with numbers.
#pragma once

#include "common/problem.h"
#include "kernels/flash_attention_io.h"

#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

namespace lse::kernels {

enum class AttentionAlgorithm { Standard, Flash, Flash2 };
std::string_view toString(AttentionAlgorithm algorithm);

enum class AttentionStepKind {
    // Standard attention (Algorithm 0 lines 1-3), one step each.
    ComputeScores,   // read Q, K; write S = QKᵀ
    ComputeSoftmax,  // read S; write P = softmax(S)
    ComputeOutput,   // read P, V; write O = PV
    // FlashAttention (Algorithm 1).
    Initialise,         // line 2: O = 0, ℓ = 0, m = −∞ written to HBM
    LoadKeyValueBlock,  // line 6: K_j, V_j into SRAM for the inner loop over Q blocks
    // FlashAttention lines 8-13: load Q_i, O_i, ℓ_i, m_i, compute block (i, j), write O_i, ℓ_i, m_i.
    // FlashAttention-2 lines 7-10: load K_j, V_j, compute block (i, j) on the Q block held on chip.
    ComputeBlock,
    SkipBlock,          // causal: block (i, j) wholly above the diagonal, not loaded or computed
    // FlashAttention-2 (Dao 2023 Algorithm 1).
    LoadQueryBlock,  // line 4: Q_i into SRAM; O_i, ℓ_i, m_i start on chip
    WriteOutputBlock,  // lines 12-15: O_i ← diag(ℓ_i)⁻¹O_i, L_i = m_i + log ℓ_i, written to HBM
};
std::string_view toString(AttentionStepKind kind);

// One row of a Q block in the small numeric example: the running statistics before and after the
// step (Algorithm 1 line 11: m_new = max(m, m̃), ℓ_new = e^{m−m_new}ℓ + e^{m̃−m_new}ℓ̃). The
// factor e^{m_before − m_after} is how much the output accumulated so far is scaled down.
struct RowStatistics {
    std::int64_t row = 0;
    double m_before = 0;  // −∞ (−infinity) before the row's first block
    double m_after = 0;
    double l_before = 0;
    double l_after = 0;
    // e^{m_before − m_after}: the factor the output accumulated so far is multiplied by (Algorithm 1
    // line 12); 0 before the row's first block, where there is no output yet to scale.
    double outputScale() const { return std::isfinite(m_before) ? std::exp(m_before - m_after) : 0.0; }
};

struct AttentionStep {
    AttentionStepKind kind = AttentionStepKind::Initialise;
    std::int64_t row_block = -1;     // i (0-based) or -1
    std::int64_t column_block = -1;  // j (0-based) or -1
    // Tiles resident in SRAM after the step (−1: none): the Q/O block and the K/V block.
    std::int64_t sram_query_block = -1;
    std::int64_t sram_key_value_block = -1;
    std::int64_t sram_bytes_in_use = 0;  // tiles + the B_r×B_c score block while it is computed
    IoCounts step;        // this step's HBM bytes and FLOPs
    IoCounts cumulative;  // everything so far, this step included
    std::vector<RowStatistics> rows;  // with_values only, for the rows the step updates
};

struct AttentionStepOptions {
    AttentionAlgorithm algorithm = AttentionAlgorithm::Flash;
    bool with_values = false;  // run a random example (seeded) and record m and ℓ per row
    std::uint32_t seed = 1;
};

// Bounds: an animation of more steps is no use to a person and would only use memory; the example's
// values are computed for small sequences only.
inline constexpr std::int64_t kMaxAttentionSteps = 100'000;
inline constexpr std::int64_t kMaxExampleSequenceLength = 1024;
inline constexpr std::int64_t kMaxExampleHeadDim = 256;

struct AttentionSteps {
    AttentionConfig config;
    AttentionAlgorithm algorithm = AttentionAlgorithm::Flash;
    AttentionBlocks blocks;
    std::vector<AttentionStep> steps;
    // with_values: the largest |O_tiled − softmax(QKᵀ)V| over the output, the online softmax's
    // round-off (it is exact in exact arithmetic).
    double example_max_abs_error = 0;
};

// The number of steps `algorithm` takes for `config`, without generating them.
std::int64_t attentionStepCount(const AttentionConfig &config, AttentionAlgorithm algorithm);

// Problems: the config's (validateAttentionConfig); "sequence_length" {rule "steps"} when the
// animation would exceed kMaxAttentionSteps; "sequence_length"/"head_dim" {rule "example"} when
// with_values and the example is larger than kMaxExample*.
Result<AttentionSteps> attentionSteps(const AttentionConfig &config, const AttentionStepOptions &options);

}  // namespace lse::kernels
