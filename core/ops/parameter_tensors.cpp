// SPDX-License-Identifier: GPL-3.0-or-later
#include "ops/parameter_tensors.h"

namespace lse {

namespace {

ParameterTensor matrix(std::string_view name, Component component, std::int64_t rows, std::int64_t cols)
{
    ParameterTensor tensor;
    tensor.name = name;
    tensor.component = component;
    tensor.rows = rows;
    tensor.cols = cols;
    return tensor;
}

ParameterTensor bias(std::string_view name, Component component, std::int64_t size, bool tp_sharded)
{
    ParameterTensor tensor = matrix(name, component, size, 1);
    tensor.is_bias = true;
    tensor.tp_sharded = tp_sharded;
    return tensor;
}

// LayerNorm has a gain and a bias, RMSNorm only a gain (Zhang & Sennrich 2019).
void appendNorm(std::vector<ParameterTensor> &tensors, std::string_view name, const ModelConfig &model)
{
    if (model.norm == NormType::None)
        return;
    ParameterTensor gain = matrix(name, Component::Norm, model.d_model, 1);
    gain.copies = model.norm == NormType::LayerNorm ? 2 : 1;
    gain.tp_sharded = false;
    tensors.push_back(gain);
}

// Feed-forward weights stored as (d_out, d_in). Gated MLPs have gate_proj and up_proj.
void appendFeedForward(std::vector<ParameterTensor> &tensors, const ModelConfig &model, Component component,
                       std::int64_t d_ff, int copies, bool routed, bool with_bias)
{
    const int matrices = model.isGated() ? 3 : 2;
    ParameterTensor weights = matrix(component == Component::Mlp ? "mlp.weights" : "experts.weights", component,
                                     d_ff, model.d_model);
    weights.copies = matrices * copies;
    weights.routed_expert = routed;
    tensors.push_back(weights);
    if (with_bias) {
        ParameterTensor up = bias("mlp.up_bias", component, d_ff * (matrices - 1), true);
        up.copies = copies;
        up.routed_expert = routed;
        tensors.push_back(up);
        ParameterTensor down = bias("mlp.down_bias", component, model.d_model, false);
        down.copies = copies;
        down.routed_expert = routed;
        tensors.push_back(down);
    }
}

std::vector<ParameterTensor> layerTensors(const ModelConfig &model, bool moe_layer)
{
    std::vector<ParameterTensor> tensors;
    const std::int64_t h = model.d_model;
    appendNorm(tensors, "input_layernorm", model);
    tensors.push_back(matrix("q_proj", Component::AttentionProjections, model.qDim(), h));
    tensors.push_back(matrix("k_proj", Component::AttentionProjections, model.kvDim(), h));
    tensors.push_back(matrix("v_proj", Component::AttentionProjections, model.kvDim(), h));
    tensors.push_back(matrix("o_proj", Component::AttentionProjections, h, model.qDim()));
    if (model.biases.qkv)
        tensors.push_back(bias("qkv_bias", Component::AttentionProjections, model.qDim() + 2 * model.kvDim(), true));
    if (model.biases.attn_output)
        tensors.push_back(bias("o_proj_bias", Component::AttentionProjections, h, false));
    if (model.norm_placement == NormPlacement::Double)
        appendNorm(tensors, "post_attention_layernorm", model);
    appendNorm(tensors, "pre_feedforward_layernorm", model);
    if (moe_layer) {
        const MoeConfig &moe = model.moe;
        ParameterTensor router = matrix("router", Component::Router, moe.n_experts, h);
        router.tp_sharded = false;
        tensors.push_back(router);
        appendFeedForward(tensors, model, Component::Experts, moe.expert_d_ff, moe.n_experts, true,
                          model.biases.mlp);
        if (moe.n_shared_experts > 0) {
            const std::int64_t shared_ff = moe.shared_expert_d_ff > 0 ? moe.shared_expert_d_ff : moe.expert_d_ff;
            appendFeedForward(tensors, model, Component::SharedExperts, shared_ff, moe.n_shared_experts, false,
                              model.biases.mlp);
            if (moe.shared_expert_gate) {
                ParameterTensor gate = matrix("shared_expert_gate", Component::Router, 1, h);
                gate.tp_sharded = false;
                tensors.push_back(gate);
            }
        }
    } else {
        appendFeedForward(tensors, model, Component::Mlp, model.d_ff, 1, false, model.biases.mlp);
    }
    if (model.norm_placement == NormPlacement::Double)
        appendNorm(tensors, "post_feedforward_layernorm", model);
    return tensors;
}

}  // namespace

ModelParameters modelParameters(const ModelConfig &model)
{
    ModelParameters parameters;
    // Vocabulary-parallel embedding (Megatron): rows split across tp ranks.
    parameters.embedding.push_back(matrix("embed_tokens", Component::Embedding, model.vocab_size, model.d_model));
    if (model.positional_encoding == PositionalEncoding::Learned) {
        ParameterTensor positions = matrix("embed_positions", Component::Embedding, model.max_seq_len, model.d_model);
        positions.tp_sharded = false;
        parameters.embedding.push_back(positions);
    }
    const int moe_layers = model.moe.moeLayerCount(model.n_layers);
    parameters.dense_layers.layer_count = model.n_layers - moe_layers;
    parameters.moe_layers.layer_count = moe_layers;
    if (parameters.dense_layers.layer_count > 0)
        parameters.dense_layers.tensors = layerTensors(model, false);
    if (moe_layers > 0)
        parameters.moe_layers.tensors = layerTensors(model, true);
    appendNorm(parameters.head, "final_norm", model);
    if (!model.tied_embeddings)
        parameters.head.push_back(matrix("lm_head", Component::Head, model.vocab_size, model.d_model));
    if (model.biases.lm_head)
        parameters.head.push_back(bias("lm_head_bias", Component::Head, model.vocab_size, true));
    return parameters;
}

double parameterTensorCount(const ModelParameters &parameters)
{
    double tensors = double(parameters.embedding.size() + parameters.head.size());
    for (const LayerParameters *layer : {&parameters.dense_layers, &parameters.moe_layers})
        tensors += double(layer->layer_count) * double(layer->tensors.size());
    return tensors;
}

}  // namespace lse
