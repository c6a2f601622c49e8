// SPDX-License-Identifier: GPL-3.0-or-later
// The time of one kernel of the reference transformer on this CPU, by kernel class, from the kernel
// factors measured here (hardware/machine_kernel_factors.h). The same classes as on a GPU
// (kernel_time.h): only the factors differ — a measured rate table where a GPU has tiles and waves.
//
//   matrix product   2·m·n·k / rate(m, n, k), rate interpolated in the measured table (A·Bᵀ for
//                    the forward and the input gradient, Aᵀ·B for the weight gradient): linearly
//                    in log m, log n, log k of log rate; below the grid in n or k the time of the
//                    smallest size (a call costs what a tiny one does), above it the largest size's
//                    rate. Below the grid in m (the rows: a decode step's batch of sequences) the
//                    time is linear in m through the table's two smallest m at this (n, k): a fixed
//                    part (packing the weight operand, streaming it from memory) plus a part per row.
//                    Never less than the operands' bytes (float32) at the stream bandwidth of the
//                    working set they are read from. One row (a batch-1 decode step): Eigen's
//                    matrix-vector product, bound by reading the matrix: its bytes at the measured
//                    one-row product bandwidth of that working set
//   decode attention one new token per sequence against its KV cache: ⌈sequences / threads⌉ rounds ·
//                    one sequence's FLOPs / the measured rate at (keys, Dh) + a call + a parallel
//                    region when the loop is split over threads
//   attention        the reference runs the attention products of batch = sequences × heads as one
//                    OpenMP loop, one single-threaded (sequence, head) pair per iteration:
//                    ⌈batch / threads⌉ rounds · one pair's FLOPs / the measured kernel's rate per
//                    round at (T, Dh), interpolated as above, + a call + a parallel region. Each
//                    backward kernel runs both backward products in one loop: each product is
//                    half of its time
//   other batched    ⌈batch / threads⌉ · one product at the table's rate + a parallel region
//   element-wise     max(bytes / bandwidth(working set), FLOPs / the rate of its kernel)
//                    + a call's overhead + a parallel region when the op is split over threads
//                    (the reference's loops do that from their kernel class's threshold on,
//                    cpuParallelMinElements, and never for one row)
#pragma once

#include "hardware/machine_kernel_factors.h"
#include "performance/kernel_time.h"

namespace lse::performance {

// reference/ops/eigen_maps.h kParallelMinWork: below this many elements a loop runs on one thread
// unless the kernel factors give its class a threshold of its own (cpuParallelMinElements).
inline constexpr double kParallelMinElements = 32768;
// No element-wise loop is split below this many elements, however cheap the region measured.
inline constexpr double kParallelMinElementsFloor = 256;
// reference/ops/linear.cpp: from 2 to kBlockedVectorMaxRows rows a product runs as one
// matrix-vector product per row over blocks of W of kBlockedVectorBytes, so W is read from the
// working set once and from L2 by the other rows.
inline constexpr double kBlockedVectorMaxRows = 8;
inline constexpr double kBlockedVectorBytes = 256 * 1024;

// The measured rate of one product (m, n, k) on the grid, interpolated; the weight gradient's
// form (Aᵀ·B) has its own table.
double cpuGemmFlopsPerSecond(const CpuKernelFactors &factors, double m, double n, double k,
                             GemmPass pass = GemmPass::Forward);
// The rate per round of one (sequence, head) pair of a reference attention kernel: `backward`
// picks the backward kernel, whose rate counts both its products.
double cpuAttentionFlopsPerSecond(const CpuKernelFactors &factors, BatchedProduct product, bool backward, double seq,
                                  double head_dim);
// The tiled attention kernel's forward rate at (seq, head dim) (one pair's 4·T²·Dh FLOPs over a
// round), interpolated as the other attention tables; 0 when the factors have no such table.
double cpuTiledAttentionFlopsPerSecond(const CpuKernelFactors &factors, double seq, double head_dim);
// Bandwidth of an element-wise pass over `bytes`, interpolated linearly in log bytes of log rate
// between the measured working sets, clamped at the ends.
double cpuStreamBytesPerSecond(const CpuKernelFactors &factors, double bytes);
// The one-row product's (GEMV's) bytes per second with its matrices in a working set of `bytes`,
// interpolated in the same way.
double cpuGemvBytesPerSecond(const CpuKernelFactors &factors, double bytes);

// `working_set_bytes`: what the operands are streamed from between two uses (a decode step reads every
// weight once, so a matrix comes from memory however small it is); 0: the operands alone.
KernelTime cpuGemmTime(const GemmShape &shape, const CpuKernelFactors &factors, double working_set_bytes = 0);

// The measured decode attention rate of one sequence at (keys, head dim), interpolated as the tables above.
double cpuDecodeAttentionFlopsPerSecond(const CpuKernelFactors &factors, double keys, double head_dim);
// The decode attention of `sequences` sequences (`flops` in all, the roofline's decode operators
// attention_scores, softmax and attention_values), each attending `keys` keys in heads of
// `head_dim`; `heads` decides, as the reference's loop does, whether it is split over threads:
// several sequences over the sequences, one sequence over its `kv_heads` (decodeAttention).
KernelTime cpuDecodeAttentionTime(double flops, double sequences, double heads, double kv_heads, double keys,
                                  double head_dim, const CpuKernelFactors &factors);
// The reference kernel that runs an operator of the operator list ("norm" for attention_norm,
// mlp_norm, final_norm; "residual" for the residual adds and position_embedding_add; ...), empty
// when none of the measured ones does.
std::string_view cpuElementwiseKernel(std::string_view operator_name);
// The FLOP rate of that kernel, or of all the measured element-wise kernels together.
double cpuElementwiseFlopsPerSecond(const CpuKernelFactors &factors, std::string_view operator_name);

// FLOPs per element of an element-wise kernel class with a threshold of its own ("norm",
// "residual", "activation", "rope", "cross_entropy"; flop_rules.h), 0 for the others.
double cpuElementwiseFlopsPerElement(std::string_view kernel);
// The fewest elements of one call from which the reference splits a loop of kernel class `kernel`
// over the factors' threads (reference/ops/parallel_thresholds.h): where the time the other
// threads save, (threads − 1) · elements · seconds per element at those threads, reaches the
// measured parallel region (barrier_seconds). Seconds per element: the larger of the kernel's FLOPs
// per element at its measured rate and its bytes (8, a residual's 12) at the smallest working
// set's stream bandwidth. At least kParallelMinElementsFloor; infinite on one thread; the fixed
// default (kParallelMinElements, an eighth of it for the activation, whose elements cost about 8)
// for other kernels or factors without a region or a rate.
double cpuParallelMinElements(const CpuKernelFactors &factors, std::string_view kernel);

// `calls` kernel calls share the work (each pays the call overhead and, when split over threads,
// a parallel region); `operator_name` picks the kernel's FLOP rate and parallel threshold; `rows`
// (of all calls; 0: unknown, many) decides whether a row kernel can split at all (one row cannot).
KernelTime cpuStreamingTime(double flops, double bytes, const CpuKernelFactors &factors, double calls = 1,
                            std::string_view operator_name = {}, double rows = 0);

}  // namespace lse::performance
