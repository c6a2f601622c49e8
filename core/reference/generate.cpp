// SPDX-License-Identifier: GPL-3.0-or-later
// Sampling a continuation with the model's KV cache (see trainer.h, generate(), and
// batch_generation.h, generateBatch()).
//
// The prompt is fed in one batched prefill from position 0, which resets the cache, so every call
// starts fresh sequences. Generation stops at the stop token (not emitted), after max_new_tokens,
// or when the context is full (the reference model has no sliding window). Each sequence draws
// its tokens with its own Sampler (sampler.h), seeded with the run's seed plus its index.
#include "reference/batch_generation.h"

#include "reference/checkpoint_check.h"
#include "reference/op_trace.h"
#include "reference/sampler.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>

#include <time.h>

namespace lse::reference {

namespace {

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

double processCpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

Problems checkOptions(const GenerateOptions &options)
{
    Problems problems;
    if (options.max_new_tokens < 0)
        problems.push_back({"max_new_tokens", "range", "max_new_tokens must not be negative."});
    if (!(options.temperature >= 0) || !std::isfinite(options.temperature))
        problems.push_back({"temperature", "range", "temperature must be a finite number >= 0 (0: greedy)."});
    if (options.top_k < 0)
        problems.push_back({"top_k", "range", "top_k must not be negative (0: off)."});
    if (!(options.top_p > 0 && options.top_p <= 1))
        problems.push_back({"top_p", "range", "top_p must be in (0, 1] (1: off)."});
    return problems;
}

// The profiler switched to `on` for one generation, and back to its previous state afterwards.
class ProfilerScope {
public:
    ProfilerScope(OpProfiler &profiler, bool on) : profiler_(profiler), was_(profiler.enabled())
    {
        profiler_.setEnabled(on);
    }
    ~ProfilerScope() { profiler_.setEnabled(was_); }
    ProfilerScope(const ProfilerScope &) = delete;
    ProfilerScope &operator=(const ProfilerScope &) = delete;

private:
    OpProfiler &profiler_;
    bool was_;
};

}  // namespace

Result<BatchGeneration> generateBatch(Model &model, const std::vector<std::vector<std::int32_t>> &prompts,
                                      const GenerateOptions &options, const std::function<bool(int, std::int32_t)> &onToken)
{
    Problems problems = checkOptions(options);
    const int batch = int(prompts.size());
    const std::int64_t vocab = model.config().vocab_size;
    const int cacheContext = model.cacheContext();
    std::size_t longest = 0;
    for (const std::vector<std::int32_t> &prompt : prompts)
        longest = std::max(longest, prompt.size());
    if (prompts.empty())
        problems.push_back({"prompts", "required", "prompts: at least one prompt is needed to start generating."});
    else if (batch > std::min(model.options().max_batch, model.cacheBatch()))
        problems.push_back({"prompts", "range", "prompts: " + std::to_string(batch) + " sequences exceed the model's batch of "
                                                    + std::to_string(std::min(model.options().max_batch, model.cacheBatch())) + "."});
    for (int i = 0; i < batch; ++i) {
        const std::vector<std::int32_t> &prompt = prompts[std::size_t(i)];
        const std::string which = batch > 1 ? "prompt " + std::to_string(i) : "prompt";
        if (prompt.empty())
            problems.push_back({"prompt", "required", which + ": at least one token is needed to start generating."});
        else if (std::int64_t(prompt.size()) > std::min(model.context(), cacheContext))
            problems.push_back({"prompt", "range", which + ": " + std::to_string(prompt.size()) + " tokens exceed the context of "
                                                       + std::to_string(std::min(model.context(), cacheContext)) + "."});
        for (std::int32_t id : prompt)
            if (id < 0 || id >= vocab) {
                problems.push_back({"prompt", "vocab", which + ": token id " + std::to_string(id)
                                                           + " is outside the vocabulary of " + std::to_string(vocab) + "."});
                break;
            }
    }
    if (!problems.empty())
        return problems;

    ProfilerScope profiling(model.profiler(), options.profile);
    if (options.profile)
        model.profiler().reset();
    const auto seq = int(longest);
    // Prompts right-padded to the longest with their own last token (any valid id would do).
    const auto sequences = static_cast<std::size_t>(batch);
    std::vector<std::int32_t> padded(sequences * longest);
    std::vector<int> lengths(sequences), positions(sequences);
    std::vector<std::int32_t> fed(sequences);
    SamplerScratch samplerScratch(vocab);
    std::vector<Sampler> samplers;
    samplers.reserve(std::size_t(batch));
    for (int i = 0; i < batch; ++i) {
        const std::vector<std::int32_t> &prompt = prompts[std::size_t(i)];
        std::copy(prompt.begin(), prompt.end(), padded.begin() + std::ptrdiff_t(std::size_t(i) * longest));
        std::fill(padded.begin() + std::ptrdiff_t(std::size_t(i) * longest + prompt.size()),
                  padded.begin() + std::ptrdiff_t(std::size_t(i + 1) * longest), prompt.back());
        lengths[std::size_t(i)] = int(prompt.size());
        // Until its first sample, a sequence's slot is its last prompt position.
        positions[std::size_t(i)] = int(prompt.size()) - 1;
        fed[std::size_t(i)] = prompt.back();
        samplers.emplace_back(options.seed + std::uint64_t(i), samplerScratch);
    }

    BatchGeneration out;
    out.tokens.assign(std::size_t(batch), {});
    std::vector<char> stopped(std::size_t(batch), options.max_new_tokens == 0);
    // A trace being recorded (op_trace.h, profiled runs only): step 1 is the prefill, step k + 1 the
    // k-th decode step; each a ProfilerStep range (the model call and the sampling) around a
    // "prefill" or "decode" range (the model call).
    OpTraceLog *trace = options.profile ? model.profiler().trace() : nullptr;
    if (options.warm_up) {
        OpTraceLog *attached = model.profiler().trace();
        model.profiler().setTrace(nullptr);  // the untimed warm-up is not part of the trace
        Result<const float *> warm = model.prefill(padded.data(), lengths.data(), batch, seq);
        model.profiler().setTrace(attached);
        if (!warm)
            return warm.problems();
    }
    if (options.profile)
        model.profiler().reset();
    const Clock::time_point prefillStart = Clock::now();
    const double prefillCpuStart = processCpuSeconds();
    if (trace)
        trace->setStep(1);
    Result<const float *> logits = model.prefill(padded.data(), lengths.data(), batch, seq);
    if (!logits)
        return logits.problems();
    if (trace)
        trace->addSpan(TraceEventKind::Phase, "prefill", prefillStart, Clock::now());
    // Samples the next token of every running sequence from `rows` (B, V); fed[i] and positions[i]
    // become what the next step feeds it and where (a stopped sequence: its last position again).
    // Returns whether any sequence is still running.
    const auto sampleAll = [&](const float *rows, const std::vector<int> &held) -> Result<bool> {
        bool running = false;
        for (int i = 0; i < batch; ++i) {
            const auto s = std::size_t(i);
            if (stopped[s])
                continue;
            const float *row = rows + std::int64_t(i) * vocab;
            // Sorting NaN logits breaks std::sort's ordering (undefined behaviour); a model with
            // finite weights can still overflow, so every distribution is checked before sampling.
            if (!allFinite(row, vocab))
                return Result<bool>::failure("model", "non-finite",
                                             "model: the logits at position " + std::to_string(held[s])
                                                 + " are NaN or infinite; the model's weights overflow.");
            const std::int32_t next = samplers[s].next(row, options);
            const bool stop = options.stop_token && next == *options.stop_token;
            if (!stop)
                out.tokens[s].push_back(next);
            if (stop || (onToken && !onToken(i, next)) || held[s] >= cacheContext
                || int(out.tokens[s].size()) >= options.max_new_tokens) {
                stopped[s] = 1;
                positions[s] = held[s] - 1;  // its slot recomputes its last position from now on
                continue;
            }
            fed[s] = next;
            positions[s] = held[s];
            running = true;
        }
        return running;
    };
    std::vector<int> held(lengths);  // positions each sequence holds in the cache
    bool running = false;
    if (options.max_new_tokens > 0) {
        Result<bool> sampled = sampleAll(*logits, held);
        if (!sampled)
            return sampled.problems();
        running = *sampled;
    }
    if (trace)
        trace->addSpan(TraceEventKind::Step, "ProfilerStep", prefillStart, Clock::now());
    out.prefill_seconds = secondsSince(prefillStart);
    out.prefill_cpu_seconds = processCpuSeconds() - prefillCpuStart;
    if (options.profile) {
        out.prefill_operators = model.profiler().records();
        model.profiler().reset();
    }
    const Clock::time_point decodeStart = Clock::now();
    const double decodeCpuStart = processCpuSeconds();
    while (running) {
        const Clock::time_point stepStart = Clock::now();
        if (trace)
            trace->setStep(out.decode_steps + 2);
        logits = model.decodeBatch(fed.data(), positions.data(), batch);
        if (!logits)
            return logits.problems();
        if (trace)
            trace->addSpan(TraceEventKind::Phase, "decode", stepStart, Clock::now());
        ++out.decode_steps;
        for (int i = 0; i < batch; ++i)
            held[std::size_t(i)] = positions[std::size_t(i)] + 1;
        Result<bool> sampled = sampleAll(*logits, held);
        if (!sampled)
            return sampled.problems();
        running = *sampled;
        if (trace)
            trace->addSpan(TraceEventKind::Step, "ProfilerStep", stepStart, Clock::now());
    }
    out.decode_seconds = secondsSince(decodeStart);
    out.decode_cpu_seconds = processCpuSeconds() - decodeCpuStart;
    if (options.profile)
        out.decode_operators = model.profiler().records();
    return out;
}

Result<std::vector<std::int32_t>> generate(Model &model, const std::vector<std::int32_t> &prompt,
                                          const GenerateOptions &options, const std::function<bool(std::int32_t)> &onToken)
{
    std::function<bool(int, std::int32_t)> each;
    if (onToken)
        each = [&onToken](int, std::int32_t token) { return onToken(token); };
    Result<BatchGeneration> run = generateBatch(model, {prompt}, options, each);
    if (!run)
        return run.problems();
    return std::move(run->tokens.front());
}

}  // namespace lse::reference
