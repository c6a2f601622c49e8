// SPDX-License-Identifier: GPL-3.0-or-later
#include "performance/cpu_kernel_time.h"

#include "ops/flop_rules.h"

#include <algorithm>
#include <cmath>
#include <limits>

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

namespace {

// log rate interpolated linearly in the logs of the coordinates over a grid of axes.size()
// dimensions stored row-major (the last axis fastest); below the grid the rate shrinks with the
// size in that dimension (a call costs what the smallest measured one does), above it is held.
double interpolatedRate(const std::vector<const std::vector<double> *> &axes, const std::vector<double> &table,
                        const std::vector<double> &at)
{
    std::size_t cells = 1;
    for (const std::vector<double> *axis : axes)
        cells *= axis->size();
    if (cells == 0 || table.size() != cells)
        return 0;
    const std::size_t dims = axes.size();
    std::vector<AxisPosition> positions(dims);
    for (std::size_t d = 0; d < dims; ++d)
        positions[d] = axisPosition(*axes[d], at[d]);
    double log_rate = 0;
    for (std::size_t corner = 0; corner < (std::size_t(1) << dims); ++corner) {
        double weight = 1;
        std::size_t index = 0;
        for (std::size_t d = 0; d < dims; ++d) {
            const bool upper = (corner >> d) & 1u;
            const AxisPosition &p = positions[d];
            weight *= upper ? p.fraction : 1 - p.fraction;
            const std::size_t i = axes[d]->size() == 1 ? 0 : p.index + (upper ? 1 : 0);
            index = index * axes[d]->size() + i;
        }
        if (weight > 0)
            log_rate += weight * std::log(table[index]);
    }
    double rate = std::exp(log_rate);
    for (std::size_t d = 0; d < dims; ++d)
        if (at[d] > 0 && at[d] < axes[d]->front())
            rate *= at[d] / axes[d]->front();
    return rate;
}

}  // namespace

double cpuGemmFlopsPerSecond(const CpuKernelFactors &factors, double m, double n, double k, GemmPass pass)
{
    const std::vector<double> &table = pass == GemmPass::WeightGradient ? factors.gemm_weight_gradient_flops_per_second
                                                                        : factors.gemm_flops_per_second;
    const std::vector<double> *axis = &factors.gemm_axis;
    return interpolatedRate({axis, axis, axis}, table, {m, n, k});
}

double cpuAttentionFlopsPerSecond(const CpuKernelFactors &factors, BatchedProduct product, bool backward, double seq,
                                  double head_dim)
{
    const bool scores = product == BatchedProduct::AttentionScores;
    const std::vector<double> &table = scores ? (backward ? factors.attention_scores_backward_flops_per_second
                                                          : factors.attention_scores_forward_flops_per_second)
                                              : (backward ? factors.attention_values_backward_flops_per_second
                                                          : factors.attention_values_forward_flops_per_second);
    return interpolatedRate({&factors.attention_seq_axis, &factors.attention_head_dim_axis}, table, {seq, head_dim});
}

namespace {

// A rate measured against the working set, interpolated linearly in log bytes of log rate.
double workingSetRate(const std::vector<double> &sizes, const std::vector<double> &rates, double bytes)
{
    if (sizes.empty() || rates.size() != sizes.size())
        return 0;
    if (sizes.size() == 1)
        return rates.front();
    const AxisPosition p = axisPosition(sizes, bytes);
    return std::exp((1 - p.fraction) * std::log(rates[p.index]) + p.fraction * std::log(rates[p.index + 1]));
}

}  // namespace

double cpuStreamBytesPerSecond(const CpuKernelFactors &factors, double bytes)
{
    return workingSetRate(factors.stream_working_set_bytes, factors.stream_bytes_per_second, bytes);
}

double cpuGemvBytesPerSecond(const CpuKernelFactors &factors, double bytes)
{
    return workingSetRate(factors.stream_working_set_bytes, factors.gemv_bytes_per_second, bytes);
}

double cpuTiledAttentionFlopsPerSecond(const CpuKernelFactors &factors, double seq, double head_dim)
{
    if (factors.attention_tiled_forward_flops_per_second.empty())
        return 0;
    return interpolatedRate({&factors.attention_seq_axis, &factors.attention_head_dim_axis},
                            factors.attention_tiled_forward_flops_per_second, {seq, head_dim});
}

namespace {

// Seconds of one product of `rows` rows at (n, k) on the table. Below the grid's smallest m, the line
// through the two smallest m of the grid (time = fixed + per-row · m), as Eigen's blocked product
// packs the right operand once per call whatever m is, then runs its kernel over the rows.
double tableProductSeconds(const CpuKernelFactors &factors, double rows, double n, double k, GemmPass pass)
{
    const std::vector<double> &axis = factors.gemm_axis;
    const auto seconds = [&](double m) { return 2.0 * m * n * k / cpuGemmFlopsPerSecond(factors, m, n, k, pass); };
    if (axis.size() < 2 || rows >= axis.front())
        return seconds(rows);
    const double m0 = axis[0], m1 = axis[1];
    const double t0 = seconds(m0), t1 = seconds(m1);
    const double per_row = std::max(0.0, (t1 - t0) / (m1 - m0));
    return std::max(0.0, t0 - (m0 - rows) * per_row);
}

// Seconds of the reference's few-row product (2 to kBlockedVectorMaxRows rows) from its measured
// rates: seconds per byte interpolated linearly in rows between the measured row counts (the
// time of the blocked loop grows by one L2 pass of W per row), for this product's bytes; then the
// one pass of W that comes from the working set moved from the table's working set to this one's
// (the one-row rates at both). Never below reading W once from the working set.
double blockedVectorSeconds(const CpuKernelFactors &factors, double rows, double n, double k, double working_set)
{
    const std::vector<double> &axis = factors.blocked_vector_rows_axis;
    const std::vector<double> &rates = factors.blocked_vector_bytes_per_second;
    std::size_t i = 0;
    while (i + 2 < axis.size() && rows > axis[i + 1])
        ++i;
    double perByte = 1 / rates[i];
    if (axis.size() >= 2) {
        const double t = (rows - axis[i]) / (axis[i + 1] - axis[i]);
        perByte = std::max(0.0, (1 - t) / rates[i] + t / rates[i + 1]);
    }
    const double matrix = 4.0 * n * k;
    const double bytes = matrix + 4.0 * rows * (n + k);
    const double here = cpuGemvBytesPerSecond(factors, working_set);
    const double there = cpuGemvBytesPerSecond(factors, factors.blocked_vector_working_set_bytes);
    double seconds = bytes * perByte;
    if (here > 0 && there > 0)
        seconds += matrix * (1 / here - 1 / there);
    return std::max(seconds, here > 0 ? matrix / here : 0.0);
}

}  // namespace

KernelTime cpuGemmTime(const GemmShape &shape, const CpuKernelFactors &factors, double working_set_bytes)
{
    KernelTime time;
    const double flops = shape.flops();
    if (flops <= 0)
        return time;
    const int threads = std::max(1, factors.threads);
    if (shape.product != BatchedProduct::None) {
        // Two of (m, n, k) are the sequence T, the third the head dim: (T, T, Dh) for Q·Kᵀ and
        // dO·Vᵀ, (T, Dh, T) for P·V, dS·K and Pᵀ·dO, (Dh, T, T) as the step predictor writes dSᵀ·Q.
        const double seq = shape.m == shape.n ? shape.m : shape.m == shape.k ? shape.m : shape.n;
        const double head_dim = shape.m == shape.n ? shape.k : shape.m == shape.k ? shape.n : shape.m;
        const bool backward = shape.pass != GemmPass::Forward;
        const double rate = cpuAttentionFlopsPerSecond(factors, shape.product, backward, seq, head_dim);
        const double rounds = std::ceil(std::ceil(shape.batch) / threads);
        // A backward kernel runs both products in one loop: each is half its rounds, call and region.
        const double share = backward ? 0.5 : 1.0;
        time.seconds = rounds * 2.0 * shape.m * shape.n * shape.k / rate +
                       share * (factors.call_overhead_seconds + (threads > 1 ? factors.barrier_seconds : 0.0));
    } else {
        // Any batch of products: as one product of batch·m rows.
        const double rows = std::max(1.0, shape.batch) * shape.m;
        const double bytes = 4.0 * (rows * shape.k + std::max(1.0, shape.batch) * shape.k * shape.n + rows * shape.n);
        const double working_set = std::max(bytes, working_set_bytes);
        if (rows <= 1) {
            // Eigen runs a one-row product as a matrix-vector product, which streams the matrix
            // once: its measured bytes per second against the working set.
            const double bandwidth = cpuGemvBytesPerSecond(factors, working_set);
            time.seconds = bandwidth > 0 ? bytes / bandwidth : 0;
            time.memory_bound = true;
        } else if (rows <= kBlockedVectorMaxRows && shape.batch <= 1 && !factors.blocked_vector_rows_axis.empty()) {
            time.seconds = blockedVectorSeconds(factors, rows, shape.n, shape.k, working_set);
            time.memory_bound = true;
        } else if (rows <= kBlockedVectorMaxRows && shape.batch <= 1) {
            // The reference's few-row product without its own measurement (a cache from before it):
            // the first row's matrix-vector products read W from the working set, every other
            // row's read the same block again from L2 (the one-row bandwidth at a working set of
            // one block).
            const double matrix = 4.0 * shape.k * shape.n;
            const double first = cpuGemvBytesPerSecond(factors, working_set);
            const double again = cpuGemvBytesPerSecond(factors, std::min(kBlockedVectorBytes, matrix));
            time.seconds = (first > 0 ? (bytes - (rows - 1) * 4.0 * (shape.k + shape.n)) / first : 0)
                + (again > 0 ? (rows - 1) * (matrix + 4.0 * (shape.k + shape.n)) / again : 0);
            time.memory_bound = true;
        } else {
            time.seconds = tableProductSeconds(factors, rows, shape.n, shape.k, shape.pass);
            // Reading the operands and writing the product (float32) at the stream bandwidth.
            const double bandwidth = cpuStreamBytesPerSecond(factors, working_set);
            const double memory = bandwidth > 0 ? bytes / bandwidth : 0;
            time.memory_bound = memory > time.seconds;
            time.seconds = std::max(time.seconds, memory);
        }
    }
    const double best = factors.gemm_flops_per_second.empty()
        ? 0
        : *std::max_element(factors.gemm_flops_per_second.begin(), factors.gemm_flops_per_second.end());
    time.efficiency = best > 0 ? flops / (best * time.seconds) : 0;
    return time;
}

double cpuDecodeAttentionFlopsPerSecond(const CpuKernelFactors &factors, double keys, double head_dim)
{
    return interpolatedRate({&factors.decode_attention_keys_axis, &factors.attention_head_dim_axis},
                            factors.decode_attention_flops_per_second, {keys, head_dim});
}

KernelTime cpuDecodeAttentionTime(double flops, double sequences, double heads, double kv_heads, double keys,
                                  double head_dim, const CpuKernelFactors &factors)
{
    KernelTime time;
    if (flops <= 0 || sequences <= 0)
        return time;
    const int threads = std::max(1, factors.threads);
    const double rate = cpuDecodeAttentionFlopsPerSecond(factors, keys, head_dim);
    // decodeAttentionBatch splits its loop over threads from two sequences and kParallelMinElements
    // multiply-adds (keys · heads · head dim over the batch) on: ⌈sequences / threads⌉ rounds of one
    // sequence; below that all of them run one after another on one thread. One sequence is split
    // over its KV heads from kParallelMinElements multiply-adds on: ⌈kv_heads / threads⌉ of its
    // kv_heads groups per thread.
    double share = 0;  // of one sequence's FLOPs, on the slowest thread
    bool parallel = false;
    if (sequences > 1) {
        parallel = threads > 1 && sequences * keys * heads * head_dim >= kParallelMinElements;
        share = parallel ? std::ceil(sequences / threads) : sequences;
    } else {
        parallel = threads > 1 && kv_heads > 1 && keys * heads * head_dim >= kParallelMinElements;
        share = parallel ? std::ceil(kv_heads / threads) / kv_heads : 1.0;
    }
    time.seconds = (rate > 0 ? share * flops / sequences / rate : 0) + factors.call_overhead_seconds
        + (parallel ? factors.barrier_seconds : 0.0);
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
    if (name == "softmax" || name == "rope" || name == "cross_entropy" || name == "sampling")
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

double cpuElementwiseFlopsPerElement(std::string_view kernel)
{
    if (kernel == "norm")
        return flop_rules::kRmsNorm;
    if (kernel == "residual")
        return flop_rules::kResidual;
    if (kernel == "activation")
        return flop_rules::kSwiGLU;
    if (kernel == "rope")
        return flop_rules::kRope;
    if (kernel == "cross_entropy")
        return flop_rules::kCrossEntropy;
    return 0;
}

double cpuParallelMinElements(const CpuKernelFactors &factors, std::string_view kernel)
{
    const double perElementFlops = cpuElementwiseFlopsPerElement(kernel);
    if (perElementFlops <= 0)
        return kernel == "activation" ? kParallelMinElements / 8 : kParallelMinElements;
    if (factors.threads <= 1)
        return std::numeric_limits<double>::infinity();
    double rate = 0;
    for (std::size_t i = 0; i < factors.elementwise_kernels.size() && i < factors.elementwise_kernel_flops_per_second.size(); ++i)
        if (factors.elementwise_kernels[i] == kernel)
            rate = factors.elementwise_kernel_flops_per_second[i];
    const double bandwidth = factors.stream_bytes_per_second.empty() ? 0 : factors.stream_bytes_per_second.front();
    const double bytesPerElement = kernel == "residual" ? 12.0 : 8.0;  // read, (read,) write float32
    const double secondsPerElement =
        std::max(rate > 0 ? perElementFlops / rate : 0.0, bandwidth > 0 ? bytesPerElement / bandwidth : 0.0);
    if (factors.barrier_seconds <= 0 || secondsPerElement <= 0)
        return kernel == "activation" ? kParallelMinElements / 8 : kParallelMinElements;
    const double elements = factors.barrier_seconds / ((factors.threads - 1) * secondsPerElement);
    return std::max(kParallelMinElementsFloor, std::ceil(elements));
}

KernelTime cpuStreamingTime(double flops, double bytes, const CpuKernelFactors &factors, double calls,
                            std::string_view operator_name, double rows)
{
    KernelTime time;
    if (flops <= 0 && bytes <= 0)
        return time;
    const double bandwidth = cpuStreamBytesPerSecond(factors, bytes);
    const double memory = bandwidth > 0 ? bytes / bandwidth : 0;
    const double rate = cpuElementwiseFlopsPerSecond(factors, operator_name);
    const double compute = rate > 0 ? flops / rate : 0;
    time.memory_bound = memory >= compute;
    // Elements of one call: for the kernels with a FLOP rule per element, FLOPs / that rule; else
    // bytes / 8 (float32, about one read and one write each). Below the kernel's threshold, the
    // one the reference uses on this machine (cpuParallelMinElements), its loop stays on one thread.
    const std::string_view kernel = cpuElementwiseKernel(operator_name);
    const double perElementFlops = cpuElementwiseFlopsPerElement(kernel);
    const double elements = (perElementFlops > 0 && flops > 0 ? flops / perElementFlops : bytes / 8.0) / std::max(1.0, calls);
    // The row kernels (all but the residual add) split their rows: one row stays on one thread.
    const bool splittable = rows <= 0 || rows / std::max(1.0, calls) >= 2 || kernel == "residual" || perElementFlops <= 0;
    const bool parallel = factors.threads > 1 && splittable && elements >= cpuParallelMinElements(factors, kernel);
    time.seconds = std::max(memory, compute) + calls * (factors.call_overhead_seconds + (parallel ? factors.barrier_seconds : 0.0));
    time.efficiency = bandwidth > 0 ? bytes / (bandwidth * time.seconds) : 0;
    return time;
}

}  // namespace lse::performance
