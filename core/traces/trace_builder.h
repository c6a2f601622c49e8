// SPDX-License-Identifier: GPL-3.0-or-later
// Turns the pieces the scanner cuts out (one event's JSON, one top-level member's JSON) into a
// TraceRank: reads each piece alone (the purpose-built reader of trace_event_fields.h, QJsonDocument
// for what it leaves), checks the fields the importer uses and records the first
// problems with the event's index and the field, "traceEvents[12].dur: must be a number ≥ 0".
// Events of categories the importer does not use are counted and skipped unread.
#pragma once

#include "common/problem.h"
#include "traces/trace_linker.h"
#include "traces/trace_model.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace lse::traces {

class TraceBuilder {
public:
    // `fast_events`: read events with the purpose-built reader (trace_event_fields.h), falling back
    // to QJsonDocument for what it leaves to it; false: every event through QJsonDocument (the
    // reference the tests compare the fast path with).
    explicit TraceBuilder(std::string source, bool fast_events = true);

    // False once a problem is recorded (the load stops at the first bad event).
    bool addEvent(std::int64_t index, std::string_view json);
    bool addMember(std::string_view key, std::string_view json);

    const Problems &problems() const { return problems_; }
    // Times measured from the earliest event, sorted, steps found, activities linked and classified.
    TraceRank finish();

private:
    enum class FastResult { Done, Fallback };
    // The event from its fields; Fallback (nothing changed) whenever the general path must decide.
    FastResult addFastEvent(std::string_view json);
    // The event through QJsonDocument: decides every case and explains every refusal.
    bool addJsonEvent(std::int64_t index, std::string_view json);
    bool problem(std::string field, std::string rule, std::string message);
    TextId intern(std::string_view text);

    TraceRank rank_;
    TraceLaunches launches_;
    std::unordered_map<std::string, TextId> interned_;
    Problems problems_;
    double min_ts_us_ = 0;
    bool any_ts_ = false;
    bool fast_events_ = true;
};

}  // namespace lse::traces
