// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/ablation/ablation_runner.h"

#include "reference/token_data.h"
#include "reference/trainer.h"
#include "reference/training_text.h"
#include "tokenizer/bpe_tokenizer.h"
#include "tokenizer/bpe_trainer.h"

#include <QFile>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>

namespace lse::reference {

namespace {

constexpr const char *kBuiltinText = ":/samples/tiny_stories_generated.txt";

bool cancelled(const std::atomic<bool> *cancel) { return cancel && cancel->load(); }

// The 10th-percentile step time: on a shared machine other processes slow some steps down, for
// stretches longer than half a short run, so the mean and even the median measure the load; the
// fast tail measures the variant (the reasoning of timeit's "take the minimum", with a margin
// against a single lucky step).
double fastStepSeconds(std::vector<double> values)
{
    if (values.empty())
        return 0;
    const auto tenth = values.begin() + std::ptrdiff_t(values.size() / 10);
    std::nth_element(values.begin(), tenth, values.end());
    return *tenth;
}

double seconds(std::chrono::steady_clock::time_point since)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace

// A byte-level BPE trained on the text itself, <|endoftext|> as one special id (training_text.h).
Result<TokenizedText> tokenizeTrainingText(const std::string &text, std::int64_t vocab_size, const std::atomic<bool> *cancel)
{
    BpeTrainOptions options;
    options.vocabSize = std::size_t(vocab_size);
    options.specialTokens = {std::string(kEndOfText)};
    options.cancel = cancel;
    Result<BpeTrainResult> trained = trainBpe(text, options);
    if (!trained)
        return trained.problems();
    Result<BpeTokenizer> tokenizer = BpeTokenizer::fromTraining(trained.value());
    if (!tokenizer)
        return tokenizer.problems();
    TokenizedText out;
    out.ids = encodeTrainingText(tokenizer.value(), text);
    out.vocab_size = std::int64_t(tokenizer.value().vocabSize());
    return out;
}

Result<std::string> builtinAblationText()
{
    QFile file(QString::fromLatin1(kBuiltinText));
    if (!file.open(QIODevice::ReadOnly))
        return Result<std::string>::failure("text", "unreadable",
                                            file.fileName().toStdString() + ": the built-in sample text is missing.");
    const QByteArray bytes = file.readAll();
    return std::string(bytes.constData(), std::size_t(bytes.size()));
}

Result<AblationResults> runAblation(const AblationSpec &spec, const AblationProgressCallback &progress,
                                    const std::atomic<bool> *cancel)
{
    if (Problems problems = validateAblationSpec(spec); !problems.empty())
        return problems;
    std::string text = spec.text;
    if (text.empty()) {
        Result<std::string> builtin = builtinAblationText();
        if (!builtin)
            return builtin.problems();
        text = std::move(builtin.value());
    }
    AblationResults results;
    results.study = spec.study;
    results.base = spec.base;
    results.base.data_path.clear();
    results.base.validation_path.clear();
    results.text_bytes = std::int64_t(text.size());

    AblationProgress report;
    report.variant_count = int(spec.variants.size());
    report.steps = spec.base.steps;
    if (progress)
        progress(report);
    Result<TokenizedText> tokens = tokenizeTrainingText(text, spec.base.model.vocab_size, cancel);
    if (!tokens) {
        if (cancelled(cancel)) {
            results.cancelled = true;
            return results;
        }
        return tokens.problems();
    }
    results.tokens = std::int64_t(tokens.value().ids.size());
    results.base.model.vocab_size = tokens.value().vocab_size;

    QTemporaryDir folder;
    if (!folder.isValid())
        return Result<AblationResults>::failure("data_path", "unwritable",
                                                "Cannot create a temporary folder: " + folder.errorString().toStdString());
    const TokenDtype dtype = tokens.value().vocab_size <= 65536 ? TokenDtype::U16 : TokenDtype::U32;
    const std::string path = QFile::encodeName(folder.filePath(QStringLiteral("tokens.bin"))).toStdString();
    if (Result<bool> written = writeTokenFile(path, tokens.value().ids, dtype); !written)
        return written.problems();

    report.phase = AblationProgress::Phase::Training;
    for (std::size_t i = 0; i < spec.variants.size(); ++i) {
        if (cancelled(cancel)) {
            results.cancelled = true;
            return results;
        }
        const AblationVariant &v = spec.variants[i];
        TrainConfig config = results.base;
        config.model = applyChanges(results.base.model, v.changes);
        config.data_path = path;
        config.data_dtype = dtype;
        const auto start = std::chrono::steady_clock::now();
        Result<std::unique_ptr<Trainer>> created = Trainer::create(config);
        if (!created) {
            Problems problems = created.problems();
            for (Problem &p : problems)
                p.message = "variant '" + v.name + "': " + p.message;
            return problems;
        }
        Trainer &trainer = *created.value();
        AblationResult &result = results.variants.emplace_back();
        result.variant = v;
        result.model = config.model;
        result.parameters = trainer.model().parameterCount();
        double step_seconds = 0;
        std::vector<double> step_times;  // seconds of each step, for the throughput at the end
        step_times.reserve(std::size_t(config.steps));
        report.variant = int(i);
        report.variant_name = v.name;
        for (int step = 0; step < config.steps; ++step) {
            if (cancelled(cancel)) {
                result.status = VariantStatus::Cancelled;
                results.cancelled = true;
                break;
            }
            Result<StepReport> taken = trainer.step();
            if (!taken) {
                const Problem &first = taken.problems().front();
                if (first.rule != kDivergedRule)
                    return taken.problems();
                result.status = VariantStatus::Diverged;
                result.message = first.message;
                break;
            }
            const StepReport &r = taken.value();
            if (r.step == 1)
                result.first_batch_hash = r.batch_hash;
            step_seconds += r.seconds;
            step_times.push_back(r.seconds);
            result.curve.push_back(AblationPoint{r.step, r.loss, r.validation_loss});
            if (r.validation_loss)
                result.final_validation_loss = r.validation_loss;
            result.tokens_per_s = step_seconds > 0
                ? double(r.step) * double(config.batch_size) * double(config.model.max_seq_len) / step_seconds
                : 0;
            result.wall_seconds = seconds(start);
            if (progress) {
                report.step = r.step;
                report.loss = r.loss;
                report.validation_loss = r.validation_loss;
                report.result = &result;
                progress(report);
                report.result = nullptr;
            }
        }
        result.wall_seconds = seconds(start);
        if (const double fast = fastStepSeconds(step_times); fast > 0)
            result.tokens_per_s = double(config.batch_size) * double(config.model.max_seq_len) / fast;
        if (results.cancelled)
            return results;
    }
    return results;
}

}  // namespace lse::reference
