// SPDX-License-Identifier: GPL-3.0-or-later
// Drawing the next token from a step's logits: greedy, or temperature scaling, top-k (keep the k
// largest logits), top-p (keep the smallest set of most probable tokens whose probability reaches
// p), renormalise, draw.
//
// The kept tokens are drawn from in rank order (largest logit first, ties by id) when top-k or
// top-p chose them, and in id order when every token is kept: the distribution is the same, and
// no sort of the vocabulary is needed (issue 35: a full sort per token was 6% of a decode step at
// a vocabulary of 10k). A nucleus without top-k sorts only as much of the vocabulary's head as it
// needs, growing 64, 512, 4096, ... tokens. Uniform numbers are the top 53 bits of
// std::mt19937_64, because std::uniform_real_distribution is not specified bit for bit across
// standard libraries and the same seed should give the same text everywhere.
#pragma once

#include "reference/trainer.h"

#include <cstdint>
#include <random>
#include <vector>

namespace lse::reference {

// One sequence's sampler: its own generator and scratch, allocated once.
class Sampler {
public:
    Sampler(std::int64_t vocab, std::uint64_t seed);

    // The next token from `vocab` logits under the options' temperature, top_k and top_p (which
    // checkOptions in generate() has validated).
    std::int32_t next(const float *logits, const GenerateOptions &options);

private:
    double uniform();
    // A draw among the first `keep` tokens of order_, weighted by probs_ (summing to `sum`).
    std::int32_t drawInOrder(std::size_t keep, double sum);

    std::mt19937_64 rng_;
    std::vector<double> probs_;    // weights of order_'s tokens, by rank
    std::vector<double> weights_;  // weights of all tokens, by id
    std::vector<std::int32_t> order_;
    std::int64_t vocab_;
};

}  // namespace lse::reference
