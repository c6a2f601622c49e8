// SPDX-License-Identifier: GPL-3.0-or-later
// Pipeline-parallel training of the reference transformer over a Communicator (issue 33): rank s
// is pipeline stage s and holds the layers the engine's stage split gives it (scenario/
// stage_layers.h: evenLayerSplit, uneven when pp does not divide n_layers, or a given list); the
// first stage also the embeddings, the last the final norm, LM head and loss. The global batch of
// config.batch_size windows (drawn on every rank as the single-process Trainer draws it) is cut
// into m micro-batches of batch/m rows that flow through the stages in the GPipe or 1F1B order
// (pipeline_parallel_schedule.h): a forward receives the previous stage's activations and sends
// its output to the next stage; a backward receives the gradient of that output and sends the
// gradient of its input back. Each stage sums its parameters' gradients over the micro-batches
// and divides by m, which is the gradient of the mean loss over the whole batch, so p stages
// reproduce one process's step up to float rounding (tested to relative 1e-5).
//
// Simplifications, said plainly: every rank builds the whole model (from the same seed) but
// computes, holds gradients of and updates only its stage's range of the arena; the model keeps
// the activations of one micro-batch, so a backward first recomputes its micro-batch's forward
// from the saved stage input (GPipe's re-materialisation, Huang et al. 2019 §2.2). The measured
// backward therefore includes a forward. Tied embeddings (shared by the first and last stage)
// are refused.
#pragma once

#include "common/problem.h"
#include "distributed/communicator.h"
#include "distributed/pipeline_parallel_schedule.h"
#include "parallel/pipeline_schedule.h"
#include "reference/trainer.h"

#include <memory>
#include <string>
#include <vector>

namespace lse::distributed {

struct PipelineParallelOptions {
    parallel::PipelineScheduleKind schedule = parallel::PipelineScheduleKind::OneFOneB;
    int micro_batches = 1;
    std::vector<int> stage_layers;  // per stage; empty: the engine's evenLayerSplit(n_layers, ranks)
};

// One kind of point-to-point traffic of a step on this rank (or the step's small all-reduce).
struct PipelineCommunicationEntry {
    std::string collective;   // "send", "recv", "all_reduce", "all_gather", "barrier"
    std::string purpose;      // "pp_send", "pp_recv", "loss_and_norm", "schedule", "step_start"
    std::string what;         // "activations", "activation gradients" (pp entries)
    int peer = -1;            // the other stage (pp entries)
    int count = 0;            // transfers of this kind in the step
    double bytes_per_rank = 0;            // sent (send) or received (recv) by this rank, all of them
    double predicted_bytes_per_rank = 0;  // the engine's bytes of this direction (pp entries; 0 otherwise)
    double seconds = 0;                   // summed, start to completion
};

// One rank's memory by category, in bytes. Measured: what this stage owns and updates (its range
// of the arena: parameters, their gradients, AdamW's two moments) and the stage inputs it keeps for
// its micro-batches' backward passes (every stage but the first); the arena itself holds the whole
// model on every rank (see above). Predicted: the engine's figures for this stage's GPU
// (MemoryEstimate::per_stage), its activations those of the engine's 1F1B without recomputation.
struct PipelineStageMemory {
    double params = 0;
    double grads = 0;
    double optimizer_states = 0;
    double activations = 0;  // measured: the saved stage inputs; predicted: the engine's activations
};

struct PipelineStepReport {
    int step = 0;
    double loss = 0;  // mean over the global batch (the last stage's, all-reduced)
    double learning_rate = 0;
    double grad_norm = 0;  // global over every stage, before clipping
    double seconds = 0;    // this rank's wall time of the step
    int stage = 0;
    int first_layer = 0, end_layer = 0;  // this stage's layers [first, end)
    std::vector<PipelineCommunicationEntry> communication;
    // Bytes this rank sent in pp sends, and the engine's PP volume per rank (an interior stage's:
    // m activation sends forward and m gradient sends backward, Narayanan et al. 2021 §2.2); the
    // first and last stage send one direction only, half of it.
    double measured_bytes_per_rank = 0;
    double predicted_bytes_per_rank = 0;
    std::vector<PipelinePass> schedule;  // every rank's passes (gathered), rank by rank
    PipelineBubble bubble;
    // dp x pp: the stage's gradient all-reduce over the data-parallel group ("dp_gradients", in
    // `communication` with the loss's "dp_loss") and the engine's DP volume of this stage's GPUs
    // (communication.dp_bytes_per_stage: the stage's own parameters, the first with the embedding,
    // the last with the final norm and head). 0 without dp.
    double dp_measured_bytes_per_rank = 0;
    double dp_predicted_bytes_per_rank = 0;
    PipelineStageMemory memory;
    PipelineStageMemory predicted_memory;
};

class PipelineParallelTrainer {
public:
    // Problems name the field: pp (ranks > n_layers: "model.n_layers"), "micro_batches" (< 1, or
    // training.batch_size not divisible by it), "schedule", "stage_layers" (the engine's rules:
    // one entry per stage, each >= 1, summing to n_layers), "model.tied_embeddings", and
    // everything validateTrainConfig reports. `communicator` must outlive the trainer.
    // data_parallel (dp x pp, issue 33): this rank's data-parallel group (the same stage of every
    // pipeline replica, DeviceMesh's DP group). Each replica runs its batch_size/dp rows as m
    // micro-batches; the stage's gradients and the loss are averaged over that group before
    // clipping (training.batch_size must be a multiple of dp·m).
    static Result<std::unique_ptr<PipelineParallelTrainer>> create(const reference::TrainConfig &config,
                                                                   const PipelineParallelOptions &options,
                                                                   Communicator &communicator,
                                                                   Communicator *data_parallel = nullptr);

    // One optimizer step; every rank calls it. Divergence fails with reference::kDivergedRule on
    // every rank alike (the loss and norm are the all-reduced ones).
    Result<PipelineStepReport> step();

    reference::Model &model();
    int currentStep() const;
    const std::vector<int> &stageLayers() const;
    // This stage's part of the parameter arena: the only parameters it updates.
    ShardRange parameterRange() const;

    ~PipelineParallelTrainer();

private:
    PipelineParallelTrainer();
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace lse::distributed
