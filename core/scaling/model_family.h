// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// "A model of N parameters in the scenario's family": the scenario's architecture grown or shrunk
// to a target parameter count, so the engine can estimate the compute-optimal model on the same
// cluster. Every choice of the base model is kept (norm, activation, positional encoding, biases,
// tied embeddings, vocabulary, context, head_dim, the KV head count of a GQA/MQA model (MHA stays
// MHA), the FFN ratio, the experts);
// only depth and width change, keeping the width/depth ratio d_model / n_layers.

#include "common/problem.h"
#include "scenario/model_config.h"

namespace lse::scaling {

// The N of the scaling law for a model: the engine's count of the parameters one token uses
// (countParameters().active; the total for a dense model), the N of the engine's 6ND.
double lawParameters(const ModelConfig &model);

// The model of the base's family whose lawParameters() is nearest `target_params` (in ratio) among
// the depths and widths the rounding allows: n_heads a multiple of the base's KV heads (GQA/MQA)
// and of gcd(base n_heads, 8), d_model = n_heads·head_dim·(base d_model / base q dimension), d_ff (and expert d_ff) the
// base's ratio to d_model rounded to a multiple of 64 (8 for small layers). Problems when the base
// model is invalid or the target is not a positive finite number; a target below the smallest
// member (one layer, one head group: the embeddings alone may exceed it) gives that member.
// `layer_multiple` > 1 restricts n_layers to its multiples (a scenario's pp · virtual stages, so
// the scaled model keeps the pipeline layout); the count then lands a little less close.
Result<ModelConfig> modelWithParameters(const ModelConfig &base, double target_params, int layer_multiple = 1);

}  // namespace lse::scaling
