// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ops/operator.h"
#include "scenario/model_config.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace lse {

// One weight or bias tensor of the model (rows x cols; a vector has cols = 1). Names follow the
// Hugging Face / course state-dict convention within a layer (q_proj, k_proj, ...).
struct ParameterTensor {
    std::string_view name;
    Component component = Component::Norm;
    std::int64_t rows = 0;
    std::int64_t cols = 1;
    int copies = 1;           // identical tensors in one layer (e.g. routed experts)
    bool is_bias = false;     // linear-layer bias (norm weights and biases count as norms)
    bool tp_sharded = true;   // split across tensor-parallel ranks (norm weights are replicated)
    bool routed_expert = false;  // split across expert-parallel ranks; only top-k are active

    std::int64_t elements() const { return rows * cols * copies; }
};

struct LayerParameters {
    int layer_count = 0;
    std::vector<ParameterTensor> tensors;
};

// Every parameter tensor of the model, grouped like ForwardOperators: the embedding (first
// pipeline stage), the dense and MoE layers, and the final norm + head (last stage).
struct ModelParameters {
    std::vector<ParameterTensor> embedding;
    LayerParameters dense_layers;
    LayerParameters moe_layers;
    std::vector<ParameterTensor> head;  // empty lm_head when embeddings are tied
};

ModelParameters modelParameters(const ModelConfig &model);

// The number of parameter tensors, each layer's counted once per layer: what a per-tensor loop
// (the reference transformer's optimizer and gradient passes) calls per step.
double parameterTensorCount(const ModelParameters &parameters);

}  // namespace lse
