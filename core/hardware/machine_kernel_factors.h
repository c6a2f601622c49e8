// SPDX-License-Identifier: GPL-3.0-or-later
// This CPU's kernel factors for the operator-level step predictor (core/performance): what the
// reference transformer's kernel classes achieve here, measured by micro-benchmarks
// (reference/kernel_benchmark.h) at one thread count, and cached beside the machine roofline.
//
//   matrix product   tables of measured GFLOP/s over (m, n, k) on a log grid (the reference's
//                    shapes, the small and skinny ones included) at the run's threads, operands from
//                    memory: C = A·Bᵀ (forward; the input gradient's A·B runs at the same rate
//                    here) and C = Aᵀ·B (the weight gradient, up to 1.5× slower at large k)
//   attention        the reference's own attention kernels (scores Q·Kᵀ, values P·V, and their
//                    backward loops) over (sequence, head dim): one (sequence, head) product per
//                    thread inside a parallel loop, each on its own strided slices; and the tiled
//                    (FlashAttention) kernel's forward on the same grid
//   decode attention the reference's attention of one new token against its KV cache (generation),
//                    over (keys, head dim)
//   one-row product  the bytes per second of the reference's matrix-vector product (a batch-1 decode
//                    step's weight products) against the working set
//   element-wise     sustained bandwidth against the working set, and the FLOP rate of the
//                    reference's own element-wise kernels (norms, softmax, SwiGLU, residual)
//   every call       the fixed cost of one kernel call, and of one OpenMP parallel region's
//                    fork and barrier at the run's threads
#pragma once

#include "common/problem.h"
#include "hardware/machine_roofline.h"

#include <QDateTime>
#include <QJsonObject>

#include <optional>
#include <string>
#include <vector>

namespace lse {

struct CpuKernelFactors {
    int threads = 1;  // the OpenMP/Eigen threads these were measured with
    // Matrix products C = A·Bᵀ (row-major, as the reference's linear layers) on the grid
    // gemm_axis × gemm_axis × gemm_axis; entry (i, j, l) is (m = axis[i], n = axis[j], k = axis[l])
    // at index (i·S + j)·S + l, S = axis size.
    std::vector<double> gemm_axis;
    // Each call on other operands, taken from memory as in a training step (not cache-resident).
    std::vector<double> gemm_flops_per_second;                  // C = A·Bᵀ at `threads`
    std::vector<double> gemm_weight_gradient_flops_per_second;  // C = Aᵀ·B at `threads`
    // The reference's attention kernels (reference/ops/attention.h) on the grid attention_seq_axis ×
    // attention_head_dim_axis; entry (i, j) is (T = seq_axis[i], Dh = head_dim_axis[j]) at index
    // i·D + j. Each rate is one (sequence, head) pair's FLOPs over the time of one round of the
    // kernel's parallel loop (every thread one pair): the backward kernels' FLOPs are their two
    // products' (attentionValuesBackward: Pᵀ·dO and dO·Vᵀ; attentionScoresBackward: dS·K and dSᵀ·Q).
    std::vector<double> attention_seq_axis;
    std::vector<double> attention_head_dim_axis;
    std::vector<double> attention_scores_forward_flops_per_second;
    std::vector<double> attention_values_forward_flops_per_second;
    std::vector<double> attention_scores_backward_flops_per_second;
    std::vector<double> attention_values_backward_flops_per_second;
    // The tiled (FlashAttention) kernel's forward (reference/ops/tiled_attention.h: Q·Kᵀ, the online
    // softmax and P·V of every block in one loop, all (sequence, head) pairs spread over the
    // threads) on the same grid: one pair's FLOPs as the profiler books them (both products
    // whole, 4·T²·Dh) over one round. May be empty (a cache written before it was measured): the
    // predictor then falls back on the naive kernels' tables.
    std::vector<double> attention_tiled_forward_flops_per_second;
    // The reference's decode attention (reference/ops/attention.h, decodeAttentionBatch: Q·Kᵀ, the
    // softmax and P·V of one new token per sequence against its KV cache, one single-threaded
    // sequence per iteration of a parallel loop) on the grid decode_attention_keys_axis ×
    // attention_head_dim_axis; entry (i, j) is (keys = keys_axis[i], Dh = head_dim_axis[j]) at index
    // i·D + j. Each rate is one sequence's FLOPs as the roofline's decode phase counts them
    // (2·keys·Dh per head for each product, flop_rules::kSoftmax per score) over one round of the
    // loop (every thread one sequence), the cache read from where a decode step finds it (a
    // 64 MiB pool, the one-row product's largest working set).
    std::vector<double> decode_attention_keys_axis;
    std::vector<double> decode_attention_flops_per_second;
    // Element-wise pass a[i] = b[i] + s·c[i] (float32) over working sets of stream_working_set_bytes.
    std::vector<double> stream_working_set_bytes;
    std::vector<double> stream_bytes_per_second;
    // The reference's linear layer on one row (Eigen's matrix-vector product y = W·x, which a
    // batch-1 decode step runs for every weight matrix): the matrix's bytes per second when the
    // matrices come from a working set of stream_working_set_bytes (read-only traffic, faster than
    // the triad's read-and-write).
    std::vector<double> gemv_bytes_per_second;
    // The reference's few-row product (reference/ops/linear.cpp: 2 to 8 rows, as a batched decode
    // step runs every weight matrix; W in blocks that stay in L2, split over the threads by output
    // columns) at blocked_vector_rows_axis rows, its matrices from a working set of
    // blocked_vector_working_set_bytes: the matrix's, input's and output's bytes per second. The
    // one-row rates above cannot stand in for it: above one thread each core re-reads its own
    // blocks from its own L2 (2 threads here: 2x the batch-8 products predicted from the one-row
    // rate at 256 KiB, which a product that small runs on one thread). Optional: a cache written
    // before it was measured has none, and the predictor then models the rows from the one-row rates.
    std::vector<double> blocked_vector_rows_axis;
    std::vector<double> blocked_vector_bytes_per_second;
    double blocked_vector_working_set_bytes = 0;
    // The reference's element-wise kernels, forward and backward, timed one by one: their FLOPs
    // (core/ops/flop_rules.h, as the op profiler counts them) per second, by kernel ("norm",
    // "softmax", "activation", "rope", "residual", "cross_entropy"; cpuElementwiseKernel maps the
    // operator list's names to these), and over all of them (for any other element-wise operator).
    // Also "sampling": generation's greedy choice over the logits, one FLOP per logit (not part of
    // the rate over all of them).
    std::vector<std::string> elementwise_kernels;
    std::vector<double> elementwise_kernel_flops_per_second;
    double elementwise_flops_per_second = 0;
    double call_overhead_seconds = 0;  // one kernel call below the parallel threshold
    double barrier_seconds = 0;        // one parallel region's fork and join at `threads`
    // The share of its core this process got while measuring at one thread: its CPU time over wall
    // time (1 on an idle machine; 1 above one thread, whose wall-clock rates already include it). The rates above are each the median of short batches, which
    // mostly fall between other processes' time slices: what the cores do when they are ours. A
    // training step lasts long enough to lose the cores for the same share, so the predicted step
    // adds the difference as its own part ("other processes"), and says so.
    double cpu_share = 1;
    std::string measured_at;           // ISO 8601 UTC
    double load_average = -1;          // 1-minute load average before measuring; -1 unknown
    bool quick = false;                // test-sized: never cached
    double measure_seconds = 0;        // how long the micro-benchmarks took

    bool operator==(const CpuKernelFactors &) const = default;
};

// Problems: empty tables, non-positive rates or sizes, a grid of the wrong size (field "kernels.<key>").
Problems validateCpuKernelFactors(const CpuKernelFactors &factors);
QJsonObject cpuKernelFactorsToJson(const CpuKernelFactors &factors);
Result<CpuKernelFactors> cpuKernelFactorsFromJson(const QJsonObject &object);

// <the machine roofline's cache folder>/machine-kernels.json: this machine's identity and one
// entry per thread count.
std::string cpuKernelFactorsCachePath();

// Why a cached measurement (the roofline or a thread count's kernel factors) must not be used, or
// nothing when it may. Rules, in this order: "threads" (no entry for the run's thread count),
// "older-than-binary" (measured_at before the program was built: its code may have changed),
// "implausible" (the roofline's plausibility checks, machineRooflineWarnings; a load average at
// or above the logical cores before the kernels were measured; or, above one thread, products
// that scale far less over one_thread's than the roofline's cores do: gemmThreadScalingIsPlausible).
struct CacheVerdict {
    bool usable = false;
    std::string rule;  // with !usable
    std::string why;
};
CacheVerdict checkCachedMeasurement(const MachineRoofline &roofline, const std::optional<CpuKernelFactors> &factors,
                                    int threads, const QDateTime &binary_built,
                                    const std::optional<CpuKernelFactors> &one_thread = std::nullopt);

// How many times one thread's rate the factors' largest products reach: the median, over the GEMM
// grid's entries whose m, n and k are all among the axis's two largest sizes, of factors' rate over
// one_thread's. 0 when the two grids differ or are empty.
double gemmThreadScaling(const CpuKernelFactors &factors, const CpuKernelFactors &one_thread);

// Whether factors measured at threads > 1 gained at least a quarter of what the roofline's SGEMM
// gains from one core to threads_used cores (scaled down linearly to factors.threads). A host
// that gave the threads no second core while the kernels were measured leaves products at one
// thread's rates (measured: 1.0x where the roofline gives 1.74x; fresh factors give 1.8x), and the
// predictor would then take every multi-threaded step to be 1.5-2.7x slower than it runs. Nothing
// when the roofline's cores do not scale either (one physical core behind two logical ones): then
// the products are right not to. On false, why says what was measured and expected.
bool gemmThreadScalingIsPlausible(const CpuKernelFactors &factors, const CpuKernelFactors &one_thread,
                                  const MachineRoofline &roofline, std::string *why = nullptr);

// checkCachedMeasurement for this process: its identity's cores, its build time, and the cached
// roofline and one-thread factors when the cache has them (without a roofline only the kernel
// factors' own rules apply: checkCachedKernelFactors).
CacheVerdict checkCachedKernelFactorsHere(const std::optional<CpuKernelFactors> &factors, int threads);

// The kernel factors' part of that check alone (the rules "threads", "older-than-binary" and the
// load average of "implausible"): for a caller that keeps the roofline the user chose.
CacheVerdict checkCachedKernelFactors(const std::optional<CpuKernelFactors> &factors, int threads, int logical_cores,
                                      const QDateTime &binary_built);

// When the code that measures and runs the kernels was built: the modification time of the
// library holding this function (or of the executable when it is linked statically).
QDateTime binaryBuiltAt();

// What the cache file holds for this machine and build at `threads`.
std::optional<CpuKernelFactors> loadCachedCpuKernelFactors(int threads);
// Adds or replaces the entry of factors.threads; refuses quick runs (rule "quick").
Result<std::string> saveCpuKernelFactors(const CpuKernelFactors &factors);

}  // namespace lse
