// SPDX-License-Identifier: GPL-3.0-or-later
#include "cost/stage_parameters.h"

#include <algorithm>

namespace lse::detail {

namespace {

// Adafactor keeps a row and a column statistic per matrix and a full vector for vectors
// (Shazeer & Stern 2018, factored second moment, beta1 = 0).
double adafactorStateBytes(const ParameterTensor &tensor)
{
    const double per_copy = tensor.cols > 1 ? double(tensor.rows + tensor.cols) : double(tensor.rows);
    return 4.0 * per_copy * tensor.copies;
}

void addShard(StageParameterElements &shard, const std::vector<ParameterTensor> &tensors, double layers, int tp, int ep)
{
    for (const ParameterTensor &tensor : tensors) {
        const double divisor = (tensor.tp_sharded ? tp : 1) * (tensor.routed_expert ? ep : 1);
        const double elements = double(tensor.elements()) * layers / divisor;
        const double adafactor = adafactorStateBytes(tensor) * layers / divisor;
        if (tensor.routed_expert) {
            shard.experts += elements;
            shard.adafactor_expert_bytes += adafactor;
        } else {
            shard.dense += elements;
            shard.adafactor_dense_bytes += adafactor;
        }
    }
}

}  // namespace

StageParameterElements stageParameterElements(const ModelParameters &parameters, const ModelConfig &model,
                                              const ParallelConfig &parallel, const PipelineLayers &placement,
                                              int stage)
{
    const int tp = std::max(1, parallel.tp), ep = std::max(1, parallel.ep);
    const int last = int(placement.stage_layers.size()) - 1;
    const double layer_total = double(std::max(1, model.n_layers));
    const double layers = double(placement.stage_layers.at(std::size_t(stage)));
    StageParameterElements shard;
    addShard(shard, parameters.dense_layers.tensors, layers * parameters.dense_layers.layer_count / layer_total, tp, ep);
    addShard(shard, parameters.moe_layers.tensors, layers * parameters.moe_layers.layer_count / layer_total, tp, ep);
    if (stage == 0)
        addShard(shard, parameters.embedding, 1, tp, ep);
    if (stage == last) {
        addShard(shard, parameters.head, 1, tp, ep);
        if (last != 0 && model.tied_embeddings && !parameters.embedding.empty())
            addShard(shard, {parameters.embedding.front()}, 1, tp, ep);
    }
    return shard;
}

int stageWithMostParameters(const ModelParameters &parameters, const ModelConfig &model, const ParallelConfig &parallel,
                            const PipelineLayers &placement)
{
    int best = 0;
    double most = -1;
    // A middle stage with no more layers than an earlier one holds no more parameters.
    const int last = int(placement.stage_layers.size()) - 1;
    int middle_layers_seen = -1;
    for (int stage = 0; stage <= last; ++stage) {
        if (stage != 0 && stage != last) {
            if (placement.stage_layers.at(std::size_t(stage)) <= middle_layers_seen)
                continue;
            middle_layers_seen = placement.stage_layers.at(std::size_t(stage));
        }
        const double total = stageParameterElements(parameters, model, parallel, placement, stage).total();
        if (total > most) {
            most = total;
            best = stage;
        }
    }
    return best;
}

}  // namespace lse::detail
