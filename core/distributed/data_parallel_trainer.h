// SPDX-License-Identifier: GPL-3.0-or-later
// Data-parallel and ZeRO-1/2 training of the reference transformer over a Communicator (issue 19).
// Every rank builds the same model from the same seed and draws the same global batch of
// config.batch_size windows as the single-process Trainer; rank r trains on rows
// [r·B/n, (r+1)·B/n). The gradient (a mean over each rank's rows) is summed over the ranks and
// divided by n, which is the mean over the global batch, so n ranks reproduce one process's
// parameters up to float rounding.
//
// Modes: naive DP all-reduces the whole gradient arena after backward; bucketed DP all-reduces
// buckets as backward finishes them (Model::setGradientReadyCallback), overlapping the reduction
// with the rest of backward; ZeRO-1 and ZeRO-2 reduce-scatter the gradient arena, update only this
// rank's shard (shardRange) with AdamW moments for that shard alone, then all-gather the parameter
// arena (ZeRO §5, §7). ZeRO-2 differs from ZeRO-1 in the gradient memory it reports: after the
// reduce-scatter only the shard's gradients are kept. Here backward still writes the model's
// whole gradient arena (the model allocates it once), so that saving is accounted, not freed.
// ZeRO-3 (zero3_parameters.h) shards the parameters too: each layer is all-gathered before its
// forward and again before its backward, its gradients reduce-scattered as soon as backward has
// finished them, and the gathered copy released after each use; no all-gather after the update.
// A ZeRO-3 rank holds only its shard between steps (the rest of the arena is NaN): read whole
// parameters after gatherFullParameters().
#pragma once

#include "common/problem.h"
#include "distributed/communicator.h"
#include "distributed/data_parallel_report.h"
#include "reference/trainer.h"

#include <memory>

namespace lse::distributed {

enum class DataParallelMode { Naive, Bucketed, Zero1, Zero2, Zero3 };
std::string_view toString(DataParallelMode mode);  // "naive", "bucketed", "zero1", "zero2", "zero3"
int zeroStage(DataParallelMode mode);             // 0 for both DP modes

struct DataParallelOptions {
    DataParallelMode mode = DataParallelMode::Naive;
    std::int64_t bucket_bytes = 25 * 1024 * 1024;  // bucketed mode; PyTorch DDP's default bucket_cap_mb 25
};

class DataParallelTrainer {
public:
    // Problems name the field: training.batch_size (not divisible by the ranks),
    // distributed.bucket_bytes, and everything validateTrainConfig reports. `communicator` must
    // outlive the trainer and is used only from the thread that calls step().
    static Result<std::unique_ptr<DataParallelTrainer>> create(const reference::TrainConfig &config,
                                                               const DataParallelOptions &options,
                                                               Communicator &communicator);

    // Continues a checkpoint written by saveCheckpoint or by the single-process Trainer (the same
    // format), on any number of ranks: every rank reads the file, loads the weights and keeps the
    // AdamW moments of its own optimizer spans (a ZeRO rank: its shard). `overrides` may change
    // what Trainer::resume lets change (data, validation, steps, threads, evaluation); model and
    // optimizer are the checkpoint's. Continuing matches never having stopped, up to the float
    // rounding data parallelism itself brings. Problems name the path (rule "metadata", "missing",
    // "shape", ...) or a config field.
    static Result<std::unique_ptr<DataParallelTrainer>> resume(const std::string &checkpoint_path,
                                                               const reference::TrainConfig &overrides,
                                                               const DataParallelOptions &options,
                                                               Communicator &communicator);

    // Writes a checkpoint in Trainer::saveCheckpoint's format, complete and resumable by one process
    // or by any number of ranks. Every rank calls it: ZeRO ranks first all-gather their shards of the
    // AdamW moments (not counted in the next step's communication); rank 0 writes, then tells the
    // others whether it did. Problems on every rank when the write failed (field = the path; rule
    // "non-finite" for a diverged state, as Trainer's).
    Result<bool> saveCheckpoint(const std::string &path);

    // One optimizer step on every rank (each rank calls it; the collectives pair them up).
    // Divergence fails as Trainer::step does (rule reference::kDivergedRule), on every rank alike,
    // since the loss and norm it checks are the reduced ones.
    Result<DataParallelStepReport> step();

    // Rank 0's mean loss over the validation windows Trainer::validationLoss uses, in batches of this
    // rank's slice; every rank calls it and receives the value (a broadcast, not counted).
    Result<double> validationLoss();

    reference::Model &model();
    // ZeRO-3: every rank all-gathers the whole parameter arena (every rank calls it; not a step's
    // communication), so model() holds every parameter until the next step releases them again.
    // The other modes hold them already: nothing happens.
    void gatherFullParameters();
    int currentStep() const;
    // Bytes this rank holds, by category (see DataParallelMemory).
    DataParallelMemory memory() const;

    ~DataParallelTrainer();

private:
    DataParallelTrainer();
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace lse::distributed
