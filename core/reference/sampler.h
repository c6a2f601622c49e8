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

// Working memory of sampling: three arrays the size of the vocabulary, allocated on the first draw
// that is not greedy. The samplers of one generation draw one after another and share one: at a
// batch of 64 and GPT-2's vocabulary, one each would be 64 MB.
class SamplerScratch {
public:
    explicit SamplerScratch(std::int64_t vocab) : vocab_(vocab) {}
    std::int64_t vocab() const { return vocab_; }

private:
    friend class Sampler;
    void allocate();
    std::int64_t vocab_;
    std::vector<double> probs_;    // weights of order_'s tokens, by rank
    std::vector<double> weights_;  // weights of all tokens, by id
    std::vector<std::int32_t> order_;
};

// One sequence's sampler: its own generator, and the scratch it shares with the sequences drawn
// beside it (which must outlive it).
class Sampler {
public:
    Sampler(std::uint64_t seed, SamplerScratch &scratch);

    // The next token from the scratch's `vocab` logits under the options' temperature, top_k and
    // top_p (which checkOptions in generate() has validated).
    std::int32_t next(const float *logits, const GenerateOptions &options);

private:
    double uniform();
    // A draw among the first `keep` tokens of the scratch's order, weighted by its probs (summing
    // to `sum`).
    std::int32_t drawInOrder(std::size_t keep, double sum);

    std::mt19937_64 rng_;
    SamplerScratch *scratch_;
};

}  // namespace lse::reference
