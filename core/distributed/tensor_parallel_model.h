// SPDX-License-Identifier: GPL-3.0-or-later
// The reference transformer (reference/model.h) split over tp ranks as Megatron-LM splits it
// (Shoeybi et al. 2019 §3, Fig. 3): in each layer the fused Q|K|V projection and the MLP up (and
// SwiGLU gate) projection are column-parallel (rank r holds rows [r·d_out/tp, (r+1)·d_out/tp) of
// each: its heads, its slice of d_ff), attention runs on the rank's own heads, and the attention
// output and MLP down projections are row-parallel (rank r holds the matching columns). Each
// column → row pair is bracketed by the paper's two conjugate operators:
//   f  (before the column-parallel layer): identity forward, all-reduce of the input gradient backward;
//   g  (after the row-parallel layer): all-reduce of the partial outputs forward, identity backward;
// so one layer runs 2 all-reduces of (tokens × d_model) floats forward and 2 backward, the count the
// cost engine's TP volume assumes (Korthikanti et al. 2022 §4.2.2).
//
// Replicated on every rank: token (and learned position) embeddings, every norm, the final norm and
// the LM head. Megatron splits the vocabulary too (a vocab-parallel embedding and cross-entropy),
// which costs an all-reduce after the embedding and two small ones in the loss that the engine's TP
// volume does not count; the reference vocabularies are small enough that keeping them whole costs
// little memory, and it keeps the measured bytes the engine's exactly. Since everything outside the
// f…g regions then sees identical inputs and gradients on every rank, the replicated weights'
// gradients are equal on every rank without any further communication.
//
// Initialisation shards the single-process model's initial weights (same seed), so one tp-rank
// model is that model split: its losses and (gathered) parameters follow the single process's up to
// float rounding (the row-parallel products add their partial sums in a different order).
//
// Sequence parallelism (Korthikanti et al. 2022 §4.2.2, Fig. 5), optional: outside the f…g regions
// each rank keeps only its 1/tp of the tokens (a contiguous block of rows of the (tokens, d_model)
// stream; the norms and residual adds run on those rows alone; the reference has no dropout). Each
// all-reduce becomes half of one: an all-gather of the norm output before the column-parallel layer
// (g) and a reduce-scatter of the row-parallel output back to the rows (ḡ), swapped in backward.
// The bytes are the same as without it. Three transfers the engine's TP volume leaves out, listed
// under their own purposes: the final norm's rows all-gathered before the replicated LM head
// ("sp_lm_head_input"), the embedding's input gradient all-gathered so every rank updates the whole
// table ("sp_embedding_gradient"), and the norm gains' partial gradients (each rank saw only its
// rows) summed in one all-reduce ("sp_norm_gradients", Megatron's allreduce of layer-norm grads).
//
// Supported: pre-norm (RMSNorm, LayerNorm) or no norm, sequential blocks, the naive attention
// kernel, any positional encoding and activation the reference implements; tp must divide n_heads,
// n_kv_heads and d_ff (checked by validateForTensorParallel).
#pragma once

#include "common/problem.h"
#include "distributed/communicator.h"
#include "reference/model.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace lse::distributed {

// How one parameter tensor is split: replicated, by rows (a column-parallel linear's output
// features: dim 0 of PyTorch's (d_out, d_in)), or by columns (a row-parallel linear's input
// features: dim 1).
enum class TensorSplit { Replicated, Rows, Columns };

struct TensorParallelTensor {
    std::string name;                         // the single-process state-dict name
    std::vector<std::int64_t> full_shape;     // the whole tensor's shape
    std::vector<std::int64_t> local_shape;    // this rank's shard
    TensorSplit split = TensorSplit::Replicated;
    float *data = nullptr;
    float *grad = nullptr;
    std::int64_t localSize() const;
    std::int64_t fullSize() const;
};

// Problems naming the field ("distributed.tp", "model.n_heads", ...) for a tp the model cannot be
// split over or a configuration this split does not implement.
// With sequence_parallel also: a model with norms, and tp dividing the context (options.context, or
// max_seq_len), so every batch's tokens split into equal rows.
Problems validateForTensorParallel(const ModelConfig &model, const reference::ReferenceOptions &options, int tp,
                                   bool sequence_parallel = false);

// What one collective of a step was for: "tp_forward" (g after a row-parallel layer), "tp_backward"
// (f before a column-parallel layer), "grad_norm" (the sharded gradients' squared norm, one float).
struct TensorParallelCollective {
    std::string purpose;
    std::string where;  // the engine's wording of the same event (model_parallel_communication.h)
};

class TensorParallelModel {
public:
    // Builds the single-process model of (config, options) to take this rank's shards of its
    // initial weights from, then frees it. options.max_batch and context size the workspace.
    static Result<std::unique_ptr<TensorParallelModel>> create(const ModelConfig &config,
                                                               const reference::ReferenceOptions &options,
                                                               Communicator &communicator,
                                                               bool sequence_parallel = false);

    int tp() const { return tp_; }
    int rank() const { return rank_; }
    const ModelConfig &config() const { return config_; }
    bool sequenceParallel() const { return sequence_parallel_; }

    // Mean cross-entropy and every local gradient (overwritten). Every rank calls it with the same
    // tokens; the collectives pair the ranks up.
    Result<float> forwardBackward(const std::int32_t *tokens, const std::int32_t *targets, int batch, int seq);
    // Mean cross-entropy without gradients (the forward's all-reduces run too).
    Result<float> loss(const std::int32_t *tokens, const std::int32_t *targets, int batch, int seq);

    std::vector<TensorParallelTensor> &tensors() { return tensors_; }
    float *parameterData() { return params_.data(); }
    float *gradientData() { return grads_.data(); }
    std::int64_t localParameterCount() const { return std::int64_t(params_.size()); }

    // Every rank's shards put together, in the single-process arena order (Model::parameterData):
    // an all-gather per tensor (the records are taken and dropped: not a training step's traffic).
    std::vector<float> gatherParameters();

    // The purposes of the collectives started since the last call, in start order (as
    // Communicator::takeRecords lists them); clears the list.
    std::vector<TensorParallelCollective> takePurposes();
    void notePurpose(std::string purpose, std::string where = {});

    // Bytes this rank holds.
    double parameterBytes() const { return double(params_.size() * sizeof(float)); }
    double activationBytes() const;

    TensorParallelModel(const TensorParallelModel &) = delete;
    TensorParallelModel &operator=(const TensorParallelModel &) = delete;
    ~TensorParallelModel();

private:
    TensorParallelModel() = default;
    struct Impl;
    std::unique_ptr<Impl> impl_;
    ModelConfig config_;
    int tp_ = 1, rank_ = 0;
    bool sequence_parallel_ = false;
    reference::AlignedVector<float> params_, grads_;
    std::vector<TensorParallelTensor> tensors_;
    friend struct Impl;
};

}  // namespace lse::distributed
