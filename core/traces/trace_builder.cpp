// SPDX-License-Identifier: GPL-3.0-or-later
#include "traces/trace_builder.h"

#include "common/json_fields.h"
#include "traces/kernel_classifier.h"
#include "traces/op_shape_flops.h"
#include "traces/trace_event_rules.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QJsonValue>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace lse::traces {

namespace {

using event_rules::EventKind;
using event_rules::kMaxDurationUs;
using event_rules::kMaxTimestampUs;
using event_rules::kindOf;
using event_rules::stepNumberOf;

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
    if (value.isDouble())
        return event_rules::threadIdOfNumber(value.toDouble());
    if (value.isString())
        return event_rules::threadIdOfName(value.toString().toStdString());
    return -1;
}

std::size_t skipSpace(std::string_view text, std::size_t at)
{
    while (at < text.size() && (text[at] == ' ' || text[at] == '\n' || text[at] == '\r' || text[at] == '\t'))
        ++at;
    return at;
}

// The end (one past the closing quote) of the string starting at `at`, npos when unterminated.
std::size_t stringEnd(std::string_view text, std::size_t at)
{
    for (std::size_t i = at + 1; i < text.size(); ++i) {
        if (text[i] == '\\')
            ++i;
        else if (text[i] == '"')
            return i + 1;
    }
    return std::string_view::npos;
}

// The end of the value starting at `at` (a string, a nested object or array, or a literal).
std::size_t valueEnd(std::string_view text, std::size_t at)
{
    if (at >= text.size())
        return std::string_view::npos;
    if (text[at] == '"')
        return stringEnd(text, at);
    if (text[at] != '{' && text[at] != '[') {
        while (at < text.size() && text[at] != ',' && text[at] != '}' && text[at] != ']')
            ++at;
        return at;
    }
    int depth = 0;
    for (std::size_t i = at; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            i = stringEnd(text, i);
            if (i == std::string_view::npos)
                return i;
            --i;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if ((c == '}' || c == ']') && --depth == 0) {
            return i + 1;
        }
    }
    return std::string_view::npos;
}

// "ph" and "cat" of one event, read from its top-level members without parsing the rest, so that
// the events the importer does not use (flows, Python frames, metadata: often most of a trace)
// cost no JSON parse. Each is nothing when absent, not a plain string, or when the event is not
// well formed (the full parse then decides and reports).
struct EventHead {
    std::optional<std::string_view> ph;
    std::optional<std::string_view> cat;
    bool well_formed = false;
};

EventHead eventHead(std::string_view json)
{
    EventHead head;
    std::size_t at = skipSpace(json, 1);
    if (at < json.size() && json[at] == '}')
        return EventHead{{}, {}, true};
    while (at < json.size() && json[at] == '"') {
        const std::size_t key_end = stringEnd(json, at);
        if (key_end == std::string_view::npos)
            return {};
        const std::string_view key = json.substr(at + 1, key_end - at - 2);
        at = skipSpace(json, key_end);
        if (at >= json.size() || json[at] != ':')
            return {};
        at = skipSpace(json, at + 1);
        const std::size_t end = valueEnd(json, at);
        if (end == std::string_view::npos)
            return {};
        if ((key == "ph" || key == "cat") && json[at] == '"') {
            const std::string_view value = json.substr(at + 1, end - at - 2);
            if (value.find('\\') == std::string_view::npos)
                (key == "ph" ? head.ph : head.cat) = value;
        }
        at = skipSpace(json, end);
        if (at < json.size() && json[at] == '}') {
            head.well_formed = skipSpace(json, at + 1) == json.size();
            return head;
        }
        if (at >= json.size() || json[at] != ',')
            return {};
        at = skipSpace(json, at + 1);
    }
    return {};
}

}  // namespace

TraceBuilder::TraceBuilder(std::string source, bool fast_events) : fast_events_(fast_events)
{
    rank_.source = std::move(source);
}

bool TraceBuilder::problem(std::string field, std::string rule, std::string message)
{
    // "traceEvents[3].dur in run.json: must be ...": the field first, as formatProblems expects.
    problems_.push_back(Problem{field, std::move(rule), field + " in " + rank_.source + ": " + message});
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
    if (fast_events_ && addFastEvent(json) == FastResult::Done)
        return true;
    return addJsonEvent(index, json);
}

bool TraceBuilder::addJsonEvent(std::int64_t index, std::string_view json)
{
    // Flows and events of categories the importer does not read are counted and skipped unparsed.
    const EventHead head = eventHead(json);
    if (head.well_formed && head.ph) {
        if (*head.ph == "s" || *head.ph == "f" || *head.ph == "t") {
            ++rank_.counts.flows;
            return true;
        }
        // Metadata ("M") events are parsed for the process names that say which processes are ranks.
        if ((*head.ph != "X" && *head.ph != "M") || (*head.ph == "X" && head.cat && kindOf(*head.cat) == EventKind::Ignored)) {
            ++rank_.counts.ignored;
            return true;
        }
    }
    QJsonParseError error{};
    const QJsonDocument document =
        QJsonDocument::fromJson(QByteArray::fromRawData(json.data(), static_cast<qsizetype>(json.size())), &error);
    // A metadata event that does not parse was skipped unread before process names were read: so it stays.
    if (error.error != QJsonParseError::NoError && head.well_formed && head.ph && *head.ph == "M") {
        ++rank_.counts.ignored;
        return true;
    }
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
    if (phase == QLatin1String("M")) {
        // Counted with the other events not read as activities; a process's name is kept.
        const QJsonValue process_name = event.value(QLatin1String("args")).toObject().value(QLatin1String("name"));
        if (event.value(QLatin1String("name")).toString() == QLatin1String("process_name") && process_name.isString())
            addProcessName(threadIdOf(event.value(QLatin1String("pid"))), process_name.toString().toStdString());
        ++rank_.counts.ignored;
        return true;
    }
    const QJsonValue cat_value = event.value(QLatin1String("cat"));
    // A complete event without any category is the legacy autograd profiler's (torch built without
    // Kineto writes a bare array of {"name","ph":"X","ts","dur","tid","pid","args":{}}): all of its
    // events are CPU operators and ProfilerStep#N ranges.
    const bool legacy_op = phase == QLatin1String("X") && cat_value.isUndefined();
    const EventKind kind = legacy_op                                          ? EventKind::CpuOp
                           : phase == QLatin1String("X") && cat_value.isString() ? kindOf(cat_value.toString().toStdString())
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
        kernel_pids_.push_back(pid);
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
        const std::int64_t pid = threadIdOf(event.value(QLatin1String("pid")));
        ++runtime_calls_by_pid_[pid];
        if (correlation >= 0) {
            launches_[correlation] = TraceLaunch{*ts, threadIdOf(event.value(QLatin1String("tid")))};
            launch_pids_[correlation] = pid;
        }
        return true;
    }
    case EventKind::CpuOp:
    case EventKind::Annotation: {
        if (const std::optional<std::int64_t> step = stepNumberOf(name)) {
            rank_.steps.push_back(TraceStep{*step, *ts, *dur});
            step_pids_.push_back(threadIdOf(event.value(QLatin1String("pid"))));
            return true;
        }
        TraceCpuOp op;
        op.name = intern(name);
        op.start_us = *ts;
        op.duration_us = *dur;
        op.thread = threadIdOf(event.value(QLatin1String("tid")));
        op.annotation = kind == EventKind::Annotation;
        op.external_id = countArg("External id");
        // What the producer counted itself (our exporter; PyTorch with with_flops=True): -1 absent.
        for (const auto &[key, target] : {std::pair{"flops", &op.recorded_flops}, std::pair{"bytes", &op.recorded_bytes}}) {
            const QJsonValue v = args.value(QLatin1String(key));
            if (v.isUndefined() || v.isNull())
                continue;
            if (!v.isDouble() || !event_rules::usableRecordedCount(v.toDouble())) {
                bad = true;
                problem(eventField(index, std::string("args.") + key), "range",
                        "must be a number ≥ 0 (is " + describeJsonValue(v) + ").");
                break;
            }
            *target = v.toDouble();
        }
        if (bad)
            return false;
        op.recorded_class = classOfRecordedClass(args.value(QLatin1String("class")).toString().toStdString());
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
        if (legacy_op)
            ++rank_.counts.uncategorised_ops;
        rank_.cpu_ops.push_back(std::move(op));
        op_pids_.push_back(threadIdOf(event.value(QLatin1String("pid"))));
        op_uncategorised_.push_back(legacy_op);
        return true;
    }
    case EventKind::Ignored: break;
    }
    return true;
}

namespace {

// Times measured from `origin`, sorted, steps found once, activities linked and classified.
void finishRank(TraceRank &rank, TraceLaunches &launches, double origin)
{
    rank.origin_us = origin;
    for (TraceKernel &kernel : rank.kernels)
        kernel.start_us -= origin;
    for (TraceCpuOp &op : rank.cpu_ops)
        op.start_us -= origin;
    for (TraceStep &step : rank.steps)
        step.start_us -= origin;
    for (auto &[correlation, launch] : launches)
        launch.start_us -= origin;
    std::sort(rank.kernels.begin(), rank.kernels.end(),
              [](const TraceKernel &a, const TraceKernel &b) { return a.start_us < b.start_us; });
    std::sort(rank.steps.begin(), rank.steps.end(),
              [](const TraceStep &a, const TraceStep &b) { return a.start_us < b.start_us; });
    // A step recorded twice (a cpu_op and a user_annotation of the same ProfilerStep#N) counts once.
    std::vector<TraceStep> unique_steps;
    for (const TraceStep &step : rank.steps) {
        if (std::none_of(unique_steps.begin(), unique_steps.end(),
                         [&](const TraceStep &kept) { return kept.number == step.number; }))
            unique_steps.push_back(step);
    }
    rank.steps = std::move(unique_steps);
    linkTrace(rank, launches);
}

}  // namespace

void TraceBuilder::addProcessName(std::int64_t pid, const std::string &name)
{
    if (const std::optional<int> rank = event_rules::rankOfProcessName(name))
        rank_of_pid_[pid] = *rank;
    else
        rank_of_pid_.erase(pid);  // renamed: the last name counts, as in a trace viewer
}

std::map<int, std::int64_t> TraceBuilder::rankProcesses() const
{
    std::map<std::int64_t, bool> with_events;
    for (const auto *pids : {&op_pids_, &step_pids_, &kernel_pids_})
        for (std::int64_t pid : *pids)
            with_events[pid] = true;
    for (const auto &[pid, calls] : runtime_calls_by_pid_)
        with_events[pid] = true;
    std::map<int, std::int64_t> by_rank;
    for (const auto &[pid, unused] : with_events) {
        const auto named = rank_of_pid_.find(pid);
        if (named == rank_of_pid_.end() || !by_rank.emplace(named->second, pid).second)
            return {};  // a process that is not a rank, or two processes of one rank number
    }
    return by_rank.size() >= 2 ? by_rank : std::map<int, std::int64_t>{};
}

TraceRank TraceBuilder::finish()
{
    finishRank(rank_, launches_, any_ts_ ? min_ts_us_ : 0.0);
    return std::move(rank_);
}

std::vector<TraceRank> TraceBuilder::finishRanks()
{
    const std::map<int, std::int64_t> processes = rankProcesses();
    std::vector<TraceRank> ranks;
    if (processes.empty()) {
        ranks.push_back(finish());
        return ranks;
    }
    const double origin = any_ts_ ? min_ts_us_ : 0.0;
    for (const auto &[number, pid] : processes) {
        TraceRank part;
        part.source = rank_.source;
        part.rank = number;  // distributedInfo, one per file, cannot name each process's rank
        part.world_size = rank_.world_size > 0 ? rank_.world_size : static_cast<int>(processes.size());
        part.device_name = rank_.device_name;
        part.record_shapes = rank_.record_shapes;
        part.strings = rank_.strings;
        // The file's counts of what is not split by process; the rest counted below.
        part.counts.events = rank_.counts.events;
        part.counts.flows = rank_.counts.flows;
        part.counts.ignored = rank_.counts.ignored;
        for (std::size_t i = 0; i < rank_.cpu_ops.size(); ++i) {
            if (op_pids_[i] != pid)
                continue;
            part.cpu_ops.push_back(rank_.cpu_ops[i]);
            ++part.counts.cpu_ops;
            if (op_uncategorised_[i])
                ++part.counts.uncategorised_ops;
        }
        for (std::size_t i = 0; i < rank_.steps.size(); ++i)
            if (step_pids_[i] == pid)
                part.steps.push_back(rank_.steps[i]);
        for (std::size_t i = 0; i < rank_.kernels.size(); ++i) {
            if (kernel_pids_[i] != pid)
                continue;
            const TraceKernel &kernel = rank_.kernels[i];
            part.kernels.push_back(kernel);
            ++(kernel.kernel_class == KernelClass::Memcpy   ? part.counts.memcpys
               : kernel.kernel_class == KernelClass::Memset ? part.counts.memsets
                                                            : part.counts.kernels);
        }
        const auto calls = runtime_calls_by_pid_.find(pid);
        part.counts.runtime_calls = calls == runtime_calls_by_pid_.end() ? 0 : calls->second;
        TraceLaunches launches;
        for (const auto &[correlation, launch] : launches_) {
            const auto owner = launch_pids_.find(correlation);
            if (owner != launch_pids_.end() && owner->second == pid)
                launches.emplace(correlation, launch);
        }
        finishRank(part, launches, origin);
        ranks.push_back(std::move(part));
    }
    return ranks;
}

}  // namespace lse::traces
