// SPDX-License-Identifier: GPL-3.0-or-later
// A trace beside the prediction as JSON: the `prediction` object `llm-explorer-cli trace --json`
// adds per rank (fields documented in docs/user-guide/traces.md, "Measured beside predicted").
// Kept in core so the GUI's export and the tests read the same fields.
#pragma once

#include "traces/trace_vs_prediction.h"

#include <QJsonObject>

namespace lse::traces {

// {"accelerator", "calls", "skipped_calls", "measured_seconds", "predicted_seconds",
//  "ratio": {"median", "p10", "p90", "min", "max"}, "rows": [{"operator", "shape", "dtype", "kernel",
//  "calls", "flops", "measured_seconds", "predicted_seconds", "ratio", "achieved_flops_per_second",
//  "peak_flops_per_second"}]} — rows by measured time, at most `max_rows` (all when negative).
QJsonObject gemmPredictionToJson(const GemmPredictionSummary &summary, int max_rows = -1);

// {"accelerator", "pass", "steps", "measured_step_seconds", "predicted_step_seconds",
//  "matmul_flops": {"measured", "predicted"}, "peak_flops_per_second",
//  "mfu": {"measured", "predicted", "engine"}, "classes": [{"class", "measured_seconds",
//  "predicted_seconds"}], "operators": [...], "missing_in_trace": [...], "missing_time": {...}}
// Operators: {"name", "class", "shape", "split", "measured_count", "measured_seconds",
// "measured_flops", "predicted_count", "predicted_seconds", "predicted_flops", "ratio"}.
QJsonObject traceVsPredictionToJson(const TraceVsPrediction &comparison);

}  // namespace lse::traces
