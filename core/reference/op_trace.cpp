// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/op_trace.h"

#include "ops/byte_rules.h"
#include "ops/optimizer_update.h"

#include <algorithm>

namespace lse::reference {

const char *toString(OpClass op_class)
{
    switch (op_class) {
    case OpClass::Matmul: return "matmul";
    case OpClass::Attention: return "attention";
    case OpClass::Softmax: return "softmax";
    case OpClass::Norm: return "norm";
    case OpClass::Elementwise: return "elementwise";
    case OpClass::Embedding: return "embedding";
    case OpClass::CrossEntropy: return "cross_entropy";
    case OpClass::Copy: return "copy";
    case OpClass::Optimizer: return "optimizer";
    case OpClass::Communication: return "communication";
    }
    return "elementwise";
}

std::string shapeText(const OpShape &s)
{
    const auto dims = [](std::initializer_list<std::int64_t> values) {
        std::string text = "[";
        bool first = true;
        for (std::int64_t v : values) {
            if (!first)
                text += ", ";
            text += std::to_string(v);
            first = false;
        }
        return text + "]";
    };
    if (s.op_class == OpClass::Optimizer || s.op_class == OpClass::Communication)
        return "[" + std::to_string(s.batch * s.m * s.n) + "]";  // a flat buffer of parameters or gradients
    if (s.op_class == OpClass::Matmul) {
        if (s.batch > 1)
            return dims({s.batch, s.m, s.k}) + " x " + dims({s.batch, s.k, s.n});
        return dims({s.m, s.k}) + " x " + dims({s.k, s.n});
    }
    if (s.batch > 1)
        return dims({s.batch, s.m, s.n});
    return dims({s.m, s.n});
}

double callBytes(const OpShape &s, OpPhase phase, double element_bytes)
{
    const double e = element_bytes;
    if (s.op_class == OpClass::Matmul) {
        const double b = double(s.batch), m = double(s.m), n = double(s.n), k = double(s.k);
        if (phase == OpPhase::Backward)  // weights and their gradients in the model's own dtype
            return byte_rules::matmulBackward(b, m, n, k, e, e, e, s.weight_operand).total();
        return byte_rules::matmulForward(b, m, n, k, e, e, s.weight_operand).total();
    }
    const double elements = double(s.batch) * double(s.m) * double(s.n);
    byte_rules::Bytes forward = byte_rules::elementwiseForward(elements, s.inputs, e);
    forward.read += e * s.extra_read_elements;
    if (s.written_elements >= 0)
        forward.written = e * s.written_elements;
    if (phase == OpPhase::Forward)
        return forward.total();
    const double backward = byte_rules::elementwiseBackward(forward, s.gradient_passes_through).total();
    // The reference's cross-entropy runs loss and dlogits in one kernel, recorded under backward.
    return s.op_class == OpClass::CrossEntropy ? forward.total() + backward : backward;
}

OpTraceLog::OpTraceLog(std::size_t capacity) : origin_(Clock::now()) { events_.reserve(capacity); }

double OpTraceLog::microsecondsSinceOrigin(Clock::time_point at) const
{
    return std::chrono::duration<double, std::micro>(at - origin_).count();
}

void OpTraceLog::add(const TraceEvent &event)
{
    if (event.step > last_step_)
        return;
    if (events_.size() == events_.capacity()) {
        ++dropped_;  // never grow while a step runs: a trace must not change what it measures
        return;
    }
    events_.push_back(event);
}

void OpTraceLog::addOperator(const char *name, OpPhase phase, double flops, const OpShape &shape,
                             Clock::time_point start, Clock::time_point end)
{
    TraceEvent event;
    event.kind = TraceEventKind::Operator;
    event.name = name;
    event.phase = phase;
    event.shape = shape;
    event.step = step_;
    event.start_us = microsecondsSinceOrigin(start);
    event.duration_us = std::chrono::duration<double, std::micro>(end - start).count();
    event.flops = flops;
    event.bytes = callBytes(shape, phase, element_bytes_);
    add(event);
}

void OpTraceLog::addSpan(TraceEventKind kind, const char *name, Clock::time_point start, Clock::time_point end,
                         double flops, double bytes, const OpShape &shape)
{
    TraceEvent event;
    event.kind = kind;
    event.name = name;
    event.shape = shape;
    event.step = step_;
    event.start_us = microsecondsSinceOrigin(start);
    event.duration_us = std::chrono::duration<double, std::micro>(end - start).count();
    event.flops = flops;
    event.bytes = bytes;
    add(event);
}

void OpTraceLog::clear()
{
    events_.clear();
    dropped_ = 0;
}

void traceOptimizerUpdate(OpTraceLog &log, std::int64_t parameters, OpTraceLog::Clock::time_point start,
                          OpTraceLog::Clock::time_point end)
{
    PrecisionConfig fp32;
    fp32.weight_dtype = fp32.gradient_dtype = fp32.matmul_dtype = fp32.activation_dtype = DType::FP32;
    fp32.master_weights = false;
    const double moment_bytes = 2 * 4;  // AdamW's m and v in fp32
    const ops::OptimizerUpdateCost per = ops::optimizerUpdatePerParameter(Optimizer::AdamW, fp32, moment_bytes);
    OpShape shape = OpShape::elementwise(OpClass::Optimizer, 1, parameters);
    const double n = double(parameters);
    log.addSpan(TraceEventKind::Phase, "optimizer", start, end, per.flops * n, per.bytes() * n, shape);
    log.addSpan(TraceEventKind::Update, "adamw_update", start, end, per.flops * n, per.bytes() * n, shape);
}

TraceWindow traceWindow(int steps_this_run, int trace_steps)
{
    TraceWindow window;
    window.first = steps_this_run > trace_steps ? 1 : 0;
    window.count = std::max(0, std::min(trace_steps, steps_this_run - window.first));
    return window;
}

std::size_t traceCapacityForSteps(int n_layers, int steps)
{
    // A layer makes at most 16 forward and 18 backward calls; embedding, head and loss about 10;
    // plus the step, its phases, the optimizer and a few collectives. Twice that for room.
    const std::size_t per_step = std::size_t(n_layers < 1 ? 1 : n_layers) * 40 + 64;
    return 2 * per_step * std::size_t(steps < 1 ? 1 : steps);
}

}  // namespace lse::reference
