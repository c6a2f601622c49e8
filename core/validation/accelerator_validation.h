// SPDX-License-Identifier: GPL-3.0-or-later
// The step-time model checked per accelerator (issue 29): each accelerator's published runs with
// its catalog factors, its factors fitted on its own runs only, and leave-one-source-out on each
// accelerator — every run predicted by factors fitted without any run of its own source, which is
// the error a user of a new setup should expect. The error band the app shows beside a predicted
// step time is this held-out error's 90th percentile (prediction_accuracy.h).
#pragma once

#include "common/problem.h"
#include "performance/calibration.h"
#include "validation/published_runs.h"
#include "validation/validation_table.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace lse {

// The factors a set of runs can determine: the GEMM fraction, the fixed-cost depth and the
// streaming bandwidth always; FlashAttention's fraction only when a run uses FlashAttention, the
// FP8 GEMM fraction only when a run trains in FP8; the depth last; never more parameters than runs
// (one run: the GEMM fraction only). The GPU speed spread is not fitted: it is a
// cited figure (efficiency_factors.h), and step times alone cannot tell it from the GEMM fraction.
std::vector<EfficiencyParameter> fittableParameters(const std::vector<PublishedRun> &runs);

struct AcceleratorValidation {
    std::string accelerator_id;
    std::string accelerator_name;
    std::vector<std::string> sources;  // the runs' papers in file order
    ValidationTable catalog;           // predicted with the catalog's factors
    // One entry per source when there are at least two; each source's runs predicted by the fit on
    // the other sources of this accelerator.
    std::vector<LeaveOnePaperOut> leave_one_source_out;
    // Every run's held-out error (empty with one source), in the order of `catalog.rows`.
    std::vector<double> held_out_errors;
    double held_out_mean_absolute_error = 0;
    double held_out_worst_absolute_error = 0;
    double held_out_p90_absolute_error = 0;  // the band: nearest-rank 90th percentile of |error|
    std::optional<performance::CalibrationResult> fit;  // on all its runs (when asked)
};

struct AcceleratorValidationOptions {
    bool fit = false;                  // fit the factors on all of each accelerator's runs
    bool leave_one_source_out = false;
    int max_evaluations = 1000;        // per fit (performance::CalibrationOptions)
    // Called before each accelerator with (runs done, all runs); returning false stops the
    // validation, which then returns the problem {"validation", "cancelled"} (the GUI runs
    // leave-one-source-out, a few seconds, off its thread).
    std::function<bool(int done_runs, int total_runs)> progress = {};
};

// One entry per accelerator in the order its first run appears. Problems: the predictions' or the
// calibrations' problems (a run the engine rejects is named).
Result<std::vector<AcceleratorValidation>> validateByAccelerator(const std::vector<PublishedRun> &runs,
                                                                 const AcceleratorValidationOptions &options);

// Every accelerator's held-out errors together (the runs of accelerators with one source have
// none): their count, mean, worst and nearest-rank 90th percentile of |error|.
struct HeldOutSummary {
    int runs = 0;
    double mean_absolute_error = 0;
    double worst_absolute_error = 0;
    double p90_absolute_error = 0;
};
HeldOutSummary heldOutOverAll(const std::vector<AcceleratorValidation> &accelerators);

// The nearest-rank p-th percentile (0 < p ≤ 100) of |values|; 0 for none.
double absolutePercentile(std::vector<double> values, double percent);

}  // namespace lse
