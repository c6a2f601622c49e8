// SPDX-License-Identifier: GPL-3.0-or-later
#include "cost/parameters.h"

namespace lse {

namespace {

void addTensors(ParameterCounts &counts, const std::vector<ParameterTensor> &tensors, std::int64_t layers)
{
    for (const ParameterTensor &tensor : tensors) {
        const std::int64_t elements = tensor.elements() * layers;
        if (tensor.routed_expert)
            counts.routed_expert_total += elements;
        if (tensor.is_bias) {
            counts.biases += elements;
            continue;
        }
        switch (tensor.component) {
        case Component::Embedding: counts.embedding += elements; break;
        case Component::AttentionProjections: counts.attention += elements; break;
        case Component::Mlp: counts.mlp += elements; break;
        case Component::Router: counts.router += elements; break;
        case Component::Experts: counts.experts += elements; break;
        case Component::SharedExperts: counts.shared_experts += elements; break;
        case Component::Head: counts.head += elements; break;
        default: counts.norms += elements; break;
        }
    }
}

}  // namespace

ParameterCounts countParameters(const ModelParameters &parameters, const ModelConfig &model)
{
    ParameterCounts counts;
    addTensors(counts, parameters.embedding, 1);
    addTensors(counts, parameters.dense_layers.tensors, parameters.dense_layers.layer_count);
    addTensors(counts, parameters.moe_layers.tensors, parameters.moe_layers.layer_count);
    addTensors(counts, parameters.head, 1);
    counts.total = counts.embedding + counts.attention + counts.mlp + counts.router + counts.experts
        + counts.shared_experts + counts.norms + counts.biases + counts.head;
    counts.active = counts.total;
    if (model.moe.enabled() && model.moe.n_experts > 0) {
        // Each token visits top_k of n_experts routed experts (Fedus et al. 2021, "active").
        const std::int64_t inactive =
            counts.routed_expert_total / model.moe.n_experts * (model.moe.n_experts - model.moe.top_k);
        counts.active = counts.total - inactive;
    }
    return counts;
}

ParameterCounts countParameters(const ModelConfig &model)
{
    return countParameters(modelParameters(model), model);
}

}  // namespace lse
