// SPDX-License-Identifier: GPL-3.0-or-later
// `train --dp N`: data-parallel / ZeRO training of the reference transformer, one process per rank
// started by mpirun (issue 19). Rank 0 prints; every rank trains.
#pragma once

#include "distributed/data_parallel_trainer.h"
#include "reference/trainer.h"

namespace lse::cli {

struct DataParallelRun {
    int ranks = 1;  // --dp: must equal mpirun's process count
    distributed::DataParallelOptions options;
    bool json = false;
};

// Trains `config` over MPI_COMM_WORLD; exit status as `train` (2 bad input, 3 diverged). Without
// MPI in this build, refuses with a message naming --dp.
int runDataParallelTraining(const reference::TrainConfig &config, const DataParallelRun &run);

}  // namespace lse::cli
