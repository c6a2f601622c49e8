// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli validate`: predicted vs published step time of every shipped run
// (core/validation/validation_table.h) with the mean and worst error; `--fit` adds the factors
// fitted to all runs (how the catalog's factors can be checked), `--leave-one-paper-out` the error
// on each paper when the factors are fitted on the other.

#include "commands.h"
#include "output.h"

#include "performance/calibration.h"
#include "validation/validation_table.h"

#include <QCommandLineParser>
#include <QJsonArray>

namespace lse::cli {

namespace {

QString qstr(const std::string &text) { return QString::fromStdString(text); }

QString percent(double fraction, int decimals = 1) { return QString::number(100.0 * fraction, 'f', decimals); }

QJsonObject stepBreakdownJson(const performance::StepPrediction &prediction)
{
    QJsonObject object;
    for (const performance::StepPart &part : performance::stepParts(prediction))
        object.insert(qstr(part.id), part.seconds);
    return object;
}

QJsonObject rowJson(const ValidationRow &row)
{
    return QJsonObject{{"id", qstr(row.id)},
                       {"paper", qstr(row.paper)},
                       {"published_seconds", row.published_seconds},
                       {"predicted_seconds", row.predicted_seconds},
                       {"error", row.error},
                       {"predicted_mfu", row.predicted_mfu},
                       {"predicted_hfu", row.predicted_hfu},
                       {"step_breakdown", stepBreakdownJson(row.prediction)}};
}

QJsonObject tableJson(const ValidationTable &table)
{
    QJsonArray rows;
    for (const ValidationRow &row : table.rows)
        rows.append(rowJson(row));
    return QJsonObject{{"runs", rows},
                       {"mean_absolute_error", table.mean_absolute_error},
                       {"worst_absolute_error", table.worst_absolute_error},
                       {"worst_id", qstr(table.worst_id)}};
}

// The fitted factors with the errors they give, one flat object.
QJsonObject fitJson(const EfficiencyFactors &factors, const ValidationTable &with_factors)
{
    QJsonObject object = efficiencyFactorsToJson(factors);
    object.insert("mean_absolute_error", with_factors.mean_absolute_error);
    object.insert("worst_absolute_error", with_factors.worst_absolute_error);
    object.insert("worst_id", qstr(with_factors.worst_id));
    return object;
}

QJsonArray leaveOnePaperOutJson(const std::vector<LeaveOnePaperOut> &entries)
{
    QJsonArray array;
    for (const LeaveOnePaperOut &entry : entries) {
        QJsonArray ids;
        for (const ValidationRow &row : entry.held_out.rows)
            ids.append(qstr(row.id));
        array.append(QJsonObject{{"held_out_paper", qstr(entry.held_out_paper)},
                                 {"held_out_ids", ids},
                                 {"fitted_on_others", efficiencyFactorsToJson(entry.fitted_on_others)},
                                 {"fitted_mean_absolute_error", entry.fitted_mean_absolute_error},
                                 {"mean_absolute_error", entry.mean_absolute_error},
                                 {"worst_absolute_error", entry.worst_absolute_error},
                                 {"worst_id", qstr(entry.held_out.worst_id)}});
    }
    return array;
}

QString errorSummaryText(const ValidationTable &table)
{
    return QStringLiteral("mean |error| %1 %, worst %2 % (%3)")
        .arg(percent(table.mean_absolute_error), percent(table.worst_absolute_error), qstr(table.worst_id));
}

QString factorsText(const EfficiencyFactors &factors)
{
    return QStringLiteral("gemm_peak_fraction %1, gemm_fixed_cost_depth %2, memory_bandwidth_fraction %3")
        .arg(factors.gemm_peak_fraction, 0, 'f', 3)
        .arg(factors.gemm_fixed_cost_depth, 0, 'f', 1)
        .arg(factors.memory_bandwidth_fraction, 0, 'f', 3);
}

void printTable(const ValidationTable &table, const std::vector<PublishedRun> &runs)
{
    printOut(QStringLiteral("%1 %2 %3 %4 %5 %6 %7\n")
                 .arg("run", -32).arg("GPUs", 5).arg("tp/pp/dp", 11).arg("published s", 12).arg("predicted s", 12)
                 .arg("error %", 8).arg("MFU %", 6));
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
        const ValidationRow &row = table.rows[i];
        const Scenario &scenario = runs[i].scenario;
        const ParallelConfig &parallel = scenario.training.parallel;
        printOut(QStringLiteral("%1 %2 %3 %4 %5 %6 %7\n")
                     .arg(qstr(row.id), -32)
                     .arg(scenario.cluster.gpus, 5)
                     .arg(QStringLiteral("%1/%2/%3").arg(parallel.tp).arg(parallel.pp).arg(parallel.dp), 11)
                     .arg(row.published_seconds, 12, 'f', 2)
                     .arg(row.predicted_seconds, 12, 'f', 2)
                     .arg(percent(row.error), 8)
                     .arg(percent(row.predicted_mfu), 6));
    }
    printOut(errorSummaryText(table) + QLatin1Char('\n'));
}

void printFit(const EfficiencyFactors &factors, const ValidationTable &with_factors, std::size_t runs)
{
    printOut(QStringLiteral("\nfitted to all %1 runs: %2\n  with them: %3\n")
                 .arg(runs)
                 .arg(factorsText(factors), errorSummaryText(with_factors)));
}

void printLeaveOnePaperOut(const std::vector<LeaveOnePaperOut> &entries)
{
    printOut(QStringLiteral("\nleave one paper out (fit on the other paper's runs, predict the held-out paper's):\n"));
    for (const LeaveOnePaperOut &entry : entries)
        printOut(QStringLiteral("  %1 held out (%2 runs): %3\n    fitted on the others (their mean |error| %4 %): %5\n")
                     .arg(qstr(entry.held_out_paper))
                     .arg(entry.held_out.rows.size())
                     .arg(errorSummaryText(entry.held_out), percent(entry.fitted_mean_absolute_error),
                          factorsText(entry.fitted_on_others)));
}

}  // namespace

int runValidate(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Predict the step time of every shipped published run (see published-runs) with the step-time model and the "
        "catalog's efficiency factors of its accelerator, and compare it with the published time: error = "
        "(predicted - published) / published, then the mean and the worst |error|."));
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help(QStringList{"h", "help"}, QStringLiteral("Show this help."));
    const QCommandLineOption json(QStringLiteral("json"),
                                  QStringLiteral("Print JSON (errors and MFU as fractions, times in seconds)."));
    const QCommandLineOption fit(
        QStringLiteral("fit"),
        QStringLiteral("Also fit one set of efficiency factors (gemm_peak_fraction, gemm_fixed_cost_depth, "
                       "memory_bandwidth_fraction) to all runs and print the errors with them."));
    const QCommandLineOption leave_one_out(
        QStringLiteral("leave-one-paper-out"),
        QStringLiteral("Also fit the factors on one paper's runs and print the error on the other paper's runs."));
    parser.addOption(help);
    parser.addOption(json);
    parser.addOption(fit);
    parser.addOption(leave_one_out);
    if (!parser.parse(QStringList{"validate"} + arguments))
        return reportProblems({Problem{"arguments", "syntax", parser.errorText().toStdString()}});
    if (parser.isSet(help)) {
        printOut(QStringLiteral("Usage: llm-explorer-cli validate [--json] [--fit] [--leave-one-paper-out]\n")
                 + parser.helpText().section('\n', 1));
        return kExitOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return reportProblems({Problem{"arguments", "unexpected",
                                       "unexpected argument '" + parser.positionalArguments().front().toStdString()
                                           + "'"}});

    const std::vector<PublishedRun> &runs = builtinPublishedRuns();
    const Result<ValidationTable> table = validationTable(runs);
    if (!table)
        return reportProblems(table.problems());
    // The fits start from the catalog's factors of the runs' accelerator (the calibration refuses
    // runs on different accelerators).
    const EfficiencyFactors start = runs.front().scenario.cluster.accelerator.efficiency;

    std::optional<performance::CalibrationResult> fitted;
    std::optional<ValidationTable> with_fit;
    if (parser.isSet(fit)) {
        std::vector<performance::CalibrationPoint> points;
        for (const PublishedRun &run : runs)
            points.push_back({run.id, run.scenario, run.publishedIterationSeconds()});
        Result<performance::CalibrationResult> calibrated = performance::calibrateEfficiency(points, start);
        if (!calibrated)
            return reportProblems(calibrated.problems());
        Result<ValidationTable> predicted = validationTable(runs, calibrated->factors);
        if (!predicted)
            return reportProblems(predicted.problems());
        fitted = std::move(calibrated.value());
        with_fit = std::move(predicted.value());
    }
    std::optional<std::vector<LeaveOnePaperOut>> by_paper;
    if (parser.isSet(leave_one_out)) {
        Result<std::vector<LeaveOnePaperOut>> entries = leaveOnePaperOut(runs, start);
        if (!entries)
            return reportProblems(entries.problems());
        by_paper = std::move(entries.value());
    }

    if (parser.isSet(json)) {
        QJsonObject object = tableJson(*table);
        if (fitted)
            object.insert("fit", fitJson(fitted->factors, *with_fit));
        if (by_paper)
            object.insert("leave_one_paper_out", leaveOnePaperOutJson(*by_paper));
        printJson(object);
        return kExitOk;
    }
    printTable(*table, runs);
    if (fitted)
        printFit(fitted->factors, *with_fit, runs.size());
    if (by_paper)
        printLeaveOnePaperOut(*by_paper);
    return kExitOk;
}

}  // namespace lse::cli
