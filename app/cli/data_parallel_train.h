// SPDX-License-Identifier: GPL-3.0-or-later
// `train --dp N`: data-parallel / ZeRO training of the reference transformer, one process per rank
// started by mpirun (issue 19). Rank 0 prints; every rank trains.
#pragma once

#include "trace_options.h"

#include "distributed/data_parallel_trainer.h"
#include "reference/trainer.h"

#include <QString>

namespace lse::cli {

struct DataParallelRun {
    int ranks = 1;  // --dp: must equal mpirun's process count
    distributed::DataParallelOptions options;
    bool json = false;
    // Checkpoints as single-process `train` writes them: step_NNNNNN.safetensors in checkpoint_dir
    // every checkpoint_every steps (0: only the last), written by rank 0. Empty dir: none.
    QString checkpoint_dir;
    int checkpoint_every = 0;
    QString resume_path;  // --resume: every rank loads it (a ZeRO rank keeps its shard of the moments)
    // --trace: every rank records the same steps; rank 0 gathers the ranks' events and writes one
    // trace with a process per rank.
    TraceRequest trace;
};

// Trains `config` over MPI_COMM_WORLD (from run.resume_path when set, `config` then supplying what a
// resumed run may change); exit status as `train` (2 bad input, 3 diverged). Without
// MPI in this build, refuses with a message naming --dp.
int runDataParallelTraining(const reference::TrainConfig &config, const DataParallelRun &run);

}  // namespace lse::cli
