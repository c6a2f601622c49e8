// SPDX-License-Identifier: GPL-3.0-or-later
// The `measured` object of `llm-explorer-cli attention --measure --json` (issue 32) from one row
// of measureAttention: per kernel {seconds, peak_bytes} of the forward pass (the closed forms'
// pass) plus the forward + backward figures, the working memory alone, and the bytes moved.
#pragma once

#include "reference/attention_measurement.h"

#include <QJsonObject>

namespace lse::reference {

// {"naive": {...}, "tiled": {...}, "block_rows", "block_cols", "threads", "l2_bytes",
//  "bytes_moved_source", "causal": true}; each kernel {"ran", "seconds", "peak_bytes",
//  "training_seconds", "training_peak_bytes", "working_bytes", "training_working_bytes",
//  "bytes_moved", "bytes_moved_counted" (when a counter gave it), "skipped" (when not run)}.
QJsonObject attentionMeasuredJson(const AttentionMeasurement &measurement, const AttentionMeasureRow &row);

}  // namespace lse::reference
