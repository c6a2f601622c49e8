// SPDX-License-Identifier: GPL-3.0-or-later
// TraceBuilder's fast path: an event from the fields trace_event_fields.h reads, with the same
// decisions as the QJsonDocument path (trace_builder.cpp) in the same order, and a fallback to
// that path wherever it would record a problem or must read a value itself.
#include "traces/trace_builder.h"

#include "common/json_fields.h"
#include "traces/kernel_classifier.h"
#include "traces/op_shape_flops.h"
#include "traces/trace_event_fields.h"
#include "traces/trace_event_rules.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace lse::traces {

using event_rules::EventKind;
using event_rules::kMaxDurationUs;
using event_rules::kMaxTimestampUs;
using event_rules::kindOf;
using event_rules::stepNumberOf;

namespace {

// The trace's pid/tid: a number, or a name hashed to a stable id (trace_builder.cpp's threadIdOf).
std::int64_t threadId(const JsonToken &token)
{
    double d = 0;
    if (jsonTokenNumber(token, d))
        return event_rules::threadIdOfNumber(d);
    if (token.is(JsonToken::Kind::String))
        return event_rules::threadIdOfName(jsonTokenString(token));
    return -1;
}

}  // namespace

TraceBuilder::FastResult TraceBuilder::addFastEvent(std::string_view json)
{
    // The same decisions as addJsonEvent, in the same order; wherever that one would record a
    // problem (or read a value this reader leaves to it), Fallback before anything is changed.
    using Kind = JsonToken::Kind;
    constexpr FastResult kFallback = FastResult::Fallback;
    TraceEventFields f;
    if (!readTraceEventFields(json, f))
        return kFallback;
    if (!f.ph.absent() && !f.ph.is(Kind::String))
        return kFallback;
    const std::string phase = jsonTokenString(f.ph);
    if (phase == "s" || phase == "f" || phase == "t") {
        ++rank_.counts.flows;
        return FastResult::Done;
    }
    if (phase == "M") {
        // Counted with the other events not read as activities; a process's name is kept.
        if (jsonTokenString(f.name) == "process_name" && f.arg_name.is(Kind::String))
            addProcessName(threadId(f.pid), jsonTokenString(f.arg_name));
        ++rank_.counts.ignored;
        return FastResult::Done;
    }
    const bool legacy_op = phase == "X" && f.cat.absent();
    const EventKind kind = legacy_op                               ? EventKind::CpuOp
                           : phase == "X" && f.cat.is(Kind::String) ? kindOf(jsonTokenString(f.cat))
                                                                    : EventKind::Ignored;
    if (kind == EventKind::Ignored) {
        ++rank_.counts.ignored;
        return FastResult::Done;
    }
    double ts = 0, dur = 0;
    if (!jsonTokenNumber(f.ts, ts) || !std::isfinite(ts) || std::abs(ts) > kMaxTimestampUs)
        return kFallback;  // also a timestamp given as a string: QString's number rules decide
    if (!jsonTokenNumber(f.dur, dur) || !std::isfinite(dur) || dur < 0 || dur > kMaxDurationUs)
        return kFallback;
    if (!f.args.absent() && !f.args.is(Kind::Object))
        return kFallback;
    const std::string name = jsonTokenString(f.name);

    // jsonCountValue's rule: -1 when absent or null, nothing (fall back) when not a whole number.
    const auto countArg = [](const JsonToken &token) -> std::optional<std::int64_t> {
        if (token.absent() || token.is(Kind::Null))
            return -1;
        double d = 0;
        if (!jsonTokenNumber(token, d) || !(d >= 0) || d > static_cast<double>(kMaxExactJsonInteger) || std::floor(d) != d)
            return std::nullopt;
        return static_cast<std::int64_t>(d);
    };
    // jsonCountValue(...).value_or(fallback) of an element.
    const auto countOr = [](const JsonToken &token, std::int64_t fallback) {
        double d = 0;
        if (!jsonTokenNumber(token, d) || !(d >= 0) || d > static_cast<double>(kMaxExactJsonInteger) || std::floor(d) != d)
            return fallback;
        return static_cast<std::int64_t>(d);
    };
    // args.flops / args.bytes of an operator: -1 when absent or null, nothing (fall back) when unusable.
    const auto recordedCount = [](const JsonToken &token) -> std::optional<double> {
        if (token.absent() || token.is(Kind::Null))
            return -1.0;
        double d = 0;
        if (!jsonTokenNumber(token, d) || !event_rules::usableRecordedCount(d))
            return std::nullopt;
        return d;
    };
    const auto noteTs = [&] {
        if (!any_ts_ || ts < min_ts_us_) {
            min_ts_us_ = ts;
            any_ts_ = true;
        }
    };

    switch (kind) {
    case EventKind::Kernel:
    case EventKind::Memcpy:
    case EventKind::Memset: {
        const std::optional<std::int64_t> device = countArg(f.device), stream = countArg(f.stream),
                                          correlation = countArg(f.correlation), external = countArg(f.external_id);
        const std::optional<std::int64_t> bytes = kind == EventKind::Kernel ? std::optional<std::int64_t>(-1) : countArg(f.bytes);
        if (!device || !stream || !correlation || !external || !bytes)
            return kFallback;
        noteTs();
        TraceKernel kernel;
        kernel.name = intern(name);
        kernel.start_us = ts;
        kernel.duration_us = dur;
        kernel.kernel_class = kind == EventKind::Memcpy ? KernelClass::Memcpy
                              : kind == EventKind::Memset ? KernelClass::Memset
                                                          : KernelClass::Unknown;
        kernel.correlation = *correlation;
        kernel.external_id = *external;
        const auto small = [](std::int64_t v) { return static_cast<int>(std::clamp<std::int64_t>(v, -1, 1 << 30)); };
        kernel.device = small(*device >= 0 ? *device : threadId(f.pid));
        kernel_pids_.push_back(threadId(f.pid));
        kernel.stream = small(*stream >= 0 ? *stream : threadId(f.tid));
        if (*bytes >= 0)
            kernel.bytes = static_cast<double>(*bytes);
        for (const auto &[token, target] : {std::pair{&f.grid, &kernel.grid}, std::pair{&f.block, &kernel.block}}) {
            JsonArrayElements dims(*token);
            JsonToken element;
            for (std::size_t i = 0; i < 3 && dims.next(element); ++i)
                (*target)[i] = small(countOr(element, 0));
        }
        if (kind == EventKind::Kernel)
            ++rank_.counts.kernels;
        else if (kind == EventKind::Memcpy)
            ++rank_.counts.memcpys;
        else
            ++rank_.counts.memsets;
        rank_.kernels.push_back(kernel);
        return FastResult::Done;
    }
    case EventKind::Runtime: {
        const std::optional<std::int64_t> correlation = countArg(f.correlation);
        if (!correlation)
            return kFallback;
        noteTs();
        ++rank_.counts.runtime_calls;
        const std::int64_t pid = threadId(f.pid);
        ++runtime_calls_by_pid_[pid];
        if (*correlation >= 0) {
            launches_[*correlation] = TraceLaunch{ts, threadId(f.tid)};
            launch_pids_[*correlation] = pid;
        }
        return FastResult::Done;
    }
    case EventKind::CpuOp:
    case EventKind::Annotation: {
        if (const std::optional<std::int64_t> step = stepNumberOf(name)) {
            noteTs();
            rank_.steps.push_back(TraceStep{*step, ts, dur});
            step_pids_.push_back(threadId(f.pid));
            return FastResult::Done;
        }
        const std::optional<std::int64_t> external = countArg(f.external_id);
        if (!external || (!f.input_dims.absent() && !f.input_dims.is(Kind::Array)))
            return kFallback;
        const std::optional<double> recorded_flops = recordedCount(f.flops), recorded_bytes = recordedCount(f.bytes);
        if (!recorded_flops || !recorded_bytes)
            return kFallback;
        noteTs();
        TraceCpuOp op;
        op.name = intern(name);
        op.start_us = ts;
        op.duration_us = dur;
        op.thread = threadId(f.tid);
        op.annotation = kind == EventKind::Annotation;
        op.external_id = *external;
        op.recorded_flops = *recorded_flops;
        op.recorded_bytes = *recorded_bytes;
        op.recorded_class = classOfRecordedClass(jsonTokenString(f.op_class));
        if (f.input_dims.is(Kind::Array)) {
            rank_.record_shapes = true;
            JsonArrayElements shapes(f.input_dims);
            JsonToken shape;
            while (shapes.next(shape)) {
                std::vector<std::int64_t> extents;
                JsonArrayElements dims(shape);  // not an array: no extents, as QJsonValue::toArray
                JsonToken extent;
                while (dims.next(extent))
                    extents.push_back(countOr(extent, -1));
                op.input_dims.push_back(std::move(extents));
            }
            op.shape = intern(shapeText(op.input_dims));
        }
        JsonArrayElements types(f.input_type);
        JsonToken type;
        while (types.next(type)) {
            const std::string text = jsonTokenString(type);
            op.input_types.push_back(intern(text));
            if (op.dtype == kNoText && dtypeBytes(text) > 0)
                op.dtype = op.input_types.back();
        }
        ++rank_.counts.cpu_ops;
        if (legacy_op)
            ++rank_.counts.uncategorised_ops;
        rank_.cpu_ops.push_back(std::move(op));
        op_pids_.push_back(threadId(f.pid));
        op_uncategorised_.push_back(legacy_op);
        return FastResult::Done;
    }
    case EventKind::Ignored: break;
    }
    return FastResult::Done;
}

}  // namespace lse::traces
