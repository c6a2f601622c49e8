// SPDX-License-Identifier: GPL-3.0-or-later
// `train --tp T`: tensor-parallel training of the reference transformer, one process per rank
// started by mpirun (issue 33; `dist-train --np T --tp T` starts it). Rank 0 prints; every rank trains.
#pragma once

#include "common/problem.h"
#include "reference/trainer.h"

#include <QCommandLineOption>
#include <QCommandLineParser>

#include <initializer_list>

namespace lse::cli {

struct TensorParallelRun {
    int ranks = 1;  // --tp
    int dp = 1;     // --dp with --tp: dp x tp, mpirun starts dp·tp processes (issue 33)
    bool sequence_parallel = false;  // --sp on
    bool json = false;
};

// Reads --tp into run.ranks and --sp (on|off) into run.sequence_parallel, and adds problems naming --tp: T below 1, a T the model cannot be split
// over (n_heads, n_kv_heads, d_ff divisible by T; pre-norm, sequential blocks, naive attention), and
// each of `unsupported` (flags that do not combine with --tp yet: --dp, checkpoints, traces) when set.
void checkTensorParallelFlags(const QCommandLineParser &parser, const QCommandLineOption &tp,
                              const QCommandLineOption &sp, const reference::TrainConfig &config,
                              std::initializer_list<const QCommandLineOption *> unsupported, TensorParallelRun &run,
                              Problems &problems);

// Trains `config` over MPI_COMM_WORLD split by tensor parallelism (and, with run.dp > 1, into dp
// replicas along the Layout page's device mesh); exit status as `train` (2 bad input, 3 diverged).
// Without MPI in this build, refuses with a message naming --tp.
int runTensorParallelTraining(const reference::TrainConfig &config, const TensorParallelRun &run);

}  // namespace lse::cli
