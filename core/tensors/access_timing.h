// SPDX-License-Identifier: GPL-3.0-or-later
// Why memory layout matters, measured on this CPU: the same work over the same buffer in two
// access orders. (1) Eigen's C = A·B with B stored in the order the product reads it (column-major:
// B(k, j) for consecutive k are adjacent) and with B a transposed view (a row-major Map over the
// same buffer, the other storage order); (2) an element-wise loop reading a row-major matrix by rows
// (inner stride 1 element) and by columns (inner stride = one row); (3) the cost of making the
// view contiguous first (the transposing copy PyTorch's .contiguous() does: bytes read + written).
// The pattern (request, cancel flag, progress, median after warm-up) is core/architecture/norm_timing.h's.
#pragma once

#include "common/problem.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace lse {

struct AccessTimingRequest {
    // C (n×n) = A (n×n) · B (n×n), fp32: 2·512³ ≈ 0.27 GFLOP, milliseconds per call on one core.
    std::int64_t matmul_size = 512;
    // The swept matrix, fp32: 1024 × 2048 = 8 MiB, beyond the private caches; by columns the inner
    // loop jumps 8 KiB, so each read fetches a cache line (and often a page) it uses one float of.
    // Measured here (2 loaded cores): the six variants take about half a second in all.
    std::int64_t sweep_rows = 1024;
    std::int64_t sweep_cols = 2048;
    int repetitions = 5;  // timed calls per variant after one untimed warm-up call
    // Eigen threads for the products. 1 by default: OpenMP threads spin on a busy machine.
    int threads = 1;
};

// Largest accepted sizes: a 4096² product is ~0.14 TFLOP (seconds per call on one core), a 2^26
// element sweep 256 MiB.
inline constexpr std::int64_t kMaxAccessMatmulSize = 4096;
inline constexpr std::int64_t kMaxAccessSweepElements = std::int64_t(1) << 26;

enum class AccessVariant {
    MatmulContiguous,     // B column-major: the product reads it with stride 1
    MatmulTransposedView, // B row-major over the same buffer: B read with stride n
    MatmulCopy,           // the view made contiguous: a transposing n×n copy
    SweepByRows,          // row-major matrix, inner loop over columns: stride 1 element
    SweepByColumns,       // the same matrix, inner loop over rows: stride sweep_cols elements
    SweepCopy,            // the transposing copy that lets the by-columns reader go by rows
};

std::string_view toString(AccessVariant variant);

struct AccessVariantTiming {
    AccessVariant variant = AccessVariant::MatmulContiguous;
    std::vector<double> seconds;  // each timed call
    double median_seconds = 0;
    double bytes = 0;  // bytes each call must read + write at least (each element once)
    double flops = 0;  // 2·n³ for a product, one add per element for a sweep, 0 for a copy
    std::int64_t inner_stride_bytes = 0;  // distance between consecutive reads of the inner loop
    double bytesPerSecond() const { return median_seconds > 0 ? bytes / median_seconds : 0; }
    double flopsPerSecond() const { return median_seconds > 0 ? flops / median_seconds : 0; }
};

struct AccessTiming {
    AccessTimingRequest request;
    std::vector<AccessVariantTiming> variants;  // in AccessVariant order; fewer when cancelled
    bool cancelled = false;
    const AccessVariantTiming *find(AccessVariant variant) const;
    // Copy-then-read against reading the strided view in place: the seconds saved (negative: the
    // copy costs more than it saves), or 0 when a variant is missing. For the product, the copy
    // plus the contiguous product against the product on the view; for the sweep, the copy plus
    // the by-rows sweep against the by-columns sweep.
    double matmulCopySavingSeconds() const;
    double sweepCopySavingSeconds() const;
    // How many reads of the contiguous copy it takes for the copy to pay for itself: the smallest
    // k with copy + k·contiguous ≤ k·strided, i.e. ceil(copy / (strided − contiguous)); 0 when the
    // strided read is no slower (the copy never pays) or a variant is missing.
    int matmulCopyBreakEvenReads() const;
    int sweepCopyBreakEvenReads() const;
};

// The declared bytes, FLOPs and inner stride of one variant, without timing anything.
AccessVariantTiming accessCost(AccessVariant variant, const AccessTimingRequest &request);

// Runs in the calling thread; `progress(done, total)` after each timed call. Stops early (cancelled
// set, the variants finished so far kept) once `cancel` is true. Fails, naming the field, on sizes
// or repetitions < 1, threads < 1, or sizes above the maxima.
Result<AccessTiming> timeAccessOrders(const AccessTimingRequest &request, const std::atomic<bool> &cancel,
                                      const std::function<void(int done, int total)> &progress = {});

}  // namespace lse
