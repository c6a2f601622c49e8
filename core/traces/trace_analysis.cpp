// SPDX-License-Identifier: GPL-3.0-or-later
#include "traces/trace_analysis.h"

#include "traces/kernel_classifier.h"
#include "traces/op_shape_flops.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace lse::traces {

std::vector<TraceInterval> unionOfIntervals(std::vector<TraceInterval> intervals)
{
    std::sort(intervals.begin(), intervals.end(),
              [](const TraceInterval &a, const TraceInterval &b) { return a.start_us < b.start_us; });
    std::vector<TraceInterval> merged;
    for (const TraceInterval &interval : intervals) {
        if (interval.end_us <= interval.start_us)
            continue;
        if (!merged.empty() && interval.start_us <= merged.back().end_us)
            merged.back().end_us = std::max(merged.back().end_us, interval.end_us);
        else
            merged.push_back(interval);
    }
    return merged;
}

double coveredMicroseconds(const std::vector<TraceInterval> &disjoint, double begin_us, double end_us)
{
    double covered = 0;
    for (const TraceInterval &interval : disjoint) {
        const double a = std::max(interval.start_us, begin_us);
        const double b = std::min(interval.end_us, end_us);
        if (b > a)
            covered += b - a;
    }
    return covered;
}

namespace {

constexpr double kSecondsPerMicrosecond = 1e-6;

struct StepFigures {
    TraceTimeBreakdown breakdown;
    double overlap_us = 0;
};

// The breakdown of one step's activities (definitions in the header).
StepFigures breakdownOf(const TraceRank &rank, const std::vector<std::size_t> &activities, double &window_start_us)
{
    StepFigures figures;
    if (activities.empty())
        return figures;
    std::vector<TraceInterval> compute, communication, all, compute_or_communication, queued_or_busy;
    double begin = rank.kernels[activities.front()].start_us;
    double end = begin;
    for (std::size_t at : activities) {
        const TraceKernel &kernel = rank.kernels[at];
        const TraceInterval busy{kernel.start_us, kernel.endUs()};
        begin = std::min(begin, busy.start_us);
        end = std::max(end, busy.end_us);
        all.push_back(busy);
        queued_or_busy.push_back(busy);
        if (kernel.launch_start_us >= 0 && kernel.launch_start_us < kernel.start_us)
            queued_or_busy.push_back(TraceInterval{kernel.launch_start_us, kernel.start_us});
        if (isComputeClass(kernel.kernel_class)) {
            compute.push_back(busy);
            compute_or_communication.push_back(busy);
        } else if (kernel.kernel_class == KernelClass::Communication) {
            communication.push_back(busy);
            compute_or_communication.push_back(busy);
        }
    }
    window_start_us = begin;
    const auto covered = [&](std::vector<TraceInterval> intervals) {
        return coveredMicroseconds(unionOfIntervals(std::move(intervals)), begin, end);
    };
    const double window = end - begin;
    const double p = covered(std::move(compute));
    const double c = covered(std::move(communication));
    const double pc = covered(std::move(compute_or_communication));
    const double a = covered(std::move(all));
    const double qa = covered(std::move(queued_or_busy));
    TraceTimeBreakdown &b = figures.breakdown;
    b.window_seconds = window * kSecondsPerMicrosecond;
    b.compute_seconds = p * kSecondsPerMicrosecond;
    b.communication_seconds = (pc - p) * kSecondsPerMicrosecond;
    b.communication_total_seconds = c * kSecondsPerMicrosecond;
    b.memcpy_seconds = (a - pc) * kSecondsPerMicrosecond;
    b.idle_seconds = (window - a) * kSecondsPerMicrosecond;
    b.idle_waiting_seconds = (qa - a) * kSecondsPerMicrosecond;
    b.idle_host_bound_seconds = b.idle_seconds - b.idle_waiting_seconds;
    figures.overlap_us = p + c - pc;
    b.overlap_percent = c > 0 ? 100.0 * figures.overlap_us / c : 0.0;
    return figures;
}

void addTo(TraceTimeBreakdown &total, const TraceTimeBreakdown &step)
{
    total.window_seconds += step.window_seconds;
    total.compute_seconds += step.compute_seconds;
    total.communication_seconds += step.communication_seconds;
    total.communication_total_seconds += step.communication_total_seconds;
    total.memcpy_seconds += step.memcpy_seconds;
    total.idle_seconds += step.idle_seconds;
    total.idle_host_bound_seconds += step.idle_host_bound_seconds;
    total.idle_waiting_seconds += step.idle_waiting_seconds;
}

std::vector<std::vector<std::size_t>> activitiesByStep(const TraceRank &rank)
{
    std::vector<std::vector<std::size_t>> by_step(std::max<std::size_t>(1, rank.steps.size()));
    const std::vector<std::int32_t> step_of = stepOfActivities(rank);
    for (std::size_t k = 0; k < step_of.size(); ++k)
        if (step_of[k] >= 0)
            by_step[static_cast<std::size_t>(step_of[k])].push_back(k);
    return by_step;
}

void analyseSteps(const TraceRank &rank, TraceRankAnalysis &out)
{
    const std::vector<std::vector<std::size_t>> by_step = activitiesByStep(rank);
    double overlap_us = 0;
    for (std::size_t s = 0; s < by_step.size(); ++s) {
        TraceStepAnalysis step;
        if (rank.steps.empty()) {
            // The whole trace as one step: its span over every event kept.
            double first = 0, last = 0;
            for (const TraceCpuOp &op : rank.cpu_ops)
                last = std::max(last, op.endUs());
            for (const TraceKernel &kernel : rank.kernels)
                last = std::max(last, kernel.endUs());
            step.cpu_start_us = first;
            step.cpu_duration_us = last - first;
        } else {
            step.number = rank.steps[s].number;
            step.cpu_start_us = rank.steps[s].start_us;
            step.cpu_duration_us = rank.steps[s].duration_us;
        }
        step.kernel_count = static_cast<std::int64_t>(by_step[s].size());
        const StepFigures figures = breakdownOf(rank, by_step[s], step.gpu_start_us);
        step.breakdown = figures.breakdown;
        overlap_us += figures.overlap_us;
        addTo(out.breakdown, step.breakdown);
        out.steps.push_back(step);
    }
    const double communication_us = out.breakdown.communication_total_seconds / kSecondsPerMicrosecond;
    out.breakdown.overlap_percent = communication_us > 0 ? 100.0 * overlap_us / communication_us : 0.0;
}

void classifyAndRank(const TraceRank &rank, const TraceAnalysisOptions &options, TraceRankAnalysis &out)
{
    const auto classes = allKernelClasses();
    for (std::size_t i = 0; i < classes.size(); ++i)
        out.classification.by_class[i].kernel_class = classes[i];
    std::unordered_map<TextId, TraceKernelRow> by_name;
    double activity_us = 0;
    for (const TraceKernel &kernel : rank.kernels) {
        const auto at = static_cast<std::size_t>(
            std::find(classes.begin(), classes.end(), kernel.kernel_class) - classes.begin());
        TraceClassRow &row = out.classification.by_class[at];
        ++row.count;
        row.seconds += kernel.duration_us * kSecondsPerMicrosecond;
        activity_us += kernel.duration_us;
        if (isKernelClass(kernel.kernel_class)) {
            ++out.kernel_count;
            out.kernel_seconds += kernel.duration_us * kSecondsPerMicrosecond;
        }
        TraceKernelRow &named = by_name[kernel.name];
        named.kernel_class = kernel.kernel_class;
        ++named.count;
        named.seconds += kernel.duration_us * kSecondsPerMicrosecond;
        named.flops += kernel.flops;
        named.bytes += kernel.bytes;
    }
    out.classification.activity_count = static_cast<std::int64_t>(rank.kernels.size());
    out.classification.unknown_count = out.classification.by_class.back().count;
    out.classification.unknown_percent =
        rank.kernels.empty() ? 0.0 : 100.0 * double(out.classification.unknown_count) / double(rank.kernels.size());

    std::vector<TraceKernelRow> rows;
    rows.reserve(by_name.size());
    for (auto &[name, row] : by_name) {
        row.name = rank.text(name);
        row.percent = activity_us > 0 ? 100.0 * row.seconds / (activity_us * kSecondsPerMicrosecond) : 0.0;
        row.achieved_flops_per_second = row.flops > 0 && row.seconds > 0 ? row.flops / row.seconds : 0.0;
        row.arithmetic_intensity = row.flops > 0 && row.bytes > 0 ? row.flops / row.bytes : 0.0;
        rows.push_back(std::move(row));
    }
    std::sort(rows.begin(), rows.end(), [](const TraceKernelRow &a, const TraceKernelRow &b) {
        return a.seconds != b.seconds ? a.seconds > b.seconds : a.name < b.name;
    });
    if (options.top_kernels >= 0 && rows.size() > static_cast<std::size_t>(options.top_kernels))
        rows.resize(static_cast<std::size_t>(options.top_kernels));
    out.top_kernels = std::move(rows);
}

bool hasMatmulAncestor(const TraceRank &rank, const TraceCpuOp &op)
{
    for (std::int32_t at = op.parent; at >= 0; at = rank.cpu_ops[static_cast<std::size_t>(at)].parent) {
        const TraceCpuOp &ancestor = rank.cpu_ops[static_cast<std::size_t>(at)];
        if (isMatmulCall(rank.text(ancestor.name), ancestor.recorded_class))
            return true;
    }
    return false;
}

void sumMatmuls(const TraceRank &rank, TraceRankAnalysis &out)
{
    for (const TraceCpuOp &op : rank.cpu_ops) {
        if (!isMatmulCall(rank.text(op.name), op.recorded_class) || hasMatmulAncestor(rank, op))
            continue;
        ++out.matmul_count;
        out.matmul_flops += op.flops;
    }
}

// Rows keyed by name, class, shape and dtype (ids into the rank's strings).
using OperatorKey = std::tuple<TextId, int, TextId, TextId>;

void summariseOperators(const TraceRank &rank, TraceRankAnalysis &out)
{
    std::map<OperatorKey, TraceOperatorRow> rows;
    std::map<OperatorKey, std::unordered_set<std::int32_t>> calls;
    if (rank.hasGpu()) {
        for (const TraceKernel &kernel : rank.kernels) {
            const TraceCpuOp *op = kernel.op_index >= 0 ? &rank.cpu_ops[static_cast<std::size_t>(kernel.op_index)] : nullptr;
            const OperatorKey key{op ? op->name : kNoText, static_cast<int>(kernel.kernel_class), op ? op->shape : kNoText,
                                  op ? op->dtype : kNoText};
            TraceOperatorRow &row = rows[key];
            row.seconds += kernel.duration_us * kSecondsPerMicrosecond;
            row.flops += kernel.flops;
            row.bytes += kernel.bytes;
            calls[key].insert(kernel.op_index);
        }
        for (auto &[key, row] : rows)
            row.count = static_cast<std::int64_t>(calls[key].size());
    } else {
        // CPU-only: each operator's self time (its duration less its children's).
        std::vector<double> children_us(rank.cpu_ops.size(), 0.0);
        for (const TraceCpuOp &op : rank.cpu_ops) {
            if (op.parent >= 0)
                children_us[static_cast<std::size_t>(op.parent)] += op.duration_us;
        }
        for (std::size_t i = 0; i < rank.cpu_ops.size(); ++i) {
            const TraceCpuOp &op = rank.cpu_ops[i];
            const KernelClass cls = classOfOperatorCall(rank.text(op.name), op.recorded_class);
            // Annotations are ranges, not operators; a collective's (gloo:all_reduce) is the only
            // record of the communication in a CPU-only trace, so it is kept.
            if (op.annotation && cls != KernelClass::Communication)
                continue;
            const OperatorKey key{op.name, static_cast<int>(cls), op.shape, op.dtype};
            TraceOperatorRow &row = rows[key];
            ++row.count;
            row.seconds += std::max(0.0, op.duration_us - children_us[i]) * kSecondsPerMicrosecond;
            // A matmul inside another matmul was counted by its parent (matmul_flops' rule).
            if (!hasMatmulAncestor(rank, op)) {
                row.flops += op.flops;
                row.bytes += op.bytes;
            }
        }
    }
    const auto classes = allKernelClasses();
    for (auto &[key, row] : rows) {
        const TextId name = std::get<0>(key);
        row.name = name == kNoText ? "(no operator)" : rank.text(name);
        row.kernel_class = classes[static_cast<std::size_t>(std::get<1>(key))];
        row.shape = rank.text(std::get<2>(key));
        row.dtype = rank.text(std::get<3>(key));
        out.operators.push_back(std::move(row));
    }
    std::stable_sort(out.operators.begin(), out.operators.end(),
                     [](const TraceOperatorRow &a, const TraceOperatorRow &b) { return a.seconds > b.seconds; });
}

void countOutsideSteps(const TraceRank &rank, TraceRankAnalysis &out)
{
    const std::vector<std::int32_t> step_of = stepOfActivities(rank);
    for (std::size_t k = 0; k < step_of.size(); ++k) {
        if (step_of[k] >= 0)
            continue;
        const double seconds = rank.kernels[k].duration_us * kSecondsPerMicrosecond;
        ++out.outside_steps.count;
        out.outside_steps.seconds += seconds;
        if (queuedBeforeTrace(rank, rank.kernels[k])) {
            ++out.queued_before_trace.count;
            out.queued_before_trace.seconds += seconds;
        }
    }
}

void addNotes(const TraceRank &rank, TraceRankAnalysis &out)
{
    if (rank.counts.uncategorised_ops > 0)
        out.notes.push_back(std::to_string(rank.counts.uncategorised_ops)
                            + " events without a category were read as CPU operators: the legacy autograd profiler's "
                              "export (PyTorch built without Kineto), which records no shapes, dtypes or GPU kernels.");
    if (!rank.record_shapes && out.matmul_count > 0 && out.matmul_flops == 0)
        out.notes.push_back(std::to_string(out.matmul_count)
                            + " matrix-multiply calls found, but the trace was recorded without record_shapes (no "
                              "Input Dims): their FLOPs and bytes are unknown, so matmul_flops is 0.");
}

}  // namespace

bool recordsLaunches(const TraceRank &rank) { return rank.counts.runtime_calls > 0; }

bool queuedBeforeTrace(const TraceRank &rank, const TraceKernel &activity)
{
    return activity.launch_start_us < 0 && recordsLaunches(rank);
}

std::vector<std::int32_t> stepOfActivities(const TraceRank &rank)
{
    std::vector<std::int32_t> step_of(rank.kernels.size(), -1);
    for (std::size_t k = 0; k < rank.kernels.size(); ++k) {
        const TraceKernel &kernel = rank.kernels[k];
        // Queued before the profiler started: its launch, the only time that places an activity in
        // a step, is not in the trace. Placing it by its GPU start instead would open the step's
        // window at the previous iteration's tail (HTA leaves such kernels out the same way).
        if (queuedBeforeTrace(rank, kernel))
            continue;
        if (rank.steps.empty()) {
            step_of[k] = 0;
            continue;
        }
        const double t = kernel.launch_start_us >= 0 ? kernel.launch_start_us : kernel.start_us;
        auto it = std::upper_bound(rank.steps.begin(), rank.steps.end(), t,
                                   [](double time, const TraceStep &step) { return time < step.start_us; });
        if (it == rank.steps.begin())
            continue;
        --it;
        if (t < it->endUs())
            step_of[k] = static_cast<std::int32_t>(it - rank.steps.begin());
    }
    return step_of;
}

TraceRankAnalysis analyseRank(const TraceRank &rank, const TraceAnalysisOptions &options)
{
    TraceRankAnalysis out;
    out.rank = rank.rank;
    out.source = rank.source;
    out.device_name = rank.device_name;
    out.has_gpu = rank.hasGpu();
    out.record_shapes = rank.record_shapes;
    analyseSteps(rank, out);
    countOutsideSteps(rank, out);
    classifyAndRank(rank, options, out);
    sumMatmuls(rank, out);
    summariseOperators(rank, out);
    if (!rank.hasGpu()) {
        for (const TraceOperatorRow &row : out.operators) {
            if (row.kernel_class != KernelClass::Communication)
                continue;
            out.cpu_communication.count += row.count;
            out.cpu_communication.seconds += row.seconds;
            out.cpu_communication.bytes += row.bytes;
        }
    }
    addNotes(rank, out);
    return out;
}

}  // namespace lse::traces
