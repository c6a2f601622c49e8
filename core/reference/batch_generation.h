// SPDX-License-Identifier: GPL-3.0-or-later
// Generating from a batch of prompts at once (issue 30, "Measured on this CPU"): one batched
// prefill fills the KV cache with every prompt in a single forward pass, then each decode step
// feeds one token of every sequence (BasicModel::prefill, decodeBatch). A static batch: the batch
// keeps its B sequences to the end; a sequence that has stopped (its stop token, max_new_tokens or
// a full context) keeps its slot and is computed again at its last position, its output ignored,
// as a static batch without early exit does. The run ends when every sequence has stopped.
//
// Timing: prefill_seconds is the time to the first token of every sequence (the prefill and the
// first sampling; after an untimed prefill with GenerateOptions::warm_up); decode_seconds the
// decode steps after it, each with its sampling. Decode throughput counts the tokens of all
// sequences: batch · decode_steps / decode_seconds (every step computes every slot; without a stop
// token every sequence keeps one token per step).
#pragma once

#include "reference/op_profiler.h"
#include "reference/trainer.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace lse::reference {

struct BatchGeneration {
    std::vector<std::vector<std::int32_t>> tokens;  // per sequence: the new tokens, stop token excluded
    int decode_steps = 0;         // batched decode steps run (each: one token of every sequence)
    double prefill_seconds = 0;   // the batched prefill and the first tokens' sampling
    double decode_seconds = 0;    // the decode steps and their sampling
    // The CPU time this process used meanwhile (all threads): on a shared machine below threads ×
    // the wall time by what other processes took (at one thread, the time the work had its core).
    double prefill_cpu_seconds = 0;
    double decode_cpu_seconds = 0;
    // With GenerateOptions::profile, the op profiler's records of the prefill and of all decode
    // steps (forward operator names; the cache writes as "kv_cache_write", the attention over the
    // cache as "decode_attention").
    std::vector<OpRecord> prefill_operators;
    std::vector<OpRecord> decode_operators;
};

// Sequence i samples with the seed options.seed + i, so sequence 0 of a batch gives what generate()
// gives for its prompt alone. The prompts may differ in length (each at least one token); the
// batch needs the model's workspace (max_batch ≥ B, context ≥ the longest prompt) and KV cache
// (cache_batch ≥ B). onToken(sequence, token) is called for every new token kept; returning false
// stops that sequence.
Result<BatchGeneration> generateBatch(Model &model, const std::vector<std::vector<std::int32_t>> &prompts,
                                      const GenerateOptions &options,
                                      const std::function<bool(int, std::int32_t)> &onToken = {});

}  // namespace lse::reference
