// SPDX-License-Identifier: GPL-3.0-or-later
// Reading PyTorch profiler / Kineto Chrome-trace JSON (plain or gzip-compressed) into a TraceRank.
//
// Streamed: the file is read and inflated in pieces and each traceEvents element is cut out and
// parsed on its own (trace_event_scanner.h), so a 1 GB trace never exists as one decompressed text
// or one QJsonDocument. Bounded like every loader here: the file's size, the decompressed size, the
// number of events, one event's size and its nesting depth all have caps (TraceLoadOptions), and
// every problem names the event and the field ("traceEvents[1234].dur: must be a number ≥ 0").
// A top-level array (the legacy Chrome format, no metadata) is read as well as the object form.
#pragma once

#include "common/problem.h"
#include "traces/trace_model.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace lse::traces {

struct TraceLoadOptions {
    // The compressed or plain file on disk.
    std::int64_t max_file_bytes = std::int64_t{4} << 30;
    // The JSON text after inflating: a gzip bomb stops here.
    std::int64_t max_text_bytes = std::int64_t{16} << 30;
    // traceEvents elements; the largest real traces hold a few million.
    std::int64_t max_events = 50'000'000;
    // One event's JSON text (a kernel with long template names is a few KiB).
    std::int64_t max_event_bytes = 4 << 20;
    // Nesting depth of arrays and objects anywhere in the file (an event is 3-4 deep).
    int max_depth = 64;
    // Events read by the purpose-built reader (trace_event_fields.h); false: all through
    // QJsonDocument, the slower reference the tests and the fuzz harness compare it with.
    bool fast_event_parser = true;
};

// Called now and then with the bytes of the file read so far and its size; returning false
// cancels the load (the result is then the problem {source, "cancelled"}).
using TraceLoadProgress = std::function<bool(std::int64_t bytes_read, std::int64_t bytes_total)>;

// One trace file, plain JSON or gzip (decided by its first bytes, not its name), as one rank
// whatever processes it holds (a file of several ranks: loadTraceRanks).
Result<TraceRank> loadTrace(const std::string &path, const TraceLoadOptions &options = {},
                            const TraceLoadProgress &progress = {});

// The same from bytes in memory (plain or gzip); `source` names them in problems. For tests,
// the fuzz harness and traces that did not come from a file.
Result<TraceRank> parseTrace(std::string_view bytes, const std::string &source,
                             const TraceLoadOptions &options = {}, const TraceLoadProgress &progress = {});

// One trace file as the ranks it holds: one per process when its processes are ranks, else one
// (TraceBuilder::finishRanks' rule): every process that has events is named "rank N" by a
// process_name metadata event and there are at least two of them, as in our distributed export
// (`train --dp N --trace`). A PyTorch trace - a CPU process and GPU device processes, named
// "python3", "GPU 0", ... - is one rank, as loadTrace reads it.
Result<std::vector<TraceRank>> loadTraceRanks(const std::string &path, const TraceLoadOptions &options = {},
                                              const TraceLoadProgress &progress = {});
Result<std::vector<TraceRank>> parseTraceRanks(std::string_view bytes, const std::string &source,
                                               const TraceLoadOptions &options = {},
                                               const TraceLoadProgress &progress = {});

// Several files in the given order, each as its ranks (loadTraceRanks: one, or one per rank
// process); the problems of every file that failed. `progress` sees the bytes of all files together.
Result<std::vector<TraceRank>> loadTraces(const std::vector<std::string> &paths, const TraceLoadOptions &options = {},
                                          const TraceLoadProgress &progress = {});

}  // namespace lse::traces
