// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli estimate`: builds a scenario from a file and/or flags and prints its estimate.

#include "commands.h"
#include "estimate_report.h"
#include "file_arguments.h"
#include "output.h"

#include "scenario_options.h"

#include "cost/estimate.h"
#include "cost/estimate_json.h"
#include "scenario/scenario_json.h"

#include <QCommandLineParser>
#include <QFile>

namespace lse::cli {

int runEstimate(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Estimate parameters, FLOPs, training time, memory per GPU and communication of a training run.\n"
        "Starts from --scenario FILE or the course example and applies the flags on top."));
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help(QStringList{"h", "help"}, QStringLiteral("Show this help."));
    parser.addOption(help);
    addScenarioOptions(parser);
    parser.addOption(QCommandLineOption("save-scenario", "Also write the resulting scenario to FILE (atomically).", "FILE"));
    parser.addOption(QCommandLineOption("json", "Print one JSON object (fields: docs/file-formats.md, \"JSON output\")."));
    if (!parser.parse(QStringList{"estimate"} + arguments))
        return reportProblems({Problem{"arguments", "syntax", parser.errorText().toStdString()}});
    if (parser.isSet(help)) {
        printOut(QStringLiteral("Usage: llm-explorer-cli estimate [options]\n") + parser.helpText().section('\n', 1));
        return kExitOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return reportProblems({Problem{"arguments", "unexpected",
                                       "unexpected argument '" + parser.positionalArguments().front().toStdString()
                                           + "'; options start with --"}});

    if (parser.isSet("save-scenario")) {
        // A config.json or scenario read by this run is not overwritten with the result.
        std::vector<InputFile> inputs;
        for (const char *flag : {"scenario", "model"})
            if (parser.isSet(flag))
                inputs.push_back({std::string("--") + flag, parser.value(flag)});
        if (std::optional<Problem> same = outputIsAnInput("--save-scenario", parser.value("save-scenario"), inputs))
            return reportProblems({*same});
        if (std::optional<Problem> target = outputFlagProblem("--save-scenario", parser.value("save-scenario")))
            return reportProblems({*target});
    }

    std::vector<std::string> adjustments;
    const Result<Scenario> scenario = scenarioFromOptions(parser, &adjustments);
    if (!scenario)
        return reportProblems(scenario.problems());
    const Result<Estimate> result = estimate(*scenario);
    if (!result)
        return reportProblems(nameScenarioFlags(result.problems(), parser));
    if (parser.isSet("save-scenario")) {
        const QString path = parser.value("save-scenario");
        if (const Problems problems = saveScenarioFile(*scenario, QFile::encodeName(path).toStdString()); !problems.empty())
            return reportProblems(namedAfterFlag(problems, "--save-scenario", path));
    }
    if (parser.isSet("json")) {
        printJson(withAdjustments(estimateToJson(*result, *scenario), adjustments));
    }
    else
        printOut(estimateReport(*result, *scenario));
    return kExitOk;
}

}  // namespace lse::cli
