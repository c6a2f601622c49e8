// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario/model_config.h"
#include "scenario/presets.h"

#include <string>
#include <string_view>

namespace lse {

// What a model is called follows what it is: a preset keeps its name only while every field still
// equals the preset, an edited one becomes "Custom (from Llama 2 70B)", and an imported or
// hand-written model that equals a preset exactly is recognised as that preset.

// Every field equal except the name.
bool sameArchitecture(const ModelConfig &a, const ModelConfig &b);
// The built-in preset with exactly this architecture, or nullptr.
const ModelPreset *presetWithArchitecture(const ModelConfig &model);
// "Custom (from <base>)", or "Custom" without a base; a name that already is a custom name keeps
// its base ("Custom (from X)" edited again stays "Custom (from X)").
std::string customModelName(std::string_view base);
// The name `after` should carry once `before` was edited into it: unchanged when the architecture
// is (or when the edit set the name itself), the preset's name when it equals one, otherwise the
// custom name based on `before`.
std::string nameAfterEdit(const ModelConfig &before, const ModelConfig &after);

}  // namespace lse
