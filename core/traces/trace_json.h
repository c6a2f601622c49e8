// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis of a rank as JSON: the object `llm-explorer-cli trace --json` prints per rank
// (fields documented in docs/user-guide/traces.md). Kept in core so the GUI's export and the tests
// read the same fields.
#pragma once

#include "traces/trace_analysis.h"

#include <QJsonObject>

namespace lse::traces {

QJsonObject traceAnalysisToJson(const TraceRankAnalysis &analysis);
QJsonObject breakdownToJson(const TraceTimeBreakdown &breakdown);

}  // namespace lse::traces
