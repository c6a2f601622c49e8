// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ops/parameter_tensors.h"
#include "scenario/model_config.h"

#include <array>
#include <cstdint>

namespace lse {

// Exact parameter counts. Buckets are exclusive and sum to `total`; linear-layer biases have their
// own bucket, norm gains and biases count as norms.
struct ParameterCounts {
    std::int64_t embedding = 0;  // token + learned position embeddings
    std::int64_t attention = 0;  // Q, K, V, O weights
    std::int64_t mlp = 0;        // dense feed-forward weights
    std::int64_t router = 0;
    std::int64_t experts = 0;         // routed expert weights (all experts)
    std::int64_t shared_experts = 0;  // shared expert weights
    std::int64_t norms = 0;
    std::int64_t biases = 0;
    std::int64_t head = 0;  // untied lm_head (0 when tied)
    std::int64_t total = 0;
    // Parameters one token uses: routed experts count top_k / n_experts of theirs.
    std::int64_t active = 0;
    std::int64_t routed_expert_total = 0;  // weights + biases of all routed experts
};

ParameterCounts countParameters(const ModelConfig &model);
ParameterCounts countParameters(const ModelParameters &parameters, const ModelConfig &model);

}  // namespace lse
