// SPDX-License-Identifier: GPL-3.0-or-later
// A per-call event log of the reference transformer, for Chrome-trace export (issue 31): each
// operator call with its start, duration, shape, FLOPs and bytes, the steps, the optimizer update
// and (data-parallel runs) the collectives. The op profiler (op_profiler.h) sums per operator; this
// keeps every call, and only while a trace is requested: OpProfiler::setTrace attaches a log, and
// without one a profiled call costs one more branch than before.
//
// The log never allocates while recording: its capacity is reserved when it is made, and calls past
// it are counted in dropped() instead of stored. FLOPs come from the call site (flop_rules.h, as the
// profiler's), bytes from the call's shape by ops/byte_rules.h, the rules the operator list and the
// roofline use.
#pragma once

#include "reference/op_profiler.h"
#include "reference/op_shape.h"

#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace lse::reference {

// Bytes one call moves through memory at `element_bytes` per value (ops/byte_rules.h): a matmul's
// forward or backward rule, an element-wise operator's; the fused cross-entropy of the backward
// phase (loss and dlogits in one kernel) its forward and backward bytes together.
double callBytes(const OpShape &shape, OpPhase phase, double element_bytes);

enum class TraceEventKind : std::uint8_t {
    Operator,       // one operator call (cat "cpu_op")
    Step,           // one training step or generation step (ProfilerStep#N)
    Phase,          // forward / backward / optimizer / prefill / decode span
    Communication,  // one collective (its own thread row)
    Update,         // the optimizer's update of the parameters (cat "cpu_op", phase "optimizer")
};

struct TraceEvent {
    TraceEventKind kind = TraceEventKind::Operator;
    const char *name = "";  // a string literal
    OpPhase phase = OpPhase::Forward;
    OpShape shape;
    int step = 0;  // the step it belongs to (Step: its number)
    double start_us = 0;  // since the log's origin
    double duration_us = 0;
    double flops = 0;
    double bytes = 0;
};

class OpTraceLog {
public:
    using Clock = std::chrono::steady_clock;

    // Reserves room for `capacity` events; the origin (t = 0) is now.
    explicit OpTraceLog(std::size_t capacity = 1 << 16);

    void setOrigin(Clock::time_point origin) { origin_ = origin; }
    Clock::time_point origin() const { return origin_; }
    double microsecondsSinceOrigin(Clock::time_point at) const;
    // Bytes per value of the model's tensors (4: float).
    void setElementBytes(double bytes) { element_bytes_ = bytes; }
    double elementBytes() const { return element_bytes_; }
    // The step stamped on the events recorded from now on.
    void setStep(int step) { step_ = step; }
    int step() const { return step_; }
    // Events of steps after `step` are not recorded (a generation's decode steps past the ones
    // asked for); they are not counted as dropped either.
    void setLastStep(int step) { last_step_ = step; }

    void addOperator(const char *name, OpPhase phase, double flops, const OpShape &shape, Clock::time_point start,
                     Clock::time_point end);
    // A step, phase or collective span; `name` a string literal.
    void addSpan(TraceEventKind kind, const char *name, Clock::time_point start, Clock::time_point end,
                 double flops = 0, double bytes = 0, const OpShape &shape = OpShape{});

    const std::vector<TraceEvent> &events() const { return events_; }
    // Back to the first `count` events (a step interrupted before its end leaves none behind).
    void truncate(std::size_t count)
    {
        if (count < events_.size())
            events_.resize(count);
    }
    std::int64_t dropped() const { return dropped_; }
    void clear();

private:
    void add(const TraceEvent &event);

    std::vector<TraceEvent> events_;
    Clock::time_point origin_;
    double element_bytes_ = 4;
    int step_ = 0;
    int last_step_ = std::numeric_limits<int>::max();
    std::int64_t dropped_ = 0;
};

// The AdamW update of `parameters` fp32 parameters between `start` and `end`: an "optimizer" phase
// range holding one "adamw_update" call, its FLOPs and bytes by ops/optimizer_update.h (fp32
// weights, gradients and both moments; no master copy). The op profiler does not count them: a
// step's operator calls of the forward and backward phases sum to its FLOPs.
void traceOptimizerUpdate(OpTraceLog &log, std::int64_t parameters, OpTraceLog::Clock::time_point start,
                          OpTraceLog::Clock::time_point end);

// Which steps of a run a trace records (0-based among the steps this run takes): `count` steps,
// after the first one when the run has more steps than that. The first step pays cold caches and
// page faults (torch.profiler's schedule skips warm-up steps for the same reason); a run of
// `count` steps or fewer is traced whole.
struct TraceWindow {
    int first = 0;
    int count = 0;
    bool covers(int index) const { return index >= first && index < first + count; }
};
TraceWindow traceWindow(int steps_this_run, int trace_steps);

// Events one training step of `model` records (its operators, the step, the optimizer), with room
// to spare: what a log for `steps` steps reserves.
std::size_t traceCapacityForSteps(int n_layers, int steps);

}  // namespace lse::reference
