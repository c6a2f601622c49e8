// SPDX-License-Identifier: GPL-3.0-or-later
#include "cost/estimate_parts.h"

namespace lse::detail {

namespace {

struct ForwardSums {
    std::array<double, kComponentCount> matmul_by_component{};
    double matmul = 0;
    double elementwise = 0;
    double elementwise_backward = 0;
    double attention_core_matmul = 0;  // what selective recomputation runs again
    double attention_core_elementwise = 0;
};

void addOps(ForwardSums &sums, const std::vector<Operator> &ops, double multiplicity)
{
    for (const Operator &op : ops) {
        const double flops = op.flops * multiplicity;
        if (op.isMatMul()) {
            sums.matmul_by_component[std::size_t(op.component)] += flops;
            sums.matmul += flops;
            if (op.component == Component::AttentionScores)
                sums.attention_core_matmul += flops;
        } else {
            sums.elementwise += flops;
            sums.elementwise_backward += op.backward_flops * multiplicity;
            // Selective recomputation re-runs softmax and attention dropout (Korthikanti §5).
            if (op.attention_core || (op.kind == OpKind::Softmax && op.component == Component::AttentionScores))
                sums.attention_core_elementwise += flops;
        }
    }
}

}  // namespace

FlopsEstimate estimateFlops(const Scenario &scenario, const ForwardOperators &forward, const ParameterCounts &params)
{
    const TrainingConfig &training = scenario.training;
    ForwardSums layers;
    addOps(layers, forward.dense_layers.ops, forward.dense_layers.layer_count);
    addOps(layers, forward.moe_layers.ops, forward.moe_layers.layer_count);
    ForwardSums all = layers;
    addOps(all, forward.embedding, 1);
    addOps(all, forward.head, 1);

    const double tokens = double(forward.tokens);
    FlopsEstimate flops;
    for (std::size_t i = 0; i < flops.forward_per_token_by_component.size(); ++i)
        flops.forward_per_token_by_component[i] = all.matmul_by_component[i] / tokens;
    flops.forward_per_token = all.matmul / tokens;
    flops.elementwise_forward_per_token = all.elementwise / tokens;
    flops.elementwise_backward_per_token = all.elementwise_backward / tokens;
    // Backward computes gradients for inputs and for weights: two matmuls per forward matmul.
    flops.backward_per_token = 2.0 * flops.forward_per_token;
    flops.train_per_token = flops.forward_per_token + flops.backward_per_token;
    double recompute_elementwise = 0;
    switch (training.recomputation) {
    case Recomputation::None:
        break;
    case Recomputation::Selective:
        // Only the attention core runs its forward again, so its s/(6h) term grows by 4/3, as a
        // whole layer does under full recomputation (72 -> 96, Narayanan et al. 2021 Eq. 3).
        // cost-model-notes.md F7 writes s/(3h) for Korthikanti App. A; see docs/cost-model.md.
        flops.recompute_per_token = layers.attention_core_matmul / tokens;
        recompute_elementwise = layers.attention_core_elementwise / tokens;
        break;
    case Recomputation::Full:
        // One more forward pass of every layer (Narayanan et al. 2021, Eq. 3: 72 -> 96).
        flops.recompute_per_token = layers.matmul / tokens;
        recompute_elementwise = layers.elementwise / tokens;
        break;
    }
    flops.all_ops_train_per_token = flops.train_per_token + flops.elementwise_forward_per_token
        + flops.elementwise_backward_per_token;
    flops.all_ops_hardware_train_per_token = flops.all_ops_train_per_token + flops.recompute_per_token
        + recompute_elementwise;
    flops.hardware_train_per_token = flops.train_per_token + flops.recompute_per_token;
    const double total_tokens = double(training.tokens);
    flops.total_train = flops.train_per_token * total_tokens;
    flops.total_hardware = flops.hardware_train_per_token * total_tokens;
    // C = 6ND with N the parameters a token uses (Kaplan et al. 2020; EleutherAI Transformer Math 101).
    flops.six_nd = 6.0 * double(params.active) * total_tokens;
    flops.time_basis = training.flops_model == FlopsModel::SixND ? flops.six_nd : flops.total_train;
    return flops;
}

}  // namespace lse::detail
