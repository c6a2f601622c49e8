// SPDX-License-Identifier: GPL-3.0-or-later
// One measured-and-predicted batched generation of an untrained reference model on made-up prompts
// (issue 30, "Measured on this CPU"): what `generate --config PRESET --prompt-tokens N --batch B`
// and the Serving page's "This CPU" section both run. The model of a TrainConfig is created with a
// workspace for B prompts and a KV cache for them and their new tokens, generates greedily with the
// op profiler and one untimed warm-up prefill (GenerateOptions::warm_up), and the run is predicted by
// predictReferenceDecode with the given kernel factors.
#pragma once

#include "common/problem.h"
#include "hardware/machine_kernel_factors.h"
#include "reference/batch_generation.h"
#include "reference/decode_time_comparison.h"
#include "reference/trainer.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lse::reference {

// A prompt of `count` token ids for sequence `sequence`: deterministic, below the vocabulary,
// different from sequence to sequence (the timings depend on the shapes, not on the words).
std::vector<std::int32_t> syntheticPrompt(int count, int sequence, std::int64_t vocab);

// The workspace and KV cache a batch of `batch` prompts of up to `longest_prompt` tokens and
// `max_new_tokens` new tokens needs, clamped to the model's `max_seq_len`.
GenerationSize generationSizeFor(int batch, int longest_prompt, int max_new_tokens, std::int64_t max_seq_len);

// The tokens a sequence can get: the first from the prefill, then one per position left in the cache.
int reachableOutputTokens(int max_new_tokens, int cache_context, int longest_prompt);

// Tokens of all sequences per second over the decode steps (every step computes every slot of the
// static batch): batch · decode_steps / decode_seconds; 0 when nothing was decoded.
double measuredDecodeTokensPerSecond(const BatchGeneration &generation, int batch);

struct DecodeBenchmark {
    int batch = 0;
    int prompt_tokens = 0;
    int output_tokens = 0;  // reachableOutputTokens: what the prediction assumes
    BatchGeneration generation;
    double measured_prefill_seconds = 0;
    double measured_decode_tokens_per_second = 0;  // 0: no decode step ran
    std::optional<ReferenceDecodePrediction> prediction;  // none without kernel factors
    std::string no_prediction;                             // why there is none
};

// `kernels` nullptr: measured only. `cancel` (optional) stops the generation at its next token; the
// result then has the problem rule "cancelled".
Result<DecodeBenchmark> benchmarkUntrainedDecode(const TrainConfig &config, int batch, int prompt_tokens, int output_tokens,
                                                 const CpuKernelFactors *kernels, const std::atomic<bool> *cancel = nullptr);

}  // namespace lse::reference
