// SPDX-License-Identifier: GPL-3.0-or-later
// Bytes each operator moves through main memory (HBM on a GPU, DRAM on a CPU), per pass.
//
// Forward: a matmul reads both operands and writes its product once (no reuse across kernels);
// an element-wise operator reads its inputs and writes its output once. Backward (the rules of
// reverse-mode differentiation, as in Korthikanti et al. 2022 §4.1's list of what is saved):
//  - weight matmul Y = X·W: dX = dY·Wᵀ and dW = Xᵀ·dY read dY twice, W and X once, write dX (activation
//    dtype) and dW (gradient dtype);
//  - activation matmul C = A·B (attention): dA = dC·Bᵀ, dB = Aᵀ·dC read dC twice, A and B once,
//    write dA and dB;
//  - element-wise: read the output gradient and the saved inputs (not for a gradient that passes
//    through: residual, bias, dropout), write one gradient per input; dropout also reads its mask.
#include "roofline/step_operators.h"

#include "ops/byte_rules.h"
#include "ops/flop_rules.h"
#include "ops/operator_list.h"

#include <algorithm>
#include <cmath>

namespace lse::roofline_detail {

const std::vector<StepOp> &StepOperators::group(OpGroup which) const
{
    switch (which) {
    case OpGroup::Embedding: return embedding;
    case OpGroup::DenseLayer: return dense_layer;
    case OpGroup::MoeLayer: return moe_layer;
    case OpGroup::Head: return head;
    }
    return embedding;
}

int StepOperators::groupCount(OpGroup which) const
{
    switch (which) {
    case OpGroup::DenseLayer: return dense_layer_count;
    case OpGroup::MoeLayer: return moe_layer_count;
    case OpGroup::Embedding:
    case OpGroup::Head: return 1;
    }
    return 1;
}

namespace {

bool isDropout(const Operator &op) { return std::string_view(op.name).find("dropout") != std::string_view::npos; }

bool isAttentionCoreName(std::string_view name)
{
    return name == "attention_scores" || name == "softmax" || name == "attention_dropout" || name == "attention_values"
        || name == "flash_attention" || name == "flash_softmax" || name == "flash_attention_values";
}

std::string matmulShape(const Operator &op, double experts_touched)
{
    std::string shape;
    if (op.batch > 1)
        shape = std::to_string(op.batch) + "×";
    shape += "[" + std::to_string(op.m) + "×" + std::to_string(op.k) + "]·[" + std::to_string(op.k) + "×"
        + std::to_string(op.n) + "]";
    if (experts_touched > 1) {
        char text[48];
        std::snprintf(text, sizeof text, " over %.1f experts", experts_touched);
        shape += text;
    }
    return shape;
}

// Under uniform routing each of T tokens picks top_k of E experts, so an expert is untouched with
// probability (1 - k/E)^T: a batch reads E·(1 - (1 - k/E)^T) experts' weights (balls into bins).
double expertsTouched(const MoeConfig &moe, double tokens)
{
    if (moe.n_experts <= 0)
        return 1;
    const double e = double(moe.n_experts);
    const double p = std::min(1.0, double(moe.top_k) / e);
    return e * (1.0 - std::pow(1.0 - p, tokens));
}

// Forward and backward bytes of a matmul (ops/byte_rules.h); `experts` scales the weight operand
// (routed experts).
void setMatmulBytes(StepOp &step, const StepShapes &shapes, double experts)
{
    const Operator &op = step.op;
    const double b = double(op.batch), m = double(op.m), n = double(op.n), k = double(op.k);
    const double act = shapes.activation_bytes;
    const byte_rules::Bytes forward =
        byte_rules::matmulForward(b, m, n, k, act, double(shapes.weight_bytes), step.weight_matmul, experts);
    const byte_rules::Bytes backward = byte_rules::matmulBackward(b, m, n, k, act, double(shapes.weight_bytes),
                                                                  double(shapes.gradient_bytes), step.weight_matmul,
                                                                  experts);
    step.op.bytes_read = forward.read;
    step.op.bytes_written = forward.written;
    step.backward_bytes_read = backward.read;
    step.backward_bytes_written = backward.written;
}

void setElementwiseBackwardBytes(StepOp &step)
{
    const Operator &op = step.op;
    const byte_rules::Bytes backward =
        byte_rules::elementwiseBackward({op.bytes_read, op.bytes_written}, op.gradient_passes_through);
    step.backward_bytes_read = backward.read;
    step.backward_bytes_written = backward.written;
    if (isDropout(op))
        step.backward_bytes_read += double(op.m);  // the 1-byte mask
}

// FlashAttention as one kernel (Dao et al. 2022; FlashAttention-2, Dao 2023 §3.1): the s×s scores
// and probabilities stay in SRAM. Per query head (h = b·a of them), with s tokens, d = head_dim and
// T_r = ceil(s/B_r) query tiles, T_c = ceil(s/B_c) key tiles (half of the tile pairs when the
// FLOPs are counted causally, as the kernel then skips tiles above the diagonal):
//   forward  reads Q once and K, V once per query tile, writes O and the fp32 log-sum-exp L:
//            read h·s·d·act·(1 + 2·T_r), written h·(s·d·act + 4·s);
//   backward reads O, dO for D = rowsum(dO∘O), K and V once, and Q, dO, the fp32 L and D and the
//            fp32 dQ accumulator once per key tile; writes D, dK, dV, dQ per key tile (fp32) and
//            dQ once converted. This is Θ(s²d²/M) as Theorem 2 of Dao et al. 2022 states.
// FlashAttention-2 runs the query tiles of one head in parallel thread blocks (Dao 2023 §3.2), so
// the repeated loads of that head's K/V tiles (forward) and Q/dO/statistics tiles (backward) are
// served by L2 while they fit; counting half the L2 for them leaves room for the streams in
// flight. Then HBM sees each tensor once: Θ(s·d) (an H100 holds the K and V of one d = 128 head in
// bf16 up to s ≈ 50k tokens). Past that the re-reads go to HBM and the Θ(s²d²/M) form applies.
StepOp flashAttention(const std::vector<Operator> &core, const ModelConfig &model, const StepShapes &shapes)
{
    StepOp step;
    step.op = core.front();
    step.op.name = "flash_attention";
    step.name = "flash_attention";
    step.op.kind = OpKind::MatMul;
    step.op.flops = 0;
    step.op.backward_flops = 0;
    for (const Operator &op : core) {
        step.op.flops += op.flops;
        step.op.backward_flops += op.backward_flops;
        if (op.isMatMul()) {
            step.matmul_flops += op.flops;
            step.backward_matmul_flops += op.backward_flops;
        }
    }
    const double heads = double(shapes.batch) * double(model.n_heads);
    const double s = double(shapes.seq_len), d = double(model.head_dim), act = shapes.activation_bytes;
    const auto passes = [&](std::int64_t tile) {
        const double tiles = std::ceil(s / double(std::max<std::int64_t>(1, tile)));
        return shapes.causal_attention_flops ? (tiles + 1) / 2 : tiles;
    };
    const double sd = s * d;
    const double reuse_budget = double(shapes.l2_bytes) / 2;
    const bool kv_in_l2 = 2 * sd * act <= reuse_budget;                         // K, V of one head
    const bool backward_in_l2 = sd * (2 * act + 4) + 2 * 4 * s <= reuse_budget;  // Q, dO, fp32 dQ, L, D
    const double query_tiles = kv_in_l2 ? 1.0 : passes(shapes.flash_tile_rows);
    const double key_tiles = backward_in_l2 ? 1.0 : passes(shapes.flash_tile_columns);
    step.op.bytes_read = heads * (sd * act + 2 * sd * act * query_tiles);
    step.op.bytes_written = heads * (sd * act + 4 * s);
    step.backward_bytes_read =
        heads * (2 * sd * act + 2 * sd * act + key_tiles * (2 * sd * act + 2 * 4 * s + 4 * sd) + 4 * sd);
    step.backward_bytes_written = heads * (4 * s + 2 * sd * act + key_tiles * 4 * sd + sd * act);
    step.shape = std::to_string(std::int64_t(heads)) + "×[" + std::to_string(shapes.seq_len) + "×"
        + std::to_string(model.head_dim) + "] tiles " + std::to_string(shapes.flash_tile_rows) + "×"
        + std::to_string(shapes.flash_tile_columns);
    step.attention_core = true;
    return step;
}

// Decode attention for one new token per sequence against `context` cached keys (Kwon et al.
// 2023, vLLM §3): the K and V cache of every KV head, 2·b·g·d·context elements at the KV-cache
// dtype, is read once per layer (kernels that serve all query heads of a group from one read).
// FLOPs follow flop_rules: QKᵀ and P·V are 2·b·a·context·d each, softmax 5 per score.
std::vector<StepOp> decodeAttention(const ModelConfig &model, const StepShapes &shapes)
{
    const double b = double(shapes.batch), a = double(model.n_heads), g = double(model.n_kv_heads);
    const double d = double(model.head_dim), keys = double(shapes.context), act = shapes.activation_bytes;
    const double kv = double(shapes.kv_cache_bytes);
    // K (or V) cache of one layer, read once per KV head, or once per query head by a kernel that
    // runs one thread block per query head (RooflineOptions::kv_cache_read_per_query_head).
    const double cache_half = kv * b * (shapes.kv_cache_read_per_query_head ? a : g) * d * keys;
    const double scores = b * a * keys;
    const auto op = [&](const char *name, OpKind kind, double flops) {
        StepOp step;
        step.op.name = name;
        step.name = name;
        step.op.component = Component::AttentionScores;
        step.op.kind = kind;
        step.op.flops = flops;
        step.op.backward_flops = 0;
        step.attention_core = true;
        if (kind == OpKind::MatMul)
            step.matmul_flops = flops;
        return step;
    };
    const double product = flop_rules::matmul(b * a, 1, keys, d);
    const std::string heads = std::to_string(std::int64_t(b * a)) + "×";
    std::vector<StepOp> ops;
    if (shapes.flash_attention) {
        StepOp flash = op("flash_attention", OpKind::MatMul, 2 * product + flop_rules::kSoftmax * scores);
        flash.matmul_flops = 2 * product;
        flash.op.bytes_read = act * b * a * d + 2 * cache_half;
        flash.op.bytes_written = act * b * a * d;
        flash.shape = heads + "[1×" + std::to_string(model.head_dim) + "]·KV[" + std::to_string(shapes.context) + "]";
        ops.push_back(flash);
        return ops;
    }
    StepOp qk = op("attention_scores", OpKind::MatMul, product);
    qk.op.bytes_read = act * b * a * d + cache_half;
    qk.op.bytes_written = act * scores;
    qk.shape = heads + "[1×" + std::to_string(model.head_dim) + "]·[" + std::to_string(model.head_dim) + "×"
        + std::to_string(shapes.context) + "]";
    StepOp softmax = op("softmax", OpKind::Softmax, flop_rules::kSoftmax * scores);
    softmax.op.m = std::int64_t(scores);
    softmax.op.bytes_read = act * scores;
    softmax.op.bytes_written = act * scores;
    softmax.shape = std::to_string(std::int64_t(scores)) + " scores";
    softmax.fusable = true;
    StepOp pv = op("attention_values", OpKind::MatMul, product);
    pv.op.bytes_read = act * scores + cache_half;
    pv.op.bytes_written = act * b * a * d;
    pv.shape = heads + "[1×" + std::to_string(shapes.context) + "]·[" + std::to_string(shapes.context) + "×"
        + std::to_string(model.head_dim) + "]";
    ops.push_back(qk);
    ops.push_back(softmax);
    ops.push_back(pv);
    return ops;
}

StepOp fromOperator(const Operator &op, const ModelConfig &model, const StepShapes &shapes, double tokens)
{
    StepOp step;
    step.op = op;
    step.name = std::string(op.name);
    if (op.isMatMul()) {
        step.weight_matmul = op.component != Component::AttentionScores;
        step.matmul_flops = op.flops;
        step.backward_matmul_flops = op.backward_flops;
        const double experts = op.component == Component::Experts ? expertsTouched(model.moe, tokens) : 1;
        setMatmulBytes(step, shapes, experts);
        step.shape = matmulShape(op, experts);
        step.attention_core = op.component == Component::AttentionScores;
        return step;
    }
    const double act = shapes.activation_bytes;
    if (op.kind == OpKind::Softmax && op.component == Component::AttentionScores) {
        // The whole s×s matrix is read and written, masked entries included (FLOPs count only the
        // unmasked ones, flop_rules::causalScoreCount).
        const double elements = double(shapes.batch) * model.n_heads * double(shapes.seq_len) * double(shapes.seq_len);
        step.op.bytes_read = act * elements;
        step.op.bytes_written = act * elements;
        step.attention_core = true;
        step.keeps_output = shapes.phase == StepPhase::Train;  // P is saved for the backward pass
    }
    if (op.attention_core)
        step.attention_core = true;
    if (isDropout(op))
        step.op.bytes_written += double(op.m);  // the 1-byte mask (Korthikanti §4.1)
    // The residual stream is read again by the next residual add unless a post-norm replaces it.
    step.keeps_output = step.keeps_output
        || (op.component == Component::Residual && model.norm_placement != NormPlacement::Post);
    step.saves_input = shapes.phase == StepPhase::Train && op.saved_bytes > 0 && !isDropout(op)
        && op.kind != OpKind::Softmax;
    step.fusable = op.kind != OpKind::CrossEntropy;
    setElementwiseBackwardBytes(step);
    step.shape = std::to_string(op.m) + " elements";
    return step;
}

std::vector<StepOp> convert(const std::vector<Operator> &ops, const ModelConfig &model, const StepShapes &shapes,
                            double tokens, bool layer)
{
    std::vector<StepOp> result;
    std::vector<Operator> core;
    std::size_t core_position = 0;
    for (const Operator &op : ops) {
        if (layer && isAttentionCoreName(op.name) && (shapes.phase == StepPhase::Decode || shapes.flash_attention)) {
            if (core.empty())
                core_position = result.size();
            core.push_back(op);
            continue;
        }
        if (op.kind == OpKind::CrossEntropy && shapes.phase != StepPhase::Train)
            continue;  // inference computes no loss
        result.push_back(fromOperator(op, model, shapes, tokens));
    }
    if (!core.empty()) {
        std::vector<StepOp> replacement;
        if (shapes.phase == StepPhase::Decode)
            replacement = decodeAttention(model, shapes);
        else
            replacement.push_back(flashAttention(core, model, shapes));
        result.insert(result.begin() + std::ptrdiff_t(core_position), replacement.begin(), replacement.end());
    }
    return result;
}

}  // namespace

StepShapes stepShapes(const Scenario &scenario, const RooflineOptions &options, std::int64_t sram_bytes_per_sm,
                      std::int64_t l2_bytes)
{
    const TrainingConfig &training = scenario.training;
    StepShapes shapes;
    shapes.phase = options.phase;
    shapes.batch = options.batch > 0 ? options.batch : training.micro_batch;
    shapes.seq_len = options.phase == StepPhase::Decode ? 1 : training.seq_len;
    shapes.context = options.phase == StepPhase::Decode
        ? (options.context_tokens > 0 ? options.context_tokens : training.seq_len)
        : 0;
    shapes.activation_bytes = options.activation_bytes_per_element > 0 ? options.activation_bytes_per_element
                                                                       : bytesPerElement(training.precision.activation_dtype);
    shapes.weight_bytes = options.weight_bytes_per_element > 0 ? options.weight_bytes_per_element
                                                               : double(bytesPerElement(training.precision.weight_dtype));
    shapes.gradient_bytes = bytesPerElement(training.precision.gradient_dtype);
    shapes.kv_cache_bytes = options.kv_cache_bytes_per_element > 0 ? options.kv_cache_bytes_per_element
                                                                   : bytesPerElement(training.kv_cache_dtype);
    shapes.flash_attention = options.flash_attention;
    shapes.kv_cache_read_per_query_head = options.kv_cache_read_per_query_head;
    shapes.l2_bytes = l2_bytes;
    shapes.causal_attention_flops = training.attention_flops == AttentionFlops::Causal;
    if (shapes.flash_attention) {
        shapes.flash_tile_rows = flashTileRows(sram_bytes_per_sm, shapes.activation_bytes, scenario.model.head_dim);
        shapes.flash_tile_columns = flashTileColumns(sram_bytes_per_sm, shapes.activation_bytes, scenario.model.head_dim);
    }
    return shapes;
}

StepOperators stepOperators(const Scenario &scenario, const StepShapes &shapes)
{
    const ModelConfig &model = scenario.model;
    const TrainingConfig &training = scenario.training;
    // The same shapes the cost engine uses (estimate.cpp, operatorShapes), at this batch.
    OperatorShapes operator_shapes;
    operator_shapes.seq_len = shapes.seq_len;
    operator_shapes.micro_batch = shapes.batch;
    operator_shapes.activation_bytes = shapes.activation_bytes;
    // The operator list reads the norms' weight vectors at this size; a fractional (int4) format
    // rounds up (those vectors stay unquantised in practice and are a few kB per layer).
    operator_shapes.weight_bytes = int(std::ceil(shapes.weight_bytes));
    operator_shapes.flash_attention = shapes.flash_attention;
    operator_shapes.dropout = shapes.phase == StepPhase::Train && training.dropout;  // off at inference
    operator_shapes.causal_attention_flops = shapes.causal_attention_flops;
    const ForwardOperators forward = forwardOperators(model, operator_shapes);

    StepOperators step;
    step.shapes = shapes;
    step.tokens = forward.tokens;
    const double tokens = double(forward.tokens);
    step.embedding = convert(forward.embedding, model, shapes, tokens, false);
    step.dense_layer_count = forward.dense_layers.layer_count;
    step.moe_layer_count = forward.moe_layers.layer_count;
    step.dense_layer = convert(forward.dense_layers.ops, model, shapes, tokens, true);
    step.moe_layer = convert(forward.moe_layers.ops, model, shapes, tokens, true);
    if (shapes.phase == StepPhase::Prefill) {
        // Serving needs the logits of each sequence's last token only (the first generated token).
        OperatorShapes last_token = operator_shapes;
        last_token.seq_len = 1;
        const ForwardOperators last = forwardOperators(model, last_token);
        step.head = convert(last.head, model, shapes, double(last.tokens), false);
    } else {
        step.head = convert(forward.head, model, shapes, tokens, false);
    }
    return step;
}

std::vector<OpInstance> executionOrder(const Scenario &scenario, const StepOperators &step)
{
    std::vector<OpInstance> order;
    const auto append = [&](OpGroup group) {
        for (std::size_t i = 0; i < step.group(group).size(); ++i)
            order.push_back({group, i});
    };
    append(OpGroup::Embedding);
    for (int layer = 0; layer < scenario.model.n_layers; ++layer)
        append(scenario.model.moe.isMoeLayer(layer) && step.moe_layer_count > 0 ? OpGroup::MoeLayer : OpGroup::DenseLayer);
    append(OpGroup::Head);
    return order;
}

}  // namespace lse::roofline_detail
