// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/fusion_measurement.h"

#include "hardware/accelerator.h"
#include "kernels/fusion_chain.h"
#include "reference/ops/activations.h"
#include "reference/ops/residual.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace lse::reference {

namespace {

// SplitMix64 (Steele, Lea & Flood 2014) of seed and element index: a counter-based mask, as fused
// GPU dropout kernels draw theirs from Philox by element index, so neither variant reads a mask
// from memory (the model counts none) and both see the same mask.
std::uint64_t mix(std::uint64_t z)
{
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

struct Dropout {
    std::uint64_t seed = 0;
    std::uint64_t threshold = 0;  // drop when the element's draw is below p · 2^64
    float scale = 1;              // 1 / (1 − p) for the kept ones (inverted dropout)
    Dropout(double p, std::uint64_t s) : seed(mix(s))
    {
        threshold = p <= 0 ? 0 : std::uint64_t(std::ldexp(std::min(p, 1.0), 64) - 1);
        scale = float(1.0 / (1.0 - p));
    }
    float apply(float value, std::int64_t index) const
    {
        return mix(seed ^ std::uint64_t(index)) < threshold ? 0.0f : value * scale;
    }
};

// GeLU exactly as reference/ops/activations.cpp computes it (the erf form, Hendrycks & Gimpel
// 2016): the same float operations in the same order, so the fused result is bitwise the unfused.
float gelu(float x)
{
    return x * (0.5f * (1.0f + std::erf(x * 0.70710678118654752440f)));
}

// One pass per operator, each over the whole tensor: what the fusion model counts unfused.
void biasPass(const float *x, const float *bias, float *out, std::int64_t tokens, std::int64_t width)
{
#pragma omp parallel for schedule(static) if (tokens * width >= kParallelMinWork)
    for (std::int64_t i = 0; i < tokens; ++i)
        for (std::int64_t j = 0; j < width; ++j)
            out[i * width + j] = x[i * width + j] + bias[j];
}

void dropoutPass(const float *x, float *out, std::int64_t elements, const Dropout &dropout)
{
#pragma omp parallel for schedule(static) if (elements >= kParallelMinWork)
    for (std::int64_t i = 0; i < elements; ++i)
        out[i] = dropout.apply(x[i], i);
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n == 0 ? 0 : n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// The model's bytes: fusionChain's count at 4-byte elements. Its times need an accelerator, the
// bytes do not; a placeholder with an fp32 peak lets it count.
Result<kernels::FusionChain> modelChain(const FusionMeasureRequest &request)
{
    Accelerator placeholder;
    placeholder.id = "this-cpu";
    placeholder.dense_peak.fp32_flops_per_second = 1;
    placeholder.memory_bandwidth_bytes_per_second = 1;
    placeholder.sm_count = 1;
    kernels::FusionChainConfig config;
    config.tokens = request.tokens;
    config.width = request.width;
    config.dtype = DType::FP32;
    config.training = request.training;
    return kernels::fusionChain(config, placeholder);
}

}  // namespace

Problems validateFusionMeasureRequest(const FusionMeasureRequest &request)
{
    Problems problems;
    if (request.tokens < 1)
        problems.push_back({"tokens", "range", "tokens is " + std::to_string(request.tokens) + "; it must be at least 1"});
    if (request.width < 1)
        problems.push_back({"width", "range", "width is " + std::to_string(request.width) + "; it must be at least 1"});
    if (request.tokens >= 1 && request.width >= 1 && request.tokens > kMaxFusionMeasureElements / request.width)
        problems.push_back({"tokens", "range",
                            "tokens × width is " + std::to_string(request.tokens) + " × " + std::to_string(request.width)
                                + "; it must be at most 2^28 elements (1 GiB per float32 tensor)",
                            {"width"}});
    if (request.repeats < 1 || request.repeats > kMaxFusionMeasureRepeats)
        problems.push_back({"repeats", "range",
                            "repeats is " + std::to_string(request.repeats) + "; it must be from 1 to "
                                + std::to_string(kMaxFusionMeasureRepeats)});
    if (!(request.dropout_probability >= 0 && request.dropout_probability < 1))
        problems.push_back({"dropout_probability", "range", "dropout_probability must be from 0 to below 1"});
    return problems;
}

void fusionChainUnfused(const float *x, const float *bias, const float *residual, float *out, float *scratch,
                        std::int64_t tokens, std::int64_t width, double dropout_probability, std::uint64_t seed)
{
    const std::int64_t elements = tokens * width;
    float *biased = scratch;
    float *activated = scratch + elements;
    float *dropped = scratch + 2 * elements;
    biasPass(x, bias, biased, tokens, width);
    activationForward<float>(Activation::GeLU, biased, activated, tokens, width);  // the reference's GeLU kernel
    dropoutPass(activated, dropped, elements, Dropout(dropout_probability, seed));
    residualAdd<float>(dropped, residual, out, elements);  // the reference's residual kernel
}

void fusionChainFused(const float *x, const float *bias, const float *residual, float *out, float *saved,
                      std::int64_t tokens, std::int64_t width, double dropout_probability, std::uint64_t seed)
{
    const Dropout dropout(dropout_probability, seed);
    // Threads from the same rule as the reference GeLU pass (work = 8 per element), the largest of
    // the unfused passes' work, so both variants run on as many threads at every size.
#pragma omp parallel for schedule(static) if (tokens * width * 8 >= kParallelMinWork)
    for (std::int64_t i = 0; i < tokens; ++i)
        for (std::int64_t j = 0; j < width; ++j) {
            const std::int64_t e = i * width + j;
            const float biased = x[e] + bias[j];
            if (saved)
                saved[e] = biased;  // training: the backward pass needs GeLU's input
            out[e] = dropout.apply(gelu(biased), e) + residual[e];
        }
}

Result<FusionMeasurement> measureFusion(const FusionMeasureRequest &request, const FusionMeasureProgress &progress)
{
    if (Problems problems = validateFusionMeasureRequest(request); !problems.empty())
        return problems;
    const Result<kernels::FusionChain> chain = modelChain(request);
    if (!chain)
        return chain.problems();

    const std::int64_t elements = request.tokens * request.width;
    const auto count = std::size_t(elements);
    std::vector<float> x(count), residual(count), bias(std::size_t(request.width));
    std::mt19937_64 rng(request.seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    for (float &v : x)
        v = normal(rng);
    for (float &v : residual)
        v = normal(rng);
    for (float &v : bias)
        v = normal(rng);
    std::vector<float> scratch(3 * count), unfused_out(count), fused_out(count);
    std::vector<float> saved(request.training ? count : 0);
    float *saved_ptr = request.training ? saved.data() : nullptr;

    FusionMeasurement m;
    m.request = request;
    m.threads = std::max(1, omp_get_max_threads());
    m.flops = chain->flops;
    m.unfused.bytes = chain->unfused_bytes;
    m.fused.bytes = chain->fused_bytes;

    // One untimed run of each touches every page (first-touch faults are not the chain's cost) and
    // gives the outputs to compare.
    fusionChainUnfused(x.data(), bias.data(), residual.data(), unfused_out.data(), scratch.data(), request.tokens,
                       request.width, request.dropout_probability, request.seed);
    fusionChainFused(x.data(), bias.data(), residual.data(), fused_out.data(), saved_ptr, request.tokens, request.width,
                     request.dropout_probability, request.seed);
    m.outputs_bitwise_equal = std::memcmp(unfused_out.data(), fused_out.data(), count * sizeof(float)) == 0;
    for (std::size_t i = 0; i < count; ++i)
        m.max_abs_difference = std::max(m.max_abs_difference, double(std::fabs(unfused_out[i] - fused_out[i])));

    const int total = 2 * request.repeats;
    int done = 0;
    std::vector<double> unfused_seconds, fused_seconds;
    for (int repeat = 0; repeat < request.repeats && !m.cancelled; ++repeat) {
        // Alternate which goes first, so a drift in the machine's load or clock favours neither.
        for (int turn = 0; turn < 2 && !m.cancelled; ++turn) {
            const bool fused = (repeat + turn) % 2 == 1;
            const auto start = std::chrono::steady_clock::now();
            if (fused)
                fusionChainFused(x.data(), bias.data(), residual.data(), fused_out.data(), saved_ptr, request.tokens,
                                 request.width, request.dropout_probability, request.seed);
            else
                fusionChainUnfused(x.data(), bias.data(), residual.data(), unfused_out.data(), scratch.data(),
                                   request.tokens, request.width, request.dropout_probability, request.seed);
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            (fused ? fused_seconds : unfused_seconds).push_back(seconds);
            ++done;
            if (progress && !progress(done, total))
                m.cancelled = true;
        }
    }
    m.unfused.seconds = median(unfused_seconds);
    m.fused.seconds = median(fused_seconds);
    m.unfused.bytes_per_second = m.unfused.seconds > 0 ? m.unfused.bytes / m.unfused.seconds : 0;
    m.fused.bytes_per_second = m.fused.seconds > 0 ? m.fused.bytes / m.fused.seconds : 0;
    return m;
}

}  // namespace lse::reference
