// SPDX-License-Identifier: GPL-3.0-or-later
// The token files of a training run, opened and checked once for every trainer (one process, and
// the data-, tensor- and pipeline-parallel ones), so they all refuse the same files with the same
// message and draw their windows from the same ranges.
#pragma once

#include "common/problem.h"
#include "reference/token_data.h"
#include "reference/trainer.h"

#include <cstdint>
#include <optional>

namespace lse::reference {

struct TrainingTokens {
    std::optional<TokenFile> data;
    std::optional<TokenFile> validation;  // a separate file, or none: the tail of `data` validates
    std::int64_t train_limit = 0;         // training windows lie in data tokens [0, train_limit)
    std::int64_t val_start = 0;           // first validation window start in the validating file
    std::int64_t val_windows = 0;

    const TokenFile &validating() const { return validation ? *validation : *data; }
};

// data_path (and validation_path when set) opened, every id checked against the vocabulary; the
// validation windows are validation_path's, or the last 10% of the data's windows (at least one),
// which training then leaves out (trainingTokenLimit). Problems: the files' own (open, size, ids);
// "validation_path" {too-short} with fewer tokens than context + 1; "data_path" {too-short} when
// no training window is left.
Result<TrainingTokens> openTrainingTokens(const TrainConfig &config);

}  // namespace lse::reference
