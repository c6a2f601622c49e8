// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/sampler.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace lse::reference {

void SamplerScratch::allocate()
{
    if (!order_.empty())
        return;
    const auto vocab = static_cast<std::size_t>(vocab_);
    probs_.resize(vocab);
    weights_.resize(vocab);
    order_.resize(vocab);
}

Sampler::Sampler(std::uint64_t seed, SamplerScratch &scratch) : rng_(seed), scratch_(&scratch) {}

double Sampler::uniform() { return double(rng_() >> 11) * 0x1.0p-53; }

std::int32_t Sampler::drawInOrder(std::size_t keep, double sum)
{
    const std::vector<double> &probs = scratch_->probs_;
    const std::vector<std::int32_t> &order = scratch_->order_;
    const double u = uniform() * sum;
    double acc = 0;
    for (std::size_t i = 0; i < keep; ++i) {
        acc += probs[i];
        if (u < acc)
            return order[i];
    }
    return order[keep - 1];
}

std::int32_t Sampler::next(const float *logits, const GenerateOptions &options)
{
    const std::int64_t vocabSize = scratch_->vocab_;
    if (options.temperature == 0)
        return std::int32_t(std::max_element(logits, logits + vocabSize) - logits);  // first maximum on ties
    scratch_->allocate();
    std::vector<double> &probs = scratch_->probs_;
    std::vector<double> &weights = scratch_->weights_;
    std::vector<std::int32_t> &order = scratch_->order_;
    const double maxLogit = double(*std::max_element(logits, logits + vocabSize));
    const auto weightOf = [&](std::int32_t id) {
        return std::exp((double(logits[id]) - maxLogit) / options.temperature);
    };
    // Ties are broken by id so the kept set does not depend on the sort's stability.
    auto byLogit = [logits](std::int32_t a, std::int32_t b) {
        return logits[a] > logits[b] || (logits[a] == logits[b] && a < b);
    };
    const auto vocab = std::size_t(vocabSize);
    if (options.top_k > 0 && options.top_k < vocabSize) {
        std::iota(order.begin(), order.end(), 0);
        std::size_t keep = std::size_t(options.top_k);
        std::partial_sort(order.begin(), order.begin() + std::ptrdiff_t(keep), order.end(), byLogit);
        double sum = 0;
        for (std::size_t i = 0; i < keep; ++i) {
            probs[i] = weightOf(order[i]);
            sum += probs[i];
        }
        if (options.top_p < 1) {
            double cumulative = 0;
            std::size_t n = 0;
            while (n < keep) {
                cumulative += probs[n++];
                if (cumulative >= options.top_p * sum)
                    break;
            }
            keep = n;
            sum = cumulative;
        }
        return drawInOrder(keep, sum);
    }
    // Every token's weight, in id order. Without top-k no token needs its rank: the whole
    // vocabulary is drawn from in id order, and a nucleus (top-p) sorts only as much of the
    // vocabulary's head as it needs. A full sort per token was 6% of a decode step at a
    // vocabulary of 10k and would be about 3 ms a token at GPT-2's 50k (issue 35).
    double total = 0;
    for (std::size_t i = 0; i < vocab; ++i) {
        weights[i] = weightOf(std::int32_t(i));
        total += weights[i];
    }
    if (options.top_p >= 1) {
        const double u = uniform() * total;
        double acc = 0;
        for (std::size_t i = 0; i < vocab; ++i) {
            acc += weights[i];
            if (u < acc)
                return std::int32_t(i);
        }
        return std::int32_t(vocab - 1);
    }
    std::iota(order.begin(), order.end(), 0);
    std::size_t head = std::min<std::size_t>(vocab, 64);
    std::size_t keep = 0;
    double cumulative = 0;
    for (;;) {
        std::partial_sort(order.begin(), order.begin() + std::ptrdiff_t(head), order.end(), byLogit);
        keep = 0;
        cumulative = 0;
        bool reached = false;
        while (keep < head && !reached) {
            probs[keep] = weights[std::size_t(order[keep])];
            cumulative += probs[keep++];
            reached = cumulative >= options.top_p * total;
        }
        if (reached || head == vocab)
            break;
        head = std::min(vocab, head * 8);
    }
    return drawInOrder(keep, cumulative);
}

}  // namespace lse::reference
