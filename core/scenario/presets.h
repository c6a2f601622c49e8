// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"
#include "scenario/model_config.h"

#include <QByteArray>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lse {

// A published model, read from resources/presets/models/*.json (compiled in under
// ":/presets/models/"). `official_parameters` is the exact count its authors publish (model card or
// checkpoint metadata); the cost engine must reproduce it to the parameter.
struct ModelPreset {
    std::string id;  // e.g. "llama-2-7b"; what --model accepts
    ModelConfig model;
    std::int64_t official_parameters = 0;
    std::string source;  // where the architecture and the count come from
};

// One preset file: {"format": "llm-explorer-model-preset", "version": 1, "id", "official_parameters",
// "source", "model": {...as modelToJson}}. Problems name fields like "model.n_layers".
Result<ModelPreset> parseModelPreset(const QByteArray &json);

// All built-in presets, sorted by id, parsed once. A broken built-in preset is a programming error
// and aborts with a message (tests catch it first).
const std::vector<ModelPreset> &builtinModelPresets();
const ModelPreset *findModelPreset(std::string_view id);

}  // namespace lse
