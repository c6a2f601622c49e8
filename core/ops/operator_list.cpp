// SPDX-License-Identifier: GPL-3.0-or-later
#include "ops/operator_list.h"

#include "ops/byte_rules.h"
#include "ops/flop_rules.h"

namespace lse {

std::string_view toString(Component component)
{
    switch (component) {
    case Component::Embedding: return "embedding";
    case Component::AttentionProjections: return "attention_projections";
    case Component::AttentionScores: return "attention_scores";
    case Component::Mlp: return "mlp";
    case Component::Router: return "router";
    case Component::Experts: return "experts";
    case Component::SharedExperts: return "shared_experts";
    case Component::Norm: return "norms";
    case Component::Residual: return "residual";
    case Component::Head: return "head";
    case Component::Loss: return "loss";
    }
    return "unknown";
}

double sumOver(const std::vector<Operator> &ops, double Operator::*field)
{
    double total = 0;
    for (const Operator &op : ops)
        total += op.*field;
    return total;
}

namespace {

// Shape legend: b micro-batch, s sequence, h d_model, a heads, g kv heads, d head_dim,
// f d_ff, V vocabulary, E experts, k top-k. T = b*s tokens.
class OperatorBuilder {
public:
    OperatorBuilder(const ModelConfig &model, const OperatorShapes &shapes)
        : model_(model), shapes_(shapes), tokens_(double(shapes.micro_batch * shapes.seq_len)),
          act_(shapes.activation_bytes)
    {
    }

    double tokens() const { return tokens_; }

    // y[batch, m, n] = x[batch, m, k] . w[k, n]; `weight_operand` says whether w is a parameter
    // (read at the weight dtype once) or another activation (read per batch at the activation dtype).
    Operator matmul(std::string_view name, Component component, std::int64_t batch, std::int64_t m,
                    std::int64_t n, std::int64_t k, bool weight_operand, TpSplit split) const
    {
        Operator op;
        op.name = name;
        op.component = component;
        op.kind = OpKind::MatMul;
        op.batch = batch;
        op.m = m;
        op.n = n;
        op.k = k;
        op.flops = flop_rules::matmul(double(batch), double(m), double(n), double(k));
        const byte_rules::Bytes bytes = byte_rules::matmulForward(double(batch), double(m), double(n), double(k), act_,
                                                                  double(shapes_.weight_bytes), weight_operand);
        op.bytes_read = bytes.read;
        op.bytes_written = bytes.written;
        op.tp_split = split;
        return op;
    }

    // An operator that touches `elements` values once, doing `flops_per_element` work on each.
    Operator elementwise(std::string_view name, Component component, OpKind kind, double elements,
                         double flops_per_element, double inputs, TpSplit split) const
    {
        Operator op;
        op.name = name;
        op.component = component;
        op.kind = kind;
        op.m = std::int64_t(elements);
        op.n = op.k = 1;
        op.flops = flops_per_element * elements;
        const byte_rules::Bytes bytes = byte_rules::elementwiseForward(elements, inputs, act_);
        op.bytes_read = bytes.read;
        op.bytes_written = bytes.written;
        op.tp_split = split;
        return op;
    }

    // Norm over T x h: LayerNorm subtracts the mean, RMSNorm does not (Zhang & Sennrich 2019).
    Operator norm(std::string_view name) const
    {
        const double per_element = flop_rules::normPerElement(model_.norm);
        Operator op = elementwise(name, Component::Norm, OpKind::Norm, tokens_ * double(model_.d_model),
                                  per_element, 1, TpSplit::SequenceOnly);
        // It also reads its parameters: a gain, and LayerNorm's bias (Ba et al. 2016; RMSNorm has
        // none, Zhang & Sennrich 2019 §4), at the weight dtype, once per call.
        const double vectors = model_.norm == NormType::LayerNorm ? 2 : 1;
        op.bytes_read += double(shapes_.weight_bytes) * vectors * double(model_.d_model);
        op.saved_bytes = act_ * tokens_ * double(model_.d_model);  // its input (Korthikanti: 2sbh)
        return op;
    }

    // A model without normalisation has no norm operators at all.
    void appendNorm(std::vector<Operator> &ops, std::string_view name) const
    {
        if (model_.norm != NormType::None)
            ops.push_back(norm(name));
    }

    // Dropout keeps a 1-byte mask per element (Korthikanti §4.1).
    Operator dropout(std::string_view name, Component component, double elements, TpSplit split,
                     bool attention_core) const
    {
        Operator op = elementwise(name, component, OpKind::Elementwise, elements, 1, 1, split);
        op.gradient_passes_through = true;
        op.saved_bytes = elements;
        op.attention_core = attention_core;
        return op;
    }

    Operator residual(std::string_view name) const
    {
        Operator op = elementwise(name, Component::Residual, OpKind::Elementwise, tokens_ * double(model_.d_model),
                                  flop_rules::kResidual, 2, TpSplit::SequenceOnly);
        op.gradient_passes_through = true;
        return op;
    }

    // A bias add: its backward sums the output gradient over tokens.
    Operator bias(std::string_view name, Component component, double elements, TpSplit split) const
    {
        Operator op = elementwise(name, component, OpKind::Elementwise, elements, flop_rules::kBias, 1, split);
        op.gradient_passes_through = true;
        return op;
    }

    void appendAttention(std::vector<Operator> &ops) const
    {
        const std::int64_t T = shapes_.micro_batch * shapes_.seq_len;
        const std::int64_t h = model_.d_model, s = shapes_.seq_len;
        const std::int64_t q = model_.qDim(), kv = model_.kvDim();
        const std::int64_t heads_batch = shapes_.micro_batch * model_.n_heads;
        const double Td = double(T);

        appendNorm(ops, "attention_norm");

        Operator qkv = matmul("qkv_projection", Component::AttentionProjections, 1, T, q + 2 * kv, h, true,
                              TpSplit::Sharded);
        // Its input (the norm output, 2sbh) is replicated across tp ranks unless SP splits it.
        qkv.saved_bytes = act_ * Td * double(h);
        qkv.tp_split = TpSplit::SequenceOnly;
        qkv.bytes_written = act_ * Td * double(q + 2 * kv);
        ops.push_back(qkv);
        if (model_.biases.qkv)
            ops.push_back(bias("qkv_bias", Component::AttentionProjections, Td * double(q + 2 * kv), TpSplit::Sharded));
        if (model_.positional_encoding == PositionalEncoding::RoPE)
            // A rotation of each (x[2i], x[2i+1]) pair: 2 multiplies + 1 add per output element.
            ops.push_back(elementwise("rope", Component::AttentionScores, OpKind::Elementwise,
                                      Td * double(q + kv), flop_rules::kRope, 1, TpSplit::Sharded));

        // Scores Q K^T per head: (s x d) . (d x s). Causal counting keeps only the lower triangle.
        const double causal_factor = shapes_.causal_attention_flops ? 0.5 : 1.0;
        Operator scores = matmul("attention_scores", Component::AttentionScores, heads_batch, s, s,
                                 model_.head_dim, false, TpSplit::Sharded);
        scores.tp_dimension = TpDimension::Batch;
        scores.flops *= causal_factor;
        scores.saved_bytes = act_ * Td * double(q + kv);  // Q and K (4sbh for MHA)
        const double score_elements = double(heads_batch) * double(s) * double(s);
        // A decoder's softmax only exponentiates the unmasked scores, the lower triangle; the s x s
        // matrix is still stored whole (its bytes below), and the products above still run whole
        // unless causal counting is asked for.
        const double causal_scores = double(heads_batch) * flop_rules::causalScoreCount(double(s));
        const double v_bytes = act_ * Td * double(kv);
        if (shapes_.flash_attention) {
            // FlashAttention (Dao et al. 2022) fuses scores, softmax, dropout and AV: the s x s
            // matrix never reaches HBM; backward keeps only Q, K, V, O and the fp32 row
            // log-sum-exp (4 bytes per head and token).
            scores.name = "flash_attention";
            scores.bytes_written = 0;
            Operator values = matmul("flash_attention_values", Component::AttentionScores, heads_batch, s,
                                     model_.head_dim, s, false, TpSplit::Sharded);
            values.tp_dimension = TpDimension::Batch;
            values.flops *= causal_factor;
            values.bytes_read = v_bytes;  // Q, K were read above; S and P stay on chip
            values.saved_bytes = v_bytes + 4.0 * Td * double(model_.n_heads);
            // Softmax work happens on chip: ~5 FLOPs per score (max, subtract, exp, sum, scale).
            Operator softmax = elementwise("flash_softmax", Component::AttentionScores, OpKind::Softmax,
                                           causal_scores, flop_rules::kSoftmax, 0, TpSplit::Sharded);
            softmax.bytes_written = 0;
            ops.push_back(scores);
            ops.push_back(softmax);
            ops.push_back(values);
        } else {
            ops.push_back(scores);
            Operator softmax = elementwise("softmax", Component::AttentionScores, OpKind::Softmax,
                                           causal_scores, flop_rules::kSoftmax, 1, TpSplit::Sharded);
            softmax.saved_bytes = act_ * score_elements;  // its output (2as^2b)
            softmax.attention_core = true;
            ops.push_back(softmax);
            if (shapes_.dropout) {
                // Keeps its mask (as^2b) and its output, the probabilities AV reads (2as^2b).
                Operator dropped = dropout("attention_dropout", Component::AttentionScores, score_elements,
                                           TpSplit::Sharded, true);
                dropped.saved_bytes += act_ * score_elements;
                ops.push_back(dropped);
            }
            Operator values = matmul("attention_values", Component::AttentionScores, heads_batch, s,
                                     model_.head_dim, s, false, TpSplit::Sharded);
            values.tp_dimension = TpDimension::Batch;
            values.flops *= causal_factor;
            // Keeps V (2sbh for MHA); the probabilities it reads are saved by softmax or dropout.
            values.saved_bytes = v_bytes;
            ops.push_back(values);
        }

        Operator out = matmul("attention_output", Component::AttentionProjections, 1, T, h, q, true,
                              TpSplit::Sharded);
        out.tp_dimension = TpDimension::Reduction;  // row-parallel
        out.saved_bytes = act_ * Td * double(q);  // its input (2sbh for MHA)
        ops.push_back(out);
        if (model_.biases.attn_output)
            ops.push_back(bias("attention_output_bias", Component::AttentionProjections, Td * double(h),
                              TpSplit::SequenceOnly));
        if (model_.norm_placement == NormPlacement::Double)
            appendNorm(ops, "attention_post_norm");
        if (shapes_.dropout)
            ops.push_back(dropout("attention_residual_dropout", Component::AttentionProjections,
                                  Td * double(h), TpSplit::SequenceOnly, false));
        // A parallel block adds both branches to the stream at once (appendMlpTail).
        if (!model_.parallel_block)
            ops.push_back(residual("attention_residual"));
    }

    // A feed-forward network over `token_count` tokens (top-k copies for experts). Gated MLPs
    // (Shazeer 2020) run two up-projections and keep both outputs for the backward pass.
    void appendFeedForward(std::vector<Operator> &ops, Component component, std::string_view up_name,
                           std::string_view act_name, std::string_view down_name, double token_count,
                           std::int64_t d_ff, bool saves_input) const
    {
        const std::int64_t h = model_.d_model;
        const std::int64_t T = std::int64_t(token_count);
        const std::int64_t up_width = model_.isGated() ? 2 * d_ff : d_ff;
        Operator up = matmul(up_name, component, 1, T, up_width, h, true, TpSplit::Sharded);
        if (saves_input) {
            // The MLP input (2sbh) is replicated across tp ranks unless SP splits it.
            up.saved_bytes = act_ * token_count * double(h);
            up.tp_split = TpSplit::SequenceOnly;
        }
        ops.push_back(up);
        if (model_.biases.mlp && component == Component::Mlp)
            ops.push_back(bias("mlp_up_bias", component, token_count * double(up_width), TpSplit::Sharded));
        const double per_element = flop_rules::activationPerElement(model_.activation);
        Operator activation = elementwise(act_name, component, OpKind::Elementwise,
                                          token_count * double(d_ff), per_element,
                                          model_.isGated() ? 2 : 1, TpSplit::Sharded);
        // Keeps its input(s): 8sbh for a GeLU MLP with d_ff = 4h (Korthikanti), twice that gated.
        activation.saved_bytes = act_ * token_count * double(up_width);
        ops.push_back(activation);
        Operator down = matmul(down_name, component, 1, T, h, d_ff, true, TpSplit::Sharded);
        down.tp_dimension = TpDimension::Reduction;  // row-parallel
        down.saved_bytes = act_ * token_count * double(d_ff);  // its input (8sbh for d_ff = 4h)
        ops.push_back(down);
    }

    // A parallel block (GPT-NeoX, Black et al. 2022 §2.1; PaLM, Chowdhery et al. 2022 §2 "Parallel
    // Layers") computes y = x + Attention(Norm1(x)) + MLP(Norm2(x)). Both norms read the block input,
    // so the MLP's norm no longer waits for attention and keeps no second copy of x for the backward
    // pass. Two norms, as the parameter count (ops/parameter_tensors) and the reference transformer
    // have them; GPT-J and PaLM share one, a difference of one d_model vector per layer.
    void appendMlpNorm(std::vector<Operator> &ops) const
    {
        appendNorm(ops, "mlp_norm");
        if (model_.parallel_block)
            ops.back().saved_bytes = 0;  // x, saved by attention_norm already
    }

    void appendDenseMlp(std::vector<Operator> &ops) const
    {
        appendMlpNorm(ops);
        appendFeedForward(ops, Component::Mlp, "mlp_up", "mlp_activation", "mlp_down", tokens_, model_.d_ff, true);
        appendMlpTail(ops);
    }

    void appendMoe(std::vector<Operator> &ops) const
    {
        const MoeConfig &moe = model_.moe;
        const std::int64_t T = shapes_.micro_batch * shapes_.seq_len;
        appendMlpNorm(ops);
        Operator router = matmul("router", Component::Router, 1, T, moe.n_experts, model_.d_model, true,
                                 TpSplit::SequenceOnly);
        router.saved_bytes = act_ * tokens_ * double(model_.d_model);  // the MoE input
        router.tp_dimension = TpDimension::Replicated;
        ops.push_back(router);
        Operator gate = elementwise("router_softmax_topk", Component::Router, OpKind::Softmax,
                                    tokens_ * double(moe.n_experts), 5, 1, TpSplit::SequenceOnly);
        // Routing probabilities are kept in fp32 for the backward pass of the gate.
        gate.saved_bytes = 4.0 * tokens_ * double(moe.n_experts);
        ops.push_back(gate);
        const double routed_tokens = tokens_ * double(moe.top_k);
        // Each expert keeps its own permuted copy of its tokens as the up-projection input.
        appendFeedForward(ops, Component::Experts, "expert_up", "expert_activation", "expert_down",
                          routed_tokens, moe.expert_d_ff, true);
        ops.back().tp_split = TpSplit::Sharded;
        if (moe.n_shared_experts > 0) {
            const std::int64_t shared_ff = moe.shared_expert_d_ff > 0 ? moe.shared_expert_d_ff : moe.expert_d_ff;
            // The shared experts read the same input as the router (already saved).
            appendFeedForward(ops, Component::SharedExperts, "shared_expert_up", "shared_expert_activation",
                              "shared_expert_down", tokens_, shared_ff * moe.n_shared_experts, false);
        }
        // Combining top-k expert outputs weighted by the gate: one multiply-add per element.
        Operator combine = elementwise("expert_combine", Component::Experts, OpKind::Elementwise,
                                       routed_tokens * double(model_.d_model), 2, 1, TpSplit::SequenceOnly);
        combine.bytes_written = act_ * tokens_ * double(model_.d_model);  // k inputs summed into one output
        ops.push_back(combine);
        appendMlpTail(ops);
    }

    void appendMlpTail(std::vector<Operator> &ops) const
    {
        const double elements = tokens_ * double(model_.d_model);
        if (model_.biases.mlp)
            ops.push_back(bias("mlp_down_bias", Component::Mlp, elements, TpSplit::SequenceOnly));
        if (model_.norm_placement == NormPlacement::Double)
            appendNorm(ops, "mlp_post_norm");
        if (shapes_.dropout)
            ops.push_back(dropout("mlp_residual_dropout", Component::Mlp, elements, TpSplit::SequenceOnly, false));
        if (model_.parallel_block)
            ops.push_back(parallelResidual());
        else
            ops.push_back(residual("mlp_residual"));
    }

    // x + attention + mlp in one pass: reads three h-wide inputs, writes one (2 adds per element),
    // instead of two adds that write and re-read the stream in between.
    Operator parallelResidual() const
    {
        Operator op = elementwise("parallel_residual", Component::Residual, OpKind::Elementwise,
                                  tokens_ * double(model_.d_model), 2 * flop_rules::kResidual, 3,
                                  TpSplit::SequenceOnly);
        op.gradient_passes_through = true;
        return op;
    }

    std::vector<Operator> layer(bool moe) const
    {
        std::vector<Operator> ops;
        appendAttention(ops);
        if (moe)
            appendMoe(ops);
        else
            appendDenseMlp(ops);
        return ops;
    }

    std::vector<Operator> embedding() const
    {
        std::vector<Operator> ops;
        const double elements = tokens_ * double(model_.d_model);
        Operator lookup = elementwise("token_embedding", Component::Embedding, OpKind::Gather, elements, 0, 1,
                                      TpSplit::SequenceOnly);
        ops.push_back(lookup);
        if (model_.positional_encoding == PositionalEncoding::Learned
            || model_.positional_encoding == PositionalEncoding::Sinusoidal) {
            Operator add = elementwise("position_embedding_add", Component::Embedding, OpKind::Elementwise,
                                       elements, flop_rules::kPositionAdd, 2, TpSplit::SequenceOnly);
            add.gradient_passes_through = true;
            // Learned positions sum the gradient into their table; fixed sinusoids take none.
            add.gradient_is_identity = model_.positional_encoding == PositionalEncoding::Sinusoidal;
            ops.push_back(add);
        }
        if (shapes_.dropout)
            ops.push_back(dropout("embedding_dropout", Component::Embedding, elements, TpSplit::SequenceOnly, false));
        return ops;
    }

    std::vector<Operator> head() const
    {
        std::vector<Operator> ops;
        const std::int64_t T = shapes_.micro_batch * shapes_.seq_len;
        appendNorm(ops, "final_norm");
        Operator projection = matmul("lm_head", Component::Head, 1, T, model_.vocab_size, model_.d_model, true,
                                     TpSplit::Sharded);
        projection.saved_bytes = act_ * tokens_ * double(model_.d_model);  // its input (Korthikanti §4.3)
        ops.push_back(projection);
        // Cross-entropy over fp32 logits; Korthikanti §4.3 counts these 4*s*b*V bytes.
        Operator loss = elementwise("cross_entropy", Component::Loss, OpKind::CrossEntropy,
                                    tokens_ * double(model_.vocab_size), flop_rules::kCrossEntropy, 1,
                                    TpSplit::Sharded);
        loss.saved_bytes = 4.0 * tokens_ * double(model_.vocab_size);
        loss.bytes_written = 4.0 * tokens_;
        ops.push_back(loss);
        return ops;
    }

private:
    const ModelConfig &model_;
    const OperatorShapes &shapes_;
    double tokens_;
    double act_;
};

// The one place a backward FLOP count is derived from the forward operator.
void setBackwardFlops(std::vector<Operator> &ops)
{
    for (Operator &op : ops) {
        if (op.gradient_is_identity)
            op.backward_flops = 0;
        else if (op.isMatMul())
            op.backward_flops = flop_rules::kBackwardMatmulFactor * op.flops;
        else if (op.kind == OpKind::Gather)
            op.backward_flops = flop_rules::kEmbeddingBackwardPerElement * double(op.m);
        else if (op.gradient_passes_through)
            op.backward_flops = flop_rules::kBackwardPassThroughFactor * op.flops;
        else
            op.backward_flops = flop_rules::kBackwardElementwiseFactor * op.flops;
    }
}

}  // namespace

ForwardOperators forwardOperators(const ModelConfig &model, const OperatorShapes &shapes)
{
    OperatorBuilder builder(model, shapes);
    ForwardOperators forward;
    forward.tokens = shapes.micro_batch * shapes.seq_len;
    forward.embedding = builder.embedding();
    const int moe_layers = model.moe.moeLayerCount(model.n_layers);
    forward.dense_layers.layer_count = model.n_layers - moe_layers;
    forward.moe_layers.layer_count = moe_layers;
    if (forward.dense_layers.layer_count > 0)
        forward.dense_layers.ops = builder.layer(false);
    if (moe_layers > 0)
        forward.moe_layers.ops = builder.layer(true);
    forward.head = builder.head();
    for (std::vector<Operator> *ops : {&forward.embedding, &forward.dense_layers.ops, &forward.moe_layers.ops, &forward.head})
        setBackwardFlops(*ops);
    return forward;
}

}  // namespace lse
