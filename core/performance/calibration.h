// SPDX-License-Identifier: GPL-3.0-or-later
// Fitting an accelerator's efficiency factors to measured step times: the same factors for every
// run (one set per accelerator), chosen to minimise the mean absolute relative step-time error.
//
// Method (calibration.cpp): Nelder–Mead (performance/nelder_mead.h) over the chosen parameters,
// each mapped onto [0, 1] from its valid interval — fractions in (0.05, 1], gemm_fixed_cost_depth in
// [0, 1024] — starting at `start` (clamped into those intervals) with a first simplex of 25% of each
// interval, restarted smaller from the best point while that still improves, until
// options.max_evaluations error evaluations (each predicts every point once). Deterministic: no
// random numbers, the same inputs give the same factors.
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
// Also: points on different accelerators ("points[i].scenario.cluster.accelerator" "same"), empty or
// repeated options.parameters, options.max_evaluations < 1. Start problems name "start.<key>".
Result<CalibrationResult> calibrateEfficiency(const std::vector<CalibrationPoint> &points,
                                              const EfficiencyFactors &start, const CalibrationOptions &options = {});

// The middle of each parameter's fitted range (calibration.cpp cites the ranges), the rest of
// `base` unchanged: a start that owes nothing to earlier fits, so that fitting the published runs
// from it reproduces the catalog's factors and errors exactly (validateByAccelerator).
EfficiencyFactors rangeMidpoints(const EfficiencyFactors &base, const std::vector<EfficiencyParameter> &parameters);

// A measured throughput of the user's own run as a step time: tokens per step / (TFLOP/s per GPU ·
// GPUs) under the engine's model-FLOP count (matmuls, no recomputation).
// Problems: a non-positive or non-finite throughput ("model_tflops_per_gpu" "range"), the
// scenario's own problems.
Result<double> stepSecondsFromModelTflops(const Scenario &scenario, double model_tflops_per_gpu);

}  // namespace lse::performance
