// SPDX-License-Identifier: GPL-3.0-or-later
#include "traces/trace_builder.h"

#include "common/json_fields.h"
#include "traces/op_shape_flops.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QJsonValue>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>

namespace lse::traces {

namespace {

constexpr double kMaxTimestampUs = 1e17;
constexpr double kMaxDurationUs = 1e15;

std::string eventField(std::int64_t index, std::string_view key)
{
    return "traceEvents[" + std::to_string(index) + "]" + (key.empty() ? "" : "." + std::string(key));
}

// A number, or a string holding one (some converters quote timestamps); nothing otherwise.
std::optional<double> numberOf(const QJsonValue &value)
{
    if (value.isDouble())
        return value.toDouble();
    if (value.isString()) {
        bool ok = false;
        const double parsed = value.toString().trimmed().toDouble(&ok);
        if (ok)
            return parsed;
    }
    return std::nullopt;
}

// The trace's pid/tid: a number, or a name such as "Spans" (hashed to a stable id).
std::int64_t threadIdOf(const QJsonValue &value)
{
    if (value.isDouble()) {
        const double d = value.toDouble();
        if (std::isfinite(d) && std::abs(d) < 9.0e15)
            return static_cast<std::int64_t>(d);
    }
    if (value.isString())
        return static_cast<std::int64_t>(std::hash<std::string>{}(value.toString().toStdString()) >> 2);
    return -1;
}

std::optional<std::int64_t> stepNumberOf(std::string_view name)
{
    static constexpr std::string_view kPrefix = "ProfilerStep#";
    if (name.substr(0, kPrefix.size()) != kPrefix || name.size() == kPrefix.size() || name.size() > kPrefix.size() + 15)
        return std::nullopt;
    std::int64_t n = 0;
    for (char c : name.substr(kPrefix.size())) {
        if (c < '0' || c > '9')
            return std::nullopt;
        n = n * 10 + (c - '0');
    }
    return n;
}

enum class EventKind { Kernel, Memcpy, Memset, CpuOp, Annotation, Runtime, Ignored };

EventKind kindOf(const QString &cat)
{
    if (cat == QLatin1String("kernel"))
        return EventKind::Kernel;
    if (cat == QLatin1String("gpu_memcpy"))
        return EventKind::Memcpy;
    if (cat == QLatin1String("gpu_memset"))
        return EventKind::Memset;
    if (cat == QLatin1String("cpu_op") || cat == QLatin1String("operator"))
        return EventKind::CpuOp;
    if (cat == QLatin1String("user_annotation"))
        return EventKind::Annotation;
    if (cat == QLatin1String("cuda_runtime") || cat == QLatin1String("cuda_driver") ||
        cat == QLatin1String("runtime"))
        return EventKind::Runtime;
    return EventKind::Ignored;
}

}  // namespace

TraceBuilder::TraceBuilder(std::string source) { rank_.source = std::move(source); }

bool TraceBuilder::problem(std::string field, std::string rule, std::string message)
{
    problems_.push_back(Problem{field, std::move(rule), rank_.source + ": " + field + ": " + message});
    return false;
}

TextId TraceBuilder::intern(std::string_view text)
{
    auto [it, inserted] = interned_.try_emplace(std::string(text), static_cast<TextId>(rank_.strings.size()));
    if (inserted)
        rank_.strings.emplace_back(text);
    return it->second;
}

bool TraceBuilder::addMember(std::string_view key, std::string_view json)
{
    // Wrapped in an array: a bare scalar is not a JSON document for QJsonDocument.
    QByteArray wrapped;
    wrapped.reserve(static_cast<qsizetype>(json.size() + 2));
    wrapped.append('[').append(json.data(), static_cast<qsizetype>(json.size())).append(']');
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(wrapped, &error);
    if (error.error != QJsonParseError::NoError)
        return problem(std::string(key), "json", "not valid JSON (" + error.errorString().toStdString() + ").");
    const QJsonValue value = document.array().at(0);
    if (key == "record_shapes") {
        rank_.record_shapes = rank_.record_shapes || value.toBool() || value.toInt() != 0;
    } else if (key == "distributedInfo") {
        if (!value.isObject())
            return problem("distributedInfo", "type", "must be an object.");
        const QJsonObject info = value.toObject();
        for (const char *name : {"rank", "world_size"}) {
            if (!info.contains(QLatin1String(name)))
                continue;
            const std::optional<std::int64_t> n = jsonCountValue(info.value(QLatin1String(name)));
            if (!n || *n > std::numeric_limits<int>::max())
                return problem(std::string("distributedInfo.") + name, "range",
                               "must be a whole number ≥ 0 (is " + describeJsonValue(info.value(QLatin1String(name))) + ").");
            (std::string_view(name) == "rank" ? rank_.rank : rank_.world_size) = static_cast<int>(*n);
        }
    } else if (key == "deviceProperties") {
        if (!value.isArray())
            return problem("deviceProperties", "type", "must be an array.");
        const QJsonArray devices = value.toArray();
        if (!devices.isEmpty() && devices.at(0).isObject())
            rank_.device_name = devices.at(0).toObject().value(QLatin1String("name")).toString().toStdString();
    }
    return true;
}

bool TraceBuilder::addEvent(std::int64_t index, std::string_view json)
{
    ++rank_.counts.events;
    // QJsonDocument parses only objects and arrays; a bare number or string is no event either.
    if (json.empty() || json.front() != '{')
        return problem(eventField(index, ""), "type", "must be an object (an event), not " + std::string(json.substr(0, 20)) + ".");
    QJsonParseError error{};
    const QJsonDocument document =
        QJsonDocument::fromJson(QByteArray::fromRawData(json.data(), static_cast<qsizetype>(json.size())), &error);
    if (error.error != QJsonParseError::NoError)
        return problem(eventField(index, ""), "json",
                       "not valid JSON (" + error.errorString().toStdString() + " at offset " +
                           std::to_string(error.offset) + " of the event).");
    if (!document.isObject())
        return problem(eventField(index, ""), "type", "must be an object.");
    const QJsonObject event = document.object();
    const QJsonValue ph = event.value(QLatin1String("ph"));
    if (!ph.isUndefined() && !ph.isString())
        return problem(eventField(index, "ph"), "type", "must be a string (is " + describeJsonValue(ph) + ").");
    const QString phase = ph.toString();
    if (phase == QLatin1String("s") || phase == QLatin1String("f") || phase == QLatin1String("t")) {
        ++rank_.counts.flows;
        return true;
    }
    const QJsonValue cat_value = event.value(QLatin1String("cat"));
    const EventKind kind = phase == QLatin1String("X") && cat_value.isString() ? kindOf(cat_value.toString())
                                                                               : EventKind::Ignored;
    if (kind == EventKind::Ignored) {
        ++rank_.counts.ignored;
        return true;
    }

    // Complete events of the categories read: ts and dur are needed.
    // Bounded so that every sum of times stays exact enough and finite: ±1e17 µs is 3 000 years
    // from the epoch, and no event lasts 30 years (1e15 µs).
    const std::optional<double> ts = numberOf(event.value(QLatin1String("ts")));
    if (!ts || !std::isfinite(*ts) || std::abs(*ts) > kMaxTimestampUs)
        return problem(eventField(index, "ts"), "type",
                       "must be a number of microseconds within ±1e17 (is " +
                           describeJsonValue(event.value(QLatin1String("ts"))) + ").");
    const std::optional<double> dur = numberOf(event.value(QLatin1String("dur")));
    if (!dur || !std::isfinite(*dur) || *dur < 0 || *dur > kMaxDurationUs)
        return problem(eventField(index, "dur"), "range",
                       "must be a number ≥ 0 and at most 1e15 µs (is " +
                           describeJsonValue(event.value(QLatin1String("dur"))) + ").");
    const QJsonValue args_value = event.value(QLatin1String("args"));
    if (!args_value.isUndefined() && !args_value.isObject())
        return problem(eventField(index, "args"), "type", "must be an object (is " + describeJsonValue(args_value) + ").");
    const QJsonObject args = args_value.toObject();
    const std::string name = event.value(QLatin1String("name")).toString().toStdString();

    // An optional whole-number argument: -1 when absent, a problem when present and unusable.
    bool bad = false;
    const auto countArg = [&](const char *key) -> std::int64_t {
        const QJsonValue v = args.value(QLatin1String(key));
        if (v.isUndefined() || v.isNull())
            return -1;
        const std::optional<std::int64_t> n = jsonCountValue(v);
        if (!n) {
            bad = true;
            problem(eventField(index, std::string("args.") + key), "range",
                    "must be a whole number ≥ 0 (is " + describeJsonValue(v) + ").");
            return -1;
        }
        return *n;
    };

    if (!any_ts_ || *ts < min_ts_us_) {
        min_ts_us_ = *ts;
        any_ts_ = true;
    }

    switch (kind) {
    case EventKind::Kernel:
    case EventKind::Memcpy:
    case EventKind::Memset: {
        TraceKernel kernel;
        kernel.name = intern(name);
        kernel.start_us = *ts;
        kernel.duration_us = *dur;
        kernel.kernel_class = kind == EventKind::Memcpy ? KernelClass::Memcpy
                              : kind == EventKind::Memset ? KernelClass::Memset
                                                          : KernelClass::Unknown;
        const std::int64_t device = countArg("device");
        const std::int64_t stream = countArg("stream");
        kernel.correlation = countArg("correlation");
        kernel.external_id = countArg("External id");
        const std::int64_t bytes = kind == EventKind::Kernel ? -1 : countArg("bytes");
        if (bad)
            return false;
        const std::int64_t pid = threadIdOf(event.value(QLatin1String("pid")));
        const std::int64_t tid = threadIdOf(event.value(QLatin1String("tid")));
        const auto small = [](std::int64_t v) { return static_cast<int>(std::clamp<std::int64_t>(v, -1, 1 << 30)); };
        kernel.device = small(device >= 0 ? device : pid);
        kernel.stream = small(stream >= 0 ? stream : tid);
        if (bytes >= 0)
            kernel.bytes = static_cast<double>(bytes);
        for (const auto &[key, target] : {std::pair{"grid", &kernel.grid}, std::pair{"block", &kernel.block}}) {
            const QJsonArray dims = args.value(QLatin1String(key)).toArray();
            for (qsizetype i = 0; i < std::min<qsizetype>(3, dims.size()); ++i)
                (*target)[static_cast<std::size_t>(i)] = small(jsonCountValue(dims.at(i)).value_or(0));
        }
        if (kind == EventKind::Kernel)
            ++rank_.counts.kernels;
        else if (kind == EventKind::Memcpy)
            ++rank_.counts.memcpys;
        else
            ++rank_.counts.memsets;
        rank_.kernels.push_back(kernel);
        return true;
    }
    case EventKind::Runtime: {
        const std::int64_t correlation = countArg("correlation");
        if (bad)
            return false;
        ++rank_.counts.runtime_calls;
        if (correlation >= 0)
            launches_[correlation] = TraceLaunch{*ts, threadIdOf(event.value(QLatin1String("tid")))};
        return true;
    }
    case EventKind::CpuOp:
    case EventKind::Annotation: {
        if (const std::optional<std::int64_t> step = stepNumberOf(name)) {
            rank_.steps.push_back(TraceStep{*step, *ts, *dur});
            return true;
        }
        TraceCpuOp op;
        op.name = intern(name);
        op.start_us = *ts;
        op.duration_us = *dur;
        op.thread = threadIdOf(event.value(QLatin1String("tid")));
        op.annotation = kind == EventKind::Annotation;
        op.external_id = countArg("External id");
        if (bad)
            return false;
        const QJsonValue dims_value = args.value(QLatin1String("Input Dims"));
        if (!dims_value.isUndefined()) {
            if (!dims_value.isArray())
                return problem(eventField(index, "args.Input Dims"), "type",
                               "must be an array of shapes (is " + describeJsonValue(dims_value) + ").");
            rank_.record_shapes = true;
            const QJsonArray dims = dims_value.toArray();
            op.input_dims.reserve(static_cast<std::size_t>(dims.size()));
            for (const QJsonValue &shape : dims) {
                std::vector<std::int64_t> extents;
                // A tensor's shape is a list of whole numbers; a tensor list's is a list of lists,
                // which no counted operator takes: kept as one unusable extent.
                for (const QJsonValue &extent : shape.toArray())
                    extents.push_back(jsonCountValue(extent).value_or(-1));
                op.input_dims.push_back(std::move(extents));
            }
            op.shape = intern(shapeText(op.input_dims));
        }
        const QJsonArray types = args.value(QLatin1String("Input type")).toArray();
        op.input_types.reserve(static_cast<std::size_t>(types.size()));
        for (const QJsonValue &type : types) {
            const std::string text = type.toString().toStdString();
            op.input_types.push_back(intern(text));
            if (op.dtype == kNoText && dtypeBytes(text) > 0)
                op.dtype = op.input_types.back();
        }
        ++rank_.counts.cpu_ops;
        rank_.cpu_ops.push_back(std::move(op));
        return true;
    }
    case EventKind::Ignored: break;
    }
    return true;
}

TraceRank TraceBuilder::finish()
{
    const double origin = any_ts_ ? min_ts_us_ : 0.0;
    rank_.origin_us = origin;
    for (TraceKernel &kernel : rank_.kernels)
        kernel.start_us -= origin;
    for (TraceCpuOp &op : rank_.cpu_ops)
        op.start_us -= origin;
    for (TraceStep &step : rank_.steps)
        step.start_us -= origin;
    for (auto &[correlation, launch] : launches_)
        launch.start_us -= origin;
    std::sort(rank_.kernels.begin(), rank_.kernels.end(),
              [](const TraceKernel &a, const TraceKernel &b) { return a.start_us < b.start_us; });
    std::sort(rank_.steps.begin(), rank_.steps.end(),
              [](const TraceStep &a, const TraceStep &b) { return a.start_us < b.start_us; });
    // A step recorded twice (a cpu_op and a user_annotation of the same ProfilerStep#N) counts once.
    std::vector<TraceStep> unique_steps;
    for (const TraceStep &step : rank_.steps) {
        if (std::none_of(unique_steps.begin(), unique_steps.end(),
                         [&](const TraceStep &kept) { return kept.number == step.number; }))
            unique_steps.push_back(step);
    }
    rank_.steps = std::move(unique_steps);
    linkTrace(rank_, launches_);
    return std::move(rank_);
}

}  // namespace lse::traces
