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
// The model is named after the last part of `_name_or_path` ("meta-llama/Llama-2-7b-hf" ->
// "Llama-2-7b-hf"), else `fallback_name`, else the model_type; a config equal to a built-in preset
// takes the preset's name.
Result<ModelConfig> modelFromHuggingFaceConfig(const QByteArray &json, const std::string &fallback_name = {});
// As above from a file; the fallback name comes from the path (modelNameFromConfigPath). An empty or binary file is reported
// as such (field "file", rule "empty" or "binary"), and only a regular file of at most
// maxFileBytes(FileKind::Config) is read (rules "unreadable", "not_a_file", "too_large").
Result<ModelConfig> loadHuggingFaceConfigFile(const std::string &path);
// The model's name a config file's path gives: for the Hub cache (models--org--name/snapshots/<commit>/)
// the model's name; in a model folder (tokenizer or weights beside the file) and for a file named
// config.json, the folder's name; otherwise the file's name without its extension ("hf/qwen2.5-7b.json"
// -> "qwen2.5-7b").
std::string modelNameFromConfigPath(const std::string &path);

}  // namespace lse
