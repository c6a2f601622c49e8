// SPDX-License-Identifier: GPL-3.0-or-later
// The time one kernel takes on an accelerator, by kernel class: a matrix product whose efficiency
// depends on its shape, a streaming kernel bound by HBM bandwidth, a fused attention kernel.
#pragma once

#include "hardware/accelerator.h"

#include <cstdint>

namespace lse::performance {

// batch independent products (m x k)·(k x n).
struct GemmShape {
    double batch = 1;
    double m = 0;
    double n = 0;
    double k = 0;
    double flops() const { return 2.0 * batch * m * n * k; }
};

// What limits an accelerator's kernels: its peaks and its efficiency factors.
struct KernelMachine {
    double matmul_peak_flops_per_second = 0;  // dense peak of the matmul dtype (or the override)
    double vector_peak_flops_per_second = 0;  // non-tensor (fp32) rate for element-wise work
    double memory_bandwidth_bytes_per_second = 0;
    int sm_count = 0;  // 0 = no wave quantisation (unknown)
    EfficiencyFactors efficiency;
};
KernelMachine kernelMachine(const Accelerator &accelerator, double matmul_peak_flops_per_second);

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

// max(FLOPs / (peak · efficiency), bytes / (bandwidth · memory fraction)) + kernel overhead.
KernelTime gemmTime(const GemmShape &shape, double bytes, const KernelMachine &machine);
// Element-wise, norm, softmax, optimizer: max(bytes at the sustained bandwidth, FLOPs at the
// vector peak) + kernel overhead.
KernelTime streamingTime(double flops, double bytes, const KernelMachine &machine);
// FlashAttention: its FLOPs at flash_attention_fraction of the matmul peak, or its bytes at the
// sustained bandwidth if that is longer (short sequences) + kernel overhead.
KernelTime flashAttentionTime(double flops, double bytes, const KernelMachine &machine);

}  // namespace lse::performance
