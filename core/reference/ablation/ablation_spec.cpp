// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/ablation/ablation_spec.h"

#include "reference/model.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace lse::reference {

namespace {

struct StudyName {
    AblationStudy study;
    const char *name;
};
constexpr StudyName kStudies[] = {
    {AblationStudy::NormType, "norm"},
    {AblationStudy::Activation, "activation"},
    {AblationStudy::Position, "position"},
    {AblationStudy::NormPlacement, "placement"},
    {AblationStudy::ParallelBlock, "parallel"},
};

AblationVariant variant(std::string name, ModelChanges changes) { return AblationVariant{std::move(name), changes}; }

}  // namespace

ModelConfig applyChanges(const ModelConfig &base, const ModelChanges &c)
{
    ModelConfig m = base;
    if (c.norm)
        m.norm = *c.norm;
    if (c.norm_placement)
        m.norm_placement = *c.norm_placement;
    if (c.activation)
        m.activation = *c.activation;
    if (c.positional_encoding)
        m.positional_encoding = *c.positional_encoding;
    if (c.parallel_block)
        m.parallel_block = *c.parallel_block;
    if (c.d_ff)
        m.d_ff = *c.d_ff;
    return m;
}

std::string describeChanges(const ModelChanges &c)
{
    std::string text;
    auto add = [&text](std::string_view key, std::string_view value) {
        if (!text.empty())
            text += ", ";
        text += std::string(key) + "=" + std::string(value);
    };
    if (c.norm)
        add("norm", toString(*c.norm));
    if (c.norm_placement)
        add("norm_placement", toString(*c.norm_placement));
    if (c.activation)
        add("activation", toString(*c.activation));
    if (c.positional_encoding)
        add("positional_encoding", toString(*c.positional_encoding));
    if (c.parallel_block)
        add("parallel_block", *c.parallel_block ? "true" : "false");
    if (c.d_ff)
        add("d_ff", std::to_string(*c.d_ff));
    return text.empty() ? "base" : text;
}

std::string_view studyName(AblationStudy study)
{
    for (const StudyName &s : kStudies)
        if (s.study == study)
            return s.name;
    return "norm";
}

std::optional<AblationStudy> studyFromName(std::string_view name)
{
    for (const StudyName &s : kStudies)
        if (name == s.name)
            return s.study;
    return std::nullopt;
}

std::vector<AblationStudy> allStudies()
{
    std::vector<AblationStudy> studies;
    for (const StudyName &s : kStudies)
        studies.push_back(s.study);
    return studies;
}

std::int64_t gatedDffAtEqualParameters(std::int64_t ungated_d_ff)
{
    // Ungated: 2·d·F_u weights; gated: 3·d·F_g. Equal when F_g = 2/3·F_u.
    const double exact = 2.0 * double(ungated_d_ff) / 3.0;
    const std::int64_t multiple_of_8 = std::max<std::int64_t>(8, std::llround(exact / 8.0) * 8);
    if (std::abs(double(multiple_of_8) - exact) <= 0.01 * exact)
        return multiple_of_8;
    return std::max<std::int64_t>(1, std::llround(exact));
}

std::vector<AblationVariant> studyVariants(AblationStudy study, const ModelConfig &base)
{
    using N = NormType;
    using P = PositionalEncoding;
    switch (study) {
    case AblationStudy::NormPlacement:
        return {variant("Pre-norm", {.norm_placement = NormPlacement::Pre}),
                variant("Post-norm", {.norm_placement = NormPlacement::Post, .parallel_block = false})};
    case AblationStudy::NormType:
        return {variant("RMSNorm", {.norm = N::RMSNorm}), variant("LayerNorm", {.norm = N::LayerNorm}),
                variant("No norm", {.norm = N::None})};
    case AblationStudy::Activation: {
        // Equal parameters: ungated 4·d, gated 2/3 of that (8/3·d).
        const std::int64_t ungated = 4 * base.d_model, gated = gatedDffAtEqualParameters(ungated);
        const std::string g = " (d_ff " + std::to_string(gated) + ")", u = " (d_ff " + std::to_string(ungated) + ")";
        return {variant("SwiGLU" + g, {.activation = Activation::SwiGLU, .d_ff = gated}),
                variant("GeLU" + u, {.activation = Activation::GeLU, .d_ff = ungated}),
                variant("ReLU" + u, {.activation = Activation::ReLU, .d_ff = ungated}),
                variant("SiLU" + u, {.activation = Activation::SiLU, .d_ff = ungated})};
    }
    case AblationStudy::Position:
        return {variant("RoPE", {.positional_encoding = P::RoPE}), variant("Learned", {.positional_encoding = P::Learned}),
                variant("Sinusoidal", {.positional_encoding = P::Sinusoidal}),
                variant("No position (NoPE)", {.positional_encoding = P::None})};
    case AblationStudy::ParallelBlock:
        // Parallel blocks are pre-norm (reference/model.h), so both variants are.
        return {variant("Serial", {.norm_placement = NormPlacement::Pre, .parallel_block = false}),
                variant("Parallel", {.norm_placement = NormPlacement::Pre, .parallel_block = true})};
    }
    return {};
}

AblationSpec standardStudy(AblationStudy study, const TrainConfig &base)
{
    AblationSpec spec;
    spec.study = std::string(studyName(study));
    spec.base = base;
    spec.variants = studyVariants(study, base.model);
    return spec;
}

TrainConfig defaultAblationBase()
{
    TrainConfig c;
    c.model.name = "ablation-tiny";
    c.model.n_layers = 2;
    c.model.d_model = 64;
    c.model.n_heads = 4;
    c.model.n_kv_heads = 4;
    c.model.head_dim = 16;
    c.model.d_ff = gatedDffAtEqualParameters(4 * 64);
    c.model.vocab_size = 512;
    c.model.max_seq_len = 64;
    c.model.norm = NormType::RMSNorm;
    c.model.norm_placement = NormPlacement::Pre;
    c.model.activation = Activation::SwiGLU;
    c.model.positional_encoding = PositionalEncoding::RoPE;
    c.batch_size = 16;
    c.steps = 300;
    c.lr_max = 3e-3;
    c.lr_min = 3e-4;
    c.warmup_steps = 30;
    c.eval_every = 25;
    c.eval_batches = 4;
    c.seed = 0;
    return c;
}

TrainConfig withAblationSteps(TrainConfig base, int steps)
{
    base.steps = steps;
    base.warmup_steps = std::min(base.warmup_steps, steps / 10);
    base.eval_every = std::max(1, steps / 12);
    return base;
}

Problems validateAblationSpec(const AblationSpec &spec)
{
    Problems problems;
    if (spec.variants.empty())
        problems.push_back({"variants", "empty", "An ablation needs at least one variant."});
    std::set<std::string> names;
    for (std::size_t i = 0; i < spec.variants.size(); ++i) {
        const AblationVariant &v = spec.variants[i];
        const std::string at = "variants[" + std::to_string(i) + "]";
        if (v.name.empty())
            problems.push_back({at + ".name", "empty", at + ".name: a variant needs a name."});
        else if (!names.insert(v.name).second)
            problems.push_back({at + ".name", "duplicate", at + ".name: '" + v.name + "' is used by two variants."});
        for (Problem p : validateForReference(applyChanges(spec.base.model, v.changes))) {
            p.field = at + ".model." + p.field;
            p.message = at + " (" + v.name + "): " + p.message;
            problems.push_back(std::move(p));
        }
    }
    // The training settings, checked before any text is tokenized. The runner writes the token
    // file itself, and the model fields are checked per variant above.
    TrainConfig base = spec.base;
    base.data_path = "ablation-tokens.bin";
    base.validation_path.clear();
    for (Problem &p : validateTrainConfig(base))
        if (p.field != "data_path" && p.field.compare(0, 6, "model.") != 0)
            problems.push_back(std::move(p));
    return problems;
}

}  // namespace lse::reference
