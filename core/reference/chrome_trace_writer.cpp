// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/chrome_trace_writer.h"

#include "common/file_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string_view>

namespace lse::reference {

namespace {

constexpr int kOperatorThread = 1;
constexpr int kCommunicationThread = 2;

// Nanoseconds, so that a start and an end are each rounded once: an event inside a range stays
// inside it in the file (rounding is monotone).
long long nanoseconds(double microseconds) { return std::llround(microseconds * 1000.0); }

std::string microsecondsText(long long ns)
{
    char text[48];
    std::snprintf(text, sizeof text, "%lld.%03lld", ns / 1000, ns % 1000);
    return text;
}

std::string number(double value)
{
    if (!std::isfinite(value))
        return "0";
    char text[48];
    if (value == std::floor(value) && std::fabs(value) < 9e15)
        std::snprintf(text, sizeof text, "%.0f", value);
    else
        std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

const char *phaseName(OpPhase phase) { return phase == OpPhase::Forward ? "forward" : "backward"; }

struct Range {
    double start_us = 0;
    double end_us = 0;
};

// The events of one process: metadata first, then the complete events sorted by thread, start and
// longest first, so that a range precedes the calls inside it (readers that build a stack per
// thread, and people reading the file, expect that order).
class EventText {
public:
    EventText(std::string &out, int pid) : out_(out), pid_(pid) {}

    void metadata(const char *name, int tid, const std::string &args)
    {
        separate();
        out_ += R"({"name":")";
        out_ += name;
        out_ += R"(","ph":"M","pid":)" + std::to_string(pid_) + R"(,"tid":)" + std::to_string(tid) + R"(,"args":)"
            + args + "}";
    }

    void complete(const std::string &name, const char *cat, int tid, double start_us, double duration_us,
                  const std::string &args)
    {
        const long long ts = nanoseconds(start_us);
        const long long end = std::max(ts, nanoseconds(start_us + duration_us));
        std::string json = R"({"ph":"X","cat":")";
        json += cat;
        json += R"(","name":)" + jsonString(name) + R"(,"pid":)" + std::to_string(pid_) + R"(,"tid":)"
            + std::to_string(tid) + R"(,"ts":)" + microsecondsText(ts) + R"(,"dur":)" + microsecondsText(end - ts)
            + R"(,"args":)" + args + "}";
        complete_.push_back({tid, ts, end, std::move(json)});
    }

    // Appends the complete events in order.
    void finish()
    {
        std::stable_sort(complete_.begin(), complete_.end(), [](const Complete &a, const Complete &b) {
            if (a.tid != b.tid)
                return a.tid < b.tid;
            if (a.ts != b.ts)
                return a.ts < b.ts;
            return a.end > b.end;
        });
        for (const Complete &c : complete_) {
            separate();
            out_ += c.json;
        }
        complete_.clear();
    }

private:
    struct Complete {
        int tid;
        long long ts;
        long long end;
        std::string json;
    };

    void separate()
    {
        if (!out_.empty())
            out_ += ",\n";
    }

    std::string &out_;
    int pid_;
    std::vector<Complete> complete_;
};

std::string operatorArgs(const TraceEvent &e)
{
    std::string args = R"({"class":")";
    args += toString(e.shape.op_class);
    args += R"(","shape":)" + jsonString(shapeText(e.shape)) + R"(,"flops":)" + number(e.flops) + R"(,"bytes":)"
        + number(e.bytes) + R"(,"phase":")" + phaseName(e.phase) + R"(","step":)" + std::to_string(e.step);
    if (e.shape.op_class == OpClass::Matmul) {
        const OpShape &s = e.shape;
        const auto dims = [&](std::int64_t a, std::int64_t b) {
            return s.batch > 1 ? "[" + std::to_string(s.batch) + "," + std::to_string(a) + "," + std::to_string(b) + "]"
                               : "[" + std::to_string(a) + "," + std::to_string(b) + "]";
        };
        args += R"(,"Input Dims":[)" + dims(s.m, s.k) + "," + dims(s.k, s.n) + R"(],"Input type":["float","float"])";
    }
    return args + "}";
}

}  // namespace

std::string jsonString(const std::string &text)
{
    std::string out = "\"";
    for (const char c : text) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char escaped[8];
                std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
                out += escaped;
            } else {
                out += c;
            }
        }
    }
    return out + "\"";
}

std::string chromeTraceProcessEvents(const OpTraceLog &log, int pid, const std::string &process_name)
{
    std::string out;
    EventText text(out, pid);
    text.metadata("process_name", 0, R"({"name":)" + jsonString(process_name) + "}");
    text.metadata("process_sort_index", 0, R"({"sort_index":)" + std::to_string(pid) + "}");
    text.metadata("thread_name", kOperatorThread, R"({"name":"operators"})");
    text.metadata("thread_sort_index", kOperatorThread, R"({"sort_index":1})");
    const std::vector<TraceEvent> &events = log.events();
    bool communication = false;
    for (const TraceEvent &e : events)
        communication = communication || e.kind == TraceEventKind::Communication;
    if (communication) {
        text.metadata("thread_name", kCommunicationThread, R"({"name":"communication"})");
        text.metadata("thread_sort_index", kCommunicationThread, R"({"sort_index":2})");
    }

    // Steps and the phases the caller recorded, then the forward and backward ranges of each
    // training step, which the operator calls themselves delimit (one model call runs both).
    for (const TraceEvent &e : events) {
        if (e.kind == TraceEventKind::Step)
            text.complete("ProfilerStep#" + std::to_string(e.step), "user_annotation", kOperatorThread, e.start_us,
                          e.duration_us, R"({"step":)" + std::to_string(e.step) + R"(,"flops":)" + number(e.flops) + "}");
        else if (e.kind == TraceEventKind::Phase)
            text.complete(e.name, "user_annotation", kOperatorThread, e.start_us, e.duration_us,
                          R"({"phase":)" + jsonString(e.name) + R"(,"step":)" + std::to_string(e.step) + "}");
    }
    // Forward/backward ranges: each run of consecutive operator calls of one phase in a step that
    // has a backward pass (generation steps are forward only; their caller names their phases).
    std::set<int> training_steps;
    for (const TraceEvent &e : events)
        if (e.kind == TraceEventKind::Operator && e.phase == OpPhase::Backward)
            training_steps.insert(e.step);
    bool open = false;
    OpPhase phase = OpPhase::Forward;
    int step = 0;
    Range range;
    const auto close = [&] {
        if (open)
            text.complete(phaseName(phase), "user_annotation", kOperatorThread, range.start_us,
                          range.end_us - range.start_us,
                          R"({"phase":")" + std::string(phaseName(phase)) + R"(","step":)" + std::to_string(step) + "}");
        open = false;
    };
    for (const TraceEvent &e : events) {
        if (e.kind != TraceEventKind::Operator)
            continue;
        if (!training_steps.count(e.step)) {
            close();
            continue;
        }
        if (!open || e.phase != phase || e.step != step) {
            close();
            open = true;
            phase = e.phase;
            step = e.step;
            range = {e.start_us, e.start_us + e.duration_us};
        }
        range.end_us = std::max(range.end_us, e.start_us + e.duration_us);
    }
    close();
    for (const TraceEvent &e : events) {
        if (e.kind == TraceEventKind::Operator)
            text.complete(e.name, "cpu_op", kOperatorThread, e.start_us, e.duration_us, operatorArgs(e));
        else if (e.kind == TraceEventKind::Update)
            text.complete(e.name, "cpu_op", kOperatorThread, e.start_us, e.duration_us,
                          R"({"class":"optimizer","shape":)" + jsonString(shapeText(e.shape)) + R"(,"flops":)"
                              + number(e.flops) + R"(,"bytes":)" + number(e.bytes) + R"(,"phase":"optimizer","step":)"
                              + std::to_string(e.step) + "}");
        else if (e.kind == TraceEventKind::Communication)
            text.complete(e.name, "cpu_op", kCommunicationThread, e.start_us, e.duration_us,
                          R"({"class":"communication","bytes":)" + number(e.bytes) + R"(,"elements":)"
                              + std::to_string(e.shape.m) + R"(,"step":)" + std::to_string(e.step) + "}");
    }
    text.finish();
    return out;
}

std::string chromeTraceDocument(const std::vector<std::string> &process_events,
                                const std::vector<std::pair<std::string, std::string>> &other_data)
{
    std::string out = "{\"traceEvents\":[\n";
    bool first = true;
    for (const std::string &events : process_events) {
        if (events.empty())
            continue;
        if (!first)
            out += ",\n";
        out += events;
        first = false;
    }
    out += "\n],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":{";
    first = true;
    for (const auto &[key, value] : other_data) {
        if (!first)
            out += ",";
        out += jsonString(key) + ":" + jsonString(value);
        first = false;
    }
    out += "}}\n";
    return out;
}

Result<bool> writeChromeTrace(const std::string &path, const std::string &document)
{
    return writeFileReplacing(path, document);
}

}  // namespace lse::reference
