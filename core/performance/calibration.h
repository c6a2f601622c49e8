// SPDX-License-Identifier: GPL-3.0-or-later
// Fitting an accelerator's efficiency factors to measured step times: the same factors for every
// run (one set per accelerator), chosen to minimise the mean absolute relative step-time error.
#pragma once

#include "common/problem.h"
#include "hardware/efficiency_factors.h"
#include "scenario/scenario.h"

#include <string>
#include <vector>

namespace lse::performance {

// One measured run: a scenario (its accelerator is the one calibrated) and its step time.
struct CalibrationPoint {
    std::string id;
    Scenario scenario;
    double measured_step_seconds = 0;
};

struct CalibrationOptions {
    // What may move; the others keep the start values. With one measured run only one parameter can
    // be determined: callers pass {GemmPeakFraction}.
    std::vector<EfficiencyParameter> parameters{EfficiencyParameter::GemmPeakFraction,
                                                EfficiencyParameter::GemmFixedCostDepth,
                                                EfficiencyParameter::MemoryBandwidthFraction};
    int max_evaluations = 400;
};

struct CalibrationResult {
    EfficiencyFactors factors;        // fitted; source says what it was fitted to
    double mean_absolute_error = 0;   // mean |predicted − measured| / measured over the points
    double worst_absolute_error = 0;
    int evaluations = 0;
};

// Problems: no points ("points" "required"), a non-positive or non-finite measured time
// ("points[i].measured_step_seconds" "range"), a scenario the engine rejects (its problems, prefixed
// "points[i]."), start factors out of range.
Result<CalibrationResult> calibrateEfficiency(const std::vector<CalibrationPoint> &points,
                                              const EfficiencyFactors &start, const CalibrationOptions &options = {});

// A measured throughput of the user's own run as a step time: tokens per step / (TFLOP/s per GPU ·
// GPUs) under the engine's model-FLOP count (matmuls, no recomputation).
Result<double> stepSecondsFromModelTflops(const Scenario &scenario, double model_tflops_per_gpu);

}  // namespace lse::performance
