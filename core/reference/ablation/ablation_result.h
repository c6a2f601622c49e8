// SPDX-License-Identifier: GPL-3.0-or-later
// What an ablation run produced, per variant: the loss curve, throughput, final validation loss,
// size and wall time, and whether the variant finished, was cancelled or diverged (a diverged
// variant is a result too: post-norm or no norm can blow up where pre-norm trains).
#pragma once

#include "reference/ablation/ablation_spec.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lse::reference {

struct AblationPoint {
    int step = 0;
    double train_loss = 0;                  // nats/token of that step's batch
    std::optional<double> validation_loss;  // on evaluation steps
    friend bool operator==(const AblationPoint &, const AblationPoint &) = default;
};

enum class VariantStatus { Finished, Cancelled, Diverged };
std::string_view toString(VariantStatus status);  // "finished", "cancelled", "diverged"
std::optional<VariantStatus> variantStatusFromString(std::string_view text);

struct AblationResult {
    AblationVariant variant;
    ModelConfig model;             // the base with the variant's changes (vocab_size from the tokenizer)
    std::int64_t parameters = 0;
    std::vector<AblationPoint> curve;
    // Training tokens of one step over the 10th-percentile step time (validation excluded; robust
    // to other processes on the machine); while a variant trains, over the mean step time so far.
    double tokens_per_s = 0;
    std::optional<double> final_validation_loss;  // the last validation loss measured
    double wall_seconds = 0;       // model construction, steps and validation
    std::uint64_t first_batch_hash = 0;  // StepReport::batch_hash of step 1
    VariantStatus status = VariantStatus::Finished;
    std::string message;           // why it diverged; empty otherwise
    int stepsCompleted() const { return curve.empty() ? 0 : curve.back().step; }
    friend bool operator==(const AblationResult &, const AblationResult &) = default;
};

struct AblationResults {
    std::string study;             // as in AblationSpec
    TrainConfig base;              // model.vocab_size is the tokenizer's; data_path is empty
    std::int64_t text_bytes = 0;   // training text the tokens came from
    std::int64_t tokens = 0;       // ids after BPE (the last 10% validate)
    std::vector<AblationResult> variants;  // in run order; a cancelled run keeps those started
    bool cancelled = false;
};

bool operator==(const AblationResults &a, const AblationResults &b);

}  // namespace lse::reference
