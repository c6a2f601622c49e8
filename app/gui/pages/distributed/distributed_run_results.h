// SPDX-License-Identifier: GPL-3.0-or-later
// The results of one distributed run as the CLI reports them (rank 0's `train ... --json`): the
// run's facts and each step, measured beside the engine's prediction. One reader for every layout
// the page starts: --dp N (DataParallelStepReport), --tp T and --pp P, and dp × tp / dp × pp; a
// pipeline run's last step is read by core's readMeasuredPipelineRun, as the Pipeline page does.
#pragma once

#include "distributed/data_parallel_report.h"
#include "distributed/pipeline_run_json.h"

#include <QByteArray>
#include <QString>

#include <optional>
#include <vector>

namespace lse::gui {

// One rank's traffic of one purpose in a step (tp_forward, pp_send, dp_gradients, gradients, ...):
// the step's entries of that rank and purpose added up, with the engine's bytes for the same
// events where the CLI gives them (`predicted_bytes_per_rank`; none for what the engine does not
// count, such as grad_norm or loss_and_norm, nor for --dp runs, whose prediction is the step's).
struct DistributedPurposeTraffic {
    int rank = 0;
    QString purpose;
    QString collective;  // "all_gather + reduce_scatter" when the purpose used both
    int transfers = 0;  // entries (a pipeline entry carries its own count)
    double bytes_per_rank = 0;
    std::optional<double> predicted_bytes_per_rank;
};

struct DistributedRunResults {
    QString layout;  // "dp", "tp", "pp", "dp_tp", "dp_pp" (from the JSON's keys)
    int ranks = 0;
    int dp = 1, tp = 1, pp = 1;
    QString mode;  // --dp runs: "naive", "bucketed", "zero1", "zero2", "zero3"
    int zero_stage = 0;
    double bucket_bytes = 0;
    bool sequence_parallel = false;
    int global_batch = 0;
    // Per step. For tp and pp runs only the common fields are set: loss, learning rate, norm, time,
    // the communication entries, and the step's bytes: tp the TP volume (tp_forward + tp_backward)
    // beside the engine's, pp rank 0's pipeline sends beside the engine's bytes for them.
    std::vector<distributed::DataParallelStepReport> steps;
    std::vector<std::vector<DistributedPurposeTraffic>> traffic;  // per step, by rank then purpose
    // tp runs: activations saved for backward (measured, the engine's) of the last step.
    std::optional<std::pair<double, double>> activations;
    // pp runs: rank 0's (stage 0's) memory of each step beside the engine's for its stage is in
    // steps[].memory / predicted_memory (parameters, gradients, optimizer states), and here the
    // stage inputs it kept for its backward passes, which the engine has no figure for.
    std::optional<double> stage_inputs_bytes;
    std::optional<distributed::MeasuredPipelineRun> pipeline;  // pp runs: the last step's passes

    bool isDataParallel() const { return layout == QLatin1String("dp"); }
};

// Reads the CLI's JSON; nothing, with the reason in *error, when it is not that JSON.
std::optional<DistributedRunResults> parseDistributedRunResults(const QByteArray &json, QString *error);

// A step's exposed communication: the sum of its collectives' exposed seconds.
double exposedSeconds(const distributed::DataParallelStepReport &step);

}  // namespace lse::gui
