// SPDX-License-Identifier: GPL-3.0-or-later
// Kernel fusion measured on this CPU (issue 32, "measured on this CPU with the reference kernels"):
// the element-wise chain of kernels/fusion_chain.h — bias add, GeLU, dropout, residual add — on a
// tokens×width float32 tensor, run unfused (one pass over memory per operator, each reading its
// input and writing its output, as separate GPU kernels do) and fused (one loop: each element goes
// through the whole chain while it is in a register). The two outputs are compared bitwise (the
// fused loop does the same float operations in the same order per element, and no operator
// reduces, so nothing may differ), both are timed with their runs alternating, and the bytes are
// the model's count (fusionChain with 4-byte elements), so GB/s is the model's bytes over the
// measured time — what the chain would have to move, not a hardware counter.
#pragma once

#include "common/problem.h"

#include <atomic>
#include <cstdint>
#include <functional>

namespace lse::reference {

struct FusionMeasureRequest {
    std::int64_t tokens = 4096;  // rows
    std::int64_t width = 4096;   // columns (the bias has one value per column)
    // The backward pass keeps GeLU's input: the fused loop still writes it (kernels/fusion_chain's
    // training accounting), the unfused bias pass writes it anyway.
    bool training = false;
    double dropout_probability = 0.1;  // p: an element is zeroed with probability p, kept ones × 1/(1−p)
    int repeats = 5;                   // timed runs of each variant, alternating unfused / fused
    std::uint64_t seed = 1;            // the inputs and the dropout mask
};

inline constexpr std::int64_t kMaxFusionMeasureElements = std::int64_t(1) << 28;  // 1 GiB per float32 tensor
inline constexpr int kMaxFusionMeasureRepeats = 101;

// Problems naming the field: "tokens", "width" below 1 or tokens × width above
// kMaxFusionMeasureElements; "repeats" outside 1..kMaxFusionMeasureRepeats; "dropout_probability"
// outside [0, 1).
Problems validateFusionMeasureRequest(const FusionMeasureRequest &request);

struct FusionVariantRun {
    double seconds = 0;            // median of the repeats
    double bytes = 0;              // the model's bytes moved (kernels/fusion_chain, E = 4)
    double bytes_per_second = 0;   // bytes / seconds
};

struct FusionMeasurement {
    FusionMeasureRequest request;
    FusionVariantRun unfused;
    FusionVariantRun fused;
    double flops = 0;                 // the chain's FLOPs (the same fused or not)
    bool outputs_bitwise_equal = false;
    double max_abs_difference = 0;    // 0 when bitwise equal
    int threads = 1;                  // OpenMP threads of both variants
    bool cancelled = false;           // stopped by the progress callback; the figures are incomplete
    double speedup() const { return fused.seconds > 0 ? unfused.seconds / fused.seconds : 0; }
};

// progress(done, total) after each timed run; returning false cancels (the result says cancelled).
using FusionMeasureProgress = std::function<bool(int done, int total)>;

Result<FusionMeasurement> measureFusion(const FusionMeasureRequest &request, const FusionMeasureProgress &progress = {});

// The two variants once on given inputs (x, residual: tokens×width; bias: width), for the tests:
// the unfused passes write every intermediate into `scratch` (tokens×width each, 3 buffers) and
// the chain's result into `out`; the fused loop writes `out` (and, training, `saved` = bias output).
void fusionChainUnfused(const float *x, const float *bias, const float *residual, float *out, float *scratch,
                        std::int64_t tokens, std::int64_t width, double dropout_probability, std::uint64_t seed);
void fusionChainFused(const float *x, const float *bias, const float *residual, float *out, float *saved,
                      std::int64_t tokens, std::int64_t width, double dropout_probability, std::uint64_t seed);

}  // namespace lse::reference
