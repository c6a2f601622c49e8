// SPDX-License-Identifier: GPL-3.0-or-later
// The HTA-style analysis of one rank: where each step's time on the GPU went, the overlap of
// communication with computation, the kernels and operators that took the time, and the FLOPs of
// the matrix multiplies.
//
// Definitions (after Holistic Trace Analysis's temporal breakdown and idle-time analysis,
// https://hta.readthedocs.io/en/latest/source/features/temporal_breakdown.html and
// .../idle_time_breakdown.html), all over the union of the device's activity intervals on every
// stream (a time with two kernels running counts once, so these are never sums of durations):
//   step's activities  after HTA: the GPU activities whose launch (the cuda_runtime call's start
//                 on the CPU) falls inside the ProfilerStep#N range. An activity whose launch the
//                 trace lacks although it records launches was queued before the profiler started
//                 (the previous iteration's tail when the GPU runs behind the CPU): it belongs to no
//                 step, and is reported as queued_before_trace. Only a trace without any runtime
//                 events places activities by their own start on the GPU.
//   step window   the GPU's span of a step: from the first start to the last end of its
//                 activities. Without steps: the span of all GPU activities (but those queued
//                 before the trace began), as one step (number -1).
//   compute       time at least one compute kernel (isComputeClass) runs.
//   communication time NCCL kernels run and no compute kernel does (exposed communication).
//   memcpy        time copies or memsets run and neither compute nor NCCL kernels do.
//   idle          the rest of the window: no GPU activity at all.
//   So compute + communication + memcpy + idle = the window, exactly.
//   idle, waiting     idle while some activity of the device has been launched (its runtime call
//                     began) and not yet started: work is queued but the GPU is not running it,
//                     e.g. waiting on an event, a synchronisation or another rank (HTA's "kernel
//                     wait"/"other" idle, which this does not split further).
//   idle, host-bound  idle with nothing queued: the CPU has not launched the next kernel yet
//                     (HTA's "host wait").
//   overlap %         time NCCL kernels run while a compute kernel runs ÷ time NCCL kernels run.
// CPU-only traces have no window: the breakdown is zero, the operators come from the CPU operators.
#pragma once

#include "traces/trace_model.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace lse::traces {

struct TraceTimeBreakdown {
    double window_seconds = 0;
    double compute_seconds = 0;
    double communication_seconds = 0;        // exposed: NCCL running, no compute kernel
    double communication_total_seconds = 0;  // union of NCCL kernels, overlapped or not
    double memcpy_seconds = 0;               // copies and memsets, exposed
    double idle_seconds = 0;
    double idle_host_bound_seconds = 0;
    double idle_waiting_seconds = 0;
    double overlap_percent = 0;              // 0 when there is no communication
};

// A number of GPU activities and their summed durations.
struct TraceActivityCount {
    std::int64_t count = 0;
    double seconds = 0;
};

struct TraceStepAnalysis {
    std::int64_t number = -1;      // ProfilerStep#N; -1 for the whole trace when it has no steps
    double cpu_start_us = 0;       // the ProfilerStep range on the CPU (the whole trace's span for -1)
    double cpu_duration_us = 0;
    double gpu_start_us = 0;       // the window
    std::int64_t kernel_count = 0; // GPU activities of the step (kernels, copies, memsets)
    TraceTimeBreakdown breakdown;
};

// Kernels of one name together.
struct TraceKernelRow {
    std::string name;
    KernelClass kernel_class = KernelClass::Unknown;
    std::int64_t count = 0;
    double seconds = 0;         // summed durations
    double percent = 0;         // of all GPU activity time (summed durations)
    double flops = 0;           // 0 when unknown
    double bytes = 0;
    double achieved_flops_per_second = 0;  // flops / seconds, 0 when unknown
    double arithmetic_intensity = 0;       // flops / bytes (FLOPs per byte), 0 when unknown
};

// Operator calls of one name, class and shape together: the rows a prediction is matched to.
// GPU traces: seconds are the durations of the GPU activities attributed to the operator
// (TraceKernel::op_index), class the class of its kernels (the most time's). CPU-only traces:
// seconds are the operators' self time on the CPU (duration minus their children's), class the
// recorded args.class or else from the name (classOfOperatorCall). FLOPs and bytes (recorded, or
// from the shapes) are summed over the calls.
struct TraceOperatorRow {
    std::string name;
    KernelClass kernel_class = KernelClass::Unknown;
    std::string shape;          // "[[8,512],[512,1024]]", "" without record_shapes
    std::string dtype;
    std::int64_t count = 0;
    double seconds = 0;
    double flops = 0;
    double bytes = 0;
};

struct TraceClassRow {
    KernelClass kernel_class = KernelClass::Unknown;
    std::int64_t count = 0;
    double seconds = 0;  // summed durations
};

struct TraceClassification {
    std::int64_t activity_count = 0;   // every GPU activity (kernels, copies, memsets)
    std::int64_t unknown_count = 0;
    double unknown_percent = 0;        // of activity_count; 0 when there is none
    std::array<TraceClassRow, kKernelClassCount> by_class = {};  // in allKernelClasses() order
};

struct TraceRankAnalysis {
    int rank = -1;
    std::string source;
    std::string device_name;
    bool has_gpu = false;
    bool record_shapes = false;         // shapes were recorded: FLOPs and bytes can be known
    std::vector<TraceStepAnalysis> steps;
    TraceTimeBreakdown breakdown;       // summed over steps (overlap_percent recomputed from the sums)
    // GPU activities in no step (summed durations, not in any breakdown): launched outside every
    // ProfilerStep range, including those queued before the trace began, which are also counted
    // on their own (their launch is missing from a trace that records launches).
    TraceActivityCount outside_steps;
    TraceActivityCount queued_before_trace;
    std::int64_t kernel_count = 0;      // cat "kernel" only (not copies or memsets)
    double kernel_seconds = 0;          // their summed durations
    // Σ 2·m·n·k (× batch) over aten::mm, addmm, bmm, baddbmm calls, each once (never again through
    // an aten::linear/matmul parent); from the CPU operators, so CPU-only traces have it too. Also
    // the calls a producer recorded as matrix multiplies (args.class "matmul", our exporter), and a
    // call's recorded args.flops in place of 2mnk when it has one (kernel_classifier.h isMatmulCall).
    double matmul_flops = 0;
    std::int64_t matmul_count = 0;
    // CPU-only traces: the operators of class communication (our exporter's collectives on their
    // own thread, gloo:/c10d:: ranges): calls, summed CPU self time and bytes. The breakdown stays
    // zero (it is a GPU timeline). GPU traces: zero, their communication is the NCCL kernels.
    struct CommunicationCalls {
        std::int64_t count = 0;
        double seconds = 0;
        double bytes = 0;
    } cpu_communication;
    TraceClassification classification;
    std::vector<TraceKernelRow> top_kernels;   // by seconds, at most TraceAnalysisOptions::top_kernels
    std::vector<TraceOperatorRow> operators;   // by seconds, descending
    // What the figures cannot say and why, one sentence each: matrix multiplies traced without
    // record_shapes (no FLOPs), a legacy export read from events without a category.
    std::vector<std::string> notes;
};

struct TraceAnalysisOptions {
    int top_kernels = 10;
};

TraceRankAnalysis analyseRank(const TraceRank &rank, const TraceAnalysisOptions &options = {});

// Whether the trace records kernel launches (cuda_runtime / cuda_driver events).
bool recordsLaunches(const TraceRank &rank);
// Whether an activity was queued before the trace began: the trace records launches but not its.
bool queuedBeforeTrace(const TraceRank &rank, const TraceKernel &activity);
// The step of each GPU activity (rank.kernels order), by the rule above: an index into rank.steps,
// or -1 for none. Without steps, 0 (the whole trace) for every activity not queued before the
// trace began. analyseRank's steps and the comparison with a prediction both use this.
std::vector<std::int32_t> stepOfActivities(const TraceRank &rank);

// Union-of-intervals helpers the breakdown is built from, public for tests and the GUI's timeline:
// the time in [begin, end) covered by at least one of `intervals` (pairs of start, end in µs).
struct TraceInterval {
    double start_us = 0;
    double end_us = 0;
};
// Sorted, disjoint intervals covering the same time as `intervals`.
std::vector<TraceInterval> unionOfIntervals(std::vector<TraceInterval> intervals);
// Total length of sorted disjoint intervals clipped to [begin_us, end_us).
double coveredMicroseconds(const std::vector<TraceInterval> &disjoint, double begin_us, double end_us);

}  // namespace lse::traces
