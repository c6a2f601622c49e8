// SPDX-License-Identifier: GPL-3.0-or-later
#include "performance/kernel_time.h"

#include "performance/cpu_kernel_time.h"

#include <algorithm>
#include <cmath>

namespace lse::performance {

KernelMachine kernelMachine(const Accelerator &accelerator, double matmul_peak_flops_per_second)
{
    KernelMachine machine;
    machine.matmul_peak_flops_per_second = matmul_peak_flops_per_second;
    machine.vector_peak_flops_per_second = accelerator.dense_peak.fp32_flops_per_second > 0
        ? accelerator.dense_peak.fp32_flops_per_second
        : matmul_peak_flops_per_second;
    machine.memory_bandwidth_bytes_per_second = accelerator.memory_bandwidth_bytes_per_second;
    machine.sm_count = accelerator.sm_count;
    machine.efficiency = accelerator.efficiency;
    machine.attention_peak_flops_per_second = matmul_peak_flops_per_second;
    return machine;
}

KernelMachine kernelMachine(const Accelerator &accelerator, double matmul_peak_flops_per_second, DType matmul_dtype)
{
    KernelMachine machine = kernelMachine(accelerator, matmul_peak_flops_per_second);
    if (matmul_dtype == DType::FP8) {
        machine.fp8_matmuls = true;
        const double bf16 = accelerator.dense_peak.forDType(DType::BF16);
        if (bf16 > 0)
            machine.attention_peak_flops_per_second = bf16;
    }
    return machine;
}

GemmTiling gemmTiling(const GemmShape &shape, const KernelMachine &machine)
{
    GemmTiling t;
    if (shape.m <= 0 || shape.n <= 0 || shape.k <= 0 || shape.batch <= 0)
        return t;
    const EfficiencyFactors &f = machine.efficiency;
    // Libraries pick a smaller tile for a skinny product (CUTLASS and cuBLAS ship tiles from 16 to
    // 256 per side): the side shrinks to the next power of two of the dimension, not below 16.
    const auto tileSide = [](double configured, double dimension) {
        return std::min(configured, std::max(16.0, std::exp2(std::ceil(std::log2(std::max(1.0, dimension))))));
    };
    t.tile_rows = tileSide(std::max(1, f.gemm_tile_rows), shape.m);
    t.tile_columns = tileSide(std::max(1, f.gemm_tile_columns), shape.n);
    t.row_tiles = std::ceil(shape.m / t.tile_rows);
    t.column_tiles = std::ceil(shape.n / t.tile_columns);
    t.tiles = std::ceil(shape.batch) * t.row_tiles * t.column_tiles;
    if (machine.sm_count > 0)
        t.waves = std::ceil(t.tiles / machine.sm_count);
    return t;
}

GemmEfficiency gemmEfficiency(const GemmShape &shape, const KernelMachine &machine)
{
    const EfficiencyFactors &f = machine.efficiency;
    GemmEfficiency e;
    const double peak_fraction = machine.fp8_matmuls ? f.fp8_gemm_peak_fraction : f.gemm_peak_fraction;
    if (shape.m <= 0 || shape.n <= 0 || shape.k <= 0 || shape.batch <= 0) {
        e.total = peak_fraction;
        return e;
    }
    const GemmTiling t = gemmTiling(shape, machine);
    e.tile_quantisation = (shape.m * shape.n) / (t.row_tiles * t.tile_rows * t.column_tiles * t.tile_columns);
    // Every SM runs one tile at a time; the last wave may leave SMs idle.
    if (machine.sm_count > 0)
        e.wave_quantisation = t.tiles / (t.waves * machine.sm_count);
    e.depth = shape.k / (shape.k + f.gemm_fixed_cost_depth);
    e.total = peak_fraction * e.tile_quantisation * e.wave_quantisation * e.depth;
    return e;
}

namespace {

double sustainedBandwidth(const KernelMachine &machine)
{
    return machine.memory_bandwidth_bytes_per_second * machine.efficiency.memory_bandwidth_fraction;
}

}  // namespace

KernelTime gemmTime(const GemmShape &shape, double bytes, const KernelMachine &machine)
{
    if (machine.cpu)
        return cpuGemmTime(shape, *machine.cpu);
    KernelTime time;
    const double flops = shape.flops();
    if (flops <= 0)
        return time;
    const double efficiency = gemmEfficiency(shape, machine).total;
    const double compute = flops / (machine.matmul_peak_flops_per_second * efficiency);
    const double memory = bytes / sustainedBandwidth(machine);
    time.memory_bound = memory > compute;
    time.seconds = std::max(compute, memory) + machine.efficiency.kernel_overhead_seconds;
    time.efficiency = flops / (machine.matmul_peak_flops_per_second * time.seconds);
    return time;
}

KernelTime streamingTime(double flops, double bytes, const KernelMachine &machine, double launches,
                         std::string_view operator_name)
{
    if (machine.cpu)
        return cpuStreamingTime(flops, bytes, *machine.cpu, launches, operator_name);
    KernelTime time;
    if (flops <= 0 && bytes <= 0)
        return time;
    const double memory = bytes / sustainedBandwidth(machine);
    const double compute = flops / machine.vector_peak_flops_per_second;
    time.memory_bound = memory >= compute;
    time.seconds = std::max(memory, compute) + launches * machine.efficiency.kernel_overhead_seconds;
    time.efficiency = bytes / (machine.memory_bandwidth_bytes_per_second * time.seconds);
    return time;
}

KernelTime flashAttentionTime(double flops, double bytes, const KernelMachine &machine, double keys)
{
    KernelTime time;
    if (flops <= 0)
        return time;
    const double peak = machine.attention_peak_flops_per_second > 0 ? machine.attention_peak_flops_per_second
                                                                     : machine.matmul_peak_flops_per_second;
    const double depth = keys > 0 ? keys / (keys + machine.efficiency.gemm_fixed_cost_depth) : 1.0;
    const double fraction = depth * (machine.flash_attention3 ? machine.efficiency.flash_attention3_fraction
                                                              : machine.efficiency.flash_attention_fraction);
    const double compute = flops / (peak * fraction);
    const double memory = bytes / sustainedBandwidth(machine);
    time.memory_bound = memory > compute;
    time.seconds = std::max(compute, memory) + machine.efficiency.kernel_overhead_seconds;
    time.efficiency = flops / (peak * time.seconds);
    return time;
}

}  // namespace lse::performance
