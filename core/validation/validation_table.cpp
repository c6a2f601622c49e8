// SPDX-License-Identifier: GPL-3.0-or-later
#include "validation/validation_table.h"

#include "performance/calibration.h"

#include <algorithm>
#include <cmath>

namespace lse {

namespace {

// The engine names scenario fields ("training.tp"); in the table they belong to a run.
Problem inRun(Problem problem, std::size_t index, const std::string &id)
{
    const std::string row = "runs[" + std::to_string(index) + "]";
    problem.field = row + "." + problem.field;
    problem.message = row + " (run '" + id + "'): " + problem.message;
    for (std::string &related : problem.related)
        related = row + "." + related;
    return problem;
}

ValidationRow rowOf(const PublishedRun &run, performance::StepPrediction prediction)
{
    ValidationRow row;
    row.id = run.id;
    row.paper = run.paper;
    row.published_seconds = run.publishedIterationSeconds();
    row.predicted_seconds = prediction.total_seconds;
    row.error = (row.predicted_seconds - row.published_seconds) / row.published_seconds;
    row.predicted_mfu = prediction.mfu;
    row.predicted_hfu = prediction.hfu;
    row.prediction = std::move(prediction);
    return row;
}

// Papers in the order their first run appears, so the output follows the data file.
std::vector<std::string> papersOf(const std::vector<PublishedRun> &runs)
{
    std::vector<std::string> papers;
    for (const PublishedRun &run : runs)
        if (std::find(papers.begin(), papers.end(), run.paper) == papers.end())
            papers.push_back(run.paper);
    return papers;
}

std::vector<performance::CalibrationPoint> calibrationPoints(const std::vector<PublishedRun> &runs)
{
    std::vector<performance::CalibrationPoint> points;
    for (const PublishedRun &run : runs)
        points.push_back({run.id, run.scenario, run.publishedIterationSeconds()});
    return points;
}

}  // namespace

Result<ValidationTable> validationTable(const std::vector<PublishedRun> &runs,
                                        const std::optional<EfficiencyFactors> &factors)
{
    ValidationTable table;
    Problems problems;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const PublishedRun &run = runs[i];
        Result<performance::StepPrediction> prediction =
            factors ? performance::predictStep(run.scenario, *factors) : performance::predictStep(run.scenario);
        if (!prediction) {
            for (const Problem &problem : prediction.problems())
                problems.push_back(inRun(problem, i, run.id));
            continue;
        }
        table.rows.push_back(rowOf(run, std::move(prediction.value())));
    }
    if (!problems.empty())
        return problems;
    for (const ValidationRow &row : table.rows) {
        table.mean_absolute_error += std::abs(row.error) / double(table.rows.size());
        if (table.worst_id.empty() || std::abs(row.error) > table.worst_absolute_error) {
            table.worst_absolute_error = std::abs(row.error);
            table.worst_id = row.id;
        }
    }
    return table;
}

Result<std::vector<LeaveOnePaperOut>> leaveOnePaperOut(const std::vector<PublishedRun> &runs,
                                                       const EfficiencyFactors &start,
                                                       const performance::CalibrationOptions &options)
{
    const std::vector<std::string> papers = papersOf(runs);
    if (papers.size() < 2)
        return Result<std::vector<LeaveOnePaperOut>>::failure(
            "runs", "papers",
            "runs come from " + std::to_string(papers.size())
                + " paper(s); leaving one paper out needs runs from at least two");
    std::vector<LeaveOnePaperOut> entries;
    for (const std::string &paper : papers) {
        std::vector<PublishedRun> held_out;
        std::vector<PublishedRun> others;
        for (const PublishedRun &run : runs)
            (run.paper == paper ? held_out : others).push_back(run);
        const Result<performance::CalibrationResult> fit =
            performance::calibrateEfficiency(calibrationPoints(others), start, options);
        if (!fit)
            return fit.problems();
        Result<ValidationTable> predicted = validationTable(held_out, fit->factors);
        if (!predicted)
            return predicted.problems();
        LeaveOnePaperOut entry;
        entry.held_out_paper = paper;
        entry.fitted_on_others = fit->factors;
        entry.fitted_mean_absolute_error = fit->mean_absolute_error;
        entry.mean_absolute_error = predicted->mean_absolute_error;
        entry.worst_absolute_error = predicted->worst_absolute_error;
        entry.held_out = std::move(predicted.value());
        entries.push_back(std::move(entry));
    }
    return entries;
}

}  // namespace lse
