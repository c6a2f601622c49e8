// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli validate`: predicted vs published step time of every shipped run
// (core/validation/validation_table.h) with the mean and worst error; `--fit` adds the factors
// fitted to all runs (how the catalog's factors can be checked), `--leave-one-paper-out` the error
// on each paper when the factors are fitted on the other.

#include "commands.h"
#include "output.h"
#include "validate_serving.h"

#include "performance/calibration.h"
#include "validation/accelerator_validation.h"
#include "validation/validation_table.h"

#include <QCommandLineParser>
#include <QJsonArray>

#include <algorithm>
#include <cmath>

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

QString factorsText(const EfficiencyFactors &factors, const std::vector<EfficiencyParameter> &parameters)
{
    QStringList parts;
    for (EfficiencyParameter parameter : parameters)
        parts << QStringLiteral("%1 %2").arg(qstr(std::string(toString(parameter))))
                     .arg(parameterValue(factors, parameter), 0, 'f',
                          parameter == EfficiencyParameter::GemmFixedCostDepth ? 1 : 3);
    return parts.join(QStringLiteral(", "));
}

void printRows(const ValidationTable &table, const std::vector<PublishedRun> &runs, const std::vector<double> &held_out)
{
    printOut(QStringLiteral("  %1 %2 %3 %4 %5 %6 %7%8\n")
                 .arg("run", -36).arg("GPUs", 6).arg("tp/pp/dp/cp", 12).arg("published s", 12).arg("predicted s", 12)
                 .arg("error %", 8).arg("MFU %", 6)
                 .arg(held_out.empty() ? QString() : QStringLiteral(" %1").arg("held out %", 11)));
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
        const ValidationRow &row = table.rows[i];
        const auto run = std::find_if(runs.begin(), runs.end(), [&row](const PublishedRun &r) { return r.id == row.id; });
        const ParallelConfig &parallel = run->scenario.training.parallel;
        printOut(QStringLiteral("  %1 %2 %3 %4 %5 %6 %7%8\n")
                     .arg(qstr(row.id), -36)
                     .arg(run->scenario.cluster.gpus, 6)
                     .arg(QStringLiteral("%1/%2/%3/%4").arg(parallel.tp).arg(parallel.pp).arg(parallel.dp).arg(parallel.cp), 12)
                     .arg(row.published_seconds, 12, 'f', 2)
                     .arg(row.predicted_seconds, 12, 'f', 2)
                     .arg(percent(row.error), 8)
                     .arg(percent(row.predicted_mfu), 6)
                     .arg(held_out.empty() ? QString() : QStringLiteral(" %1").arg(percent(held_out[i]), 11)));
    }
}

// "1 run", "18 runs".
QString countText(std::size_t count, const char *one, const char *many)
{
    return QStringLiteral("%1 %2").arg(count).arg(QLatin1String(count == 1 ? one : many));
}

QJsonObject acceleratorJson(const AcceleratorValidation &entry, const std::vector<PublishedRun> &runs)
{
    QJsonObject object = tableJson(entry.catalog);
    object.insert("accelerator", qstr(entry.accelerator_id));
    object.insert("name", qstr(entry.accelerator_name));
    QJsonArray sources;
    for (const std::string &source : entry.sources)
        sources.append(qstr(source));
    object.insert("sources", sources);
    if (entry.fit) {
        Result<ValidationTable> with_fit = validationTable(runs, entry.fit->factors);
        if (with_fit)
            object.insert("fit", fitJson(entry.fit->factors, *with_fit));
    }
    if (!entry.leave_one_source_out.empty()) {
        object.insert("leave_one_paper_out", leaveOnePaperOutJson(entry.leave_one_source_out));
        object.insert("held_out", QJsonObject{{"mean_absolute_error", entry.held_out_mean_absolute_error},
                                              {"worst_absolute_error", entry.held_out_worst_absolute_error},
                                              {"p90_absolute_error", entry.held_out_p90_absolute_error}});
    }
    return object;
}

std::vector<PublishedRun> runsOf(const std::vector<PublishedRun> &runs, const std::string &accelerator)
{
    std::vector<PublishedRun> group;
    for (const PublishedRun &run : runs)
        if (run.scenario.cluster.accelerator.id == accelerator)
            group.push_back(run);
    return group;
}

}  // namespace

int runValidate(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Predict the step time of every shipped published run (see published-runs) with the step-time model and the "
        "catalog's efficiency factors of its accelerator, and compare it with the published time: error = "
        "(predicted - published) / published, then the mean and the worst |error|, per accelerator and for all runs."));
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help(QStringList{"h", "help"}, QStringLiteral("Show this help."));
    const QCommandLineOption json(QStringLiteral("json"),
                                  QStringLiteral("Print JSON (errors and MFU as fractions, times in seconds)."));
    const QCommandLineOption fit(
        QStringLiteral("fit"),
        QStringLiteral("Also fit each accelerator's efficiency factors on its own runs (how the catalog's factors are "
                       "made) and print the errors they give."));
    const QCommandLineOption leave_one_out(
        QStringList{QStringLiteral("leave-one-paper-out"), QStringLiteral("leave-one-source-out")},
        QStringLiteral("Also, per accelerator, fit the factors without one source's runs and predict that source's runs: "
                       "the held-out error (mean, worst, 90th percentile = the error band the app shows)."));
    const QCommandLineOption evaluations(
        QStringLiteral("max-evaluations"),
        QStringLiteral("Error evaluations per fit, 1 to 100000 (default 1000, what the catalog's factors were fitted "
                       "with; fewer is faster and less exact)."),
        QStringLiteral("N"));
    const QCommandLineOption serving(
        QStringLiteral("serving"),
        QStringLiteral("Validate the serving model instead (infer): predicted vs published TensorRT-LLM and "
                       "FasterTransformer throughput and latencies per accelerator and precision; with --fit the "
                       "serving factors fitted on every row, with --leave-one-source-out each source predicted by "
                       "factors fitted without it."));
    parser.addOption(help);
    parser.addOption(json);
    parser.addOption(fit);
    parser.addOption(leave_one_out);
    parser.addOption(evaluations);
    parser.addOption(serving);

    if (!parser.parse(QStringList{"validate"} + arguments))
        return reportProblems({Problem{"arguments", "syntax", parser.errorText().toStdString()}});
    if (parser.isSet(help)) {
        printOut(QStringLiteral("Usage: llm-explorer-cli validate [--serving] [--json] [--fit] [--leave-one-paper-out] "
                                "[--max-evaluations N]\n")
                 + parser.helpText().section('\n', 1));
        return kExitOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return reportProblems({Problem{"arguments", "unexpected",
                                       "unexpected argument '" + parser.positionalArguments().front().toStdString()
                                           + "'"}});

    if (parser.isSet(serving)) {
        if (parser.isSet(evaluations))
            return reportProblems({Problem{"--max-evaluations", "serving",
                                           "--max-evaluations applies to the training validation; the serving fit has "
                                           "its own fixed budget"}});
        return runValidateServing({parser.isSet(json), parser.isSet(fit), parser.isSet(leave_one_out)});
    }
    AcceleratorValidationOptions options;
    if (parser.isSet(evaluations)) {
        bool whole = false;
        const int count = parser.value(evaluations).toInt(&whole);
        if (!whole || count < 1 || count > 100000)
            return reportProblems({Problem{"--max-evaluations", "range",
                                           "--max-evaluations '" + parser.value(evaluations).toStdString()
                                               + "' must be a whole number from 1 to 100000"}});
        options.max_evaluations = count;
    }
    const std::vector<PublishedRun> &runs = builtinPublishedRuns();
    const Result<ValidationTable> table = validationTable(runs);
    if (!table)
        return reportProblems(table.problems());
    options.fit = parser.isSet(fit);
    options.leave_one_source_out = parser.isSet(leave_one_out);
    const Result<std::vector<AcceleratorValidation>> accelerators = validateByAccelerator(runs, options);
    if (!accelerators)
        return reportProblems(accelerators.problems());
    // Every held-out error of every accelerator, for the whole shipped set.
    std::vector<double> held_out_all;
    for (const AcceleratorValidation &entry : *accelerators)
        held_out_all.insert(held_out_all.end(), entry.held_out_errors.begin(), entry.held_out_errors.end());
    double held_out_mean = 0;
    for (double error : held_out_all)
        held_out_mean += std::abs(error) / double(held_out_all.size());

    if (parser.isSet(json)) {
        QJsonObject object = tableJson(*table);
        QJsonArray by_accelerator;
        for (const AcceleratorValidation &entry : *accelerators)
            by_accelerator.append(acceleratorJson(entry, runsOf(runs, entry.accelerator_id)));
        object.insert("accelerators", by_accelerator);
        if (!held_out_all.empty())
            object.insert("held_out", QJsonObject{{"runs", int(held_out_all.size())},
                                                  {"mean_absolute_error", held_out_mean},
                                                  {"worst_absolute_error", absolutePercentile(held_out_all, 100)},
                                                  {"p90_absolute_error", absolutePercentile(held_out_all, 90)}});
        printJson(object);
        return kExitOk;
    }
    for (const AcceleratorValidation &entry : *accelerators) {
        const std::vector<PublishedRun> group = runsOf(runs, entry.accelerator_id);
        printOut(QStringLiteral("%1 (%2): %3 from %4\n")
                     .arg(qstr(entry.accelerator_name), qstr(entry.accelerator_id),
                          countText(entry.catalog.rows.size(), "run", "runs"),
                          countText(entry.sources.size(), "source", "sources")));
        printRows(entry.catalog, group, entry.held_out_errors);
        printOut(QStringLiteral("  catalog factors: %1\n").arg(errorSummaryText(entry.catalog)));
        if (entry.fit) {
            const Result<ValidationTable> with_fit = validationTable(group, entry.fit->factors);
            printOut(QStringLiteral("  fitted on its %1: %2\n    with them: %3\n")
                         .arg(countText(group.size(), "run", "runs"))
                         .arg(factorsText(entry.fit->factors, fittableParameters(group)),
                              with_fit ? errorSummaryText(*with_fit) : QString()));
        }
        if (!entry.leave_one_source_out.empty()) {
            printOut(QStringLiteral("  leave one source out (fit on this accelerator's other sources, predict the held-out one):\n"));
            for (const LeaveOnePaperOut &held : entry.leave_one_source_out)
                printOut(QStringLiteral("    %1 (%2): %3\n")
                             .arg(qstr(held.held_out_paper))
                             .arg(countText(held.held_out.rows.size(), "run", "runs"))
                             .arg(errorSummaryText(held.held_out)));
            printOut(QStringLiteral("  held out, all its runs: mean |error| %1 %, worst %2 %, 90th percentile %3 %\n")
                         .arg(percent(entry.held_out_mean_absolute_error), percent(entry.held_out_worst_absolute_error),
                              percent(entry.held_out_p90_absolute_error)));
        } else if (options.leave_one_source_out) {
            printOut(QStringLiteral("  leave one source out: not possible, all its runs come from one source\n"));
        }
        printOut(QStringLiteral("\n"));
    }
    printOut(QStringLiteral("all %1 runs, catalog factors: %2\n").arg(table->rows.size()).arg(errorSummaryText(*table)));
    if (!held_out_all.empty())
        printOut(QStringLiteral("all %1 runs with a held-out prediction: mean |error| %2 %, worst %3 %, 90th percentile %4 %\n")
                     .arg(held_out_all.size())
                     .arg(percent(held_out_mean), percent(absolutePercentile(held_out_all, 100)),
                          percent(absolutePercentile(held_out_all, 90))));
    return kExitOk;
}

}  // namespace lse::cli
