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
// The vocabulary is split too, as Megatron splits it (§3): rank r holds the rows
// shardRange(vocab_size, tp, r) of the token table and of the LM head (the same rows when tied).
// The embedding's lookup gives zeros for the tokens another rank holds and the ranks' outputs are
// summed (one all-reduce of tokens × d_model, "tp_embedding"); the head is column-parallel over the
// vocabulary, so its input gradient is summed in backward ("tp_lm_head"); the cross-entropy never
// gathers the logits: three all-reduces of one float per token give each row's maximum, its
// target's logit and its sum of exponentials ("tp_cross_entropy", vocabulary_parallel.h). The cost
// engine counts all of these (CommunicationEstimate::tp_outside_layers), event by event.
// Replicated on every rank: learned position embeddings and every norm. Everything outside the
// f…g regions sees identical inputs and gradients on every rank, so the replicated weights'
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
// The bytes are the same as without it. Outside the layers the embedding's sum becomes a
// reduce-scatter to the rows (and an all-gather of their gradient backward), the head's input an
// all-gather of the final norm's rows (and a reduce-scatter of its gradient backward), and the norm
// gains' partial gradients (each rank saw only its rows) are summed in one all-reduce per step
// ("sp_norm_gradients", Megatron's all-reduce of the layer-norm gradients); the engine counts these
// too.
//
// Supported: pre-norm (RMSNorm, LayerNorm) or no norm, sequential blocks, the naive attention
// kernel, any positional encoding and activation the reference implements; tp must divide n_heads,
// n_kv_heads and d_ff and be at most vocab_size (checked by validateForTensorParallel); the
// vocabulary need not divide by tp (the first ranks then hold one row more).
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
// (f before a column-parallel layer), "tp_embedding", "tp_lm_head", "tp_cross_entropy" (the
// vocabulary-parallel layers), "sp_norm_gradients" (SP), "grad_norm" (the sharded gradients'
// squared norm, one float, which the engine does not count).
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
