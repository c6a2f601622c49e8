// SPDX-License-Identifier: GPL-3.0-or-later
#include "parallel/model_parallel_communication.h"

#include "cost/estimate.h"
#include "cost/estimate_parts.h"
#include "scenario/stage_layers.h"

#include <algorithm>

namespace lse::parallel {

namespace {

// Adds `shares.size()` kinds of event that together carry one engine part: each occurrence of
// event i carries weight_i / sum(weight_j · count_j) of the part's bytes and seconds.
struct PartSplitter {
    const CommunicationPart &part;
    MeshDim dim;
    bool crosses_nodes;
    std::vector<CommunicationEvent> &events;

    struct Share {
        std::string collective;
        std::string where;
        int count;
        double weight;  // relative size of one occurrence
        bool overlappable;
    };

    void split(const std::vector<Share> &shares) const
    {
        double units = 0;
        for (const Share &share : shares)
            units += share.weight * share.count;
        if (units <= 0 || part.bytes <= 0)
            return;
        for (const Share &share : shares) {
            if (share.count <= 0)
                continue;
            CommunicationEvent event;
            event.dim = dim;
            event.collective = share.collective;
            event.where = share.where;
            event.count_per_step = share.count;
            event.bytes_per_rank = part.bytes * share.weight / units;
            event.seconds = part.seconds * share.weight / units;
            event.crosses_nodes = crosses_nodes;
            event.overlappable = share.overlappable;
            events.push_back(std::move(event));
        }
    }
};

}  // namespace

std::vector<CommunicationEvent> communicationEvents(const Scenario &scenario, const DeviceMesh &mesh)
{
    std::vector<CommunicationEvent> events;
    const Result<Estimate> result = estimate(scenario);
    if (!result)
        return events;
    const CommunicationEstimate &comm = result->communication;
    const TrainingConfig &training = scenario.training;
    const ParallelConfig &parallel = training.parallel;
    const int m = int(detail::stepShape(scenario).micro_batches);
    // The most loaded stage's layers, as the engine's TP/CP/EP parts count them (communication.cpp).
    const int layers = mostLoadedStageLayers(scenario.model.n_layers, parallel);
    const int moe_layers = int(std::int64_t(layers) * scenario.model.moe.moeLayerCount(scenario.model.n_layers)
                               / std::max(1, scenario.model.n_layers));
    const int per_layer = layers * m;
    const bool full_recompute = training.recomputation == Recomputation::Full;

    // Tensor parallel, Korthikanti et al. 2022 §4.2.2 (Fig. 5): f/f̄ conjugates around each
    // column-parallel -> row-parallel pair. Without SP: an all-reduce after each row-parallel
    // matmul in forward, one before each column-parallel matmul's input gradient in backward.
    // With SP each all-reduce becomes an all-gather (g) and a reduce-scatter (ḡ) of half the
    // volume each, forward and backward swapped.
    if (parallel.tp > 1) {
        // The layers' events divide the part; the collectives outside them carry the engine's own
        // bytes (tp_outside_layers) and their share of its time.
        const TensorParallelOutsideLayers &outside = comm.tp_outside_layers;
        const double seconds_per_byte = outside.total() > 0 ? outside.seconds / outside.total() : 0.0;
        const PartSplitter tp{comm.tp, MeshDim::TP, mesh.groupCrossesNodes(MeshDim::TP), events};
        std::vector<PartSplitter::Share> shares;
        const int recompute = full_recompute ? per_layer : 0;
        if (!parallel.sequence_parallel) {
            shares = {
                {"all-reduce", "attention forward: after out-proj (row-parallel)", per_layer, 1, false},
                {"all-reduce", "MLP forward: after down-proj (row-parallel)", per_layer, 1, false},
                {"all-reduce", "recomputed attention forward: after out-proj", recompute, 1, false},
                {"all-reduce", "recomputed MLP forward: after down-proj", recompute, 1, false},
                {"all-reduce", "MLP backward: input gradient of up-proj (column-parallel)", per_layer, 1, false},
                {"all-reduce", "attention backward: input gradient of QKV (column-parallel)", per_layer, 1, false},
            };
        } else {
            shares = {
                {"all-gather", "attention forward: before QKV (sequence -> tensor parallel)", per_layer, 1, false},
                {"reduce-scatter", "attention forward: after out-proj (tensor -> sequence parallel)", per_layer, 1, false},
                {"all-gather", "MLP forward: before up-proj (sequence -> tensor parallel)", per_layer, 1, false},
                {"reduce-scatter", "MLP forward: after down-proj (tensor -> sequence parallel)", per_layer, 1, false},
                {"all-gather", "recomputed attention forward: before QKV", recompute, 1, false},
                {"reduce-scatter", "recomputed attention forward: after out-proj", recompute, 1, false},
                {"all-gather", "recomputed MLP forward: before up-proj", recompute, 1, false},
                {"reduce-scatter", "recomputed MLP forward: after down-proj", recompute, 1, false},
                {"all-gather", "MLP backward: gradient of down-proj output", per_layer, 1, false},
                {"reduce-scatter", "MLP backward: input gradient of up-proj", per_layer, 1, false},
                {"all-gather", "attention backward: gradient of out-proj output", per_layer, 1, false},
                {"reduce-scatter", "attention backward: input gradient of QKV", per_layer, 1, false},
            };
        }
        tp.split(shares);
        const auto add = [&](const char *collective, const char *where, int count, double bytes) {
            if (count <= 0 || bytes <= 0)
                return;
            CommunicationEvent event;
            event.dim = MeshDim::TP;
            event.collective = collective;
            event.where = where;
            event.count_per_step = count;
            event.bytes_per_rank = bytes;
            event.seconds = bytes * seconds_per_byte;
            event.crosses_nodes = mesh.groupCrossesNodes(MeshDim::TP);
            events.push_back(std::move(event));
        };
        const int micro = outside.micro_batches;
        // The loss's three reductions, with or without SP (the logits are whole rows either way).
        const auto addCrossEntropy = [&] {
            add("all-reduce", "loss forward: row maximum of the logits (vocabulary-parallel cross-entropy)", micro,
                outside.cross_entropy_bytes);
            add("all-reduce", "loss forward: logit of the target (vocabulary-parallel cross-entropy)", micro,
                outside.cross_entropy_bytes);
            add("all-reduce", "loss forward: sum of exponentials (vocabulary-parallel cross-entropy)", micro,
                outside.cross_entropy_bytes);
        };
        if (!parallel.sequence_parallel) {
            add("all-reduce", "embedding forward: partial rows of the vocabulary-parallel lookup", micro,
                outside.embedding_bytes_per_micro_batch);
            addCrossEntropy();
            add("all-reduce", "LM head backward: input gradient (column-parallel over the vocabulary)", micro,
                outside.lm_head_bytes_per_micro_batch);
        } else {
            add("reduce-scatter", "embedding forward: partial rows to the sequence shards", micro,
                outside.embedding_bytes_per_micro_batch / 2);
            add("all-gather", "LM head forward: input rows from the sequence shards", micro,
                outside.lm_head_bytes_per_micro_batch / 2);
            addCrossEntropy();
            add("reduce-scatter", "LM head backward: input gradient to the sequence shards", micro,
                outside.lm_head_bytes_per_micro_batch / 2);
            add("all-gather", "embedding backward: output gradient from the sequence shards", micro,
                outside.embedding_bytes_per_micro_batch / 2);
            add("all-reduce", "after backward: gradients of the weights every tp rank holds whole (norms)", 1,
                outside.replicated_gradient_bytes);
        }
    }

    // Context parallel: ring attention (Liu et al. 2023) passes each rank's K/V block cp-1 steps
    // around the ring in forward; backward passes K/V again and their gradients.
    if (parallel.cp > 1) {
        const PartSplitter cp{comm.cp, MeshDim::CP, mesh.groupCrossesNodes(MeshDim::CP), events};
        cp.split({
            {"ring send/recv", "attention forward: K/V blocks around the cp ring", per_layer, 1, false},
            {"ring send/recv", "attention backward: K/V blocks around the cp ring", per_layer, 1, false},
            {"ring send/recv", "attention backward: dK/dV blocks around the cp ring", per_layer, 1, false},
        });
    }

    // Expert parallel: GShard (Lepikhin et al. 2020 §2.2) dispatches tokens to their experts' ranks
    // and combines the outputs back, each an all-to-all; backward mirrors both.
    if (parallel.ep > 1 && moe_layers > 0) {
        const int per_moe_layer = moe_layers * m;
        const PartSplitter ep{comm.ep, MeshDim::EP, mesh.groupCrossesNodes(MeshDim::EP), events};
        ep.split({
            {"all-to-all", "MoE forward: dispatch tokens to experts", per_moe_layer, 1, false},
            {"all-to-all", "MoE forward: combine expert outputs", per_moe_layer, 1, false},
            {"all-to-all", "MoE backward: gradients of the combine", per_moe_layer, 1, false},
            {"all-to-all", "MoE backward: gradients of the dispatch", per_moe_layer, 1, false},
        });
    }

    // Pipeline: one send of the boundary activations per micro-batch and model chunk forward, one
    // of their gradients backward (Narayanan et al. 2021 §2.2), each tp rank sending its 1/tp slice
    // (§4.1 scatter/gather; the receivers all-gather it over NVLink).
    if (parallel.pp > 1) {
        const int sends = m * parallel.virtual_stages;
        const PartSplitter pp{comm.pp, MeshDim::PP, mesh.groupCrossesNodes(MeshDim::PP), events};
        pp.split({
            {"send/recv", "forward: this rank's 1/tp slice of the activations to the next stage", sends, 1, false},
            {"send/recv", "backward: this rank's 1/tp slice of the activation gradients to the previous stage", sends, 1, false},
        });
    }

    // Data parallel (ZeRO, Rajbhandari et al. 2020 §7): an all-reduce of the gradients (2Ψ), or a
    // reduce-scatter of the gradients and an all-gather of the updated parameters (Ψ each); ZeRO-3
    // gathers the parameters before every forward and backward of every micro-batch.
    if (parallel.dp * parallel.cp > 1) {
        // Megatron reduces gradients over the dp×cp ranks together.
        const bool crosses = mesh.groupCrossesNodes(MeshDim::DP) || mesh.groupCrossesNodes(MeshDim::CP);
        const PartSplitter dp{comm.dp, MeshDim::DP, crosses, events};
        const double grad = bytesPerElement(training.precision.gradient_dtype);
        const double weight = bytesPerElement(training.precision.weight_dtype);
        if (parallel.zero_stage == 0)
            dp.split({{"all-reduce", "backward: gradient buckets (overlaps with backward)", 1, 1, true}});
        else if (parallel.zero_stage < 3)
            dp.split({
                {"reduce-scatter", "backward: gradient buckets to their shard owners", 1, grad, true},
                {"all-gather", "after the optimizer step: updated parameter shards", 1, weight, true},
            });
        else
            dp.split({
                {"all-gather", "forward: parameters of each layer (ZeRO-3 prefetch)", m, weight, true},
                {"all-gather", "backward: parameters of each layer again", m, weight, true},
                {"reduce-scatter", "backward: gradient shards", 1, grad, true},
            });
    }
    return events;
}

}  // namespace lse::parallel
