// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli presets`, `llm-explorer-cli hardware` and `llm-explorer-cli published-runs`.

#include "commands.h"
#include "output.h"

#include "cost/parameters.h"
#include "hardware/hardware_catalog.h"
#include "scenario/presets.h"
#include "scenario/scenario_json.h"
#include "validation/published_runs.h"

#include <QCommandLineParser>
#include <QJsonArray>

namespace lse::cli {

namespace {

QString qstr(const std::string &text) { return QString::fromStdString(text); }

QJsonValue optionalNumber(const std::optional<double> &value)
{
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

QJsonObject publishedRunToJson(const PublishedRun &run)
{
    const PublishedFigures &figures = run.published;
    const QJsonObject published{{"iteration_time_seconds", optionalNumber(figures.iteration_time_seconds)},
                                {"tflops_per_gpu", optionalNumber(figures.tflops_per_gpu)},
                                {"percent_of_peak", optionalNumber(figures.percent_of_peak)},
                                {"mfu_percent", optionalNumber(figures.mfu_percent)},
                                {"hfu_percent", optionalNumber(figures.hfu_percent)},
                                {"aggregate_pflops", optionalNumber(figures.aggregate_pflops)},
                                {"peak_tflops_per_gpu", optionalNumber(figures.peak_tflops_per_gpu)}};
    return QJsonObject{{"id", qstr(run.id)},
                       {"name", qstr(run.name)},
                       {"year", run.year},
                       {"source", qstr(run.source)},
                       {"paper", qstr(run.paper)},
                       {"source_locator", qstr(run.source_locator)},
                       {"verification", qstr(run.verification)},
                       {"note", qstr(run.note)},
                       {"links", qstr(run.links)},
                       {"intra_node_gbps_per_gpu", optionalNumber(run.intra_node_gbps_per_gpu)},
                       {"inter_node_gbps_per_gpu", optionalNumber(run.inter_node_gbps_per_gpu)},
                       {"distributed_optimizer", run.distributed_optimizer},
                       {"flop_convention", QJsonObject{{"id", qstr(std::string(toString(run.flop_convention)))},
                                                       {"definition", qstr(run.flop_convention_definition)}}},
                       {"published", published},
                       {"published_iteration_seconds", run.publishedIterationSeconds()},
                       {"iteration_time_printed", run.iterationTimePrinted()},
                       {"model", modelToJson(run.scenario.model)},
                       {"cluster", clusterToJson(run.scenario.cluster)},
                       {"training", trainingToJson(run.scenario.training)}};
}

// Parses `--json` and `--help` only; returns the exit status when the command should stop.
std::optional<int> parseListOptions(const QStringList &arguments, const QString &name, const QString &description,
                                    bool &json)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(description);
    const QCommandLineOption help(QStringList{"h", "help"}, QStringLiteral("Show this help."));
    const QCommandLineOption json_option(QStringLiteral("json"), QStringLiteral("Print a JSON array."));
    parser.addOption(help);
    parser.addOption(json_option);
    if (!parser.parse(QStringList{name} + arguments))
        return reportProblems({Problem{"arguments", "syntax", parser.errorText().toStdString()}});
    if (parser.isSet(help)) {
        printOut(QStringLiteral("Usage: llm-explorer-cli %1 [--json]\n").arg(name) + parser.helpText().section('\n', 1));
        return kExitOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return reportProblems({Problem{"arguments", "unexpected",
                                       "unexpected argument '" + parser.positionalArguments().front().toStdString() + "'"}});
    json = parser.isSet(json_option);
    return std::nullopt;
}

}  // namespace

int runPresets(const QStringList &arguments)
{
    bool json = false;
    if (const std::optional<int> status =
            parseListOptions(arguments, QStringLiteral("presets"), QStringLiteral("List the built-in model presets."), json))
        return *status;
    if (json) {
        QJsonArray array;
        for (const ModelPreset &preset : builtinModelPresets()) {
            QJsonObject object{{"id", qstr(preset.id)},
                               {"official_parameters", qint64(preset.official_parameters)},
                               {"parameters", qint64(countParameters(preset.model).total)},
                               {"source", qstr(preset.source)},
                               {"model", modelToJson(preset.model)}};
            array.append(object);
        }
        printJson(QJsonObject{{"presets", array}});
        return kExitOk;
    }
    printOut(QStringLiteral("%1 %2 %3 %4\n").arg("id", -20).arg("parameters", 16).arg("layers", 7).arg("d_model", 8));
    for (const ModelPreset &preset : builtinModelPresets()) {
        const ModelConfig &model = preset.model;
        printOut(QStringLiteral("%1 %2 %3 %4  %5\n")
                     .arg(qstr(preset.id), -20)
                     .arg(countParameters(model).total, 16)
                     .arg(model.n_layers, 7)
                     .arg(model.d_model, 8)
                     .arg(qstr(model.name)));
    }
    return kExitOk;
}

int runHardware(const QStringList &arguments)
{
    bool json = false;
    if (const std::optional<int> status = parseListOptions(
            arguments, QStringLiteral("hardware"), QStringLiteral("List the built-in accelerator catalog (dense peaks)."), json))
        return *status;
    const HardwareCatalog &catalog = builtinHardwareCatalog();
    if (json) {
        QJsonArray array;
        for (const Accelerator &accelerator : catalog.accelerators)
            array.append(acceleratorToJson(accelerator));
        printJson(QJsonObject{{"accelerators", array}});
        return kExitOk;
    }
    printOut(QStringLiteral("%1 %2 %3 %4 %5\n")
                 .arg("id", -15).arg("bf16 TFLOP/s", 13).arg("fp8 TFLOP/s", 12).arg("memory GB", 10).arg("HBM TB/s", 9));
    for (const Accelerator &gpu : catalog.accelerators) {
        printOut(QStringLiteral("%1 %2 %3 %4 %5  %6\n")
                     .arg(qstr(gpu.id), -15)
                     .arg(gpu.dense_peak.bf16_flops_per_second / 1e12, 13, 'f', 1)
                     .arg(gpu.dense_peak.fp8_flops_per_second / 1e12, 12, 'f', 1)
                     .arg(double(gpu.memory_bytes) / 1e9, 10, 'f', 0)
                     .arg(gpu.memory_bandwidth_bytes_per_second / 1e12, 9, 'f', 2)
                     .arg(qstr(gpu.name)));
    }
    return kExitOk;
}

int runPublishedRuns(const QStringList &arguments)
{
    bool json = false;
    if (const std::optional<int> status = parseListOptions(
            arguments, QStringLiteral("published-runs"),
            QStringLiteral("List the published training runs the step-time model is validated on, with their layouts and "
                           "published iteration times (printed, or converted from TFLOP/s with the paper's own FLOP formula)."),
            json))
        return *status;
    const std::vector<PublishedRun> &runs = builtinPublishedRuns();
    if (json) {
        QJsonArray array;
        for (const PublishedRun &run : runs)
            array.append(publishedRunToJson(run));
        printJson(QJsonObject{{"runs", array}});
        return kExitOk;
    }
    printOut(QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9")
                 .arg("id", -32).arg("GPUs", 5).arg("tp", 3).arg("pp", 3).arg("dp", 3).arg("v", 2)
                 .arg("micro", 5).arg("global", 6).arg("recompute", -12)
             + QStringLiteral("%1   %2\n").arg("seconds", 9).arg("published time"));
    for (const PublishedRun &run : runs) {
        const TrainingConfig &training = run.scenario.training;
        const ParallelConfig &parallel = training.parallel;
        const QString recompute = qstr(std::string(toString(training.recomputation)))
                                  + (parallel.sequence_parallel ? QStringLiteral("+sp") : QString());
        printOut(QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9")
                     .arg(qstr(run.id), -32).arg(run.scenario.cluster.gpus, 5).arg(parallel.tp, 3).arg(parallel.pp, 3)
                     .arg(parallel.dp, 3).arg(parallel.virtual_stages, 2).arg(training.micro_batch, 5)
                     .arg(training.global_batch, 6).arg(recompute, -12)
                 + QStringLiteral("%1   %2\n")
                       .arg(run.publishedIterationSeconds(), 9, 'f', 2)
                       .arg(run.iterationTimePrinted()
                                ? QStringLiteral("printed")
                                : QStringLiteral("from %1 TFLOP/s/GPU (%2)")
                                      .arg(run.published.tflops_per_gpu.value_or(0.0), 0, 'f', 0)
                                      .arg(qstr(std::string(toString(run.flop_convention))))));
    }
    return kExitOk;
}

}  // namespace lse::cli
