// SPDX-License-Identifier: GPL-3.0-or-later
// This CPU's kernel factors as tests give them (not measured): GEMMs (both forms) at one rate over a
// two-point (m, n, k) axis, the attention kernels at one rate per round over a two-point
// (sequence, head dim) grid, decode attention at the same rate over (keys 16, 256) × that head-dim
// axis, streaming and one-row products at 30 GB/s in cache and 10 GB/s from memory, element-wise
// kernels at `elementwise_flops_per_second`, 1 µs per call. Tests change the fields their case is about.
#pragma once

#include "hardware/machine_kernel_factors.h"

#include <string>

namespace lse::test {

inline CpuKernelFactors givenCpuKernelFactors(int threads, double gemm_flops_per_second, double attention_flops_per_second,
                                              double elementwise_flops_per_second, std::string measured_at)
{
    CpuKernelFactors f;
    f.threads = threads;
    f.gemm_axis = {16, 256};
    f.gemm_flops_per_second.assign(8, gemm_flops_per_second);  // the 2×2×2 (m, n, k) grid
    f.gemm_weight_gradient_flops_per_second.assign(8, gemm_flops_per_second);
    f.attention_seq_axis = {16, 256};
    f.attention_head_dim_axis = {16, 128};
    for (std::vector<double> *table : {&f.attention_scores_forward_flops_per_second, &f.attention_values_forward_flops_per_second,
                                       &f.attention_scores_backward_flops_per_second, &f.attention_values_backward_flops_per_second})
        table->assign(4, attention_flops_per_second);
    f.decode_attention_keys_axis = {16, 256};
    f.decode_attention_flops_per_second.assign(4, attention_flops_per_second);
    f.stream_working_set_bytes = {1e4, 1e8};
    f.stream_bytes_per_second = {30e9, 10e9};
    f.gemv_bytes_per_second = {30e9, 10e9};
    f.elementwise_flops_per_second = elementwise_flops_per_second;
    f.call_overhead_seconds = 1e-6;
    f.measured_at = std::move(measured_at);
    return f;
}

}  // namespace lse::test
