// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli ablate`: trains the variants of one standard ablation study (core/reference/
// ablation/) one after the other on the same tokens and seed, prints per-variant parameters,
// tokens/s, final validation loss and wall time, and can save the results file the GUI's
// Architecture page opens. The text is the built-in sample unless --text names a file.

#include "count_option.h"
#include "commands.h"
#include "file_arguments.h"
#include "output.h"

#include "common/file_bytes.h"
#include "reference/ablation/ablation_results_json.h"
#include "reference/ablation/ablation_runner.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

#include <optional>

namespace lse::cli {

namespace {

using lse::reference::AblationProgress;
using lse::reference::AblationResults;
using lse::reference::AblationSpec;
using lse::reference::TrainConfig;

Problem problem(const std::string &field, const std::string &rule, const std::string &message)
{
    return Problem{field, rule, message};
}

// A TrainConfig file or a bundled preset name (tiny, small, cs336-tinystories), as `train --config`.
Result<TrainConfig> loadBase(const QString &path)
{
    const QString preset = QStringLiteral(":/reference/%1.json").arg(path);
    if (!QFileInfo::exists(path) && QFile::exists(preset)) {
        QFile f(preset);
        if (f.open(QIODevice::ReadOnly))
            return lse::reference::trainConfigFromJson(f.readAll(), path.toStdString());
    }
    const Result<QByteArray> bytes = lse::readFileBytes(QFile::encodeName(path).toStdString(), lse::FileKind::Config);
    if (!bytes) {
        Problems problems = namedAfterFlag(bytes.problems(), "--config", path);
        if (problems.front().rule == "unreadable")
            problems.front().message += " Give a TrainConfig JSON file or a preset name (tiny, small, cs336-tinystories).";
        return problems;
    }
    return lse::reference::trainConfigFromJson(*bytes, path.toStdString());
}

QString statusText(const lse::reference::AblationResult &r)
{
    return QString::fromUtf8(toString(r.status).data(), qsizetype(toString(r.status).size()));
}

void printTable(const AblationResults &results)
{
    QString text = QStringLiteral("study %1: %2 tokens from %3 of text, %4 steps of batch %5 × %6, seed %7\n")
                       .arg(QString::fromStdString(results.study))
                       .arg(formatCount(double(results.tokens)))
                       .arg(formatBytes(double(results.text_bytes)))
                       .arg(results.base.steps)
                       .arg(results.base.batch_size)
                       .arg(results.base.model.max_seq_len)
                       .arg(results.base.seed);
    text += QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                .arg(QStringLiteral("variant"), -28)
                .arg(QStringLiteral("params"), 10)
                .arg(QStringLiteral("tokens/s"), 10)
                .arg(QStringLiteral("val loss"), 9)
                .arg(QStringLiteral("wall"), 9)
                .arg(QStringLiteral("status"));
    for (const auto &r : results.variants)
        text += QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                    .arg(QString::fromStdString(r.variant.name), -28)
                    .arg(formatCount(double(r.parameters)), 10)
                    .arg(r.tokens_per_s, 10, 'f', 0)
                    .arg(r.final_validation_loss ? QString::number(*r.final_validation_loss, 'f', 3) : QStringLiteral("-"), 9)
                    .arg(formatSeconds(r.wall_seconds), 9)
                    .arg(statusText(r));
    printOut(text);
}

}  // namespace

int runAblate(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Train the variants of an ablation study of the CPU reference transformer on the same tokens and "
        "seed (a byte-level BPE trained on the text) and compare their loss, tokens/s and final validation "
        "loss. Progress goes to stderr. Studies: norm (RMSNorm, LayerNorm, none), activation (SwiGLU, GeLU, "
        "ReLU, SiLU at equal parameters), position (RoPE, learned, sinusoidal, none), placement (pre- vs "
        "post-norm), parallel (serial vs parallel blocks)."));
    const QCommandLineOption help(QStringList{"h", "help"}, QStringLiteral("Show this help."));
    const QCommandLineOption study(QStringLiteral("study"), QStringLiteral("norm, activation, position, placement or parallel."), QStringLiteral("S"));
    const QCommandLineOption config(QStringLiteral("config"), QStringLiteral("Base TrainConfig JSON or preset (tiny, small, cs336-tinystories); default: a 2-layer d_model 64 model."), QStringLiteral("F"));
    const QCommandLineOption text(QStringLiteral("text"), QStringLiteral("Training text file (default: the built-in TinyStories-style sample)."), QStringLiteral("F"));
    const QCommandLineOption steps(QStringLiteral("steps"), QStringLiteral("Optimizer steps per variant."), QStringLiteral("N"));
    const QCommandLineOption seed(QStringLiteral("seed"), QStringLiteral("Initialisation and sampling seed (the same for every variant)."), QStringLiteral("S"));
    const QCommandLineOption threads(QStringLiteral("threads"), QStringLiteral("OpenMP/Eigen threads (0: the idle cores)."), QStringLiteral("T"));
    const QCommandLineOption out(QStringLiteral("out"), QStringLiteral("Write the results file (JSON, opened by the GUI's Ablations tab)."), QStringLiteral("F"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print the results JSON on stdout instead of the table."));
    parser.addOption(help);
    parser.addOptions({study, config, text, steps, seed, threads, out, json});
    if (!parser.parse(QStringList{QStringLiteral("ablate")} + arguments))
        return reportProblems({problem("arguments", "syntax", parser.errorText().toStdString())});
    if (parser.isSet(help)) {
        printOut(QStringLiteral("Usage: llm-explorer-cli ablate --study norm|activation|position|placement|parallel "
                                "[--config F|PRESET] [--text F] [--steps N] [--seed S] [--threads T] [--out F] [--json]\n")
                 + parser.helpText().section('\n', 1));
        return kExitOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return reportProblems({problem("arguments", "unexpected",
                                       "unexpected argument '" + parser.positionalArguments().front().toStdString() + "'")});

    Problems problems;
    std::optional<lse::reference::AblationStudy> chosen;
    if (!parser.isSet(study))
        problems.push_back(problem("--study", "required", std::string("--study is required: one of ") + lse::reference::kStudyChoices + "."));
    else if (!(chosen = lse::reference::studyFromName(parser.value(study).toStdString())))
        problems.push_back(problem("--study", "enum", "--study '" + parser.value(study).toStdString() + "' is not one of "
                                                          + lse::reference::kStudyChoices + "."));
    TrainConfig base = lse::reference::defaultAblationBase();
    if (parser.isSet(config)) {
        Result<TrainConfig> loaded = loadBase(parser.value(config));
        if (!loaded)
            return reportProblems(loaded.problems());
        base = loaded.value();
    }
    int stepCount = 0;
    intOption(parser, steps.names().front(), 1, stepCount, problems);
    if (stepCount > 0)
        base = lse::reference::withAblationSteps(base, stepCount);
    intOption(parser, seed.names().front(), 0, base.seed, problems);
    intOption(parser, threads.names().front(), 0, base.threads, problems);
    if (const std::optional<Problem> tooMany = threadsFlagProblem(parser.value(threads), base.threads);
        parser.isSet(threads) && tooMany)
        problems.push_back(*tooMany);
    std::string trainingText;
    if (parser.isSet(text)) {
        const Result<QByteArray> bytes = lse::readFileBytes(QFile::encodeName(parser.value(text)).toStdString(), lse::FileKind::Text);
        if (!bytes)
            problems.push_back(namedAfterFlag(bytes.problems(), "--text", parser.value(text)).front());
        else if (bytes.value().isEmpty())
            problems.push_back(problem("--text", "empty", "--text " + parser.value(text).toStdString() + ": the file is empty."));
        else
            trainingText = bytes.value().toStdString();
    }
    std::vector<InputFile> inputs;
    if (parser.isSet(text))
        inputs.push_back({"--text", parser.value(text)});
    if (parser.isSet(config))
        inputs.push_back({"--config", parser.value(config)});
    if (parser.isSet(out)) {
        if (std::optional<Problem> same = outputIsAnInput("--out", parser.value(out), inputs))
            problems.push_back(*same);
        else if (std::optional<Problem> target = outputFlagProblem("--out", parser.value(out)))
            problems.push_back(*target);  // a FIFO or device: refused before minutes of training
        // Checked before training, which may take minutes; the write itself reports the rest.
        if (!QFileInfo(parser.value(out)).absoluteDir().exists())
            problems.push_back(problem("--out", "unwritable", "--out " + parser.value(out).toStdString()
                                                                  + ": the folder does not exist."));
    }
    if (!problems.empty())
        return reportProblems(problems);

    AblationSpec spec = lse::reference::standardStudy(*chosen, base);
    spec.text = std::move(trainingText);
    // Flags name the fields they set; the rest are the config's.
    const std::pair<const QCommandLineOption *, const char *> flagFields[] = {
        {&steps, "training.steps"}, {&seed, "training.seed"}, {&threads, "training.threads"}};
    Problems invalid = lse::reference::validateAblationSpec(spec);
    for (Problem &p : invalid)
        for (const auto &[option, field] : flagFields)
            if (parser.isSet(*option) && p.field == field)
                p.field = "--" + option->names().front().toStdString() + " (" + field + ")";
    if (!invalid.empty())
        return reportProblems(invalid);

    int lastReported = -1;
    Result<AblationResults> run = lse::reference::runAblation(spec, [&](const AblationProgress &p) {
        if (p.phase == AblationProgress::Phase::Tokenizing) {
            printError(QStringLiteral("tokenizing the text (byte-level BPE, vocabulary %1)\n").arg(spec.base.model.vocab_size));
            return;
        }
        const bool report = p.step == 1 || p.step == p.steps || p.validation_loss || p.variant != lastReported;
        lastReported = p.variant;
        if (report)
            printError(QStringLiteral("variant %1/%2 %3: step %4/%5 loss %6%7\n")
                           .arg(p.variant + 1)
                           .arg(p.variant_count)
                           .arg(QString::fromStdString(p.variant_name))
                           .arg(p.step)
                           .arg(p.steps)
                           .arg(p.loss, 0, 'f', 4)
                           .arg(p.validation_loss ? QStringLiteral(" val %1").arg(*p.validation_loss, 0, 'f', 4) : QString()));
    });
    if (!run)
        return reportProblems(run.problems());
    if (parser.isSet(out)) {
        Result<bool> saved = lse::reference::saveAblationResults(run.value(), QFile::encodeName(parser.value(out)).toStdString());
        if (!saved)
            return reportProblems(namedAfterFlag(saved.problems(), "--out", parser.value(out)));
        printError(QStringLiteral("results written to %1\n").arg(parser.value(out)));
    }
    if (parser.isSet(json))
        printOut(QString::fromUtf8(lse::reference::ablationResultsToJson(run.value())));
    else
        printTable(run.value());
    return kExitOk;
}

}  // namespace lse::cli
