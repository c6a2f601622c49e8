// SPDX-License-Identifier: GPL-3.0-or-later
// A purpose-built reader for the fields of one trace event that the importer uses, in place of a
// general JSON parser: Qt's QJsonDocument builds every member of every event as a QCborValue and
// was most of a large trace's load time (docs/benchmarks.md, bench_trace_load).
//
// It reads one event object (the text the scanner cut out) in one pass, checks all of it against
// RFC 8259, and records where the wanted members' values are without building anything:
//   top level  ph, cat, name, ts, dur, pid, tid, args
//   args       correlation, External id, device, stream, bytes, grid, block, Input Dims, Input type,
//              flops, class, name (a process_name metadata event's)
// Everything else is checked and skipped. It is strict on purpose: it gives up on any input that a
// general parser might read differently — invalid or unusual text (control characters, lone
// surrogates, \u0000, Unicode noncharacters, invalid UTF-8), nesting past kMaxEventDepth, a number
// that overflows, or a wanted key given twice. The builder then parses the event with QJsonDocument
// as before, which decides, and explains a refusal with the event and the field. So the fast path
// only ever gives the answer the general one would (tests/core/test_trace_event_fields.cpp compares
// both on every committed trace and on edge cases; the fuzz harness on every input).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace lse::traces {

// One JSON value of an event: its kind and its text.
struct JsonToken {
    enum class Kind : std::uint8_t { Absent, Null, False, True, Number, String, Array, Object };
    Kind kind = Kind::Absent;
    std::string_view text;  // the value's JSON text; a string's without its quotes, still escaped
    bool escaped = false;   // a string holding backslash escapes (decode with jsonTokenString)

    bool absent() const { return kind == Kind::Absent; }
    bool is(Kind k) const { return kind == k; }
};

// The wanted members of one event; Absent when not given. The args members are Absent unless
// args is an object.
struct TraceEventFields {
    JsonToken ph, cat, name, ts, dur, pid, tid, args;
    JsonToken correlation, external_id, device, stream, bytes, grid, block, input_dims, input_type;
    JsonToken flops, op_class, arg_name;  // args.flops, args.class, args.name
};

// Deeper than an event needs (3-4); deeper input goes to the general parser.
inline constexpr int kMaxEventDepth = 32;

// Reads `json`, one event object with optional surrounding white space. False when the text is not
// one valid JSON object or is one of the inputs the header comment lists (the caller then falls
// back to QJsonDocument); `fields` is then unspecified.
bool readTraceEventFields(std::string_view json, TraceEventFields &fields);

// A Number token's value, as QJsonValue::toDouble gives it. False for other kinds.
bool jsonTokenNumber(const JsonToken &token, double &value);
// A String token's text, unescaped (UTF-8). "" for other kinds.
std::string jsonTokenString(const JsonToken &token);

// The elements of an Array token that readTraceEventFields accepted, in order.
class JsonArrayElements {
public:
    explicit JsonArrayElements(const JsonToken &array);
    // The next element; false after the last.
    bool next(JsonToken &element);

private:
    const char *at_ = nullptr;
    const char *end_ = nullptr;
};

}  // namespace lse::traces
