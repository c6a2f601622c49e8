// SPDX-License-Identifier: GPL-3.0-or-later
// `trace`'s measured-beside-predicted part (core/traces/trace_vs_prediction.h): the flags, and per
// rank the JSON `prediction` object and its text. `trace` calls these from its own file.
#pragma once

#include "common/problem.h"
#include "hardware/accelerator.h"
#include "scenario/scenario.h"
#include "traces/trace_analysis.h"
#include "traces/trace_model.h"
#include "traces/trace_vs_prediction.h"

#include <QCommandLineParser>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace lse::cli {

// The scenario flags (--scenario, --model, --gpu, ...), --pass train|forward and --predict-gemms.
// Without any of them `trace` prints no prediction (its output stays the analysis alone).
void addTracePredictionOptions(QCommandLineParser &parser);

struct TracePredictionRequest {
    bool requested = false;  // any prediction flag given

    // --gpu alone: the accelerator of the per-GEMM predictions; unset (--predict-gemms): the trace's
    // deviceProperties.
    std::optional<Accelerator> gpu;
    // --scenario or any other scenario flag: the step to compare with.
    std::optional<Scenario> scenario;
    std::optional<traces::ComparedPass> pass;  // --pass; unset: detectComparedPass
};
// Problems name the flag (exit status 2).
Result<TracePredictionRequest> tracePredictionRequest(const QCommandLineParser &parser);

struct TracePredictionOutput {
    QJsonObject json;  // empty: nothing requested, or a CPU-only trace without a scenario
    QString text;
};
// `top`: the rows listed in the text (JSON lists every row). A scenario with a CPU-only trace is a
// problem (field "trace"); a GPU trace whose device is not in the catalog and no --gpu gets a note.
Result<TracePredictionOutput> tracePredictionFor(const TracePredictionRequest &request, const traces::TraceRank &rank,
                                                 const traces::TraceRankAnalysis &analysis, int top);

}  // namespace lse::cli
