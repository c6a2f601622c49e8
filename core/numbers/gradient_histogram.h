// SPDX-License-Identifier: GPL-3.0-or-later
// Underflow made visible: gradients in log2 buckets of |g|, the FP16 and BF16 representable ranges
// beside them, and what casting them to FP16 (optionally after multiplying by a loss scale S) would
// flush to zero, make subnormal or overflow. Casts use roundToFormat (numbers/float_format.h), so
// "flushed" means the value rounds to zero in the format, not merely "below the smallest subnormal".
// Loss scaling: Micikevicius et al. 2018, "Mixed Precision Training", §3.2.
#pragma once

#include "common/problem.h"
#include "numbers/float_format.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace lse::numbers {

// Bucket k (k from min_exponent to max_exponent) counts 2^k ≤ |g| < 2^(k+1); zeros and non-finite
// values have their own counts, so total() is the number of values histogrammed.
struct Log2Histogram {
    int min_exponent = 0;
    int max_exponent = -1;              // empty range when no non-zero finite value was seen
    std::vector<std::int64_t> counts;   // counts[k - min_exponent]
    std::int64_t zero_count = 0;
    std::int64_t non_finite_count = 0;

    std::int64_t total() const;
    std::int64_t countAt(int exponent) const;  // 0 outside the range
};

// floor(log2 |value|) for a finite non-zero value, exact (std::frexp, no rounding of a logarithm).
int log2Bucket(double value);
// The histogram of `values` × `scale` (scale > 0; 1 for the gradients themselves).
Log2Histogram log2Histogram(std::span<const float> values, double scale = 1.0);

// Where a format's values lie, for the overlay: subnormals in [min_subnormal, min_normal), normals
// in [min_normal, max]; above max a cast overflows.
struct FormatRange {
    FormatId format = FormatId::FP16;
    std::string name;
    double min_subnormal = 0;
    double min_normal = 0;
    double max = 0;
};
FormatRange formatRange(FormatId format);

// The cast of values × scale to a format. Fractions are of the non-zero finite values (zeros stay
// zero in every format and say nothing about underflow).
struct CastStatistics {
    FormatId format = FormatId::FP16;
    double scale = 1;
    std::int64_t values = 0;     // all values looked at
    std::int64_t non_zero = 0;   // finite and non-zero before scaling
    std::int64_t flushed = 0;    // non-zero but rounds to zero
    std::int64_t subnormal = 0;  // stored as a (non-zero) subnormal
    std::int64_t overflow = 0;   // rounds past the largest finite value (inf, or NaN for E4M3)
    std::int64_t non_finite = 0; // inf/NaN before the cast (an FP32 overflow already)

    double flushedFraction() const;
    double subnormalFraction() const;
    double overflowFraction() const;
    // What a dynamic loss scaler checks: any scaled gradient inf or NaN in the format.
    bool anyOverflow() const { return overflow > 0 || non_finite > 0; }
};
CastStatistics castStatistics(std::span<const float> values, FormatId format, double scale = 1.0);

// Gradients of the reference transformer after a few FP32 training steps (reference_gradient_source.h).
struct GradientSnapshotOptions {
    int steps = 5;
    std::uint64_t seed = 0;
    std::int64_t text_bytes = 96 * 1024;
};
struct GradientSnapshot {
    int steps = 0;                 // steps taken (fewer than asked when cancelled)
    double loss = 0;               // loss of the last step
    std::int64_t parameter_count = 0;
    std::vector<float> gradients;  // every gradient element of the last step
    Log2Histogram histogram;       // of gradients; histogram.total() == gradients.size()
    bool cancelled = false;
};
// Called from the calling thread after tokenization (step 0) and after each step.
using GradientProgressCallback = std::function<void(int step, int steps, double loss)>;
// Trains in the calling thread; the cancel flag is honoured between steps (the result then holds
// the last step's gradients, if any, and cancelled = true).
Result<GradientSnapshot> collectReferenceGradients(const GradientSnapshotOptions &options,
                                                   const GradientProgressCallback &progress = {},
                                                   const std::atomic<bool> *cancel = nullptr);

}  // namespace lse::numbers
