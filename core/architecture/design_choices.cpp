// SPDX-License-Identifier: GPL-3.0-or-later
#include "architecture/design_choices.h"

#include "cost/estimate_parts.h"
#include "ops/operator_list.h"
#include "roofline/roofline.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lse {

std::string_view toString(DesignAxis axis)
{
    switch (axis) {
    case DesignAxis::NormType: return "norm_type";
    case DesignAxis::NormPlacement: return "norm_placement";
    case DesignAxis::Activation: return "activation";
    case DesignAxis::Block: return "block";
    case DesignAxis::PositionalEncoding: return "positional_encoding";
    case DesignAxis::Attention: return "attention";
    case DesignAxis::FfnRatio: return "ffn_ratio";
    case DesignAxis::Embeddings: return "embeddings";
    }
    return "unknown";
}

namespace {

double change(double variant, double scenario)
{
    if (scenario == 0)
        return variant == 0 ? 0 : std::numeric_limits<double>::quiet_NaN();
    return (variant - scenario) / std::abs(scenario);
}

// Σ field over the whole forward pass: embedding and head once, each layer kind times its count.
double wholeModelSum(const ForwardOperators &forward, double Operator::*field)
{
    return sumOver(forward.embedding, field) + sumOver(forward.head, field)
        + double(forward.dense_layers.layer_count) * sumOver(forward.dense_layers.ops, field)
        + double(forward.moe_layers.layer_count) * sumOver(forward.moe_layers.ops, field);
}

// Applies `d_ff_of` to the dense width and to the experts' widths alike, so a MoE model's experts
// change with the activation as its dense layers do.
template <typename F>
void setFeedForwardWidths(ModelConfig &model, F d_ff_of)
{
    model.d_ff = d_ff_of(model.d_ff);
    if (model.moe.enabled()) {
        model.moe.expert_d_ff = d_ff_of(model.moe.expert_d_ff);
        if (model.moe.shared_expert_d_ff > 0)
            model.moe.shared_expert_d_ff = d_ff_of(model.moe.shared_expert_d_ff);
    }
}

ModelConfig withActivation(const ModelConfig &base, Activation activation)
{
    ModelConfig model = base;
    model.activation = activation;
    const bool was_gated = base.isGated();
    if (model.isGated() != was_gated)
        setFeedForwardWidths(model, [was_gated](std::int64_t d_ff) {
            return was_gated ? ungatedEqualParameterDff(d_ff) : gatedEqualParameterDff(d_ff);
        });
    return model;
}

std::vector<ModelConfig> candidates(const ModelConfig &base, DesignAxis axis)
{
    std::vector<ModelConfig> models;
    auto with = [&](auto change_model) {
        ModelConfig model = base;
        change_model(model);
        models.push_back(model);
    };
    switch (axis) {
    case DesignAxis::NormType:
        for (NormType norm : {NormType::LayerNorm, NormType::RMSNorm})
            with([norm](ModelConfig &m) { m.norm = norm; });
        break;
    case DesignAxis::NormPlacement:
        for (NormPlacement placement : {NormPlacement::Pre, NormPlacement::Post, NormPlacement::Double})
            with([placement](ModelConfig &m) { m.norm_placement = placement; });
        break;
    case DesignAxis::Activation:
        for (Activation activation : {Activation::ReLU, Activation::GeLU, Activation::SwiGLU, Activation::GeGLU})
            models.push_back(withActivation(base, activation));
        break;
    case DesignAxis::Block:
        for (bool parallel : {false, true})
            with([parallel](ModelConfig &m) { m.parallel_block = parallel; });
        break;
    case DesignAxis::PositionalEncoding:
        for (PositionalEncoding encoding : {PositionalEncoding::Learned, PositionalEncoding::Sinusoidal,
                                            PositionalEncoding::RoPE, PositionalEncoding::ALiBi,
                                            PositionalEncoding::None})
            with([encoding](ModelConfig &m) { m.positional_encoding = encoding; });
        break;
    case DesignAxis::Attention: {
        const bool is_gqa = base.n_kv_heads > 1 && base.n_kv_heads < base.n_heads;
        const int gqa = is_gqa ? base.n_kv_heads : gqaKvHeads(base.n_heads);
        std::vector<int> kv_heads{base.n_heads};
        if (gqa > 0)
            kv_heads.push_back(gqa);
        if (base.n_heads > 1)
            kv_heads.push_back(1);
        for (int kv : kv_heads)
            with([kv](ModelConfig &m) { m.n_kv_heads = kv; });
        break;
    }
    case DesignAxis::FfnRatio: {
        // 4·d (GPT-2, the original Transformer), its equal-parameter gated width ≈ 8/3·d (Llama),
        // and 2·d for the smaller end; the widths are for the scenario's activation.
        const std::int64_t d = base.d_model;
        for (std::int64_t d_ff : {2 * d, gatedEqualParameterDff(4 * d), 4 * d})
            with([d_ff](ModelConfig &m) { m.d_ff = d_ff; });
        break;
    }
    case DesignAxis::Embeddings:
        for (bool tied : {true, false})
            with([tied](ModelConfig &m) { m.tied_embeddings = tied; });
        break;
    }
    return models;
}

}  // namespace

DesignFigures relativeChange(const DesignFigures &variant, const DesignFigures &scenario)
{
    DesignFigures out;
    out.parameters = change(variant.parameters, scenario.parameters);
    out.forward_flops_per_token = change(variant.forward_flops_per_token, scenario.forward_flops_per_token);
    out.train_flops_per_token = change(variant.train_flops_per_token, scenario.train_flops_per_token);
    out.matmul_train_flops_per_token =
        change(variant.matmul_train_flops_per_token, scenario.matmul_train_flops_per_token);
    out.activation_bytes_per_layer = change(variant.activation_bytes_per_layer, scenario.activation_bytes_per_layer);
    out.forward_bytes_per_token = change(variant.forward_bytes_per_token, scenario.forward_bytes_per_token);
    out.kv_cache_bytes_per_token = change(variant.kv_cache_bytes_per_token, scenario.kv_cache_bytes_per_token);
    return out;
}

Result<DesignFigures> designFigures(const Scenario &scenario)
{
    Result<Estimate> result = estimate(scenario);
    if (!result)
        return result.problems();
    const Estimate &e = result.value();
    const ForwardOperators forward =
        forwardOperators(scenario.model, detail::operatorShapes(scenario, detail::stepShape(scenario), true));
    const double tokens = double(forward.tokens);
    DesignFigures figures;
    figures.parameters = double(e.params.total);
    figures.forward_flops_per_token = wholeModelSum(forward, &Operator::flops) / tokens;
    figures.train_flops_per_token = e.flops.all_ops_train_per_token;
    figures.matmul_train_flops_per_token = e.flops.train_per_token;
    figures.activation_bytes_per_layer = e.memory.activation_bytes_per_layer;
    figures.forward_bytes_per_token =
        (wholeModelSum(forward, &Operator::bytes_read) + wholeModelSum(forward, &Operator::bytes_written)) / tokens;
    figures.kv_cache_bytes_per_token = double(e.inference.kv_cache_bytes_per_token);
    return figures;
}

Result<DesignComparison> compareDesignChoice(const Scenario &scenario, DesignAxis axis)
{
    Result<DesignFigures> base = designFigures(scenario);
    if (!base)
        return base.problems();
    DesignComparison comparison;
    comparison.axis = axis;
    comparison.scenario = base.value();
    std::vector<ModelConfig> models = candidates(scenario.model, axis);
    // The scenario's own choice is always a row, first if no candidate equals it (e.g. SiLU).
    if (std::none_of(models.begin(), models.end(), [&](const ModelConfig &m) { return m == scenario.model; }))
        models.insert(models.begin(), scenario.model);
    for (const ModelConfig &model : models) {
        if (std::any_of(comparison.variants.begin(), comparison.variants.end(),
                        [&](const DesignVariant &v) { return v.model == model; }))
            continue;  // e.g. two FFN ratios that round to the same width
        DesignVariant variant;
        variant.model = model;
        variant.is_scenario = model == scenario.model;
        Scenario changed = scenario;
        changed.model = model;
        Result<DesignFigures> figures = designFigures(changed);
        if (figures) {
            variant.figures = figures.value();
            variant.change = relativeChange(variant.figures, comparison.scenario);
        } else {
            variant.problems = figures.problems();
        }
        comparison.variants.push_back(std::move(variant));
    }
    return comparison;
}

std::int64_t gatedEqualParameterDff(std::int64_t ungated_d_ff)
{
    if (ungated_d_ff <= 0)
        return 0;
    // Llama (Touvron et al. 2023, model.py FeedForward): hidden = 2·hidden/3, then
    // multiple_of·⌈hidden/multiple_of⌉ with multiple_of = 256. Rounding up keeps 3·gated ≥ 2·f.
    const double budget = 2.0 * double(ungated_d_ff);  // ungated weights per d_model row
    for (std::int64_t multiple = 256; multiple > 1; multiple /= 2) {
        const std::int64_t rounded = (2 * ungated_d_ff + 3 * multiple - 1) / (3 * multiple) * multiple;
        if (3.0 * double(rounded) < 1.01 * budget)
            return rounded;
    }
    return (2 * ungated_d_ff + 2) / 3;  // ⌈2f/3⌉
}

std::int64_t ungatedEqualParameterDff(std::int64_t gated_d_ff)
{
    const std::int64_t three_halves = (3 * gated_d_ff + 1) / 2;
    return three_halves + three_halves % 2;
}

int gqaKvHeads(int heads)
{
    if (heads % 8 == 0 && heads / 8 >= 2)
        return heads / 8;
    for (int kv = heads / 2; kv >= 2; --kv)
        if (heads % kv == 0)
            return kv;
    return 0;
}

ParallelBlockSavings parallelBlockSavings(const ModelConfig &model)
{
    OperatorShapes shapes;
    shapes.seq_len = 1;
    ModelConfig serial = model;
    serial.parallel_block = false;
    ModelConfig parallel = model;
    parallel.parallel_block = true;
    serial.moe = parallel.moe = MoeConfig{};  // a dense layer shows the block's structure
    const std::vector<Operator> serial_ops = forwardOperators(serial, shapes).dense_layers.ops;
    const std::vector<Operator> parallel_ops = forwardOperators(parallel, shapes).dense_layers.ops;
    auto contains = [](const std::vector<Operator> &ops, std::string_view name) {
        return std::any_of(ops.begin(), ops.end(), [name](const Operator &op) { return op.name == name; });
    };
    ParallelBlockSavings savings;
    for (const Operator &op : serial_ops)
        if (!contains(parallel_ops, op.name))
            savings.removed_ops.push_back(op.name);
    for (const Operator &op : parallel_ops)
        if (!contains(serial_ops, op.name))
            savings.added_ops.push_back(op.name);
    auto count = [](const std::vector<Operator> &ops, auto predicate) {
        return int(std::count_if(ops.begin(), ops.end(), predicate));
    };
    auto is_norm = [](const Operator &op) { return op.kind == OpKind::Norm; };
    savings.norms_per_layer_serial = count(serial_ops, is_norm);
    savings.norms_per_layer_parallel = count(parallel_ops, is_norm);
    savings.sequential_norms_serial = savings.norms_per_layer_serial;
    // The operator list marks the MLP norm of a parallel block by not saving its input (it is the
    // block input, saved by the attention norm): that norm runs beside the attention norm.
    savings.sequential_norms_parallel = count(parallel_ops, [](const Operator &op) {
        return op.kind == OpKind::Norm && op.saved_bytes > 0;
    });
    savings.sequential_matmuls_serial = count(serial_ops, [](const Operator &op) { return op.isMatMul(); });
    // In parallel the MLP branch runs beside attention and its up-projection joins QKV in one
    // matmul, so the critical path is the attention branch's matmuls alone.
    savings.sequential_matmuls_parallel = count(parallel_ops, [](const Operator &op) {
        return op.isMatMul() && op.component != Component::Mlp;
    });
    savings.fused_input_projection_width =
        double(model.qDim() + 2 * model.kvDim()) + double(model.isGated() ? 2 * model.d_ff : model.d_ff);
    return savings;
}

std::vector<DecodeCurve> attentionDecodeCurves(const Scenario &scenario, std::int64_t batch,
                                               const std::vector<std::int64_t> &contexts)
{
    // The roofline models one accelerator without tensor or pipeline split, so the variants are
    // served on one GPU: a layout rule of the training run (kv heads divisible by tp) does not apply.
    Scenario serving = scenario;
    serving.cluster.gpus = 1;
    serving.cluster.gpus_per_node = 1;
    serving.training.parallel = ParallelConfig{};
    serving.training.global_batch = serving.training.micro_batch;
    std::vector<DecodeCurve> curves;
    for (const ModelConfig &model : candidates(scenario.model, DesignAxis::Attention)) {
        DecodeCurve curve;
        curve.model = model;
        Scenario changed = serving;
        changed.model = model;
        const RooflineMachine machine = rooflineMachine(changed);
        for (std::int64_t context : contexts) {
            RooflineOptions options = rooflineOptionsFor(changed, StepPhase::Decode);
            options.batch = batch;
            options.context_tokens = context;
            Result<RooflineReport> report = rooflineReport(changed, options, machine);
            if (!report) {
                curve.problems = report.problems();
                curve.points.clear();
                break;
            }
            DecodePoint point;
            point.context_tokens = report->context_tokens;
            point.kv_cache_bytes = report->kv_cache_bytes;
            point.seconds_per_token = report->step_seconds;
            point.tokens_per_second = report->step_seconds > 0 ? double(report->batch) / report->step_seconds : 0;
            curve.points.push_back(point);
        }
        Result<Estimate> e = estimate(changed);
        if (e)
            curve.kv_cache_bytes_per_token = double(e->inference.kv_cache_bytes_per_token);
        else if (curve.problems.empty())
            curve.problems = e.problems();
        curves.push_back(std::move(curve));
    }
    return curves;
}

}  // namespace lse
