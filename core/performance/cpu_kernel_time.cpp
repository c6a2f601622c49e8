// SPDX-License-Identifier: GPL-3.0-or-later
#include "performance/cpu_kernel_time.h"

#include <algorithm>
#include <cmath>

namespace lse::performance {

namespace {

// Position of log(x) among log(axis): the cell's lower index and the fraction towards the next one,
// clamped to the grid.
struct AxisPosition {
    std::size_t index = 0;
    double fraction = 0;
};

AxisPosition axisPosition(const std::vector<double> &axis, double x)
{
    AxisPosition p;
    if (axis.size() < 2 || x <= axis.front())
        return p;
    if (x >= axis.back())
        return {axis.size() - 2, 1.0};
    std::size_t i = 0;
    while (i + 2 < axis.size() && x > axis[i + 1])
        ++i;
    p.index = i;
    p.fraction = (std::log(x) - std::log(axis[i])) / (std::log(axis[i + 1]) - std::log(axis[i]));
    return p;
}

}  // namespace

double cpuGemmFlopsPerSecond(const CpuKernelFactors &factors, double m, double n, double k, bool one_thread)
{
    const std::vector<double> &axis = factors.gemm_axis;
    const std::vector<double> &table = one_thread ? factors.gemm_flops_per_second_one_thread : factors.gemm_flops_per_second;
    const std::size_t s = axis.size();
    if (s == 0 || table.size() != s * s * s)
        return 0;
    const auto at = [&](std::size_t i, std::size_t j, std::size_t l) { return std::log(table[(i * s + j) * s + l]); };
    if (s == 1)
        return table.front();
    const AxisPosition pm = axisPosition(axis, m), pn = axisPosition(axis, n), pk = axisPosition(axis, k);
    double log_rate = 0;
    for (int a = 0; a < 2; ++a)
        for (int b = 0; b < 2; ++b)
            for (int c = 0; c < 2; ++c) {
                const double weight = (a ? pm.fraction : 1 - pm.fraction) * (b ? pn.fraction : 1 - pn.fraction) *
                                      (c ? pk.fraction : 1 - pk.fraction);
                if (weight > 0)
                    log_rate += weight * at(pm.index + std::size_t(a), pn.index + std::size_t(b), pk.index + std::size_t(c));
            }
    double rate = std::exp(log_rate);
    // Below the grid a product costs what the smallest measured one does: its rate shrinks with
    // its size in that dimension.
    for (double x : {m, n, k})
        if (x > 0 && x < axis.front())
            rate *= x / axis.front();
    return rate;
}

double cpuStreamBytesPerSecond(const CpuKernelFactors &factors, double bytes)
{
    const std::vector<double> &sizes = factors.stream_working_set_bytes;
    const std::vector<double> &rates = factors.stream_bytes_per_second;
    if (sizes.empty() || rates.size() != sizes.size())
        return 0;
    if (sizes.size() == 1)
        return rates.front();
    const AxisPosition p = axisPosition(sizes, bytes);
    return std::exp((1 - p.fraction) * std::log(rates[p.index]) + p.fraction * std::log(rates[p.index + 1]));
}

KernelTime cpuGemmTime(const GemmShape &shape, const CpuKernelFactors &factors)
{
    KernelTime time;
    const double flops = shape.flops();
    if (flops <= 0)
        return time;
    const int threads = std::max(1, factors.threads);
    if (shape.batch > 1) {
        // One product per loop iteration, each on one thread; the loop is one parallel region.
        const double one = 2.0 * shape.m * shape.n * shape.k /
                           cpuGemmFlopsPerSecond(factors, shape.m, shape.n, shape.k, true);
        const double rounds = std::ceil(std::ceil(shape.batch) / threads);
        time.seconds = rounds * one + factors.call_overhead_seconds + (threads > 1 ? factors.barrier_seconds : 0.0);
    } else {
        time.seconds = flops / cpuGemmFlopsPerSecond(factors, shape.m, shape.n, shape.k);
    }
    const double best = factors.gemm_flops_per_second.empty()
        ? 0
        : *std::max_element(factors.gemm_flops_per_second.begin(), factors.gemm_flops_per_second.end());
    time.efficiency = best > 0 ? flops / (best * time.seconds) : 0;
    return time;
}

std::string_view cpuElementwiseKernel(std::string_view name)
{
    const auto endsWith = [name](std::string_view tail) {
        return name.size() >= tail.size() && name.substr(name.size() - tail.size()) == tail;
    };
    if (endsWith("_norm"))
        return "norm";
    if (endsWith("_residual") || name == "position_embedding_add")
        return "residual";
    if (name == "mlp_activation")
        return "activation";
    if (name == "softmax" || name == "rope" || name == "cross_entropy")
        return name;
    return {};
}

double cpuElementwiseFlopsPerSecond(const CpuKernelFactors &factors, std::string_view operator_name)
{
    const std::string_view kernel = cpuElementwiseKernel(operator_name);
    for (std::size_t i = 0; !kernel.empty() && i < factors.elementwise_kernels.size(); ++i)
        if (factors.elementwise_kernels[i] == kernel && i < factors.elementwise_kernel_flops_per_second.size())
            return factors.elementwise_kernel_flops_per_second[i];
    return factors.elementwise_flops_per_second;
}

KernelTime cpuStreamingTime(double flops, double bytes, const CpuKernelFactors &factors, double calls,
                            std::string_view operator_name)
{
    KernelTime time;
    if (flops <= 0 && bytes <= 0)
        return time;
    const double bandwidth = cpuStreamBytesPerSecond(factors, bytes);
    const double memory = bandwidth > 0 ? bytes / bandwidth : 0;
    const double rate = cpuElementwiseFlopsPerSecond(factors, operator_name);
    const double compute = rate > 0 ? flops / rate : 0;
    time.memory_bound = memory >= compute;
    // Elements of one call (float32, about one read and one write each): below the threshold the
    // reference's loop stays on one thread.
    const bool parallel = factors.threads > 1 && bytes / std::max(1.0, calls) / 8.0 >= kParallelMinElements;
    time.seconds = std::max(memory, compute) + calls * (factors.call_overhead_seconds + (parallel ? factors.barrier_seconds : 0.0));
    time.efficiency = bandwidth > 0 ? bytes / (bandwidth * time.seconds) : 0;
    return time;
}

}  // namespace lse::performance
