// SPDX-License-Identifier: GPL-3.0-or-later
#include "validation/accelerator_validation.h"

#include <algorithm>
#include <cmath>

namespace lse {

std::vector<EfficiencyParameter> fittableParameters(const std::vector<PublishedRun> &runs)
{
    std::vector<EfficiencyParameter> parameters{EfficiencyParameter::GemmPeakFraction,
                                                EfficiencyParameter::MemoryBandwidthFraction};
    const auto any = [&runs](auto predicate) { return std::any_of(runs.begin(), runs.end(), predicate); };
    if (any([](const PublishedRun &run) {
            return run.scenario.training.flash_attention
                && run.scenario.training.attention_kernel == AttentionKernel::FlashAttention2;
        }))
        parameters.push_back(EfficiencyParameter::FlashAttentionFraction);
    if (any([](const PublishedRun &run) {
            return run.scenario.training.flash_attention
                && run.scenario.training.attention_kernel == AttentionKernel::FlashAttention3;
        }))
        parameters.push_back(EfficiencyParameter::FlashAttention3Fraction);
    if (any([](const PublishedRun &run) { return run.scenario.training.precision.matmul_dtype == DType::FP8; }))
        parameters.push_back(EfficiencyParameter::Fp8GemmPeakFraction);
    // The depth last: a kernel class the runs use matters more than how efficiency falls off with
    // a short inner dimension, when there are few runs to fit.
    parameters.push_back(EfficiencyParameter::GemmFixedCostDepth);
    // n runs determine at most n parameters (calibration.h): the first n, in the order above.
    if (parameters.size() > runs.size())
        parameters.resize(runs.size());
    return parameters;
}

double absolutePercentile(std::vector<double> values, double percent)
{
    if (values.empty())
        return 0;
    for (double &value : values)
        value = std::abs(value);
    std::sort(values.begin(), values.end());
    // Nearest rank: the smallest value with at least percent% of the values at or below it.
    const auto rank = std::size_t(std::ceil(percent / 100.0 * double(values.size())));
    return values[std::clamp<std::size_t>(rank, 1, values.size()) - 1];
}

namespace {

std::vector<std::string> sourcesOf(const std::vector<PublishedRun> &runs)
{
    std::vector<std::string> sources;
    for (const PublishedRun &run : runs)
        if (std::find(sources.begin(), sources.end(), run.paper) == sources.end())
            sources.push_back(run.paper);
    return sources;
}

Result<AcceleratorValidation> validateOne(const std::vector<PublishedRun> &runs,
                                          const AcceleratorValidationOptions &options)
{
    AcceleratorValidation result;
    const Accelerator &accelerator = runs.front().scenario.cluster.accelerator;
    result.accelerator_id = accelerator.id;
    result.accelerator_name = accelerator.name;
    result.sources = sourcesOf(runs);
    Result<ValidationTable> catalog = validationTable(runs);
    if (!catalog)
        return catalog.problems();
    result.catalog = std::move(catalog.value());

    performance::CalibrationOptions calibration;
    calibration.parameters = fittableParameters(runs);
    calibration.max_evaluations = options.max_evaluations;
    // From the middle of the ranges, not from the catalog's factors (which came from this fit):
    // the same runs give the same factors and held-out errors however often the catalog is updated.
    const EfficiencyFactors start = performance::rangeMidpoints(accelerator.efficiency, calibration.parameters);
    if (options.fit) {
        std::vector<performance::CalibrationPoint> points;
        for (const PublishedRun &run : runs)
            points.push_back({run.id, run.scenario, run.publishedIterationSeconds()});
        Result<performance::CalibrationResult> fitted =
            performance::calibrateEfficiency(points, start, calibration);
        if (!fitted)
            return fitted.problems();
        result.fit = std::move(fitted.value());
    }
    if (options.leave_one_source_out && result.sources.size() >= 2) {
        Result<std::vector<LeaveOnePaperOut>> held_out = leaveOnePaperOut(runs, start, calibration);
        if (!held_out)
            return held_out.problems();
        result.leave_one_source_out = std::move(held_out.value());
        for (const ValidationRow &row : result.catalog.rows)
            for (const LeaveOnePaperOut &entry : result.leave_one_source_out)
                for (const ValidationRow &held : entry.held_out.rows)
                    if (held.id == row.id)
                        result.held_out_errors.push_back(held.error);
        for (double error : result.held_out_errors) {
            result.held_out_mean_absolute_error += std::abs(error) / double(result.held_out_errors.size());
            result.held_out_worst_absolute_error = std::max(result.held_out_worst_absolute_error, std::abs(error));
        }
        result.held_out_p90_absolute_error = absolutePercentile(result.held_out_errors, 90);
    }
    return result;
}

}  // namespace

Result<std::vector<AcceleratorValidation>> validateByAccelerator(const std::vector<PublishedRun> &runs,
                                                                 const AcceleratorValidationOptions &options)
{
    std::vector<std::string> order;
    for (const PublishedRun &run : runs)
        if (std::find(order.begin(), order.end(), run.scenario.cluster.accelerator.id) == order.end())
            order.push_back(run.scenario.cluster.accelerator.id);
    std::vector<AcceleratorValidation> result;
    int done_runs = 0;
    for (const std::string &id : order) {
        std::vector<PublishedRun> group;
        std::copy_if(runs.begin(), runs.end(), std::back_inserter(group),
                     [&id](const PublishedRun &run) { return run.scenario.cluster.accelerator.id == id; });
        if (options.progress && !options.progress(done_runs, int(runs.size())))
            return Problems{{"validation", "cancelled", "the validation was cancelled"}};
        done_runs += int(group.size());
        Result<AcceleratorValidation> one = validateOne(group, options);
        if (!one)
            return one.problems();
        result.push_back(std::move(one.value()));
    }
    return result;
}

HeldOutSummary heldOutOverAll(const std::vector<AcceleratorValidation> &accelerators)
{
    std::vector<double> errors;
    for (const AcceleratorValidation &accelerator : accelerators)
        errors.insert(errors.end(), accelerator.held_out_errors.begin(), accelerator.held_out_errors.end());
    HeldOutSummary summary;
    summary.runs = int(errors.size());
    for (double error : errors)
        summary.mean_absolute_error += std::abs(error) / double(errors.size());
    summary.worst_absolute_error = absolutePercentile(errors, 100);
    summary.p90_absolute_error = absolutePercentile(errors, 90);
    return summary;
}

}  // namespace lse
