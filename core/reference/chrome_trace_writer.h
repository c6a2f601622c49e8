// SPDX-License-Identifier: GPL-3.0-or-later
// The reference transformer's recorded steps (op_trace.h) as Chrome-trace JSON (the Trace Event
// Format that chrome://tracing, Perfetto and the PyTorch profiler use, issue 31):
//
//   {"traceEvents": [...], "displayTimeUnit": "ms", "otherData": {...}}
//
// - one process (pid) per rank, named "rank N" (one process: the program), with metadata events
//   process_name, process_sort_index and thread_name;
// - thread (tid) 1, "operators": per step a ProfilerStep#N range (cat "user_annotation", as
//   torch.profiler names its steps), inside it the phases (forward, backward and optimizer for
//   training, prefill and decode for generation, cat "user_annotation"), inside those one complete
//   event per operator call (cat "cpu_op") with args {class, shape, flops, bytes, phase} (class
//   "matmul" for matrix products; those also carry "Input Dims" and "Input type" as a profile with
//   record_shapes=True does);
// - thread 2, "communication": one event per collective (all_reduce, reduce_scatter, all_gather,
//   ...) with args {class "communication", bytes (sent by this rank), elements}.
// Times are microseconds from the log's origin, written with nanosecond resolution; a start and an
// end are each rounded once, so a call inside a range stays inside it in the file.
#pragma once

#include "common/problem.h"
#include "reference/op_trace.h"

#include <string>
#include <utility>
#include <vector>

namespace lse::reference {

// The events of one process: its metadata and every event of `log`, as comma-separated JSON
// objects (the inside of the traceEvents array). A data-parallel rank sends this text to rank 0.
std::string chromeTraceProcessEvents(const OpTraceLog &log, int pid, const std::string &process_name);

// The whole document around the processes' event texts. `other_data`: (key, value) strings shown
// under otherData (producer, model, steps, ...).
std::string chromeTraceDocument(const std::vector<std::string> &process_events,
                                const std::vector<std::pair<std::string, std::string>> &other_data);

// Writes `document` through the project's one atomic writer (common/file_writer.h): a regular
// file or a new name, never one of the run's inputs. A problem {field: path, rule} on failure.
Result<bool> writeChromeTrace(const std::string &path, const std::string &document);

// JSON string literal of `text` (quotes included), escaping as RFC 8259 requires.
std::string jsonString(const std::string &text);

}  // namespace lse::reference
