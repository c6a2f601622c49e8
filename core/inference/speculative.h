// SPDX-License-Identifier: GPL-3.0-or-later
// Speculative decoding (Leviathan, Kalman & Matias 2023, "Fast Inference from Transformers via
// Speculative Decoding", ICML): a draft model proposes γ tokens, the target model checks them in
// one step and keeps each with probability α (i.i.d. acceptance, their §3.1).
#pragma once

namespace lse::inference {

// Expected tokens one target step produces, their eq. (1): (1 − α^(γ+1)) / (1 − α); γ + 1 at α = 1.
double expectedTokensPerTargetStep(double acceptance, int draft_tokens);

// Expected walltime improvement, their Theorem 3.8: (1 − α^(γ+1)) / ((1 − α)(γc + 1)), with c the
// draft's step time over the target's. It assumes the target checks γ + 1 tokens in the time of
// one step (a memory-bound decode step; their §3.4).
double speculativeSpeedup(double acceptance, int draft_tokens, double cost_coefficient);

}  // namespace lse::inference
