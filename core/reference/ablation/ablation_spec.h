// SPDX-License-Identifier: GPL-3.0-or-later
// What an ablation study trains: one base TrainConfig (model, steps, batch, learning-rate schedule,
// seed) and named variants, each a small set of changes to the base model. Every variant trains on
// the same tokens with the same seed, so the batches are identical and only the architecture
// differs. The standard studies are the design axes of the course's architecture lecture (CS336
// lecture 3): norm placement, norm type, activation at equal parameters, positional encoding,
// parallel vs serial blocks.
#pragma once

#include "common/problem.h"
#include "reference/trainer.h"
#include "scenario/model_config.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lse::reference {

// Changes applied to the base model; an unset field keeps the base's value.
struct ModelChanges {
    std::optional<NormType> norm = std::nullopt;
    std::optional<NormPlacement> norm_placement = std::nullopt;
    std::optional<Activation> activation = std::nullopt;
    std::optional<PositionalEncoding> positional_encoding = std::nullopt;
    std::optional<bool> parallel_block = std::nullopt;
    std::optional<std::int64_t> d_ff = std::nullopt;
    friend bool operator==(const ModelChanges &, const ModelChanges &) = default;
};

ModelConfig applyChanges(const ModelConfig &base, const ModelChanges &changes);
// "norm=layernorm, d_ff=344" (the JSON names of the fields and values); "base" when nothing changes.
std::string describeChanges(const ModelChanges &changes);

struct AblationVariant {
    std::string name;  // "RMSNorm", "SwiGLU (d_ff 344)": shown in legends and tables
    ModelChanges changes;
    friend bool operator==(const AblationVariant &, const AblationVariant &) = default;
};

enum class AblationStudy { NormPlacement, NormType, Activation, Position, ParallelBlock };

// "placement", "norm", "activation", "position", "parallel" (the CLI's --study values).
std::string_view studyName(AblationStudy study);
std::optional<AblationStudy> studyFromName(std::string_view name);
std::vector<AblationStudy> allStudies();
inline constexpr const char *kStudyChoices = "norm, activation, position, placement, parallel";

struct AblationSpec {
    std::string study;  // a studyName, or "custom"
    TrainConfig base;   // data_path is ignored: the runner tokenizes `text`
    std::vector<AblationVariant> variants;
    // Training text; empty: the built-in sample (resources/samples/tiny_stories_generated.txt).
    std::string text;
};

// The d_ff of a gated (GLU) feed-forward with the parameters of an ungated one of width
// `ungated_d_ff`: three matrices instead of two, so 2/3 of it (8/3·d for the usual 4·d, Shazeer
// 2020). Rounded to a multiple of 8 when that keeps the feed-forward parameters within 1%, else to
// the nearest integer.
std::int64_t gatedDffAtEqualParameters(std::int64_t ungated_d_ff);

// The variants of a standard study of `base` (its d_ff is kept except in the activation study,
// which uses 4·d_model ungated and gatedDffAtEqualParameters(4·d_model) gated).
std::vector<AblationVariant> studyVariants(AblationStudy study, const ModelConfig &base);
AblationSpec standardStudy(AblationStudy study, const TrainConfig &base);

// A model small enough to train four variants for a few hundred steps in a minute or two on two
// cores (2 layers, d_model 64, context 64, vocabulary 512, SwiGLU, RoPE, RMSNorm, pre-norm), with
// its schedule: the default base of the GUI and the CLI.
TrainConfig defaultAblationBase();

// `base` set to train `steps` steps: warm-up at most a tenth of the run, and about a dozen
// validation points (eval_every = steps / 12, at least 1) so every curve has the same resolution.
TrainConfig withAblationSteps(TrainConfig base, int steps);

// Problems naming the field: no variants, duplicate or empty names, a variant the reference model
// cannot build ("variants[1].model.parallel_block"), and the base's training settings.
Problems validateAblationSpec(const AblationSpec &spec);

}  // namespace lse::reference
