// SPDX-License-Identifier: GPL-3.0-or-later
// ZeRO-3 (Rajbhandari et al., "ZeRO", SC 2020, §5.3 and §7.2.2): parameters sharded as well as
// gradients and optimizer states. Each rank keeps its shard of every parameter group (the model's
// parameterGroups(): the embeddings, each layer, the final norm with the LM head), all-gathers a
// group just before forward reads it and again before backward does, reduce-scatters the group's
// gradients as soon as backward has finished them, and releases the gathered copy after each use.
//
// Why per group (one layer at a time) and not per tensor: a layer is what one pass uses as a unit,
// so one all-gather and one reduce-scatter per layer is what FSDP's default wrapping of a
// transformer block and DeepSpeed's per-module hooks do, and the cost engine counts one gather
// per layer (cost/communication.cpp, part.calls). Per tensor would only multiply the latency terms.
//
// Every group is sharded on its own (shardRange(group count, n, rank)), so a rank's shard is one
// piece of every group; the bytes each rank sends per step are then 2·(n−1)/n·Ψ for the gathers
// plus (n−1)/n·Ψ for the reduce-scatters — 3Ψ·(n−1)/n, 1.5× DP's all-reduce (ZeRO §7.2.2) — exactly
// when n divides every group (the engine assumes it, as for ZeRO-1/2).
//
// Memory: the reference model allocates its whole parameter and gradient arenas once. Releasing a
// group gives the whole pages of its parameters outside this rank's piece back to the kernel
// (released_pages.h: madvise), and after its reduce-scatter those of its gradients; the partial
// pages at the ends get NaN. So the resident memory really falls and rises layer by layer, and a
// read of a parameter that was not gathered sees NaN or zero (either fails the equality with one
// process, tested). The model zeroes a group's gradients just before its backward (not the whole
// arena up front), so no page comes back before it is needed. Two peaks per step: the accounting
// (elements: the shard, the groups gathered at the moment, the full gradients of the groups whose
// reduce-scatter has not run yet) and the resident bytes of the two arenas (mincore), which adds
// the partial pages at the groups' ends and, for groups smaller than a page, whole groups.
#pragma once

#include "distributed/communicator.h"
#include "reference/model.h"
#include "reference/optimizer.h"

#include <functional>
#include <vector>

namespace lse::distributed {

struct Zero3Group {
    ShardRange whole;  // the group's stretch of the arena
    ShardRange own;    // this rank's piece of it, in arena elements (shardRange of the group, shifted)
};

// The model's parameter groups with this rank's piece of each.
std::vector<Zero3Group> zero3Groups(const reference::Model &model, int ranks, int rank);

// Optimizer spans over this rank's pieces, in arena order.
std::vector<ParamSpan<float>> zero3ShardSpans(reference::Model &model, const std::vector<Zero3Group> &groups);

// Peaks of one step, in elements (×4 for bytes).
struct Zero3MemoryPeaks {
    std::int64_t gathered_parameters = 0;  // elements beyond the shard held at once (the working copy)
    std::int64_t full_gradients = 0;       // gradient elements beyond the shard held at once
    std::int64_t model_state = 0;          // shard params + gathered + shard grads + full grads + optimizer
    std::int64_t resident_arena_bytes = 0;  // bytes: the parameter and gradient arenas' resident pages
};

class Zero3Parameters {
public:
    // `note` is told the purpose of every counted collective as it starts ("zero3_gather_forward",
    // "zero3_gather_backward", "zero3_reduce_scatter"). `optimizer_elements` is the optimizer
    // state's size in elements (AdamW: 2 per shard element), counted in the model-state peak.
    Zero3Parameters(reference::Model &model, Communicator &communicator, int ranks, int rank,
                    std::function<void(const char *purpose)> note);

    // Installs (or removes) the model's parameter-use callback.
    void attach();
    void detach();

    const std::vector<Zero3Group> &groups() const { return groups_; }
    std::int64_t shardElements() const { return shard_elements_; }

    // The whole arena on every rank (every rank calls it): for evaluation and checkpoints, not a
    // step's communication. releaseAll() goes back to holding the shard alone.
    void gatherAll();
    void releaseAll();

    void beginStep(std::int64_t optimizer_elements);
    const Zero3MemoryPeaks &peaks() const { return peaks_; }

private:
    void onUse(int group, reference::Model::ParameterUse use);
    void release(const Zero3Group &group);
    void releaseGradients(const Zero3Group &group);
    void account();

    reference::Model &model_;
    Communicator &communicator_;
    std::function<void(const char *)> note_;
    std::vector<Zero3Group> groups_;
    std::int64_t shard_elements_ = 0;
    std::int64_t optimizer_elements_ = 0;
    std::int64_t gathered_ = 0, full_gradients_ = 0;  // elements beyond the shard held now
    Zero3MemoryPeaks peaks_;
};

}  // namespace lse::distributed
