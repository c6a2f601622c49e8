// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"
#include "scenario/model_config.h"

#include <QByteArray>

#include <string>

namespace lse {

// Reads a Hugging Face transformers `config.json` into a ModelConfig. Supported `model_type`s:
// llama, mistral, mixtral, qwen2, qwen2_moe, gemma2, gpt2, gpt_neox. Each family's defaults (the
// transformers config class defaults) apply to fields the file omits. An unsupported family or a
// missing required field is a problem naming the field.
Result<ModelConfig> modelFromHuggingFaceConfig(const QByteArray &json);
Result<ModelConfig> loadHuggingFaceConfigFile(const std::string &path);

}  // namespace lse
