// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lse {

// None: no normalisation at all (an ablation of the course; training is less stable without it).
enum class NormType { LayerNorm, RMSNorm, None };
// Pre: x + f(norm(x)) (GPT-2, Llama). Post: norm(x + f(x)) (original Transformer, BERT).
// Double: x + norm_out(f(norm_in(x))) ("sandwich", Gemma 2): two norms around each sub-block.
enum class NormPlacement { Pre, Post, Double };
// SwiGLU/GeGLU are gated: three d_model x d_ff matrices instead of two (Shazeer 2020).
// SiLU here is the ungated x·sigmoid(x) feed-forward (the course's SwiGLU ablation).
enum class Activation { ReLU, GeLU, SwiGLU, GeGLU, SiLU };
enum class PositionalEncoding { Learned, Sinusoidal, RoPE, ALiBi, None };

// Mixture of experts. n_experts == 0 means a dense model.
struct MoeConfig {
    int n_experts = 0;         // routed experts per MoE layer
    int top_k = 0;             // routed experts each token visits
    int n_shared_experts = 0;  // experts every token visits (DeepSeek-MoE / Qwen-MoE style)
    std::int64_t expert_d_ff = 0;         // hidden size of one routed expert
    std::int64_t shared_expert_d_ff = 0;  // hidden size of one shared expert (0: expert_d_ff)
    int first_moe_layer = 0;     // layers before this one are dense
    int moe_layer_interval = 1;  // MoE in layer l iff l >= first and (l - first) % interval == 0
    // A d_model -> 1 sigmoid gate scaling the shared experts' output (Qwen-MoE).
    bool shared_expert_gate = false;

    bool enabled() const { return n_experts > 0; }
    bool isMoeLayer(int layer) const
    {
        return enabled() && layer >= first_moe_layer && moe_layer_interval > 0
            && (layer - first_moe_layer) % moe_layer_interval == 0;
    }
    // How many of `n_layers` layers are MoE layers.
    int moeLayerCount(int n_layers) const
    {
        if (!enabled() || moe_layer_interval <= 0)
            return 0;
        const int step = moe_layer_interval;
        // The first MoE layer at or after 0 (first_moe_layer may be negative in unvalidated input).
        const int start = first_moe_layer >= 0 ? first_moe_layer : first_moe_layer + (-first_moe_layer + step - 1) / step * step;
        return start >= n_layers ? 0 : (n_layers - start + step - 1) / step;
    }
    friend bool operator==(const MoeConfig &, const MoeConfig &) = default;
};

// Which linear layers carry a bias vector. LayerNorm's own bias follows the norm type.
struct BiasConfig {
    bool qkv = false;          // Q, K, V projections (GPT-2, GPT-NeoX, Qwen2)
    bool attn_output = false;  // attention output projection
    bool mlp = false;          // feed-forward matrices
    bool lm_head = false;      // output projection to the vocabulary
    friend bool operator==(const BiasConfig &, const BiasConfig &) = default;
};

// The architecture of a decoder-only transformer: everything the cost engine needs to count
// parameters, FLOPs and activation memory. Shapes are in elements, not bytes.
struct ModelConfig {
    std::string name;
    int n_layers = 0;
    std::int64_t d_model = 0;
    int n_heads = 0;
    int n_kv_heads = 0;  // == n_heads: MHA; 1: MQA; otherwise GQA
    int head_dim = 0;    // usually d_model / n_heads, but not always (Gemma 2: 256)
    std::int64_t d_ff = 0;  // hidden size of the dense feed-forward layers
    std::int64_t vocab_size = 0;
    std::int64_t max_seq_len = 0;
    bool tied_embeddings = false;
    BiasConfig biases;
    NormType norm = NormType::RMSNorm;
    NormPlacement norm_placement = NormPlacement::Pre;
    Activation activation = Activation::SwiGLU;
    PositionalEncoding positional_encoding = PositionalEncoding::RoPE;
    bool parallel_block = false;  // attention and MLP read the same input (GPT-J, GPT-NeoX, PaLM)
    MoeConfig moe;

    bool isGated() const { return activation == Activation::SwiGLU || activation == Activation::GeGLU; }
    std::int64_t qDim() const { return std::int64_t(n_heads) * head_dim; }
    std::int64_t kvDim() const { return std::int64_t(n_kv_heads) * head_dim; }
    // Field by field, the name included (sameArchitecture() in model_identity.h ignores it).
    friend bool operator==(const ModelConfig &, const ModelConfig &) = default;
};

// Stable text names used in JSON files and on the command line.
std::string_view toString(NormType value);
std::string_view toString(NormPlacement value);
std::string_view toString(Activation value);
std::string_view toString(PositionalEncoding value);
std::optional<NormType> normTypeFromString(std::string_view text);
std::optional<NormPlacement> normPlacementFromString(std::string_view text);
std::optional<Activation> activationFromString(std::string_view text);
std::optional<PositionalEncoding> positionalEncodingFromString(std::string_view text);

}  // namespace lse
