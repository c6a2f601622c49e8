// SPDX-License-Identifier: GPL-3.0-or-later
#include "traces/trace_event_scanner.h"

#include <algorithm>

namespace lse::traces {

namespace {

bool isJsonSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

constexpr std::size_t kMaxKeyBytes = 256;  // longer top-level keys are read past, never wanted

}  // namespace

TraceEventScanner::TraceEventScanner(std::string source, TraceScanLimits limits, std::vector<std::string> wanted_members,
                                     EventHandler on_event, MemberHandler on_member)
    : source_(std::move(source)), limits_(limits), wanted_(std::move(wanted_members)), on_event_(std::move(on_event)),
      on_member_(std::move(on_member))
{
}

Result<bool> TraceEventScanner::fail(std::string field, std::string rule, std::string message)
{
    // The field first ("traceEvents[3] in run.json: ..."), as formatProblems expects; a problem of
    // the whole file has the file's path as its field, like the reader's.
    if (field == "file")
        return Result<bool>::failure(source_, std::move(rule), source_ + ": " + message);
    std::string text = field + " in " + source_ + ": " + message;
    return Result<bool>::failure(std::move(field), std::move(rule), std::move(text));
}

Result<bool> TraceEventScanner::emitObject(std::string_view chunk, std::size_t end)
{
    capturing_ = false;
    std::string_view piece;
    if (capture_.empty()) {
        piece = chunk.substr(capture_from_, end - capture_from_);
    } else {
        capture_.append(chunk.substr(capture_from_, end - capture_from_));
        piece = capture_;
    }
    if (static_cast<std::int64_t>(piece.size()) > limits_.max_piece_bytes)
        return fail(capture_is_event_ ? "traceEvents[" + std::to_string(events_) + "]" : current_key_, "too_large",
                    "is " + std::to_string(piece.size()) + " bytes of JSON, more than the " +
                        std::to_string(limits_.max_piece_bytes) + " one event or member may take.");
    bool go_on = true;
    if (capture_is_event_) {
        if (events_ >= limits_.max_events)
            return fail("traceEvents", "too_many",
                        "more than " + std::to_string(limits_.max_events) + " events, the most a trace is read with.");
        go_on = on_event_(events_++, piece);
    } else {
        go_on = on_member_(current_key_, piece);
    }
    capture_.clear();
    return go_on;
}

Result<bool> TraceEventScanner::feed(std::string_view chunk)
{
    const std::size_t size = chunk.size();
    for (std::size_t i = 0; i < size; ++i) {
        if (in_string_ && !escape_ && !reading_key_) {
            // A string's plain bytes at once (kernel names are most of a trace's text): up to its
            // closing quote or its next escape.
            std::size_t next = i;
            while (next < size && chunk[next] != '"' && chunk[next] != '\\')
                ++next;
            if (next == size)
                break;
            i = next;
        }
        const char c = chunk[i];
        if (in_string_) {
            if (escape_) {
                escape_ = false;
            } else if (c == '\\') {
                escape_ = true;
            } else if (c == '"') {
                in_string_ = false;
                if (reading_key_) {
                    reading_key_ = false;
                    current_key_ = key_;
                }
            } else if (reading_key_ && key_.size() < kMaxKeyBytes) {
                key_ += c;
            }
            continue;
        }
        if (isJsonSpace(c))
            continue;
        const std::int64_t at = offset_ + static_cast<std::int64_t>(i);
        if (ended_)
            return fail("file", "json", "text after the end of the JSON at byte " + std::to_string(at) + ".");
        if (!started_) {
            // A UTF-8 byte-order mark before the JSON is allowed.
            if (at < 3 && (static_cast<unsigned char>(c) == 0xEF || static_cast<unsigned char>(c) == 0xBB ||
                           static_cast<unsigned char>(c) == 0xBF))
                continue;
            if (c != '{' && c != '[')
                return fail("file", "json",
                            "not a Chrome trace: the text does not start with a JSON object or array (byte " +
                                std::to_string(at) + ").");
            started_ = true;
            top_is_array_ = c == '[';
            stack_.push_back(c);
            depth_ = 1;
            if (top_is_array_) {
                events_depth_ = 1;
                saw_trace_events_ = true;
            } else {
                expect_key_ = true;
            }
            continue;
        }
        if (value_pending_) {
            value_pending_ = false;
            if (current_key_ == "traceEvents") {
                if (c != '[')
                    return fail("traceEvents", "type", "must be an array of events.");
                if (saw_trace_events_)
                    return fail("traceEvents", "duplicate", "appears twice at the top level.");
                saw_trace_events_ = true;
                stack_.push_back('[');
                depth_ = 2;
                events_depth_ = 2;
                continue;
            }
            if (std::find(wanted_.begin(), wanted_.end(), current_key_) != wanted_.end()) {
                capturing_ = true;
                capture_is_event_ = false;
                capture_scalar_ = c != '{' && c != '[';
                capture_depth_ = depth_;
                capture_from_ = i;
            }
        } else if (!capturing_ && inEventArray() && c != ',' && c != ']') {
            capturing_ = true;
            capture_is_event_ = true;
            capture_scalar_ = c != '{' && c != '[';
            capture_depth_ = depth_;
            capture_from_ = i;
        }
        if (capturing_ && capture_scalar_ && depth_ == capture_depth_ && (c == ',' || c == ']' || c == '}')) {
            Result<bool> emitted = emitObject(chunk, i);
            if (!emitted || !emitted.value())
                return emitted;
        }
        switch (c) {
        case '"':
            in_string_ = true;
            if (depth_ == 1 && !top_is_array_ && expect_key_) {
                reading_key_ = true;
                expect_key_ = false;
                key_.clear();
            }
            break;
        case '{':
        case '[':
            if (depth_ >= limits_.max_depth)
                return fail(capturing_ && capture_is_event_ ? "traceEvents[" + std::to_string(events_) + "]" : "file",
                            "depth",
                            "nested deeper than " + std::to_string(limits_.max_depth) + " levels at byte " +
                                std::to_string(at) + ".");
            stack_.push_back(c);
            ++depth_;
            break;
        case '}':
        case ']': {
            const char open = c == '}' ? '{' : '[';
            if (stack_.empty() || stack_.back() != open)
                return fail("file", "json",
                            std::string("'") + c + "' at byte " + std::to_string(at) + " closes nothing that is open.");
            stack_.pop_back();
            --depth_;
            if (capturing_ && !capture_scalar_ && depth_ == capture_depth_) {
                Result<bool> emitted = emitObject(chunk, i + 1);
                if (!emitted || !emitted.value())
                    return emitted;
            }
            if (events_depth_ > 0 && depth_ < events_depth_)
                events_depth_ = 0;
            if (depth_ == 0)
                ended_ = true;
            break;
        }
        case ':':
            if (depth_ == 1 && !top_is_array_)
                value_pending_ = true;
            break;
        case ',':
            if (depth_ == 1 && !top_is_array_)
                expect_key_ = true;
            break;
        default: break;
        }
    }
    if (capturing_) {
        capture_.append(chunk.substr(capture_from_));
        capture_from_ = 0;
        if (static_cast<std::int64_t>(capture_.size()) > limits_.max_piece_bytes) {
            const std::string what = capture_is_event_ ? "traceEvents[" + std::to_string(events_) + "]" : current_key_;
            return fail(what, "too_large",
                        "is more than " + std::to_string(limits_.max_piece_bytes) +
                            " bytes of JSON, the most one event or member may take.");
        }
    }
    offset_ += static_cast<std::int64_t>(size);
    return true;
}

Result<bool> TraceEventScanner::finish()
{
    if (!started_)
        return fail("file", "empty", "no JSON in the file (empty or only white space).");
    if (!ended_)
        return fail("file", "truncated",
                    "the JSON ends before its closing bracket, after " + std::to_string(offset_) +
                        " bytes (a truncated file?).");
    if (!saw_trace_events_)
        return fail("traceEvents", "missing", "not a Chrome trace: the JSON object has no traceEvents array (is it another kind of file?).");
    return true;
}

}  // namespace lse::traces
