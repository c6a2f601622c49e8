// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/training_tokens.h"

#include <algorithm>
#include <string>

namespace lse::reference {

Result<TrainingTokens> openTrainingTokens(const TrainConfig &config)
{
    TrainingTokens tokens;
    const int ctx = int(config.model.max_seq_len);
    Result<TokenFile> data = TokenFile::open(config.data_path, config.data_dtype);
    if (!data)
        return data.problems();
    tokens.data.emplace(std::move(data.value()));
    if (Result<bool> ids = tokens.data->validateIds(std::uint32_t(config.model.vocab_size)); !ids)
        return ids.problems();
    const std::int64_t windows = tokens.data->windowCount(ctx);
    if (!config.validation_path.empty()) {
        Result<TokenFile> validation = TokenFile::open(config.validation_path, config.validation_dtype);
        if (!validation)
            return validation.problems();
        tokens.validation.emplace(std::move(validation.value()));
        if (Result<bool> ids = tokens.validation->validateIds(std::uint32_t(config.model.vocab_size)); !ids)
            return ids.problems();
        tokens.val_windows = tokens.validation->windowCount(ctx);
        if (tokens.val_windows < 1)
            return Result<TrainingTokens>::failure(
                "validation_path", "too-short",
                config.validation_path + ": " + std::to_string(tokens.validation->tokenCount()) +
                    " tokens; validation needs at least context + 1 = " + std::to_string(ctx + 1) + ".");
        tokens.val_start = 0;
    } else {
        tokens.val_windows = std::max<std::int64_t>(1, windows / 10);
        tokens.val_start = (windows - tokens.val_windows) * ctx;
    }
    tokens.train_limit = trainingTokenLimit(config, *tokens.data);
    if (tokens.train_limit < ctx + 1 || (config.validation_path.empty() && windows < 2))
        return Result<TrainingTokens>::failure(
            "data_path", "too-short",
            config.data_path + ": " + std::to_string(tokens.data->tokenCount()) + " tokens are too few for context length " +
                std::to_string(ctx) + (config.validation_path.empty()
                                           ? " with a held-out 10% for validation (at least 2·context + 1 tokens; or give validation_path)."
                                           : " (at least context + 1 tokens)."));
    return tokens;
}

}  // namespace lse::reference
