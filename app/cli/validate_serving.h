// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// `llm-explorer-cli validate --serving`: the serving model against the published inference
// measurements (core/validation/serving_validation.h).
namespace lse::cli {

struct ValidateServingOptions {
    bool json = false;
    bool fit = false;                   // also fit the factors on every row and print them
    bool leave_one_source_out = false;  // also predict each source with factors fitted without it
};
int runValidateServing(const ValidateServingOptions &options);

}  // namespace lse::cli
