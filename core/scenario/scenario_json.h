// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/file_writer.h"
#include "common/problem.h"
#include "scenario/scenario.h"

#include <QByteArray>
#include <QJsonObject>

#include <string>

namespace lse {

// The project's own scenario file: {"format": "llm-explorer-scenario", "version": 1,
// "model": {...}, "cluster": {...}, "training": {...}}. In scenarioFromJson missing sections and
// fields take defaultScenario()'s values, fitted to the file's model by fitScenarioToModel() without
// changing any field the file gives (a model without a name is named after the preset it equals, or
// "Custom"); the *FromJson functions of one part start from the value types' defaults. Unknown fields
// are ignored; a field of the wrong type or an unknown enum name is a
// problem naming the field ("model.activation: unknown value 'swish'; expected relu|gelu|...").
// Every problem is collected, not just the first. Rules: "type", "integer" (a fraction where a
// count is needed), "range" (a negative count or amount, or an integer above 2^53, which a JSON
// number cannot hold exactly), "enum"; problems with the file as a whole have field "file" and rule
// "read", "write", "empty", "binary" (not a text file), "json" (the message gives the parser's
// offset), "format" or "version".
// training.precision.recipe, when present, supplies the defaults of the other precision fields.
// cluster.peak_flops_per_second_override is written as null when unset; null or absent reads as unset.
QJsonObject modelToJson(const ModelConfig &model);
Result<ModelConfig> modelFromJson(const QJsonObject &object, const std::string &field = "model");
QJsonObject clusterToJson(const ClusterConfig &cluster);
Result<ClusterConfig> clusterFromJson(const QJsonObject &object, const std::string &field = "cluster");
QJsonObject trainingToJson(const TrainingConfig &training);
Result<TrainingConfig> trainingFromJson(const QJsonObject &object, const std::string &field = "training");

QByteArray scenarioToJson(const Scenario &scenario);
Result<Scenario> scenarioFromJson(const QByteArray &json);

// File I/O. Loading reads only a regular file of at most maxFileBytes(FileKind::Config) (rules
// "read", "not_a_file", "too_large"); saving writes a temporary beside the file, checks every write
// and flush and only then renames it over the file (common/file_writer.h), so a full disk or a crash
// never leaves a short file and the problem (rule "write") carries the system's error text. A path
// that is not a regular file, or one of the program's inputs, is refused (rules "not_a_file",
// "same_file"); the document saved over its own file says AllowedForOwnFile.
Result<Scenario> loadScenarioFile(const std::string &path);
Problems saveScenarioFile(const Scenario &scenario, const std::string &path,
                          InputReplacement replacement = InputReplacement::Refused);

// The course's worked example: a Llama-2-70B-class model on 1024 H100 for 15T tokens.
Scenario defaultScenario();

}  // namespace lse
