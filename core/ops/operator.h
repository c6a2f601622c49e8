// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace lse {

// Where an operator's cost is reported. Matches the breakdown a reader of the course expects:
// projections vs the s^2 attention core vs the feed-forward network vs the vocabulary head.
enum class Component {
    Embedding,
    AttentionProjections,  // Q, K, V and output projections
    AttentionScores,       // QK^T, softmax, dropout, attention x V
    Mlp,                   // dense feed-forward
    Router,                // MoE gate
    Experts,               // routed experts
    SharedExperts,         // experts every token visits
    Norm,
    Residual,
    Head,  // final projection to the vocabulary
    Loss,
};
inline constexpr int kComponentCount = int(Component::Loss) + 1;
std::string_view toString(Component component);

enum class OpKind { MatMul, Elementwise, Softmax, Norm, Gather, CrossEntropy };

// How tensor parallelism (Megatron column/row splits, Korthikanti et al. 2022 §4.2) treats an
// operator's work and its saved activations.
enum class TpSplit {
    Sharded,      // divided by tp (inside the column/row-parallel region)
    SequenceOnly  // replicated across tp ranks unless sequence parallelism splits the sequence
};

// Which dimension of a matrix product tensor parallelism divides (Megatron-LM, Shoeybi et al. 2019
// §3): a column-parallel layer (QKV, MLP up, vocabulary head) splits the output columns n, a
// row-parallel one (attention output, MLP down) the reduction k, the attention core the heads
// (batch). The work is the same 1/tp either way; the shape each GPU runs is not, and a kernel's
// efficiency depends on it (core/performance).
enum class TpDimension { Replicated, Columns, Reduction, Batch };

// One operator of the forward pass of one layer (or of the embedding/head) for one micro-batch.
// This is the single place that declares FLOPs and bytes; the cost engine, the roofline and the
// reference transformer all read it. FLOPs count a multiply-add as 2 (matmul = 2*m*n*k).
struct Operator {
    std::string_view name;
    Component component = Component::Norm;
    OpKind kind = OpKind::Elementwise;
    // MatMul: batch independent products of (m x k) . (k x n). Other kinds: m elements, n=k=1.
    std::int64_t batch = 1;
    std::int64_t m = 0;
    std::int64_t n = 0;
    std::int64_t k = 0;
    double flops = 0;
    // FLOPs of this operator's backward pass (flop_rules: matmuls 2x, element-wise 2x, a gradient
    // that only passes through or is masked 1x, the embedding's scatter-add 1 per element).
    double backward_flops = 0;
    double bytes_read = 0;
    double bytes_written = 0;
    // Activation bytes this operator keeps for the backward pass without recomputation.
    double saved_bytes = 0;
    // Part of saved_bytes that is s x s sized (scores, softmax, dropout): FlashAttention never
    // materialises it and selective recomputation drops it.
    bool attention_core = false;
    TpSplit tp_split = TpSplit::Sharded;
    // MatMul only: the dimension tp divides (element-wise operators follow tp_split).
    TpDimension tp_dimension = TpDimension::Columns;
    // Its gradient is the output gradient, copied or masked (residual adds, biases, position adds,
    // dropout): backward costs one FLOP per forward FLOP instead of two.
    bool gradient_passes_through = false;
    // Nothing to compute backward: the gradient flows on unchanged and there is no parameter
    // gradient (adding fixed sinusoidal positions).
    bool gradient_is_identity = false;
    bool isMatMul() const { return kind == OpKind::MatMul; }
};

// The forward operators of one kind of layer and how many layers of that kind the model has.
struct LayerOperators {
    int layer_count = 0;
    std::vector<Operator> ops;
};

// Shapes and options the operator list depends on.
struct OperatorShapes {
    std::int64_t seq_len = 0;      // tokens per sequence held by one GPU (after context parallel)
    std::int64_t micro_batch = 1;  // sequences
    int activation_bytes = 2;      // bytes per saved activation element (bf16)
    int weight_bytes = 2;          // bytes per weight element read by the matmuls
    bool flash_attention = true;
    bool dropout = false;
    bool causal_attention_flops = false;  // count half of the s x s products
};

// The forward pass of one micro-batch, split into what runs once (embedding; final norm, head and
// loss) and the repeated layers (dense and MoE layers counted separately).
struct ForwardOperators {
    std::vector<Operator> embedding;
    LayerOperators dense_layers;
    LayerOperators moe_layers;
    std::vector<Operator> head;
    std::int64_t tokens = 0;  // micro_batch * seq_len
};

}  // namespace lse
