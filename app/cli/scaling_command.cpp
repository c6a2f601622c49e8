// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli scaling`: the Chinchilla compute-optimal split of a training budget
// (Hoffmann et al. 2022, approach 3's closed form, core/scaling/chinchilla_law.h), the ≈20
// tokens-per-parameter rule of approaches 1/2, Table 3's row when the budget is one of its
// budgets, and the loss of a given model size and token count.

#include "commands.h"
#include "output.h"

#include "scaling/chinchilla_law.h"
#include "scaling/chinchilla_table3.h"

#include <QCommandLineParser>

#include <cmath>
#include <optional>

namespace lse::cli {

namespace {

using scaling::ComputeOptimum;

const char *const kDifference =
    "approach 1 fits power laws to the lowest loss each budget reached in training (Table 2: N_opt ~ C^0.50, "
    "D_opt ~ C^0.50); approach 3 fits L(N, D) to every run and its optimum grows more slowly in N (Table 2: "
    "C^0.46 and C^0.54; the rounded constants printed in the paper give 0.45 and 0.55). The gap between the "
    "exponents compounds with the budget, and the runs behind both fits stop at 16B parameters, so at the Gopher "
    "budget the two answers are about a factor of two apart.";

// The law describes models of at least one parameter trained on at least one token, so a budget
// below 6 FLOPs (one parameter, one token) is a typo, not a question the law answers.
constexpr double kMinCount = 1;
constexpr double kMinCompute = scaling::kTrainingFlopsPerParameterToken;

// A finite whole number of at least `minimum` from `flag` (of `counted`: "FLOPs", "parameters",
// "tokens"), or a problem naming the flag and the value as typed. Doubles, not 64-bit integers:
// budgets such as 1e30 FLOPs are past 2^63, and every double from 2^53 on is whole.
std::optional<double> wholeNumberAtLeast(const QCommandLineParser &parser, const QString &flag, double minimum,
                                         const char *counted, const char *meaning, Problems &problems)
{
    const QString text = parser.value(flag);
    const std::optional<double> value = parseNumber(text);
    if (!value) {
        problems.push_back({("--" + flag).toStdString(), "number",
                            QStringLiteral("--%1 '%2' is not a number (decimal, e.g. 5.76e23, 70e9 or 70B)")
                                .arg(flag, text)
                                .toStdString()});
        return std::nullopt;
    }
    // FLOPs, parameters and tokens are counts: "6 × 2.5 parameters" is not a model.
    if (std::floor(*value) != *value) {
        problems.push_back({("--" + flag).toStdString(), "count",
                            QStringLiteral("--%1 '%2' is not a whole number (%3 are counted one by one)")
                                .arg(flag, text, QLatin1String(counted))
                                .toStdString()});
        return std::nullopt;
    }
    if (!(*value >= minimum)) {
        problems.push_back({("--" + flag).toStdString(), "minimum",
                            QStringLiteral("--%1 '%2' must be at least %3 (%4)")
                                .arg(flag, text)
                                .arg(minimum)
                                .arg(QLatin1String(meaning))
                                .toStdString()});
        return std::nullopt;
    }
    return value;
}

bool finite(const ComputeOptimum &split)
{
    return std::isfinite(split.compute) && std::isfinite(split.params) && std::isfinite(split.tokens)
        && std::isfinite(split.loss) && split.params > 0 && split.tokens > 0;
}

// Counts as papers write them: 70.0B parameters, 1.40T tokens.
QString paperCount(double value)
{
    struct Prefix {
        double scale;
        const char *suffix;
    };
    for (const Prefix &prefix : {Prefix{1e12, "T"}, Prefix{1e9, "B"}, Prefix{1e6, "M"}, Prefix{1e3, "K"}})
        if (value >= prefix.scale && value < 1e15)
            return QStringLiteral("%1%2").arg(value / prefix.scale, 0, 'f', value / prefix.scale < 100 ? 2 : 1)
                .arg(QLatin1String(prefix.suffix));
    return QStringLiteral("%1").arg(value, 0, 'g', 4);
}

QJsonObject splitJson(const ComputeOptimum &split)
{
    QJsonObject object;
    object["params"] = split.params;
    object["tokens"] = split.tokens;
    object["loss"] = split.loss;
    object["tokens_per_param"] = split.tokensPerParam();
    return object;
}

QString splitLine(const QString &label, const ComputeOptimum &split)
{
    return QStringLiteral("  %1 %2 parameters on %3 tokens (%4 tokens/parameter), loss %5\n")
        .arg(label, -26)
        .arg(paperCount(split.params), paperCount(split.tokens))
        .arg(split.tokensPerParam(), 0, 'g', 4)
        .arg(split.loss, 0, 'f', 4);
}

}  // namespace

int runScaling(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "The Chinchilla compute-optimal model size and token count for a training budget (Hoffmann et al. 2022):\n"
        "approach 3's loss L(N, D) = E + A/N^alpha + B/D^beta (E 1.69, A 406.4, B 410.7, alpha 0.34, beta 0.28)\n"
        "minimised at C = 6·N·D, next to the ~20 tokens per parameter of approaches 1/2 and Table 3.\n"
        "Give the budget (--compute) or a model size and its tokens (--params and --tokens)."));
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help(QStringList{"h", "help"}, QStringLiteral("Show this help."));
    parser.addOption(help);
    parser.addOption(QCommandLineOption("compute", "Training compute in FLOPs (e.g. 5.76e23).", "FLOPS"));
    parser.addOption(QCommandLineOption("params", "Parameters N (accepts 70e9, 70B).", "N"));
    parser.addOption(QCommandLineOption("tokens", "Training tokens D (accepts 1.4e12, 1.4T).", "D"));
    parser.addOption(QCommandLineOption(
        "json", "Print one JSON object: compute, optimal.{params,tokens,loss,tokens_per_param}, loss and params/tokens "
                "(with --params/--tokens), tokens_per_param, twenty_tokens_per_param, table3 (when C is a Table 3 "
                "budget), law."));
    if (!parser.parse(QStringList{"scaling"} + arguments))
        return reportProblems({Problem{"arguments", "syntax", parser.errorText().toStdString()}});
    if (parser.isSet(help)) {
        printOut(QStringLiteral("Usage: llm-explorer-cli scaling --compute FLOPS | --params N --tokens D [--json]\n")
                 + parser.helpText().section('\n', 1));
        return kExitOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return reportProblems({Problem{"arguments", "unexpected",
                                       "unexpected argument '" + parser.positionalArguments().front().toStdString()
                                           + "'; options start with --"}});

    const bool by_compute = parser.isSet("compute");
    const bool by_model = parser.isSet("params") || parser.isSet("tokens");
    if (by_compute && by_model)
        return reportProblems({Problem{"--compute", "exclusive",
                                       "--compute and --params/--tokens are two ways to give the budget; give one",
                                       {"--params", "--tokens"}}});
    if (!by_compute && !by_model)
        return reportProblems({Problem{"--compute", "required",
                                       "give the budget as --compute FLOPS, or a model as --params N and --tokens D",
                                       {"--params", "--tokens"}}});
    Problems problems;
    if (by_model && !parser.isSet("params"))
        problems.push_back({"--params", "required", "--tokens needs --params (the model's parameter count)"});
    if (by_model && !parser.isSet("tokens"))
        problems.push_back({"--tokens", "required", "--params needs --tokens (the training tokens)"});
    std::optional<double> compute, params, tokens;
    if (by_compute)
        compute = wholeNumberAtLeast(parser, "compute", kMinCompute, "FLOPs", "one parameter trained on one token", problems);
    if (parser.isSet("params"))
        params = wholeNumberAtLeast(parser, "params", kMinCount, "parameters", "one parameter", problems);
    if (parser.isSet("tokens"))
        tokens = wholeNumberAtLeast(parser, "tokens", kMinCount, "tokens", "one token", problems);
    if (!problems.empty())
        return reportProblems(problems);

    std::optional<double> given_loss;
    if (by_model) {
        compute = scaling::trainingFlops(*params, *tokens);
        given_loss = scaling::loss(*params, *tokens);
        if (!std::isfinite(*compute) || !(*compute > 0) || !std::isfinite(*given_loss))
            return reportProblems({Problem{"--params", "finite_result",
                                           QStringLiteral("6 × --params %1 × --tokens %2 is outside the range of "
                                                          "double-precision numbers")
                                               .arg(parser.value("params"), parser.value("tokens"))
                                               .toStdString(),
                                           {"--tokens"}}});
    }
    const ComputeOptimum optimum = scaling::computeOptimum(*compute);
    const ComputeOptimum rule = scaling::splitAtTokensPerParam(*compute, scaling::kChinchillaTokensPerParameter);
    if (!finite(optimum) || !finite(rule)) {
        const std::string flag = by_compute ? "--compute" : "--params";
        return reportProblems({Problem{flag, "finite_result",
                                       QStringLiteral("the optimum for C = %1 FLOPs is outside the range of "
                                                      "double-precision numbers")
                                           .arg(*compute, 0, 'g', 4)
                                           .toStdString()}});
    }
    const std::optional<scaling::Table3Row> row = scaling::table3RowForFlops(*compute);
    const scaling::LossFit &fit = scaling::kChinchillaApproach3;

    if (parser.isSet("json")) {
        QJsonObject object;
        object["compute"] = *compute;
        object["optimal"] = splitJson(optimum);
        if (by_model) {
            object["params"] = *params;
            object["tokens"] = *tokens;
            object["loss"] = *given_loss;
            object["tokens_per_param"] = *tokens / *params;
            object["loss_above_optimal"] = *given_loss - optimum.loss;
        } else {
            object["tokens_per_param"] = optimum.tokensPerParam();
        }
        object["twenty_tokens_per_param"] = splitJson(rule);
        if (row) {
            QJsonObject table;
            table["label"] = QString::fromUtf8(row->label.data(), int(row->label.size()));
            table["params"] = row->params;
            table["flops"] = row->flops;
            table["tokens"] = row->tokens;
            table["source"] = QString::fromUtf8(scaling::kTable3Source.data(), int(scaling::kTable3Source.size()));
            table["why_different"] = QString::fromUtf8(kDifference);
            object["table3"] = table;
        }
        QJsonObject law;
        law["E"] = fit.E;
        law["A"] = fit.A;
        law["B"] = fit.B;
        law["alpha"] = fit.alpha;
        law["beta"] = fit.beta;
        law["source"] = QStringLiteral("Hoffmann et al. 2022, eq. 10 / Appendix D.2 (approach 3); optimum eq. 4");
        object["law"] = law;
        printJson(object);
        return kExitOk;
    }

    QString text = QStringLiteral("Training compute C = %1%2\n")
                       .arg(formatFlops(*compute),
                            by_model ? QStringLiteral(" = 6 × %1 parameters × %2 tokens")
                                           .arg(paperCount(*params), paperCount(*tokens))
                                     : QString());
    text += QStringLiteral("Chinchilla approach 3: L(N, D) = %1 + %2/N^%3 + %4/D^%5 (Hoffmann et al. 2022, eq. 10)\n")
                .arg(fit.E)
                .arg(fit.A)
                .arg(fit.alpha)
                .arg(fit.B)
                .arg(fit.beta);
    if (by_model)
        text += QStringLiteral("  %1 %2 tokens/parameter, loss %3 (%4 above the optimum)\n")
                    .arg(QStringLiteral("given model:"), -26)
                    .arg(*tokens / *params, 0, 'g', 4)
                    .arg(*given_loss, 0, 'f', 4)
                    .arg(*given_loss - optimum.loss, 0, 'f', 4);
    text += splitLine(QStringLiteral("compute-optimal (eq. 4):"), optimum);
    text += splitLine(QStringLiteral("20 tokens/parameter rule:"), rule);
    if (row)
        text += QStringLiteral("  %1 %2 parameters on %3 tokens at %4 FLOPs (%5)\n  why they differ: %6\n")
                    .arg(QStringLiteral("Table 3 (approach 1):"), -26)
                    .arg(paperCount(row->params), paperCount(row->tokens))
                    .arg(row->flops, 0, 'g', 3)
                    .arg(QString::fromUtf8(scaling::kTable3Source.data(), int(scaling::kTable3Source.size())),
                         QString::fromUtf8(kDifference));
    printOut(text);
    return kExitOk;
}

}  // namespace lse::cli
