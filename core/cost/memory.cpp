// SPDX-License-Identifier: GPL-3.0-or-later
#include "cost/estimate_parts.h"
#include "cost/stage_parameters.h"
#include "scenario/stage_layers.h"

#include <algorithm>
#include <cmath>

namespace lse {

double optimizerStateBytesPerParameter(Optimizer optimizer)
{
    switch (optimizer) {
    case Optimizer::SGD:
        return 0;
    case Optimizer::Momentum:
        return 4;  // one fp32 momentum buffer
    case Optimizer::Adam:
    case Optimizer::AdamW:
        return 8;  // fp32 first and second moments (ZeRO §3.1: with the master copy K = 12)
    case Optimizer::Adam8bit:
        // Two 8-bit states plus one fp32 absmax per 2048-element block each (Dettmers et al. 2022).
        return 2.0 + 2.0 * 4.0 / 2048.0;
    case Optimizer::Adafactor:
        return 0;  // factored: depends on the tensor shapes, see cost/stage_parameters.cpp
    }
    return 8;
}

ModelStateBytes modelStateBytes(double parameters, const TrainingConfig &training, int zero_group_size,
                                double optimizer_state_bytes_per_parameter)
{
    const PrecisionConfig &precision = training.precision;
    const int stage = training.parallel.zero_stage;
    const double n = double(std::max(1, zero_group_size));
    ModelStateBytes bytes;
    // ZeRO §5: stage 1 shards optimizer states, stage 2 also gradients, stage 3 also parameters.
    bytes.params = parameters * bytesPerElement(precision.weight_dtype) / (stage >= 3 ? n : 1.0);
    double gradient_bytes = bytesPerElement(precision.gradient_dtype);
    if (precision.fp32_gradient_accumulation)
        gradient_bytes += 4;  // the "20 bytes per parameter" convention (cost-model-notes.md)
    bytes.grads = parameters * gradient_bytes / (stage >= 2 ? n : 1.0);
    const double master = precision.master_weights ? 4.0 : 0.0;
    bytes.optimizer = parameters * (master + optimizer_state_bytes_per_parameter) / (stage >= 1 ? n : 1.0);
    return bytes;
}

double layerActivationBytes(const std::vector<Operator> &layer_ops, const ActivationOptions &options)
{
    const double tp = double(std::max(1, options.tp));
    if (options.recomputation == Recomputation::Full) {
        // Only the layer input is kept (Korthikanti Table 2: 2sbh); the norm is the first op
        // and saves exactly that tensor.
        for (const Operator &op : layer_ops)
            if (op.kind == OpKind::Norm)
                return op.saved_bytes / (options.sequence_parallel ? tp : 1.0);
        return 0;
    }
    double bytes = 0;
    for (const Operator &op : layer_ops) {
        if (options.recomputation == Recomputation::Selective && op.attention_core)
            continue;
        const bool divided = op.tp_split == TpSplit::Sharded || options.sequence_parallel;
        bytes += op.saved_bytes / (divided ? tp : 1.0);
    }
    return bytes;
}

namespace detail {

namespace {

// Anything above this is an input mistake, and it keeps every int64 conversion defined.
constexpr double kMaxBytes = 4.0e18;

double headExtraActivations(const std::vector<Operator> &ops, const ActivationOptions &options)
{
    return layerActivationBytes(ops, {options.tp, options.sequence_parallel, Recomputation::None});
}

}  // namespace

Result<MemoryEstimate> estimateMemory(const Scenario &scenario, const StepShape &shape,
                                      const ForwardOperators &forward, const ModelParameters &parameters)
{
    const TrainingConfig &training = scenario.training;
    const ParallelConfig &parallel = training.parallel;
    const int pp = parallel.pp;
    const PipelineLayers placement = pipelineLayers(scenario.model.n_layers, parallel);
    // A stage's dense and MoE layers: its share of each kind, as if MoE layers were spread evenly
    // over the depth (what the even split assumed before uneven stages; exact whenever pp divides).
    const double layer_total = double(std::max(1, scenario.model.n_layers));
    const auto dense_layers_on = [&](int stage) {
        return double(placement.stage_layers.at(std::size_t(stage))) * parameters.dense_layers.layer_count / layer_total;
    };
    const auto moe_layers_on = [&](int stage) {
        return double(placement.stage_layers.at(std::size_t(stage))) * parameters.moe_layers.layer_count / layer_total;
    };

    const ActivationOptions options{parallel.tp, parallel.sequence_parallel, training.recomputation};
    const double dense_layer = layerActivationBytes(forward.dense_layers.ops, options);
    const double moe_layer = layerActivationBytes(forward.moe_layers.ops, options);

    // 1F1B: stage s holds activations of p - s micro-batches (the first p; Korthikanti §4.2.3).
    // Interleaving with v chunks: Korthikanti's factor 1 + (p-1)/(p*v) for the first stage, used as
    // an upper bound on every stage but the last. GPipe-style flushes with m < p hold m. The last
    // stage holds 1.
    const int last = pp - 1;
    const auto in_flight_on = [&](int stage) {
        if (pp <= 1 || stage == last)
            return 1.0;
        double in_flight = double(std::min<std::int64_t>(shape.micro_batches, pp - stage));
        if (parallel.virtual_stages > 1)
            in_flight *= 1.0 + double(pp - 1) / double(pp * parallel.virtual_stages);
        return in_flight;
    };
    double working_set = 0;
    if (training.recomputation == Recomputation::Full) {
        // Backward re-materialises one layer at a time: its full activations exist briefly.
        const ActivationOptions kept{parallel.tp, parallel.sequence_parallel, Recomputation::None};
        working_set = std::max(layerActivationBytes(forward.dense_layers.ops, kept),
                               layerActivationBytes(forward.moe_layers.ops, kept));
    }
    const double embedding_extra = headExtraActivations(forward.embedding, options);
    const double head_extra = headExtraActivations(forward.head, options);

    // Per stage: parameters (cost/stage_parameters.h) and activations; stage 0 also holds the
    // embedding's activations, the last stage the head's.
    const int ep = parallel.ep;
    const int dense_zero_group = parallel.dp * parallel.cp;
    const int expert_zero_group = std::max(1, dense_zero_group / ep);

    // Every stage (the Pipeline run compares each rank with its own stage); the largest in total
    // fills the summary figures. With uneven stages a middle one can be the largest.
    MemoryEstimate best;
    best.per_stage.reserve(std::size_t(pp));
    double best_total = -1;
    for (int stage = 0; stage < pp; ++stage) {
        const StageParameterElements shard = stageParameterElements(parameters, scenario.model, parallel, placement, stage);
        const double in_flight = in_flight_on(stage);
        const double layers_bytes = dense_layer * dense_layers_on(stage) + moe_layer * moe_layers_on(stage);
        double activations = layers_bytes * in_flight + working_set;
        if (stage == 0)
            activations += embedding_extra * in_flight;
        if (stage == last)
            activations += head_extra;
        double dense_states = optimizerStateBytesPerParameter(training.optimizer);
        double expert_states = dense_states;
        if (training.optimizer == Optimizer::Adafactor) {
            dense_states = shard.dense > 0 ? shard.adafactor_dense_bytes / shard.dense : 0;
            expert_states = shard.experts > 0 ? shard.adafactor_expert_bytes / shard.experts : 0;
        }
        const ModelStateBytes dense = modelStateBytes(shard.dense, training, dense_zero_group, dense_states);
        const ModelStateBytes experts = modelStateBytes(shard.experts, training, expert_zero_group, expert_states);
        const double total = dense.total() + experts.total() + activations + double(training.framework_reserve_bytes);
        if (!std::isfinite(total) || total > kMaxBytes)
            return Result<MemoryEstimate>::failure("result.memory_per_gpu", "overflow",
                                                   "memory per GPU is not representable as a 64-bit byte count");
        best.per_stage.push_back(StageMemory{dense.params + experts.params, dense.grads + experts.grads,
                                             dense.optimizer + experts.optimizer, activations,
                                             shard.dense + shard.experts});
        if (total <= best_total)
            continue;
        best_total = total;
        best.pipeline_stage = stage;
        best.params = std::int64_t(dense.params + experts.params);
        best.grads = std::int64_t(dense.grads + experts.grads);
        best.optimizer = std::int64_t(dense.optimizer + experts.optimizer);
        best.activations = std::int64_t(activations);
        best.parameters_on_gpu = std::int64_t(shard.dense + shard.experts);
        best.in_flight_micro_batches = in_flight;
        best.stage_layers = placement.stage_layers.at(std::size_t(stage));
    }
    best.activation_bytes_per_layer = std::max(dense_layer, moe_layer);
    best.layers_per_stage = placement.stage_layers;
    best.most_loaded_stage = placement.most_loaded_stage;
    best.framework_reserve = training.framework_reserve_bytes;
    best.total = best.params + best.grads + best.optimizer + best.activations + best.framework_reserve;
    best.capacity = scenario.cluster.accelerator.memory_bytes;
    best.fits = best.total <= best.capacity;
    return best;
}

}  // namespace detail
}  // namespace lse
