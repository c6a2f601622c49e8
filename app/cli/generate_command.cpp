// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli generate`: continue prompts with the CPU reference transformer and its KV
// cache (core/reference/batch_generation.h): a trained checkpoint with its tokenizer, or an untrained
// model of a config (its seed's weights) on prompts of token ids, for measuring speed.
//
// With --batch or --json the run also reports its speed beside the prediction (issue 30, "Measured
// on this CPU"): the prefill time (to the first token of every sequence) and the decode throughput
// (tokens of all sequences per second), predicted by the CPU inference predictor from this
// machine's kernel factors at the run's threads (cached, or measured first as `train` does), and
// each operator's time from the op profiler beside its prediction.

#include "commands.h"
#include "count_option.h"
#include "file_arguments.h"
#include "output.h"
#include "trace_options.h"
#include "reference_cli.h"

#include "reference/batch_generation.h"
#include "reference/chrome_trace_writer.h"
#include "reference/decode_benchmark.h"
#include "reference/decode_time_comparison.h"
#include "reference/kernel_benchmark.h"
#include "reference/op_trace.h"
#include "reference/thread_choice.h"
#include "reference/training_text.h"
#include "tokenizer/tokenizer_formats.h"

#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

namespace lse::cli {

namespace {

// Sequences --batch accepts: each has its own KV cache and workspace rows, and the point is the
// curve from memory-bound to compute-bound decode, which a CPU reaches well below 64.
constexpr int kMaxGenerateBatch = 64;

// Model problems that come from this run's size are the user's flags: the KV cache and workspace
// of --batch sequences (memory), the batch bounds.
Problems namedAfterSizeFlags(Problems problems)
{
    for (Problem &p : problems)
        if (p.rule == "memory" || p.field == "max_batch" || p.field == "cache_batch")
            p.field = "--batch (" + p.field + ")";
        else if (p.field == "context" || p.field == "cache_context")
            p.field = "--max-tokens (" + p.field + ")";
    return problems;
}

QJsonValue seconds(double value, bool known) { return known ? QJsonValue(value) : QJsonValue(); }

}  // namespace

int runGenerate(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption checkpoint(QStringLiteral("checkpoint"), QStringLiteral("Checkpoint written by `train`."), QStringLiteral("F"));
    const QCommandLineOption config(QStringLiteral("config"),
                                    QStringLiteral("Instead of --checkpoint: an untrained model of this TrainConfig file or preset "
                                                   "(tiny, small, cs336-tinystories), initialised from --seed; for measuring speed."),
                                    QStringLiteral("F|PRESET"));
    const QCommandLineOption tokenizer(QStringLiteral("tokenizer"),
                                       QStringLiteral("Tokenizer the data was prepared with: a directory with vocab.json + merges.txt, "
                                                      "a tokenizer.json or a .tiktoken file."),
                                       QStringLiteral("DIR|FILE"));
    const QCommandLineOption prompt(QStringLiteral("prompt"),
                                    QStringLiteral("Text to continue; repeat for several prompts (the batch cycles through them)."),
                                    QStringLiteral("TEXT"));
    const QCommandLineOption promptTokens(QStringLiteral("prompt-tokens"),
                                          QStringLiteral("Instead of --prompt: prompts of N made-up token ids (no tokenizer needed; "
                                                         "the output is token ids)."),
                                          QStringLiteral("N"));
    const QCommandLineOption batch(QStringLiteral("batch"),
                                   QStringLiteral("Sequences generated together, 1 to 64 (default: the number of prompts): one "
                                                  "prefill of all prompts, then one token of every sequence per decode step; "
                                                  "reports the measured and predicted speed."),
                                   QStringLiteral("B"));
    const QCommandLineOption maxTokens(QStringLiteral("max-tokens"), QStringLiteral("New tokens at most per sequence (default 200)."), QStringLiteral("N"));
    const QCommandLineOption temperature(QStringLiteral("temperature"), QStringLiteral("Sampling temperature; 0 is greedy (default 1)."), QStringLiteral("T"));
    const QCommandLineOption topK(QStringLiteral("top-k"), QStringLiteral("Sample among the K most likely tokens (0: off)."), QStringLiteral("K"));
    const QCommandLineOption topP(QStringLiteral("top-p"), QStringLiteral("Nucleus sampling mass in (0, 1] (1: off)."), QStringLiteral("P"));
    const QCommandLineOption seed(QStringLiteral("seed"),
                                  QStringLiteral("Sampling seed (default 0; sequence i samples with S + i), and the untrained "
                                                 "model's initialisation seed with --config."),
                                  QStringLiteral("S"));
    const QCommandLineOption threads(QStringLiteral("threads"),
                                     QStringLiteral("OpenMP/Eigen threads (0, the default: the cores other processes leave idle)."),
                                     QStringLiteral("T"));
    const QCommandLineOption attention(QStringLiteral("attention"),
                                       QStringLiteral("Attention kernel of the prefill: naive or tiled (FlashAttention, the default: it skips "
                                                      "the masked half and keeps no T x T scores). Decode steps attend one token "
                                                      "to the KV cache either way."),
                                       QStringLiteral("K"));
    const QCommandLineOption json(QStringLiteral("json"),
                                  QStringLiteral("Print JSON: the sequences, prefill {measured_seconds, predicted_seconds}, decode "
                                                 "{measured_tokens_per_second, predicted_tokens_per_second} and the operators."));
    const QCommandLineOption trace = traceOption(QStringLiteral("steps (the prefill is step 1, each decode step one more)"));
    const QCommandLineOption traceSteps = traceStepsOption(QStringLiteral("the prefill and the decode steps after it"));
    if (const auto done = parseArguments(
            parser, QStringLiteral("generate"),
            QStringLiteral("(--checkpoint F | --config F|PRESET) (--tokenizer DIR|FILE --prompt TEXT... | --prompt-tokens N) "
                           "[--batch B] [--max-tokens N] [--temperature T] [--top-k K] [--top-p P] [--seed S] [--threads T] "
                           "[--attention naive|tiled] [--json] [--trace FILE [--trace-steps N]]"),
            QStringLiteral("Continue prompts with the reference model (KV cache) and print the text; stops at <|endoftext|> "
                           "when the tokenizer has it. With --batch or --json, also the prefill time and decode tokens/s, "
                           "measured and predicted from this CPU's kernel factors (sampling is predicted as greedy)."),
            {checkpoint, config, tokenizer, prompt, promptTokens, batch, maxTokens, temperature, topK, topP, seed, threads, attention,
             json, trace, traceSteps},
            arguments))
        return *done;

    Problems problems;
    lse::reference::GenerateOptions options;
    intOption(parser, maxTokens.names().front(), 0, options.max_new_tokens, problems);
    numberOption(parser, temperature.names().front(), 0, options.temperature, problems);
    intOption(parser, topK.names().front(), 0, options.top_k, problems);
    numberOption(parser, topP.names().front(), 0, options.top_p, problems);
    if (parser.isSet(topP) && !(options.top_p > 0 && options.top_p <= 1))
        problems.push_back(problem("--top-p", "range", "--top-p must be in (0, 1]."));
    intOption(parser, seed.names().front(), 0, options.seed, problems);
    int threadCount = 0;
    intOption(parser, threads.names().front(), 0, threadCount, problems);
    if (const std::optional<Problem> tooMany = threadsFlagProblem(parser.value(threads), threadCount); parser.isSet(threads) && tooMany)
        problems.push_back(*tooMany);
    std::optional<lse::reference::AttentionAlgorithm> attentionKernel;
    if (parser.isSet(attention)) {
        attentionKernel = lse::reference::attentionAlgorithmFromName(parser.value(attention).toStdString());
        if (!attentionKernel)
            problems.push_back(problem("--attention", "choice", "--attention must be naive or tiled."));
    }
    const QStringList prompts = parser.values(prompt);
    int synthetic = 0;
    intOption(parser, promptTokens.names().front(), 1, synthetic, problems);
    int sequences = std::max(1, int(prompts.size()));
    if (parser.isSet(batch)) {
        const std::optional<std::int64_t> b = parseCount(parser.value(batch));
        if (!b || *b < 1 || *b > kMaxGenerateBatch)
            problems.push_back(problem("--batch", "range",
                                       QStringLiteral("--batch '%1' must be a whole number of sequences from 1 to %2")
                                           .arg(parser.value(batch))
                                           .arg(kMaxGenerateBatch)
                                           .toStdString()));
        else if (*b < prompts.size())
            problems.push_back(problem("--batch", "range",
                                       QStringLiteral("--batch %1 is fewer than the %2 prompts given").arg(*b).arg(prompts.size()).toStdString()));
        else
            sequences = int(*b);
    }
    if (parser.isSet(checkpoint) == parser.isSet(config))
        problems.push_back(problem("--checkpoint", "required", "give --checkpoint F (a trained model) or --config F|PRESET (an untrained one)."));
    if (parser.isSet(prompt) && parser.isSet(promptTokens))
        problems.push_back(problem("--prompt-tokens", "conflict", "--prompt and --prompt-tokens exclude each other."));
    if (!parser.isSet(promptTokens)) {
        for (const auto &[option, flag] : {std::pair{&tokenizer, "--tokenizer"}, {&prompt, "--prompt"}})
            if (!parser.isSet(*option))
                problems.push_back(problem(flag, "required", std::string(flag) + " is required (or --prompt-tokens N)."));
    }
    std::vector<InputFile> inputs;
    for (const auto &[option, flag] : {std::pair{&checkpoint, "--checkpoint"}, {&config, "--config"}, {&tokenizer, "--tokenizer"}})
        if (parser.isSet(*option))
            inputs.push_back({flag, parser.value(*option)});
    const TraceRequest traceRequest = readTraceOptions(parser, inputs, problems);
    if (!problems.empty())
        return reportProblems(problems);

    // The idle cores are sampled while the tokenizer loads and the model is built: their own CPU
    // time is left out of the sample, and only what is left of its window is waited for.
    const lse::reference::CpuLoadMark loadSampleStart = lse::reference::CpuLoadMark::now();
    if (threadCount > 0)
        lse::reference::useThreads(threadCount);
    // The tokenizer and the prompts first: their lengths size the model's workspace and cache.
    std::optional<BpeTokenizer> bpe;
    if (parser.isSet(tokenizer)) {
        Result<BpeTokenizer> loaded = lse::loadTokenizer(parser.value(tokenizer).toStdString());
        if (!loaded)
            return reportProblems(namedAfterFlag(loaded.problems(), "--tokenizer", parser.value(tokenizer)));
        bpe = std::move(loaded.value());
    }
    std::vector<std::string> allowed;
    if (bpe)
        if (const std::optional<std::uint32_t> eot = lse::reference::endOfTextId(*bpe)) {
            options.stop_token = std::int32_t(*eot);
            allowed.emplace_back(lse::reference::kEndOfText);
        }
    lse::reference::TrainConfig modelConfig;
    if (parser.isSet(config)) {
        Result<lse::reference::TrainConfig> loaded = loadConfig(parser.value(config));
        if (!loaded)
            return reportProblems(loaded.problems());
        modelConfig = loaded.value();
        if (Problems p = lse::reference::validateTrainModel(modelConfig); !p.empty())
            return reportProblems(p);
    }
    std::vector<std::vector<std::int32_t>> promptIds;
    for (int i = 0; i < sequences; ++i) {
        if (synthetic > 0) {
            promptIds.push_back({});  // filled once the vocabulary is known
            continue;
        }
        const QByteArray text = prompts[i % prompts.size()].toUtf8();
        const std::vector<std::uint32_t> ids = bpe->encode(std::string_view(text.constData(), std::size_t(text.size())), allowed);
        promptIds.emplace_back(ids.begin(), ids.end());
        if (ids.empty())
            return reportProblems({problem("--prompt", "required", "--prompt: the text gives no tokens; at least one is needed.")});
    }
    int longest = synthetic;
    for (const std::vector<std::int32_t> &ids : promptIds)
        longest = std::max(longest, int(ids.size()));

    // The model with a workspace for the prompts and a KV cache for them and their new tokens.
    const auto sizeFor = [&](std::int64_t maxSeqLen) {
        lse::reference::GenerationSize size = lse::reference::generationSizeFor(sequences, longest, options.max_new_tokens, maxSeqLen);
        size.attention_kernel = attentionKernel;
        return size;
    };
    std::unique_ptr<lse::reference::Model> model;
    if (parser.isSet(checkpoint)) {
        lse::reference::TrainConfig stored;  // the sizes are clamped to the checkpoint's max_seq_len
        Result<std::unique_ptr<lse::reference::Model>> loaded =
            lse::reference::loadCheckpointModel(parser.value(checkpoint).toStdString(), sizeFor(1 << 30), &stored);
        if (!loaded)
            return reportProblems(namedAfterSizeFlags(namedAfterFlag(loaded.problems(), "--checkpoint", parser.value(checkpoint))));
        model = std::move(loaded.value());
        modelConfig = stored;
    } else {
        lse::reference::ReferenceOptions options0 = modelConfig.options;
        options0.seed = options.seed;
        Result<std::unique_ptr<lse::reference::Model>> created = lse::reference::Model::create(
            modelConfig.model, lse::reference::generationOptions(options0, sizeFor(modelConfig.model.max_seq_len)));
        if (!created)
            return reportProblems(namedAfterSizeFlags(created.problems()));
        model = std::move(created.value());
    }
    const lse::reference::ThreadChoice threadChoice = lse::reference::chooseThreadsSince(threadCount, loadSampleStart);
    lse::reference::useThreads(threadChoice.threads);
    const std::int64_t vocab = model->config().vocab_size;
    if (bpe && std::int64_t(bpe->vocabSize()) > vocab)
        return reportProblems({problem("--tokenizer", "vocab",
                                       "--tokenizer has " + std::to_string(bpe->vocabSize()) + " tokens but the model's vocabulary is " +
                                           std::to_string(vocab) + ": use the tokenizer the training data was prepared with.")});
    if (synthetic > 0)
        for (int i = 0; i < sequences; ++i)
            promptIds[std::size_t(i)] = lse::reference::syntheticPrompt(synthetic, i, vocab);
    if (longest > model->context())
        return reportProblems({problem(synthetic > 0 ? "--prompt-tokens" : "--prompt", "range",
                                       "the prompt of " + std::to_string(longest) + " tokens exceeds the model's context of "
                                           + std::to_string(model->config().max_seq_len) + ".")});

    const bool report = parser.isSet(batch) || parser.isSet(json);
    // The prediction for this run: the kernel factors at its threads, cached or measured now. Taken
    // before the run, so that its kernels split their loops at the thresholds the prediction
    // assumes (useThreads with the factors).
    std::optional<lse::reference::KernelFactorsForRun> kernels;
    if (report) {
        kernels = lse::reference::kernelFactorsForRun(threadChoice.threads, [](std::string_view stage, int index, int count) {
            printError(QStringLiteral("measuring [%1/%2]: %3...\n").arg(index + 1).arg(count).arg(QString::fromUtf8(stage.data(), qsizetype(stage.size()))));
        });
        if (kernels && !kernels->remeasured_because.empty())
            printError(QStringLiteral("measured this CPU's kernel factors again: %1\n").arg(QString::fromStdString(kernels->remeasured_because)));
        if (kernels && !kernels->implausible_because.empty())
            printError(QStringLiteral("warning: %1; the prediction is too slow, and the next run measures them again\n")
                           .arg(QString::fromStdString(kernels->implausible_because)));
        if (kernels)
            lse::reference::useThreads(threadChoice.threads, kernels->kernels);
    }
    options.profile = report || traceRequest.requested();
    options.warm_up = options.profile;  // the timed prefill is a warm process's (GenerateOptions::warm_up)
    // --trace: the prefill and the decode steps after it, up to --trace-steps of them.
    std::optional<lse::reference::OpTraceLog> traceLog;
    if (traceRequest.requested()) {
        traceLog.emplace(lse::reference::traceCapacityForSteps(int(modelConfig.model.n_layers), traceRequest.steps));
        traceLog->setLastStep(traceRequest.steps);
        model->profiler().setTrace(&*traceLog);
    }
    Result<lse::reference::BatchGeneration> run = lse::reference::generateBatch(*model, promptIds, options);
    model->profiler().setTrace(nullptr);
    if (!run)
        return reportProblems(run.problems());
    if (traceLog) {
        const int traced = std::min(traceRequest.steps, 1 + run->decode_steps);
        const std::string document = lse::reference::chromeTraceDocument(
            {lse::reference::chromeTraceProcessEvents(*traceLog, 0, "llm-explorer-cli generate")},
            {{"producer", "llm-explorer-cli generate"},
             {"model", model->config().name},
             {"batch", std::to_string(sequences)},
             {"prompt_tokens", std::to_string(longest)},
             {"threads", std::to_string(threadChoice.threads)},
             {"steps_traced", std::to_string(traced)},
             {"dropped_events", std::to_string(traceLog->dropped())}});
        if (Problems failed = writeTraceFile(traceRequest.path, document); !failed.empty())
            return reportProblems(failed);
        if (traceLog->dropped() > 0)  // never expected: the room is sized from the model's layers
            printError(QStringLiteral("warning: %1 call(s) did not fit the trace's reserved room and are missing from it\n")
                           .arg(traceLog->dropped()));
        printError(QStringLiteral("trace %1 (%2 step(s): the prefill and %3 decode step(s))\n")
                       .arg(traceRequest.path)
                       .arg(traced)
                       .arg(traced - 1));
    }
    const lse::reference::BatchGeneration &generated = run.value();
    const auto textOf = [&](int i) {
        std::vector<std::uint32_t> all(promptIds[std::size_t(i)].begin(), promptIds[std::size_t(i)].end());
        all.insert(all.end(), generated.tokens[std::size_t(i)].begin(), generated.tokens[std::size_t(i)].end());
        return QString::fromStdString(bpe->decode(all));
    };
    const auto idsOf = [&](int i) {
        QStringList ids;
        for (std::int32_t id : generated.tokens[std::size_t(i)])
            ids << QString::number(id);
        return ids.join(QLatin1Char(' '));
    };
    if (!report) {
        QString text;
        for (int i = 0; i < sequences; ++i)
            text += (bpe ? textOf(i) : idsOf(i)) + QLatin1Char('\n');
        printOut(text);
        return kExitOk;
    }

    std::optional<lse::reference::ReferenceDecodePrediction> prediction;
    QString noPrediction;
    if (kernels) {
        // The tokens a sequence can get: the first from the prefill, then one per position left in the cache.
        const int outputTokens = lse::reference::reachableOutputTokens(options.max_new_tokens, model->cacheContext(), longest);
        Result<lse::reference::ReferenceDecodePrediction> predicted =
            lse::reference::predictReferenceDecode(model->config(), sequences, longest, outputTokens, kernels->kernels,
                                                   model->options().attention_kernel);
        if (predicted)
            prediction = std::move(predicted.value());
        else
            noPrediction = QString::fromStdString(predicted.problems().front().message);
    } else {
        noPrediction = QStringLiteral("the kernel factors could not be measured");
    }
    const double measuredTokensPerSecond = lse::reference::measuredDecodeTokensPerSecond(generated, sequences);
    const bool decoded = measuredTokensPerSecond > 0;

    if (!parser.isSet(json)) {
        QString text;
        for (int i = 0; i < sequences; ++i)
            text += (bpe ? textOf(i) : idsOf(i)) + QLatin1Char('\n');
        printOut(text);
        QString summary = QStringLiteral("batch %1, prompt %2 tokens, %3 decode steps, %4\n")
                              .arg(sequences)
                              .arg(longest)
                              .arg(generated.decode_steps)
                              .arg(QString::fromStdString(threadChoice.reason()));
        summary += QStringLiteral("prefill %1 ms measured").arg(generated.prefill_seconds * 1e3, 0, 'f', 2);
        if (prediction)
            summary += QStringLiteral(", %1 ms predicted").arg(prediction->prefill_seconds * 1e3, 0, 'f', 2);
        summary += QLatin1Char('\n');
        if (decoded) {
            summary += QStringLiteral("decode %1 tokens/s measured").arg(measuredTokensPerSecond, 0, 'f', 1);
            if (prediction)
                summary += QStringLiteral(", %1 tokens/s predicted").arg(prediction->decode_tokens_per_second, 0, 'f', 1);
            summary += QLatin1Char('\n');
        }
        if (!prediction)
            summary += QStringLiteral("no prediction: %1\n").arg(noPrediction);
        printError(summary);
        return kExitOk;
    }

    QJsonObject out;
    out["batch"] = sequences;
    out["prompt_tokens"] = longest;
    out["output_tokens"] = options.max_new_tokens;
    out["threads"] = threadChoice.threads;
    out["threads_requested"] = threadChoice.requested;
    QJsonArray sequenceArray;
    for (int i = 0; i < sequences; ++i) {
        QJsonArray ids;
        for (std::int32_t id : generated.tokens[std::size_t(i)])
            ids.append(id);
        QJsonObject sequence{{"prompt_tokens", int(promptIds[std::size_t(i)].size())}, {"token_ids", ids}};
        if (bpe)
            sequence["text"] = textOf(i);
        sequenceArray.append(sequence);
    }
    out["sequences"] = sequenceArray;
    // measured_cpu_seconds: this process's CPU time (all threads), beside the prediction on idle
    // cores: on a shared machine the wall time also holds what other processes took.
    out["prefill"] = QJsonObject{{"measured_seconds", generated.prefill_seconds},
                                 {"predicted_seconds", seconds(prediction ? prediction->prefill_seconds : 0, bool(prediction))},
                                 {"measured_cpu_seconds", generated.prefill_cpu_seconds},
                                 {"predicted_idle_seconds", seconds(prediction ? prediction->idle.prefill_seconds : 0, bool(prediction))}};
    // A static batch: every step computes every slot, a stopped sequence's too, so the throughput
    // counts batch × steps; generated_tokens is what the sequences kept after their first token.
    int kept = 0;
    for (const std::vector<std::int32_t> &t : generated.tokens)
        kept += std::max(0, int(t.size()) - 1);
    out["decode"] = QJsonObject{
        {"steps", generated.decode_steps},
        {"generated_tokens", kept},
        {"predicted_steps", prediction ? QJsonValue(double(prediction->idle.decode_steps)) : QJsonValue()},
        {"measured_seconds", generated.decode_seconds},
        {"predicted_seconds", seconds(prediction ? prediction->decode_seconds : 0, bool(prediction))},
        {"measured_cpu_seconds", generated.decode_cpu_seconds},
        {"predicted_idle_seconds", seconds(prediction ? prediction->idle.decode_seconds : 0, bool(prediction))},
        {"measured_tokens_per_second", decoded ? QJsonValue(measuredTokensPerSecond) : QJsonValue()},
        {"predicted_tokens_per_second",
         prediction && prediction->decode_tokens_per_second > 0 ? QJsonValue(prediction->decode_tokens_per_second) : QJsonValue()}};
    out["predictor"] = QStringLiteral("operator-level (core/performance/cpu_inference_prediction) with this CPU's kernel factors; "
                                      "sampling predicted as greedy");
    out["cpu_share"] = prediction ? QJsonValue(prediction->cpu_share) : QJsonValue();
    out["kernels_measured_at"] = kernels ? QJsonValue(QString::fromStdString(kernels->kernels.measured_at)) : QJsonValue();
    out["remeasured_because"] = kernels && !kernels->remeasured_because.empty()
                                    ? QJsonValue(QString::fromStdString(kernels->remeasured_because))
                                    : QJsonValue();
    out["kernels_implausible_because"] = kernels && !kernels->implausible_because.empty()
                                             ? QJsonValue(QString::fromStdString(kernels->implausible_because))
                                             : QJsonValue();
    QJsonArray operators;
    if (prediction)
        for (const lse::reference::DecodeOperatorComparison &c :
             lse::reference::compareDecodeOperators(*prediction, generated.prefill_operators, generated.decode_operators,
                                                    generated.prefill_seconds, generated.decode_seconds))
            operators.append(QJsonObject{{"name", QString::fromStdString(c.name)},
                                         {"phase", QString::fromStdString(c.phase)},
                                         {"predicted_seconds", c.predicted_seconds},
                                         {"measured_seconds", c.measured_seconds}});
    out["operators"] = operators;
    if (!prediction)
        out["no_prediction"] = noPrediction;
    printJson(out);
    return kExitOk;
}

}  // namespace lse::cli
