// SPDX-License-Identifier: GPL-3.0-or-later
// `train --pp P [--schedule gpipe|1f1b] [--micro-batches M]`: pipeline-parallel training of the
// reference transformer, one process per stage started by mpirun (issue 33). Rank 0 prints; every
// rank trains its stage.
#pragma once

#include "common/problem.h"
#include "distributed/pipeline_parallel_trainer.h"
#include "reference/trainer.h"

#include <QCommandLineParser>

namespace lse::cli {

struct PipelineParallelRun {
    int stages = 1;  // --pp
    int dp = 1;      // --dp with --pp: dp x pp, mpirun starts dp·pp processes (issue 33)
    distributed::PipelineParallelOptions options;
    bool json = false;
};

// --pp P, --schedule gpipe|1f1b (default 1f1b) and --micro-batches M (default P) into `run`, with a
// problem naming the flag and its rule for each bad value: P >= 1 and at most model.n_layers (every
// stage needs a layer), M >= 1 dividing --batch (training.batch_size).
void readPipelineOptions(const QCommandLineParser &parser, const QCommandLineOption &pp,
                         const QCommandLineOption &schedule, const QCommandLineOption &micro_batches,
                         const reference::TrainConfig &config, PipelineParallelRun &run, Problems &problems);

// Trains `config` over MPI_COMM_WORLD (with run.dp > 1: dp pipeline replicas, grouped as the
// Layout page's device mesh; rank 0 prints replica 0's pipeline); exit status as `train` (2 bad input, 3 diverged). Without MPI
// in this build, refuses with a message naming --pp.
int runPipelineParallelTraining(const reference::TrainConfig &config, const PipelineParallelRun &run);

}  // namespace lse::cli
