// SPDX-License-Identifier: GPL-3.0-or-later
// AblationResults ↔ JSON, so a finished study can be saved and shown again without training:
//   {"format": "llm-explorer-ablation-results", "version": 1, "study": "norm", "cancelled": false,
//    "text_bytes": 391396, "tokens": 98765,
//    "base": {TrainConfig JSON (reference/trainer.h)},
//    "variants": [{"name": "RMSNorm", "changes": {"norm": "rmsnorm"}, "model": {scenario model},
//                  "status": "finished", "message": "", "parameters": 123, "tokens_per_s": 4567.8,
//                  "final_validation_loss": 2.31, "wall_seconds": 12.3, "first_batch_hash": "0x…",
//                  "curve": {"step": [1, 2, …], "train_loss": [...], "validation_loss": [null, …]}}]}
// Reading checks every field and names it in its problems ("variants[1].curve.train_loss[3]").
#pragma once

#include "common/problem.h"
#include "reference/ablation/ablation_result.h"

#include <QByteArray>

#include <string>

namespace lse::reference {

inline constexpr const char *kAblationResultsFormat = "llm-explorer-ablation-results";

QByteArray ablationResultsToJson(const AblationResults &results);
Result<AblationResults> ablationResultsFromJson(const QByteArray &json);

// Atomic write (core/common/file_writer.h); a problem {field: path, rule: "unwritable"} on failure.
Result<bool> saveAblationResults(const AblationResults &results, const std::string &path);
// Reads under FileKind::Config's rules (a regular file, size cap, text); problems name the path
// ("file" rules) or the field.
Result<AblationResults> loadAblationResults(const std::string &path);

}  // namespace lse::reference
