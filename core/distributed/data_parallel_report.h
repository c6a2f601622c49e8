// SPDX-License-Identifier: GPL-3.0-or-later
// What one data-parallel step measured on one rank, beside the cost engine's prediction for the
// same model, global batch, DP degree and ZeRO stage (the `--json` step of issue 19).
#pragma once

#include <string>
#include <optional>
#include <vector>

namespace lse::distributed {

// One collective of the step, from the communicator's records.
struct CommunicationEntry {
    std::string collective;       // "all_reduce", "reduce_scatter", "all_gather"
    std::string purpose;          // "gradients", "parameters", or "loss_and_norm" (two floats); ZeRO-3:
                                  // "zero3_gather_forward", "zero3_gather_backward", "zero3_reduce_scatter"
    double bytes_per_rank = 0;    // counted as sent by this rank
    double seconds = 0;           // start to completion
    double exposed_seconds = 0;   // how long the training loop waited for it (a blocking one: all of it)
};

// Bytes this rank holds for the model's state.
struct DataParallelMemory {
    double params = 0;
    double grads = 0;             // ZeRO-2: the shard kept after the reduce-scatter
    double optimizer_states = 0;  // AdamW m and v, measured from the optimizer (ZeRO-1/2: the shard's)
    double gradient_arena = 0;    // what the model allocates for backward (the whole arena, every mode)
    // ZeRO-3 (zero3_parameters.h), peaks within the step by accounting: the gathered working copy
    // beyond the shard, the full gradients of groups not yet reduce-scattered, and the sum of the
    // model state held at once (shard params + grads + optimizer + those two). Other modes: 0, and
    // model_state_peak = params + grads + optimizer_states.
    double gathered_params_peak = 0;
    double full_grads_peak = 0;
    double model_state_peak = 0;
    // ZeRO-3: the same peak as the kernel holds it, resident pages of the parameter and gradient
    // arenas (mincore) plus the optimizer's state: above model_state_peak by the partial pages at
    // the groups' ends, equal to the whole arenas for a model whose groups are under a page. 0 in
    // other modes.
    double resident_model_state_peak = 0;
};

struct DataParallelStepReport {
    int step = 0;
    double loss = 0;           // mean over the global batch
    double learning_rate = 0;
    double grad_norm = 0;      // global, before clipping
    double seconds = 0;        // this rank's wall time of the step
    int buckets = 0;           // bucketed mode: buckets in the arena
    int buckets_started_in_backward = 0;
    std::vector<CommunicationEntry> communication;
    DataParallelMemory memory;
    // Bytes this rank sent for the gradient and parameter collectives (not the two-float
    // loss_and_norm reduction, which the engine does not count), and the engine's volume.
    double measured_bytes_per_rank = 0;
    double predicted_bytes_per_rank = 0;
    double predicted_dp_bytes_per_rank = 0;  // the engine's plain DP (all-reduce) volume, for the ratio
    DataParallelMemory predicted_memory;  // the engine's params, grads, optimizer per GPU (gradient_arena 0)
    // Evaluation steps (training.eval_every, and the last step): rank 0's validation loss, the
    // same windows as the single-process Trainer's, broadcast so that every rank reports it.
    std::optional<double> validation_loss;
};

}  // namespace lse::distributed
