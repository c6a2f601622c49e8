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
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

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
    // Every event in one rank, whatever its process.
    TraceRank finish();
    // The same, split into one rank per process when the file's processes are ranks: every process
    // (pid) that has events is named "rank N" by a process_name metadata event, there are at least
    // two and their numbers differ (our distributed export, chrome_trace_writer.h). Otherwise one
    // rank, as finish(). A PyTorch trace (a CPU process and GPU device processes) is never split.
    // Split ranks keep the file's time origin (their timelines stay aligned), are ordered by N, take
    // rank N, and as world size distributedInfo's or else the number of rank processes; the counts
    // of kernels, copies, operators and launches are each rank's, the rest the file's.
    std::vector<TraceRank> finishRanks();

private:
    enum class FastResult { Done, Fallback };
    // The event from its fields; Fallback (nothing changed) whenever the general path must decide.
    FastResult addFastEvent(std::string_view json);
    // The event through QJsonDocument: decides every case and explains every refusal.
    bool addJsonEvent(std::int64_t index, std::string_view json);
    bool problem(std::string field, std::string rule, std::string message);
    TextId intern(std::string_view text);
    // A process_name metadata event: its pid named `name`.
    void addProcessName(std::int64_t pid, const std::string &name);
    // The pids of the rank processes by rank number when finishRanks splits, empty otherwise.
    std::map<int, std::int64_t> rankProcesses() const;

    TraceRank rank_;
    TraceLaunches launches_;
    std::unordered_map<std::string, TextId> interned_;
    Problems problems_;
    // The process (pid) of every operator, step and activity kept, in rank_'s order before
    // finish sorts, of every launch by correlation id (taken as unique in a file, as the linker
    // does), and the launches counted per process; for finishRanks.
    std::vector<std::int64_t> op_pids_;
    std::vector<bool> op_uncategorised_;
    std::vector<std::int64_t> step_pids_;
    std::vector<std::int64_t> kernel_pids_;
    std::unordered_map<std::int64_t, std::int64_t> launch_pids_;
    std::map<std::int64_t, std::int64_t> runtime_calls_by_pid_;
    // Processes named "rank N": pid → N.
    std::map<std::int64_t, int> rank_of_pid_;
    double min_ts_us_ = 0;
    bool any_ts_ = false;
    bool fast_events_ = true;
};

}  // namespace lse::traces
