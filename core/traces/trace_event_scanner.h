// SPDX-License-Identifier: GPL-3.0-or-later
// Cuts a Chrome-trace JSON text, fed in pieces, into the elements of its "traceEvents" array (or of
// the top-level array of the legacy format) and the values of chosen top-level members, without
// parsing the rest: each piece is handed over as its own JSON text, which the caller parses alone.
// The scanner knows strings and their escapes (a brace inside a kernel name is not a brace) and
// counts the nesting depth, which it bounds, so the JSON parser never sees a deep or huge input.
// It checks the structure it walks (brackets match, the text ends where the JSON does); a piece's
// own syntax is the parser's to check.
#pragma once

#include "common/problem.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace lse::traces {

struct TraceScanLimits {
    std::int64_t max_events = 50'000'000;
    std::int64_t max_piece_bytes = 4 << 20;  // one event or one captured member
    int max_depth = 64;
};

class TraceEventScanner {
public:
    // `index` counts the events from 0; return false to stop (the handler has recorded why).
    using EventHandler = std::function<bool(std::int64_t index, std::string_view json)>;
    // A wanted top-level member's value, as JSON text.
    using MemberHandler = std::function<bool(std::string_view key, std::string_view json)>;

    TraceEventScanner(std::string source, TraceScanLimits limits, std::vector<std::string> wanted_members,
                      EventHandler on_event, MemberHandler on_member);

    // The next piece of text. A problem ends the scan; false from a handler ends it without one.
    Result<bool> feed(std::string_view text);
    // After the last piece: the problem when the JSON is incomplete or holds no event array.
    // Problems of the whole text have the source as their field; others name the event or member.
    Result<bool> finish();

    std::int64_t eventCount() const { return events_; }
    bool legacyArray() const { return top_is_array_; }

private:
    Result<bool> fail(std::string field, std::string rule, std::string message);
    bool inEventArray() const { return events_depth_ > 0 && depth_ == events_depth_; }
    Result<bool> emitObject(std::string_view chunk, std::size_t end);

    std::string source_;
    TraceScanLimits limits_;
    std::vector<std::string> wanted_;
    EventHandler on_event_;
    MemberHandler on_member_;

    std::vector<char> stack_;  // '{' or '[' per open container
    int depth_ = 0;
    bool started_ = false;
    bool ended_ = false;       // the top-level value closed
    bool top_is_array_ = false;
    bool in_string_ = false;
    bool escape_ = false;
    std::int64_t offset_ = 0;  // of the current piece's first byte in the whole text

    // Top-level object members.
    bool expect_key_ = false;
    bool reading_key_ = false;
    std::string key_;
    std::string current_key_;
    bool value_pending_ = false;  // after ':' at depth 1, before the value's first byte
    bool saw_trace_events_ = false;
    int events_depth_ = 0;        // depth of the event array once inside it; 0 otherwise

    // The piece being cut out.
    bool capturing_ = false;
    bool capture_is_event_ = false;
    bool capture_scalar_ = false;
    int capture_depth_ = 0;       // depth before the piece's opening bracket
    std::string capture_;         // its bytes from earlier chunks
    std::size_t capture_from_ = 0;
    std::int64_t events_ = 0;
};

}  // namespace lse::traces
