// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/model_identity.h"

namespace lse {

namespace {

constexpr std::string_view kCustom = "Custom";
constexpr std::string_view kCustomFromPrefix = "Custom (from ";
constexpr std::string_view kCustomFromSuffix = ")";

// "Custom (from X)" -> "X"; "Custom" -> ""; any other name is its own base.
std::string_view baseOf(std::string_view name)
{
    if (name == kCustom)
        return {};
    if (name.size() > kCustomFromPrefix.size() + kCustomFromSuffix.size() && name.starts_with(kCustomFromPrefix)
        && name.ends_with(kCustomFromSuffix))
        return name.substr(kCustomFromPrefix.size(),
                           name.size() - kCustomFromPrefix.size() - kCustomFromSuffix.size());
    return name;
}

}  // namespace

bool sameArchitecture(const ModelConfig &a, const ModelConfig &b)
{
    ModelConfig unnamed_a = a;
    ModelConfig unnamed_b = b;
    unnamed_a.name.clear();
    unnamed_b.name.clear();
    return unnamed_a == unnamed_b;
}

const ModelPreset *presetWithArchitecture(const ModelConfig &model)
{
    for (const ModelPreset &preset : builtinModelPresets())
        if (sameArchitecture(preset.model, model))
            return &preset;
    return nullptr;
}

std::string customModelName(std::string_view base)
{
    const std::string_view stripped = baseOf(base);
    if (stripped.empty())
        return std::string(kCustom);
    return std::string(kCustomFromPrefix) + std::string(stripped) + std::string(kCustomFromSuffix);
}

std::string nameAfterEdit(const ModelConfig &before, const ModelConfig &after)
{
    if (after.name != before.name || sameArchitecture(before, after))
        return after.name;
    if (const ModelPreset *preset = presetWithArchitecture(after))
        return preset->model.name;
    return customModelName(before.name);
}

}  // namespace lse
