// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/decode_benchmark.h"

#include "reference/model.h"

#include <algorithm>
#include <utility>

namespace lse::reference {

std::vector<std::int32_t> syntheticPrompt(int count, int sequence, std::int64_t vocab)
{
    std::vector<std::int32_t> ids(std::size_t(std::max(0, count)));
    if (vocab <= 0)
        return ids;
    for (std::size_t i = 0; i < ids.size(); ++i)
        ids[i] = std::int32_t((1 + 7919 * std::int64_t(i) + 104729 * std::int64_t(sequence)) % vocab);
    return ids;
}

GenerationSize generationSizeFor(int batch, int longest_prompt, int max_new_tokens, std::int64_t max_seq_len)
{
    GenerationSize size;
    size.batch = batch;
    size.prompt_tokens = int(std::clamp<std::int64_t>(longest_prompt, 1, max_seq_len));
    size.cache_context = int(std::clamp<std::int64_t>(std::int64_t(longest_prompt) + max_new_tokens, 1, max_seq_len));
    return size;
}

int reachableOutputTokens(int max_new_tokens, int cache_context, int longest_prompt)
{
    return std::max(0, std::min(max_new_tokens, cache_context - longest_prompt + 1));
}

double measuredDecodeTokensPerSecond(const BatchGeneration &generation, int batch)
{
    if (generation.decode_steps <= 0 || generation.decode_seconds <= 0)
        return 0;
    return double(batch) * double(generation.decode_steps) / generation.decode_seconds;
}

Result<DecodeBenchmark> benchmarkUntrainedDecode(const TrainConfig &config, int batch, int prompt_tokens, int output_tokens,
                                                 const CpuKernelFactors *kernels, const std::atomic<bool> *cancel)
{
    if (batch < 1)
        return Result<DecodeBenchmark>::failure("batch", "range", "batch must be at least 1 sequence.");
    if (prompt_tokens < 1)
        return Result<DecodeBenchmark>::failure("prompt_tokens", "range", "prompt_tokens must be at least 1 token.");
    if (output_tokens < 0)
        return Result<DecodeBenchmark>::failure("output_tokens", "range", "output_tokens must not be negative.");
    if (Problems p = validateTrainModel(config); !p.empty())
        return p;
    if (prompt_tokens > config.model.max_seq_len)
        return Result<DecodeBenchmark>::failure(
            "prompt_tokens", "range",
            "the prompt of " + std::to_string(prompt_tokens) + " tokens exceeds the model's context of "
                + std::to_string(config.model.max_seq_len) + ".");
    Result<std::unique_ptr<Model>> created = Model::create(
        config.model, generationOptions(config.options, generationSizeFor(batch, prompt_tokens, output_tokens, config.model.max_seq_len)));
    if (!created)
        return created.problems();
    Model &model = *created.value();
    std::vector<std::vector<std::int32_t>> prompts;
    for (int i = 0; i < batch; ++i)
        prompts.push_back(syntheticPrompt(prompt_tokens, i, model.config().vocab_size));

    GenerateOptions options;
    options.max_new_tokens = output_tokens;
    options.temperature = 0;  // greedy: the predictor predicts sampling as greedy
    options.seed = config.options.seed;
    options.profile = true;
    options.warm_up = true;
    const auto onToken = [cancel](int, std::int32_t) { return !(cancel && cancel->load()); };
    Result<BatchGeneration> run = generateBatch(model, prompts, options, onToken);
    if (!run)
        return run.problems();
    if (cancel && cancel->load())
        return Result<DecodeBenchmark>::failure("run", "cancelled", "the run was cancelled.");

    DecodeBenchmark out;
    out.batch = batch;
    out.prompt_tokens = prompt_tokens;
    out.output_tokens = reachableOutputTokens(output_tokens, model.cacheContext(), prompt_tokens);
    out.generation = std::move(run.value());
    out.measured_prefill_seconds = out.generation.prefill_seconds;
    out.measured_decode_tokens_per_second = measuredDecodeTokensPerSecond(out.generation, batch);
    if (!kernels) {
        out.no_prediction = "no kernel factors of this CPU";
        return out;
    }
    Result<ReferenceDecodePrediction> predicted = predictReferenceDecode(model.config(), batch, prompt_tokens, out.output_tokens, *kernels,
                                                                       model.options().attention_kernel);
    if (predicted)
        out.prediction = std::move(predicted.value());
    else
        out.no_prediction = predicted.problems().front().message;
    return out;
}

}  // namespace lse::reference
