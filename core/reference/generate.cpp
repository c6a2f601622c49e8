// SPDX-License-Identifier: GPL-3.0-or-later
// Sampling a continuation with the model's KV cache (see trainer.h, generate()).
//
// The prompt is fed from position 0, which resets the cache, so every call starts a fresh
// sequence. Generation stops at the stop token (not emitted), after max_new_tokens, or when the
// context is full (the reference model has no sliding window). Sampling order: temperature
// scaling, top-k (keep the k largest logits), top-p (keep the smallest set of most probable tokens
// whose probability reaches p), renormalise, draw. Uniform numbers are taken from the top 53 bits of
// std::mt19937_64 directly, because std::uniform_real_distribution is not specified bit-for-bit
// across standard libraries and the same seed should give the same text everywhere.
#include "reference/trainer.h"

#include "reference/checkpoint_check.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace lse::reference {

Result<std::vector<std::int32_t>> generate(Model &model, const std::vector<std::int32_t> &prompt,
                                          const GenerateOptions &options, const std::function<bool(std::int32_t)> &onToken)
{
    Problems problems;
    const int context = model.context();
    const std::int64_t vocab = model.config().vocab_size;
    if (prompt.empty())
        problems.push_back({"prompt", "required", "prompt: at least one token is needed to start generating."});
    else if (std::int64_t(prompt.size()) > context)
        problems.push_back({"prompt", "range", "prompt: " + std::to_string(prompt.size()) + " tokens exceed the context of " +
                                                   std::to_string(context) + "."});
    if (options.max_new_tokens < 0)
        problems.push_back({"max_new_tokens", "range", "max_new_tokens must not be negative."});
    if (!(options.temperature >= 0) || !std::isfinite(options.temperature))
        problems.push_back({"temperature", "range", "temperature must be a finite number >= 0 (0: greedy)."});
    if (options.top_k < 0)
        problems.push_back({"top_k", "range", "top_k must not be negative (0: off)."});
    if (!(options.top_p > 0 && options.top_p <= 1))
        problems.push_back({"top_p", "range", "top_p must be in (0, 1] (1: off)."});
    for (std::int32_t id : prompt)
        if (id < 0 || id >= vocab) {
            problems.push_back({"prompt", "vocab", "prompt: token id " + std::to_string(id) + " is outside the vocabulary of " +
                                                       std::to_string(vocab) + "."});
            break;
        }
    if (!problems.empty())
        return problems;

    std::mt19937_64 rng(options.seed);
    std::vector<std::int32_t> out;
    std::vector<double> probs(static_cast<std::size_t>(vocab));
    std::vector<std::int32_t> order(static_cast<std::size_t>(vocab));
    const float *logits = nullptr;
    int position = 0;
    for (std::int32_t id : prompt) {
        Result<const float *> r = model.decodeStep(id, position++);
        if (!r)
            return r.problems();
        logits = r.value();
    }
    while (int(out.size()) < options.max_new_tokens) {
        // Sorting NaN logits breaks std::sort's ordering (undefined behaviour); a model with
        // finite weights can still overflow, so every distribution is checked before sampling.
        if (!allFinite(logits, vocab))
            return Result<std::vector<std::int32_t>>::failure(
                "model", "non-finite",
                "model: the logits at position " + std::to_string(position) + " are NaN or infinite; the model's weights overflow.");
        std::int32_t next = 0;
        if (options.temperature == 0) {
            next = std::int32_t(std::max_element(logits, logits + vocab) - logits);  // first maximum on ties
        } else {
            std::iota(order.begin(), order.end(), 0);
            std::size_t keep = std::size_t(vocab);
            // Ties are broken by id so the kept set does not depend on the sort's stability.
            auto byLogit = [logits](std::int32_t a, std::int32_t b) {
                return logits[a] > logits[b] || (logits[a] == logits[b] && a < b);
            };
            if (options.top_k > 0 && options.top_k < vocab) {
                keep = std::size_t(options.top_k);
                std::partial_sort(order.begin(), order.begin() + std::ptrdiff_t(keep), order.end(), byLogit);
            } else {
                std::sort(order.begin(), order.end(), byLogit);
            }
            const double maxLogit = double(logits[order[0]]);
            double sum = 0;
            for (std::size_t i = 0; i < keep; ++i) {
                probs[i] = std::exp((double(logits[order[i]]) - maxLogit) / options.temperature);
                sum += probs[i];
            }
            if (options.top_p < 1) {
                double cumulative = 0;
                std::size_t n = 0;
                while (n < keep) {
                    cumulative += probs[n++] / sum;
                    if (cumulative >= options.top_p)
                        break;
                }
                keep = n;
                sum = 0;
                for (std::size_t i = 0; i < keep; ++i)
                    sum += probs[i];
            }
            const double u = double(rng() >> 11) * 0x1.0p-53 * sum;
            double acc = 0;
            next = order[keep - 1];
            for (std::size_t i = 0; i < keep; ++i) {
                acc += probs[i];
                if (u < acc) {
                    next = order[i];
                    break;
                }
            }
        }
        if (options.stop_token && next == *options.stop_token)
            break;
        out.push_back(next);
        if (onToken && !onToken(next))
            break;
        if (position >= context || int(out.size()) >= options.max_new_tokens)
            break;
        Result<const float *> r = model.decodeStep(next, position++);
        if (!r)
            return r.problems();
        logits = r.value();
    }
    return out;
}

}  // namespace lse::reference
