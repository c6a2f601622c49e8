// SPDX-License-Identifier: GPL-3.0-or-later
#include "architecture/atlas_statistics.h"

namespace lse {

bool usesChoice(const ModelConfig &model, DesignChoice choice)
{
    switch (choice) {
    case DesignChoice::RMSNorm:
        return model.norm == NormType::RMSNorm;
    case DesignChoice::GatedFfn:
        return model.isGated();
    case DesignChoice::RoPE:
        return model.positional_encoding == PositionalEncoding::RoPE;
    case DesignChoice::PreNorm:
        return model.norm != NormType::None && model.norm_placement != NormPlacement::Post;
    case DesignChoice::SharedKvHeads:
        return model.n_kv_heads < model.n_heads;
    case DesignChoice::MixtureOfExperts:
        return model.moe.enabled();
    case DesignChoice::ParallelBlock:
        return model.parallel_block;
    case DesignChoice::TiedEmbeddings:
        return model.tied_embeddings;
    }
    return false;
}

double YearShares::share(DesignChoice choice) const
{
    return model_count > 0 ? double(usersOf(choice)) / model_count : 0.0;
}

std::vector<YearShares> sharesByYear(const std::vector<AtlasEntry> &atlas)
{
    std::map<int, YearShares> byYear;
    for (const AtlasEntry &entry : atlas) {
        YearShares &year = byYear[entry.year];
        year.year = entry.year;
        ++year.model_count;
        for (const DesignChoice choice : kDesignChoices)
            if (usesChoice(entry.model, choice))
                ++year.users[std::size_t(choice)];
    }
    std::vector<YearShares> years;
    years.reserve(byYear.size());
    for (const auto &[year, shares] : byYear)
        years.push_back(shares);
    return years;
}

std::vector<FfnRatioPoint> ffnRatios(const std::vector<AtlasEntry> &atlas)
{
    std::vector<FfnRatioPoint> points;
    points.reserve(atlas.size());
    for (const AtlasEntry &entry : atlas) {
        const ModelConfig &model = entry.model;
        FfnRatioPoint point;
        point.id = entry.id;
        point.name = model.name;
        point.fractional_year = entry.fractionalYear();
        point.gated = model.isGated();
        point.mixture_of_experts = model.moe.enabled();
        // A MoE token's FFN is its routed experts; the dense d_ff of its few dense layers (or an
        // unused config value) would misstate what the design is.
        const std::int64_t width = point.mixture_of_experts ? model.moe.expert_d_ff : model.d_ff;
        point.ratio = model.d_model > 0 ? double(width) / double(model.d_model) : 0.0;
        points.push_back(point);
    }
    return points;
}

std::map<int, int> headDimensionCounts(const std::vector<AtlasEntry> &atlas)
{
    std::map<int, int> counts;
    for (const AtlasEntry &entry : atlas)
        ++counts[entry.model.head_dim];
    return counts;
}

}  // namespace lse
