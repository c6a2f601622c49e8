// SPDX-License-Identifier: GPL-3.0-or-later
// The cost engine's view of a data-parallel run of the reference transformer: the one-device
// scenario of reference/engine_scenario.h with dp = ranks, the ZeRO stage, and the global batch
// split into one micro-batch of batch/ranks sequences per rank.
#pragma once

#include "common/problem.h"
#include "distributed/data_parallel_report.h"
#include "reference/trainer.h"
#include "scenario/scenario.h"

namespace lse::distributed {

Scenario dataParallelScenario(const reference::TrainConfig &config, int ranks, int zero_stage);

struct DataParallelPrediction {
    double bytes_per_rank = 0;  // the engine's DP communication volume (ZeRO §7)
    DataParallelMemory memory;  // params, grads, optimizer per GPU
};
Result<DataParallelPrediction> predictDataParallel(const reference::TrainConfig &config, int ranks, int zero_stage);

}  // namespace lse::distributed
