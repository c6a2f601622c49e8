// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli presets` and `llm-explorer-cli hardware`.

#include "commands.h"
#include "output.h"

#include "cost/parameters.h"
#include "hardware/hardware_catalog.h"
#include "scenario/presets.h"
#include "scenario/scenario_json.h"

#include <QCommandLineParser>
#include <QJsonArray>

namespace lse::cli {

namespace {

QString qstr(const std::string &text) { return QString::fromStdString(text); }

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

}  // namespace lse::cli
