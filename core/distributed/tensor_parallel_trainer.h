// SPDX-License-Identifier: GPL-3.0-or-later
// Tensor-parallel training of the reference transformer over a Communicator (issue 33): every rank
// draws the same global batch as the single-process Trainer and runs all of it through its
// TensorParallelModel (tensor_parallel_model.h): the ranks split the weights, not the data. AdamW
// updates each rank's own shards (and its copy of the replicated weights, identically on every
// rank); the global gradient norm for clipping adds the sharded tensors' squared norms over the
// ranks (one one-float all-reduce, purpose "grad_norm") to the replicated ones' counted once.
//
// Each step reports every collective with its purpose ("tp_forward", "tp_backward", "tp_embedding",
// "tp_lm_head", "tp_cross_entropy", "sp_norm_gradients", "grad_norm"), the bytes this rank sent,
// and beside each TP collective the cost engine's bytes for the same event
// (parallel::communicationEvents of the same model, batch and tp): their per-step sums are equal
// whenever tp divides the buffers (tokens, tokens × d_model, the norms' elements) and the
// vocabulary (the ring then sends exactly 2(tp−1)/tp of each buffer, and every rank holds V/tp rows).
#pragma once

#include "common/problem.h"
#include "distributed/communicator.h"
#include "distributed/tensor_parallel_model.h"
#include "reference/trainer.h"
#include "scenario/scenario.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lse::distributed {

struct TensorParallelCommunication {
    std::string collective;  // "all_reduce"; with sequence parallelism "all_gather", "reduce_scatter"
    std::string purpose;     // "tp_forward", "tp_backward", "tp_embedding", ..., "grad_norm" (tensor_parallel_model.h)
    std::string where;       // the engine's event it corresponds to (empty for grad_norm)
    double bytes_per_rank = 0;
    double predicted_bytes_per_rank = 0;  // the engine's bytes for this occurrence (0: not an engine event)
    double seconds = 0;
};

// Bytes one rank holds, measured, and the engine's per-GPU figures for the same tp.
struct TensorParallelMemory {
    double params = 0;
    double grads = 0;
    double optimizer_states = 0;
    double activations = 0;  // saved for backward (this rank's buffers; 0 in the engine row: see below)
};

struct TensorParallelStepReport {
    int step = 0;
    double loss = 0;
    double learning_rate = 0;
    double grad_norm = 0;
    double seconds = 0;
    std::vector<TensorParallelCommunication> communication;
    double measured_bytes_per_rank = 0;   // every TP collective but grad_norm (what the engine's TP volume counts)
    double predicted_bytes_per_rank = 0;  // the engine's TP volume per step (layers and outside them)
    // dp x tp: the gradient all-reduce over the data-parallel group (purpose "dp_gradients") and
    // the engine's DP volume of what one GPU holds (communication.dp_bytes_per_stage: the layers'
    // and the vocabulary's tensors split over tp, norms and positions whole, as here). Both 0
    // without dp.
    double dp_measured_bytes_per_rank = 0;
    double dp_predicted_bytes_per_rank = 0;
    TensorParallelMemory memory;
    TensorParallelMemory predicted_memory;  // engine: params, grads, optimizer per GPU, activations
    std::optional<double> validation_loss;
};

class TensorParallelTrainer {
public:
    // Problems name the field: distributed.tp (tp must divide n_heads, n_kv_heads, d_ff), model.*
    // for configurations the split does not implement, and everything validateTrainConfig reports.
    // sequence_parallel: Korthikanti et al.'s sequence parallelism (tensor_parallel_model.h); the
    // engine's prediction is then the sequence-parallel one (all-gathers and reduce-scatters).
    // data_parallel (dp x tp, issue 33): this rank's data-parallel group (the ranks holding the
    // same shards in the other replicas, DeviceMesh's DP group). Each replica then trains on its
    // batch_size/dp rows of the global batch, and the shards' gradients and the loss are averaged
    // over that group before clipping (training.batch_size must be divisible by dp).
    static Result<std::unique_ptr<TensorParallelTrainer>> create(const reference::TrainConfig &config,
                                                                 Communicator &communicator,
                                                                 bool sequence_parallel = false,
                                                                 Communicator *data_parallel = nullptr);
    Result<TensorParallelStepReport> step();
    // Mean loss over Trainer::validationLoss's windows; every rank runs it (the forward's
    // all-reduces are not counted in any step).
    Result<double> validationLoss();
    TensorParallelModel &model();
    int currentStep() const;
    ~TensorParallelTrainer();

private:
    TensorParallelTrainer();
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// The engine's scenario of a tensor-parallel run: the one-device scenario with tp = ranks on one
// node, the whole global batch as one micro-batch.
// dp > 1: dp x tp ranks on one node, each replica one micro-batch of batch_size/dp sequences.
Scenario tensorParallelScenario(const reference::TrainConfig &config, int tp, bool sequence_parallel = false,
                                int dp = 1);

}  // namespace lse::distributed
