// SPDX-License-Identifier: GPL-3.0-or-later
// Checkpoints of data-parallel training in exactly the format of the single-process
// Trainer::saveCheckpoint (core/reference/trainer.cpp): every parameter tensor, the AdamW moments
// "optimizer.m.<name>" / "optimizer.v.<name>" of every tensor, and __metadata__ format, config,
// step, optimizer.step and rng. The data-parallel trainer keeps its moments per optimizer span,
// and under ZeRO a span is a piece of a tensor (zero_shards.h), so this file speaks in whole
// arenas: flat arrays in the order of the model's parameter arena, which every rank can assemble
// with one all-gather and cut back into its own shard.
#pragma once

#include "common/problem.h"
#include "reference/model.h"
#include "reference/optimizer.h"
#include "reference/safetensors.h"
#include "reference/trainer.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace lse::distributed {

// What a checkpoint holds besides the tensors.
struct CheckpointHeader {
    reference::TrainConfig config;  // the run's config (the global batch, not a rank's slice)
    int step = 0;
    std::int64_t optimizer_step = 0;
    std::mt19937_64 rng;  // the global batch sampler: the same on every rank and in one process
};

// Whole-arena AdamW moments (model.parameterCount() elements each).
struct ArenaMoments {
    std::vector<float> m, v;
};

// Copies each span's moments (state.m[i], state.v[i]) into whole-arena arrays at the span's arena
// offset; elements of other ranks' shards stay 0 (an all-gather fills them).
void scatterSpanMoments(reference::Model &model, const std::vector<ParamSpan<float>> &spans,
                        const AdamWState<float> &state, ArenaMoments &arena);
// The reverse: each span's slice of the whole-arena moments, as AdamW::importState takes them.
AdamWState<float> spanMomentsOf(reference::Model &model, const std::vector<ParamSpan<float>> &spans,
                                const ArenaMoments &arena, std::int64_t optimizer_step);

// Writes the model's current weights, whole-arena moments and header as Trainer::saveCheckpoint
// does. Problems: field = path, rule "non-finite" (diverged weights or moments) or the writer's.
Result<bool> writeDataParallelCheckpoint(const std::string &path, reference::Model &model,
                                         const ArenaMoments &moments, const CheckpointHeader &header);

// Reads a checkpoint's header (problems name the path, rule "metadata" as Trainer::resume's do).
// `overrides` supplies what may change on resume, as in Trainer::resume: data, validation, steps,
// threads, evaluation.
Result<CheckpointHeader> readCheckpointHeader(const SafetensorsFile &checkpoint, const std::string &path,
                                              const reference::TrainConfig &overrides);

// Copies the checkpoint's tensors into the model's parameters and whole-arena moments (the model
// must have been built from the header's config; checkCheckpointTensors has vetted the file).
Result<bool> loadCheckpointArenas(const SafetensorsFile &checkpoint, const std::string &path, reference::Model &model,
                                  ArenaMoments &moments);

}  // namespace lse::distributed
