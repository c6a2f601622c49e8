// SPDX-License-Identifier: GPL-3.0-or-later
// Real gradients for the Numbers page: the CPU reference transformer trained in FP32 on the built-in
// sample text (tokenized as the Ablations tab does), one optimizer step at a time, with the gradient
// arena readable after each step. Gradient clipping is off, so what is read is the raw gradient
// that mixed-precision training would cast to FP16 (a loss scaler checks the scaled gradients before
// they are unscaled and clipped; PyTorch GradScaler documentation, "Working with unscaled gradients").
#pragma once

#include "common/problem.h"
#include "reference/trainer.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>

class QTemporaryDir;

namespace lse::numbers {

struct GradientSourceOptions {
    int steps = 100;                      // the schedule's length (cosine cycle); callers may stop earlier
    std::uint64_t seed = 0;               // initialisation and batch sampling
    std::int64_t text_bytes = 96 * 1024;  // prefix of the built-in text to tokenize (BPE training time)
};

// The tiny model of the Ablations tab (2 layers, d_model 64) with clipping and validation off, a
// warm-up of a tenth of the steps, batch 8 and one thread, so a run is quick and reproducible.
reference::TrainConfig gradientTrainConfig(const GradientSourceOptions &options);

class ReferenceGradientSource {
public:
    // Tokenizes the text prefix, writes the ids to a temporary file and builds the trainer.
    // Problems name the field (text_bytes, steps, training.*); a cancel during tokenization fails
    // with rule "cancelled".
    static Result<std::unique_ptr<ReferenceGradientSource>> create(const GradientSourceOptions &options,
                                                                  const std::atomic<bool> *cancel = nullptr);
    ~ReferenceGradientSource();

    // One FP32 optimizer step; afterwards gradients() holds this step's gradients.
    Result<reference::StepReport> step();
    // Every gradient element of the last step (all parameters, in arena order).
    std::span<const float> gradients();
    std::int64_t parameterCount();
    reference::Trainer &trainer() { return *trainer_; }

private:
    ReferenceGradientSource() = default;
    std::unique_ptr<QTemporaryDir> folder_;  // holds the token file the trainer reads
    std::unique_ptr<reference::Trainer> trainer_;
};

}  // namespace lse::numbers
