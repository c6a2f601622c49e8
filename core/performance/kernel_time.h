// SPDX-License-Identifier: GPL-3.0-or-later
// The time one kernel takes on an accelerator, by kernel class: a matrix product whose efficiency
// depends on its shape, a streaming kernel bound by HBM bandwidth, a fused attention kernel.
#pragma once

#include "hardware/accelerator.h"

#include <cstdint>
#include <string_view>

namespace lse {
struct CpuKernelFactors;
}

namespace lse::performance {

// Which product of a layer a GEMM is: its forward, or one of the two products of its backward
// (for C = A·B: dA = dC·Bᵀ and dB = Aᵀ·dC). A GPU's factors do not tell them apart; this CPU's
// measured tables do (cpu_kernel_time.h).
enum class GemmPass { Forward, InputGradient, WeightGradient };
// The attention products the reference runs as its own kernels (reference/ops/attention.h).
enum class BatchedProduct { None, AttentionScores, AttentionValues };

// batch independent products (m x k)·(k x n).
struct GemmShape {
    double batch = 1;
    double m = 0;
    double n = 0;
    double k = 0;
    GemmPass pass = GemmPass::Forward;
    BatchedProduct product = BatchedProduct::None;
    double flops() const { return 2.0 * batch * m * n * k; }
};

// What limits an accelerator's kernels: its peaks and its efficiency factors.
struct KernelMachine {
    double matmul_peak_flops_per_second = 0;  // dense peak of the matmul dtype (or the override)
    // FP8 recipes run their weight GEMMs at the FP8 peak (at fp8_gemm_peak_fraction of it) while
    // the fused attention stays in BF16 (Transformer Engine's default): its own peak.
    bool fp8_matmuls = false;
    double attention_peak_flops_per_second = 0;
    bool flash_attention3 = false;  // the attention kernel runs at flash_attention3_fraction
    double vector_peak_flops_per_second = 0;  // non-tensor (fp32) rate for element-wise work
    double memory_bandwidth_bytes_per_second = 0;
    int sm_count = 0;  // 0 = no wave quantisation (unknown)
    EfficiencyFactors efficiency;
    // This CPU's measured kernel factors (hardware/machine_kernel_factors.h): when set, the kernel
    // classes below take their times from them (cpu_kernel_time.h) instead of peaks and factors.
    const CpuKernelFactors *cpu = nullptr;
};
KernelMachine kernelMachine(const Accelerator &accelerator, double matmul_peak_flops_per_second);
// The machine for a training precision: FP8 matmuls at the FP8 peak, attention at the BF16 one.
KernelMachine kernelMachine(const Accelerator &accelerator, double matmul_peak_flops_per_second, DType matmul_dtype);

struct KernelTime {
    double seconds = 0;
    double efficiency = 0;  // achieved / matmul peak (matmuls), achieved / bandwidth (streaming)
    bool memory_bound = false;
};

// The factors a matrix product's shape imposes (NVIDIA Deep Learning Performance Guide, "Matrix
// Multiplication Background": tile quantisation, wave quantisation; a skinny product gets a smaller
// tile, the next power of two of its side but at least 16), times the depth factor
// k / (k + gemm_fixed_cost_depth) and gemm_peak_fraction.
struct GemmEfficiency {
    double tile_quantisation = 1;  // m·n / (whole tiles' m·n)
    double wave_quantisation = 1;  // tiles / (waves · SMs)
    double depth = 1;              // k / (k + fixed cost depth)
    double total = 1;              // product of the above and gemm_peak_fraction
};
GemmEfficiency gemmEfficiency(const GemmShape &shape, const KernelMachine &machine);

// The tiling behind gemmEfficiency, exposed so a picture of tiles and waves (kernels/gemm_waves.h)
// shows exactly what the model computes: the thread-block tile (shrunk for a skinny product), the
// tiles per side, all tiles of the batch, and the waves of sm_count tiles they run in (0 when the
// SM count is unknown). Empty (all 0) for a degenerate shape.
struct GemmTiling {
    double tile_rows = 0;
    double tile_columns = 0;
    double row_tiles = 0;
    double column_tiles = 0;
    double tiles = 0;  // ⌈batch⌉ · row_tiles · column_tiles
    double waves = 0;  // ⌈tiles / sm_count⌉
};
GemmTiling gemmTiling(const GemmShape &shape, const KernelMachine &machine);

// max(FLOPs / (peak · efficiency), bytes / (bandwidth · memory fraction)) + kernel overhead.
KernelTime gemmTime(const GemmShape &shape, double bytes, const KernelMachine &machine);
// Element-wise, norm, softmax, optimizer: max(bytes at the sustained bandwidth, FLOPs at the
// vector peak) + kernel overhead.
// `launches` is the number of kernels the work takes (fewer than one per operator when fused).
// `operator_name` (the operator list's) picks the kernel's measured rate on a CPU (cpu_kernel_time.h).
KernelTime streamingTime(double flops, double bytes, const KernelMachine &machine, double launches = 1,
                         std::string_view operator_name = {});
// FlashAttention: its FLOPs at flash_attention_fraction of the peak, times keys / (keys +
// gemm_fixed_cost_depth) — a query tile's fixed cost (loading Q, the final rescale, writing O) is
// spread over the keys its loop visits as a GEMM tile's is over k — or its bytes at the sustained
// bandwidth if that is longer (short sequences) + kernel overhead. `keys` is the keys a query visits
// on average (half the sequence under a causal mask); 0 leaves the depth factor out.
KernelTime flashAttentionTime(double flops, double bytes, const KernelMachine &machine, double keys = 0);

}  // namespace lse::performance
