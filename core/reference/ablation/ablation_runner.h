// SPDX-License-Identifier: GPL-3.0-or-later
// Trains an AblationSpec's variants one after the other with the reference transformer: the text
// is BPE-tokenized once (a byte-level BPE trained on it, vocabulary base.model.vocab_size, as the
// Reference run page does), written to one temporary token file, and every variant's Trainer reads
// it with the base's seed, so all variants see the same batches in the same order. Progress goes
// to a callback (from the calling thread); a cancel flag is honoured between steps, and what
// finished is kept.
#pragma once

#include "common/problem.h"
#include "reference/ablation/ablation_result.h"
#include "reference/ablation/ablation_spec.h"

#include <atomic>
#include <functional>
#include <optional>
#include <cstdint>
#include <string>
#include <vector>

namespace lse::reference {

struct AblationProgress {
    enum class Phase { Tokenizing, Training };
    Phase phase = Phase::Tokenizing;
    int variant = 0;        // 0-based index of the variant training
    int variant_count = 0;
    std::string variant_name;
    int step = 0;           // steps done in this variant
    int steps = 0;          // of base.steps
    double loss = 0;        // training loss of the step just taken
    std::optional<double> validation_loss;
    const AblationResult *result = nullptr;  // the variant so far (valid during the call)
};

using AblationProgressCallback = std::function<void(const AblationProgress &)>;

// The built-in training text (resources/samples/tiny_stories_generated.txt, compiled in).
Result<std::string> builtinAblationText();

struct TokenizedText {
    std::vector<std::uint32_t> ids;
    std::int64_t vocab_size = 0;
};

// `text` as ids of a byte-level BPE trained on it to `vocab_size` entries, <|endoftext|> as one
// special id (training_text.h). Problems of the BPE trainer (also when `cancel` stops it).
Result<TokenizedText> tokenizeTrainingText(const std::string &text, std::int64_t vocab_size,
                                           const std::atomic<bool> *cancel = nullptr);

// Problems of validateAblationSpec, of the tokenization (the text too short for the context) and of
// the trainer; a variant that diverges is recorded with status Diverged and the run goes on. On
// cancel the result has cancelled = true and holds the variants finished plus the one cut short.
Result<AblationResults> runAblation(const AblationSpec &spec, const AblationProgressCallback &progress = {},
                                    const std::atomic<bool> *cancel = nullptr);

}  // namespace lse::reference
