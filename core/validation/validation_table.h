// SPDX-License-Identifier: GPL-3.0-or-later
// Predicted vs published step time for the shipped runs (published_runs.h), with the mean and worst
// error, and a leave-one-paper-out check of the calibration.
#pragma once

#include "common/problem.h"
#include "hardware/efficiency_factors.h"
#include "performance/calibration.h"
#include "performance/step_prediction.h"
#include "validation/published_runs.h"

#include <optional>
#include <string>
#include <vector>

namespace lse {

struct ValidationRow {
    std::string id;
    std::string paper;                 // the run's source paper, e.g. "Narayanan et al. 2021"
    double published_seconds = 0;      // PublishedRun::publishedIterationSeconds()
    double predicted_seconds = 0;      // performance::predictStep(run.scenario).total_seconds
    double error = 0;                  // (predicted − published) / published, signed
    double predicted_mfu = 0;
    double predicted_hfu = 0;
    performance::StepPrediction prediction;
};

struct ValidationTable {
    std::vector<ValidationRow> rows;
    double mean_absolute_error = 0;   // mean of |error|
    double worst_absolute_error = 0;  // max of |error|
    std::string worst_id;
};

// Every run with the factors of its scenario's accelerator, or `factors` for all when given.
// Problems: a run the prediction rejects (its id named).
Result<ValidationTable> validationTable(const std::vector<PublishedRun> &runs,
                                        const std::optional<EfficiencyFactors> &factors = std::nullopt);

// Fit on one paper's runs, predict the other paper's: one entry per paper.
// For each paper in the order it first appears: calibrateEfficiency on every other paper's runs
// (default CalibrationOptions) from `start`, then validationTable of that paper's runs with the fit.
// Problems: fewer than two papers ("runs" "papers"), the calibration's or the prediction's problems.
struct LeaveOnePaperOut {
    std::string held_out_paper;
    EfficiencyFactors fitted_on_others;
    double mean_absolute_error = 0;   // on the held-out paper's runs
    double worst_absolute_error = 0;
    // The held-out paper's runs predicted with fitted_on_others (the errors above are its mean and
    // worst), and the fit's mean error on the runs it was fitted to.
    ValidationTable held_out;
    double fitted_mean_absolute_error = 0;
};
Result<std::vector<LeaveOnePaperOut>> leaveOnePaperOut(const std::vector<PublishedRun> &runs,
                                                       const EfficiencyFactors &start,
                                                       const performance::CalibrationOptions &options = {});

}  // namespace lse
