// SPDX-License-Identifier: GPL-3.0-or-later
#include "numbers/reference_gradient_source.h"

#include "reference/ablation/ablation_runner.h"
#include "reference/ablation/ablation_spec.h"
#include "reference/token_data.h"

#include <QFile>
#include <QTemporaryDir>

#include <algorithm>

namespace lse::numbers {

namespace {
constexpr int kBatchSize = 8;
constexpr std::int64_t kMinTextBytes = 4096;  // enough tokens for a context window of 64 and validation
}

reference::TrainConfig gradientTrainConfig(const GradientSourceOptions &options)
{
    reference::TrainConfig c = reference::defaultAblationBase();
    c.model.name = "numbers-tiny";
    c.steps = options.steps;
    c.warmup_steps = std::max(1, options.steps / 10);
    c.batch_size = kBatchSize;
    c.grad_clip = 0;   // raw gradients: the loss scaler sees them before any clipping
    c.eval_every = 0;  // no validation: only the training gradients matter here
    c.seed = options.seed;
    c.threads = 1;     // reproducible and light on a shared machine
    return c;
}

Result<std::unique_ptr<ReferenceGradientSource>>
ReferenceGradientSource::create(const GradientSourceOptions &options, const std::atomic<bool> *cancel)
{
    using R = Result<std::unique_ptr<ReferenceGradientSource>>;
    if (options.steps < 1)
        return R::failure("steps", "range", "steps (" + std::to_string(options.steps) + ") must be at least 1.");
    if (options.text_bytes < kMinTextBytes)
        return R::failure("text_bytes", "range",
                          "text_bytes (" + std::to_string(options.text_bytes) + ") must be at least " +
                              std::to_string(kMinTextBytes) + ".");
    Result<std::string> text = reference::builtinAblationText();
    if (!text)
        return text.problems();
    std::string prefix = text.value().substr(0, std::size_t(options.text_bytes));

    reference::TrainConfig config = gradientTrainConfig(options);
    Result<reference::TokenizedText> tokens = reference::tokenizeTrainingText(prefix, config.model.vocab_size, cancel);
    if (cancel && cancel->load())
        return R::failure("run", "cancelled", "The run was cancelled.");
    if (!tokens)
        return tokens.problems();
    config.model.vocab_size = tokens.value().vocab_size;

    std::unique_ptr<ReferenceGradientSource> source(new ReferenceGradientSource);
    source->folder_ = std::make_unique<QTemporaryDir>();
    if (!source->folder_->isValid())
        return R::failure("data_path", "unwritable",
                          "Cannot create a temporary folder: " + source->folder_->errorString().toStdString());
    config.data_path = QFile::encodeName(source->folder_->filePath(QStringLiteral("tokens.bin"))).toStdString();
    config.data_dtype = TokenDtype::U16;  // vocab_size ≤ 512
    if (Result<bool> written = writeTokenFile(config.data_path, tokens.value().ids, config.data_dtype);
        !written)
        return written.problems();
    Result<std::unique_ptr<reference::Trainer>> trainer = reference::Trainer::create(config);
    if (!trainer)
        return trainer.problems();
    source->trainer_ = std::move(trainer.value());
    return source;
}

ReferenceGradientSource::~ReferenceGradientSource() = default;

Result<reference::StepReport> ReferenceGradientSource::step() { return trainer_->step(); }

std::span<const float> ReferenceGradientSource::gradients()
{
    reference::Model &model = trainer_->model();
    return {model.gradientData(), std::size_t(model.parameterCount())};
}

std::int64_t ReferenceGradientSource::parameterCount() { return trainer_->model().parameterCount(); }

}  // namespace lse::numbers
