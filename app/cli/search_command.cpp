// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli search`: every valid parallel layout of a scenario's model and GPUs, ranked by
// the predicted step time (performance::predictStep, core/parallel/layout_search.h).

#include "commands.h"
#include "output.h"
#include "scenario_options.h"

#include "parallel/layout_search.h"

#include <QCommandLineParser>
#include <QJsonArray>

#include <string>

namespace lse::cli {

namespace {

QJsonObject layoutToJson(const parallel::LayoutCandidate &layout)
{
    const ParallelConfig &p = layout.parallel;
    const parallel::StepTimeBreakdown &b = layout.breakdown;
    QJsonObject object;
    object["dp"] = p.dp;
    object["tp"] = p.tp;
    object["pp"] = p.pp;
    object["cp"] = p.cp;
    object["ep"] = p.ep;
    object["virtual_stages"] = p.virtual_stages;
    object["sequence_parallel"] = p.sequence_parallel;
    object["zero_stage"] = p.zero_stage;
    object["micro_batch"] = double(layout.micro_batch);
    object["recomputation"] = QString::fromUtf8(toString(layout.recomputation).data(),
                                                int(toString(layout.recomputation).size()));
    object["memory_bytes_per_gpu"] = b.memory_bytes_per_gpu;
    object["step_seconds"] = b.total_seconds;
    object["tokens_per_second"] = b.tokens_per_second;
    object["mfu"] = b.mfu;
    object["compute_seconds"] = b.compute_seconds;
    object["optimizer_seconds"] = b.optimizer_seconds;
    object["exposed_communication_seconds"] = b.exposed_communication_seconds;
    object["bubble_seconds"] = b.bubble_seconds;
    object["straggler_seconds"] = b.straggler_seconds;
    // Within the accelerator's error band of the best layout (parallel::markWithinBandOfBest).
    object["within_band_of_best"] = layout.within_band_of_best;
    return object;
}

QString table(const parallel::SearchResult &result, const PredictionAccuracy &accuracy)
{
    QString text = QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9 %10 %11 %12 %13 %14 %15 %16\n")
                       .arg("rank", 4).arg("dp", 5).arg("tp", 3).arg("pp", 3).arg("cp", 3).arg("ep", 3).arg("v", 3)
                       .arg("sp", 3).arg("zero", 4).arg("mb", 3).arg("recompute", -9).arg("mem/GPU", 10)
                       .arg("step", 10).arg("tokens/s", 10).arg("MFU", 6).arg("vs best");
    int rank = 0;
    for (const parallel::LayoutCandidate &layout : result.top) {
        const ParallelConfig &p = layout.parallel;
        const parallel::StepTimeBreakdown &b = layout.breakdown;
        const QString band = rank == 0 ? QStringLiteral("best") : layout.within_band_of_best ? QStringLiteral("~best") : QString();
        text += QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9 %10 %11 %12 %13 %14 %15 %16\n")
                    .arg(++rank, 4).arg(p.dp, 5).arg(p.tp, 3).arg(p.pp, 3).arg(p.cp, 3).arg(p.ep, 3)
                    .arg(p.virtual_stages, 3).arg(p.sequence_parallel ? "on" : "off", 3).arg(p.zero_stage, 4)
                    .arg(qint64(layout.micro_batch), 3)
                    .arg(QString::fromUtf8(toString(layout.recomputation).data(), int(toString(layout.recomputation).size())), -9)
                    .arg(formatBytes(b.memory_bytes_per_gpu), 10).arg(formatSeconds(b.total_seconds), 10)
                    .arg(formatCount(b.tokens_per_second), 10).arg(QString::number(100 * b.mfu, 'f', 1) + "%", 6)
                    .arg(band);
    }
    if (result.top.empty())
        text += QStringLiteral("no layout fits in GPU memory\n");
    text += QStringLiteral("evaluated %1 layouts (%2 valid, %3 fit, %4 predicted) in %5 s; ranked by the predicted "
                           "step time (see 'validate')\n")
                .arg(result.evaluated).arg(result.valid).arg(result.fitting).arg(result.predicted)
                .arg(result.seconds, 0, 'f', 3);
    // The prediction's error band (issue 29 §2): layouts within it of the best cannot be ranked apart.
    if (result.band_fraction > 0)
        text += QStringLiteral("~best: predicted step within the accelerator's error band (± %1 %, the leave-one-source-out "
                               "90th percentile) of the best; the prediction cannot rank those apart\n")
                    .arg(100 * result.band_fraction, 0, 'f', 0);
    else
        text += QStringLiteral("no error band for this accelerator (%1): only ties with the best are marked ~best\n")
                    .arg(QString::fromStdString(accuracy.basis));
    return text;
}

Problem noValidLayout(const Scenario &scenario, const parallel::SearchOptions &options)
{
    const TrainingConfig &training = scenario.training;
    return {"cluster.gpus", "no_valid_layout",
            "no parallel layout of " + scenario.model.name + " on " + std::to_string(scenario.cluster.gpus)
                + " GPUs is valid: no dp·tp·pp·cp equal to cluster.gpus (micro-batch 1.."
                + std::to_string(options.max_micro_batch) + ") divides the model's heads and layers, training.seq_len "
                + std::to_string(training.seq_len) + " and training.global_batch "
                + std::to_string(training.global_batch) + " as validation requires",
            {"training.global_batch", "training.seq_len", "cluster.gpus_per_node"}};
}

}  // namespace

int runSearch(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Search every valid parallel layout (dp, tp, pp, cp, ep, interleaving, sequence parallelism, ZeRO stage,\n"
        "micro-batch, recomputation) of the scenario's model on its GPUs and rank the ones that fit by the\n"
        "predicted step time: operator-level kernel times + exposed communication + pipeline bubble, the model\n"
        "'validate' checks against published runs. Only layouts that could rank in the top K are predicted.\n"
        "The scenario's own layout flags (--dp --tp --pp --cp --ep --virtual-stages --sp --zero --micro-batch\n"
        "--recompute) are ignored: the search chooses them."));
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help(QStringList{"h", "help"}, QStringLiteral("Show this help."));
    parser.addOption(help);
    addScenarioOptions(parser);
    parser.addOption(QCommandLineOption("top", "How many layouts to print (default 20).", "K", "20"));
    // Gone with the ranking by the predicted step: the accelerator's efficiency factors (hardware
    // catalog) replace one typed efficiency. Still parsed so a script that passes it learns why.
    QCommandLineOption efficiency("efficiency", "Removed: layouts are ranked by the predicted step time.", "X");
    efficiency.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(efficiency);
    parser.addOption(QCommandLineOption("max-micro-batch", "Largest micro-batch to try (default 16).", "N", "16"));
    parser.addOption(QCommandLineOption("json", "Print one JSON object (fields: docs/file-formats.md, \"JSON output\")."));
    if (!parser.parse(QStringList{"search"} + arguments))
        return reportProblems({Problem{"arguments", "syntax", parser.errorText().toStdString()}});
    if (parser.isSet(help)) {
        printOut(QStringLiteral("Usage: llm-explorer-cli search [options]\n") + parser.helpText().section('\n', 1));
        return kExitOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return reportProblems({Problem{"arguments", "unexpected",
                                       "unexpected argument '" + parser.positionalArguments().front().toStdString()
                                           + "'; options start with --"}});

    Problems problems;
    parallel::SearchOptions options;
    options.keep_cloud = false;
    const std::optional<std::int64_t> top = parseCount(parser.value("top"));
    if (!top || *top < 1 || *top > 1000000)
        problems.push_back({"--top", "range", "--top must be a whole number from 1 to 1000000"});
    else
        options.top = int(*top);
    if (parser.isSet("efficiency"))
        problems.push_back({"--efficiency", "removed",
                            "--efficiency is no longer used: search ranks layouts by the predicted step time, whose "
                            "kernel efficiencies are the accelerator's (hardware catalog; see 'validate')"});
    const std::optional<std::int64_t> max_micro_batch = parseCount(parser.value("max-micro-batch"));
    if (!max_micro_batch || *max_micro_batch < 1 || *max_micro_batch > 4096)
        problems.push_back({"--max-micro-batch", "range", "--max-micro-batch must be a whole number from 1 to 4096"});
    else
        options.max_micro_batch = *max_micro_batch;
    std::vector<std::string> adjustments;
    const Result<Scenario> scenario = scenarioFromOptions(parser, &adjustments);
    if (!scenario)
        problems.insert(problems.end(), scenario.problems().begin(), scenario.problems().end());
    if (!problems.empty())
        return reportProblems(problems);

    const Result<parallel::SearchResult> result = parallel::searchLayouts(*scenario, options);
    if (!result)
        return reportProblems(nameScenarioFlags(result.problems(), parser));
    // No valid layout at all is bad input (the GPU count fits no split of this model and batch),
    // not the memory verdict "no layout fits" that a valid but too large model gets.
    if (result->valid == 0)
        return reportProblems(nameScenarioFlags({noValidLayout(*scenario, options)}, parser));
    if (parser.isSet("json")) {
        QJsonArray layouts;
        for (const parallel::LayoutCandidate &layout : result->top)
            layouts.append(layoutToJson(layout));
        QJsonObject object;
        object["evaluated"] = double(result->evaluated);
        object["valid"] = double(result->valid);
        object["fitting"] = double(result->fitting);
        object["seconds"] = result->seconds;
        object["predicted"] = double(result->predicted);
        object["ranking"] = QStringLiteral("predicted_step_seconds");
        object["band_fraction"] = result->band_fraction;
        object["layouts"] = layouts;
        printJson(withAdjustments(object, adjustments));
    } else {
        printOut(table(*result, scenario->cluster.accelerator.accuracy));
    }
    return kExitOk;
}

}  // namespace lse::cli
