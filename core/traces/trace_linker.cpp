// SPDX-License-Identifier: GPL-3.0-or-later
#include "traces/trace_linker.h"

#include "traces/kernel_classifier.h"
#include "traces/op_shape_flops.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

namespace lse::traces {

namespace {

// Sorts the operators by thread, then start, longer first (a parent before the children that
// start with it), and gives each its parent: the innermost earlier operator of the thread that is
// still open when it starts.
void nestOperators(TraceRank &rank)
{
    std::vector<TraceCpuOp> &ops = rank.cpu_ops;
    std::sort(ops.begin(), ops.end(), [](const TraceCpuOp &a, const TraceCpuOp &b) {
        if (a.thread != b.thread)
            return a.thread < b.thread;
        if (a.start_us != b.start_us)
            return a.start_us < b.start_us;
        return a.duration_us > b.duration_us;
    });
    std::vector<std::int32_t> open;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        if (i > 0 && ops[i].thread != ops[i - 1].thread)
            open.clear();
        while (!open.empty() && ops[static_cast<std::size_t>(open.back())].endUs() <= ops[i].start_us)
            open.pop_back();
        ops[i].parent = open.empty() ? -1 : open.back();
        open.push_back(static_cast<std::int32_t>(i));
    }
}

// FLOPs and bytes of every operator: what its producer recorded (args.flops, args.bytes) when it
// recorded them, since it knew the call (a backward product's shapes are the forward's, its
// FLOPs twice theirs), else the importer's rules on the recorded shapes (op_shape_flops.h).
void costOperators(TraceRank &rank)
{
    std::vector<std::string> types;
    for (TraceCpuOp &op : rank.cpu_ops) {
        const std::string &name = rank.text(op.name);
        if (!op.input_dims.empty() && (isMatmulOperator(name) || isAttentionOperator(name))) {
            types.clear();
            for (TextId type : op.input_types)
                types.push_back(rank.text(type));
            const OpCost cost = operatorCost(name, op.input_dims, types);
            op.flops = cost.flops;
            op.bytes = cost.bytes;
        }
        if (op.recorded_flops >= 0)
            op.flops = op.recorded_flops;
        if (op.recorded_bytes >= 0)
            op.bytes = op.recorded_bytes;
    }
}

// The thread's operators, for finding the innermost one open at a time.
struct ThreadRange {
    std::size_t begin = 0;
    std::size_t end = 0;
};

std::int32_t innermostAt(const TraceRank &rank, const ThreadRange &range, double t_us)
{
    const auto first = rank.cpu_ops.begin() + static_cast<std::ptrdiff_t>(range.begin);
    const auto last = rank.cpu_ops.begin() + static_cast<std::ptrdiff_t>(range.end);
    // The last operator that starts at or before t; then up its parents to one still open at t.
    auto it = std::upper_bound(first, last, t_us, [](double t, const TraceCpuOp &op) { return t < op.start_us; });
    if (it == first)
        return -1;
    std::int32_t index = static_cast<std::int32_t>(std::distance(rank.cpu_ops.begin(), it) - 1);
    while (index >= 0 && rank.cpu_ops[static_cast<std::size_t>(index)].endUs() < t_us)
        index = rank.cpu_ops[static_cast<std::size_t>(index)].parent;
    return index;
}

bool carriesOperatorFlops(KernelClass cls)
{
    return cls == KernelClass::Gemm || cls == KernelClass::Attention || cls == KernelClass::Unknown;
}

}  // namespace

void linkTrace(TraceRank &rank, const TraceLaunches &launches)
{
    nestOperators(rank);
    costOperators(rank);
    std::unordered_map<std::int64_t, ThreadRange> threads;
    for (std::size_t i = 0; i < rank.cpu_ops.size(); ++i) {
        ThreadRange &range = threads[rank.cpu_ops[i].thread];
        if (range.end == 0)
            range.begin = i;
        range.end = i + 1;
    }

    // Per operator: the activities that share its FLOPs, and their summed duration.
    std::vector<double> carried_us(rank.cpu_ops.size(), 0.0);
    std::vector<std::int32_t> carried_count(rank.cpu_ops.size(), 0);
    std::vector<bool> carrier(rank.kernels.size(), false);
    std::int64_t linked = 0;
    for (std::size_t k = 0; k < rank.kernels.size(); ++k) {
        TraceKernel &kernel = rank.kernels[k];
        const std::string &kernel_name = rank.text(kernel.name);
        const char *category = kernel.kernel_class == KernelClass::Memcpy   ? "gpu_memcpy"
                               : kernel.kernel_class == KernelClass::Memset ? "gpu_memset"
                                                                            : "kernel";
        std::int32_t innermost = -1;
        if (kernel.correlation >= 0) {
            const auto launch = launches.find(kernel.correlation);
            if (launch != launches.end()) {
                kernel.launch_start_us = launch->second.start_us;
                kernel.launch_thread = launch->second.thread;
                const auto range = threads.find(launch->second.thread);
                if (range != threads.end())
                    innermost = innermostAt(rank, range->second, launch->second.start_us);
            }
        }
        KernelClass cls = classifyKernel(category, kernel_name, "");
        // The innermost aten operator (a user annotation such as "## forward ##" only when there is
        // none), and up the parents the first that implies a class and the first counted one.
        std::int32_t attributed = -1;
        std::int32_t counted = -1;
        KernelClass nearest_op_class = KernelClass::Unknown;
        for (std::int32_t at = innermost; at >= 0; at = rank.cpu_ops[static_cast<std::size_t>(at)].parent) {
            const TraceCpuOp &op = rank.cpu_ops[static_cast<std::size_t>(at)];
            const std::string &op_name = rank.text(op.name);
            if (attributed < 0 && !op.annotation)
                attributed = at;
            if (nearest_op_class == KernelClass::Unknown && !op.annotation)
                nearest_op_class = classOfOperatorCall(op_name, op.recorded_class);
            if (cls == KernelClass::Unknown) {
                const KernelClass implied = classOfOperatorCall(op_name, op.recorded_class);
                if (implied != KernelClass::Unknown && (!op.annotation || implied == KernelClass::Communication))
                    cls = implied;
            }
            if (counted < 0 && (isMatmulCall(op_name, op.recorded_class) || isAttentionOperator(op_name) ||
                                op.recorded_class == KernelClass::Attention))
                counted = at;
        }
        if (attributed < 0)
            attributed = innermost;
        // cuDNN runs convolutions (and their weight gradients) as CUTLASS/cuBLAS GEMM kernels: under
        // a convolution operator such a GEMM is convolution work.
        if (cls == KernelClass::Gemm && nearest_op_class == KernelClass::Convolution)
            cls = KernelClass::Convolution;
        kernel.kernel_class = cls;
        if (counted >= 0 && carriesOperatorFlops(cls) && rank.cpu_ops[static_cast<std::size_t>(counted)].flops > 0) {
            kernel.op_index = counted;
            carrier[k] = true;
            carried_us[static_cast<std::size_t>(counted)] += kernel.duration_us;
            ++carried_count[static_cast<std::size_t>(counted)];
        } else {
            kernel.op_index = attributed;
        }
        if (kernel.op_index >= 0)
            ++linked;
    }
    // A counted operator's FLOPs and bytes go to its kernels in proportion to their time (a cuBLAS
    // split-K GEMM is two kernels, the product and its reduction); equally when no time was recorded.
    for (std::size_t k = 0; k < rank.kernels.size(); ++k) {
        TraceKernel &kernel = rank.kernels[k];
        if (!carrier[k])
            continue;
        const auto at = static_cast<std::size_t>(kernel.op_index);
        const double share = carried_us[at] > 0 ? kernel.duration_us / carried_us[at] : 1.0 / carried_count[at];
        kernel.flops = rank.cpu_ops[at].flops * share;
        kernel.bytes = rank.cpu_ops[at].bytes * share;
    }
    rank.counts.linked_kernels = linked;
}

}  // namespace lse::traces
