// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "architecture/model_atlas.h"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace lse {

// The design choices whose spread over the years tells how the standard recipe formed.
enum class DesignChoice {
    RMSNorm,         // norm == RMSNorm
    GatedFfn,        // SwiGLU or GeGLU (any GLU)
    RoPE,            // rotary positions
    PreNorm,         // pre-norm or "double" (sandwich): the residual stream itself is never normalised
    SharedKvHeads,   // GQA or MQA: fewer KV heads than query heads
    MixtureOfExperts,
    ParallelBlock,
    TiedEmbeddings,
};
inline constexpr std::array kDesignChoices = {
    DesignChoice::RMSNorm,       DesignChoice::GatedFfn,      DesignChoice::RoPE,          DesignChoice::PreNorm,
    DesignChoice::SharedKvHeads, DesignChoice::MixtureOfExperts, DesignChoice::ParallelBlock, DesignChoice::TiedEmbeddings,
};

bool usesChoice(const ModelConfig &model, DesignChoice choice);

// How many of one year's atlas models use each choice.
struct YearShares {
    int year = 0;
    int model_count = 0;
    std::array<int, kDesignChoices.size()> users{};

    int usersOf(DesignChoice choice) const { return users[std::size_t(choice)]; }
    // users / models, 0..1.
    double share(DesignChoice choice) const;
};

// One entry per year that has models, ascending.
std::vector<YearShares> sharesByYear(const std::vector<AtlasEntry> &atlas);

// A model's feed-forward width relative to d_model. A gated FFN has three matrices instead of two,
// so its ratio r costs as many parameters as an ungated 1.5·r: 8/3 ≈ 2.67 gated equals the
// classic 4 (Shazeer 2020, "GLU Variants Improve Transformer", section 2).
struct FfnRatioPoint {
    std::string id;
    std::string name;
    double fractional_year = 0;
    double ratio = 0;  // d_ff / d_model; a MoE model: one routed expert's expert_d_ff / d_model
    bool gated = false;
    bool mixture_of_experts = false;
    // The ungated ratio with the same parameters: 1.5·ratio when gated, ratio otherwise.
    double parameterEquivalentRatio() const { return gated ? 1.5 * ratio : ratio; }
};

std::vector<FfnRatioPoint> ffnRatios(const std::vector<AtlasEntry> &atlas);

// How many models use each head dimension, ascending by dimension.
std::map<int, int> headDimensionCounts(const std::vector<AtlasEntry> &atlas);

}  // namespace lse
