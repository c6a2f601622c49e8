// SPDX-License-Identifier: GPL-3.0-or-later
#include "performance/calibration.h"

#include "cost/estimate.h"
#include "performance/nelder_mead.h"
#include "performance/step_prediction.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace lse::performance {

namespace {

// The interval a fitted parameter is kept in. The fractions stay above 0.05: below that a fit is
// explaining something other than kernel efficiency (a wrong layout, a missing communication).
// A fixed-cost depth above 1024 would halve a k = 1024 product, more than any measured GEMM loses.
struct ParameterRange {
    double low = 0;
    double high = 1;
};

// Each fraction stays in the range published micro-benchmarks measured, so that a fit explains
// step times with plausible kernels rather than moving one factor to absorb what another part of
// the model (or of a framework) got wrong:
// - a large GEMM sustains 60–90% of the dense peak on A100/H100 (cuBLAS; NVIDIA Deep Learning
//   Performance Guide, "Matrix Multiplication Background"): [0.5, 0.95];
// - a streaming kernel sustains 80–93% of the HBM bandwidth (STREAM-style copy; small kernels of a
//   real step less): [0.5, 0.95];
// - FlashAttention-2 reaches 50–73% of the A100 peak (Dao 2023, §4.1) and 35% of the H100's;
//   FlashAttention-3 up to 75% of the H100's (Shah et al. 2024, §4.1); the backward pass less:
//   [0.25, 0.8] for both;
// - an FP8 GEMM reaches about 60–75% of the FP8 peak once scaling and casts are counted
//   (Transformer Engine; Micikevicius et al. 2022): [0.3, 0.85].
ParameterRange rangeOf(EfficiencyParameter parameter)
{
    switch (parameter) {
    case EfficiencyParameter::GemmFixedCostDepth: return {0.0, 1024.0};
    // Sinha et al. 2022 saw at most 22% between GPUs of a cluster: a spread of 5% is far beyond it.
    case EfficiencyParameter::GpuSpeedSpread: return {0.0, 0.05};
    case EfficiencyParameter::GemmPeakFraction: return {0.5, 0.95};
    case EfficiencyParameter::MemoryBandwidthFraction: return {0.5, 0.95};
    case EfficiencyParameter::FlashAttentionFraction:
    case EfficiencyParameter::FlashAttention3Fraction: return {0.25, 0.8};
    case EfficiencyParameter::Fp8GemmPeakFraction: return {0.3, 0.85};
    }
    return {std::nextafter(0.05, 1.0), 1.0};  // (0.05, 1]
}

std::string pointPath(std::size_t index)
{
    return "points[" + std::to_string(index) + "]";
}

Problem inPoint(Problem problem, const std::string &path)
{
    problem.field = path + "." + problem.field;
    problem.message = path + ": " + problem.message;
    for (std::string &related : problem.related)
        related = path + "." + related;
    return problem;
}

struct StepTimeErrors {
    double mean_absolute = 0;
    double worst_absolute = 0;
};

// The fitted parameters as coordinates of the unit box the minimiser works in, and back.
class ParameterSpace {
public:
    ParameterSpace(const EfficiencyFactors &start, std::vector<EfficiencyParameter> parameters)
        : start_(start), parameters_(std::move(parameters))
    {
    }

    std::vector<double> unitCoordinates(const EfficiencyFactors &factors) const
    {
        std::vector<double> unit;
        for (EfficiencyParameter parameter : parameters_) {
            const ParameterRange range = rangeOf(parameter);
            const double value = std::clamp(parameterValue(factors, parameter), range.low, range.high);
            unit.push_back((value - range.low) / (range.high - range.low));
        }
        return unit;
    }

    EfficiencyFactors factorsAt(const std::vector<double> &unit) const
    {
        EfficiencyFactors factors = start_;
        for (std::size_t i = 0; i < parameters_.size(); ++i) {
            const ParameterRange range = rangeOf(parameters_[i]);
            parameterValue(factors, parameters_[i]) =
                std::clamp(range.low + unit[i] * (range.high - range.low), range.low, range.high);
        }
        return factors;
    }

private:
    EfficiencyFactors start_;
    std::vector<EfficiencyParameter> parameters_;
};

// Mean and worst |predicted − measured| / measured; infinite when a prediction fails.
StepTimeErrors stepTimeErrors(const std::vector<CalibrationPoint> &points, const EfficiencyFactors &factors)
{
    StepTimeErrors errors;
    for (const CalibrationPoint &point : points) {
        const Result<StepPrediction> prediction = predictStep(point.scenario, factors);
        const double error = prediction
                                 ? std::abs(prediction->total_seconds - point.measured_step_seconds)
                                       / point.measured_step_seconds
                                 : std::numeric_limits<double>::infinity();
        errors.mean_absolute += error / double(points.size());
        errors.worst_absolute = std::max(errors.worst_absolute, error);
    }
    return errors;
}

Problems optionProblems(const CalibrationOptions &options)
{
    Problems problems;
    if (options.parameters.empty())
        problems.push_back({"options.parameters", "required", "options.parameters is empty; name at least one factor to fit"});
    for (std::size_t i = 0; i < options.parameters.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (options.parameters[i] == options.parameters[j])
                problems.push_back({"options.parameters", "unique",
                                    "options.parameters names " + std::string(toString(options.parameters[i]))
                                        + " twice"});
    if (options.max_evaluations < 1)
        problems.push_back({"options.max_evaluations", "range",
                            "options.max_evaluations is " + std::to_string(options.max_evaluations)
                                + "; it must be at least 1"});
    return problems;
}

// Every point checked once with the start factors, so a scenario the engine rejects is reported
// with its index rather than silently scored as an infinite error.
Problems pointProblems(const std::vector<CalibrationPoint> &points, const EfficiencyFactors &start)
{
    Problems problems;
    if (points.empty()) {
        problems.push_back({"points", "required", "points is empty; calibration needs at least one measured run"});
        return problems;
    }
    for (std::size_t i = 0; i < points.size(); ++i) {
        const CalibrationPoint &point = points[i];
        const std::string path = pointPath(i);
        if (!std::isfinite(point.measured_step_seconds) || point.measured_step_seconds <= 0)
            problems.push_back({path + ".measured_step_seconds", "range",
                                path + ".measured_step_seconds is " + std::to_string(point.measured_step_seconds)
                                    + "; a measured step time must be a positive number of seconds"});
        // One set of factors describes one accelerator: mixing accelerators would fit neither.
        const std::string &accelerator = point.scenario.cluster.accelerator.id;
        if (accelerator != points.front().scenario.cluster.accelerator.id)
            problems.push_back({path + ".scenario.cluster.accelerator", "same",
                                path + ".scenario.cluster.accelerator is '" + accelerator + "' but points[0] runs on '"
                                    + points.front().scenario.cluster.accelerator.id
                                    + "'; calibrate one accelerator at a time"});
        const Result<StepPrediction> prediction = predictStep(point.scenario, start);
        for (const Problem &problem : prediction.problems())
            if (problem.field.rfind("efficiency.", 0) != 0)  // the start's own problems are reported once
                problems.push_back(inPoint(problem, path));
    }
    return problems;
}

std::string fittedSource(const std::vector<CalibrationPoint> &points, double mean_absolute_error)
{
    std::string ids;
    for (const CalibrationPoint &point : points)
        ids += (ids.empty() ? "" : ", ") + point.id;
    char error[32];
    std::snprintf(error, sizeof error, "%.2f%%", 100.0 * mean_absolute_error);
    return "fitted by calibrateEfficiency to " + std::to_string(points.size()) + " runs: " + ids + "; mean error "
           + error;
}

}  // namespace

Result<CalibrationResult> calibrateEfficiency(const std::vector<CalibrationPoint> &points,
                                              const EfficiencyFactors &start, const CalibrationOptions &options)
{
    Problems problems = validateEfficiencyFactors(start, "start");
    const Problems option_problems = optionProblems(options);
    problems.insert(problems.end(), option_problems.begin(), option_problems.end());
    if (problems.empty()) {
        const Problems point_problems = pointProblems(points, start);
        problems.insert(problems.end(), point_problems.begin(), point_problems.end());
    }
    if (!problems.empty())
        return problems;

    const ParameterSpace space(start, options.parameters);
    const auto meanError = [&](const std::vector<double> &unit) {
        return stepTimeErrors(points, space.factorsAt(unit)).mean_absolute;
    };
    NelderMeadOptions minimiser;
    minimiser.max_evaluations = options.max_evaluations;
    const NelderMeadResult best = minimiseInUnitBox(meanError, space.unitCoordinates(start), minimiser);

    CalibrationResult result;
    result.factors = space.factorsAt(best.point);
    const StepTimeErrors errors = stepTimeErrors(points, result.factors);
    result.mean_absolute_error = errors.mean_absolute;
    result.worst_absolute_error = errors.worst_absolute;
    result.evaluations = best.evaluations;
    result.factors.source = fittedSource(points, errors.mean_absolute);
    return result;
}

EfficiencyFactors rangeMidpoints(const EfficiencyFactors &base, const std::vector<EfficiencyParameter> &parameters)
{
    EfficiencyFactors factors = base;
    for (EfficiencyParameter parameter : parameters) {
        const ParameterRange range = rangeOf(parameter);
        parameterValue(factors, parameter) = 0.5 * (range.low + range.high);
    }
    return factors;
}

Result<double> stepSecondsFromModelTflops(const Scenario &scenario, double model_tflops_per_gpu)
{
    if (!std::isfinite(model_tflops_per_gpu) || model_tflops_per_gpu <= 0)
        return Result<double>::failure("model_tflops_per_gpu", "range",
                                       "model_tflops_per_gpu is " + std::to_string(model_tflops_per_gpu)
                                           + "; a measured throughput must be a positive number of TFLOP/s per GPU");
    const Result<Estimate> estimated = estimate(scenario);
    if (!estimated)
        return estimated.problems();
    const TrainingConfig &training = scenario.training;
    // Model FLOPs per step (matmuls, no recomputation; PaLM App. B) over the cluster's achieved rate.
    const double model_flops_per_step =
        estimated->flops.train_per_token * double(training.global_batch) * double(training.seq_len);
    const double seconds = model_flops_per_step / (model_tflops_per_gpu * 1e12 * double(scenario.cluster.gpus));
    if (!std::isfinite(seconds) || seconds <= 0)
        return Result<double>::failure("model_tflops_per_gpu", "range",
                                       "model_tflops_per_gpu " + std::to_string(model_tflops_per_gpu)
                                           + " gives a step time that is not a positive finite number");
    return seconds;
}

}  // namespace lse::performance
