// SPDX-License-Identifier: GPL-3.0-or-later
// The parameters one GPU of a pipeline stage holds before ZeRO sharding: one home for what the
// memory estimate, the data-parallel traffic and the inference weights each used to count on their
// own. Stage 0 holds the embedding, the last stage the final norm and the head (and, with tied
// embeddings over several stages, its own copy of the embedding matrix, which Megatron-LM keeps on
// the last stage); every stage holds its layers, with its share of the MoE layers as if they were
// spread evenly over the depth (exact whenever pp divides the layers). Tensors marked tp_sharded
// are split over the tp ranks (norm gains and learned positions are replicated, Megatron's
// vocabulary-parallel embedding is split), routed experts over the ep ranks.
#pragma once

#include "ops/parameter_tensors.h"
#include "scenario/scenario.h"
#include "scenario/stage_layers.h"

namespace lse::detail {

struct StageParameterElements {
    double dense = 0;    // elements outside routed experts
    double experts = 0;  // routed-expert elements
    // Adafactor's factored statistics of the same tensors (Shazeer & Stern 2018), in bytes.
    double adafactor_dense_bytes = 0;
    double adafactor_expert_bytes = 0;

    double total() const { return dense + experts; }
};

StageParameterElements stageParameterElements(const ModelParameters &parameters, const ModelConfig &model,
                                              const ParallelConfig &parallel, const PipelineLayers &placement,
                                              int stage);

// The stage whose GPUs hold the most parameters (the first on a tie).
int stageWithMostParameters(const ModelParameters &parameters, const ModelConfig &model, const ParallelConfig &parallel,
                            const PipelineLayers &placement);

}  // namespace lse::detail
