// SPDX-License-Identifier: GPL-3.0-or-later
// The cost engine's view of a data-parallel run of the reference transformer: the one-device
// scenario of reference/engine_scenario.h with dp = ranks, the ZeRO stage, and the global batch
// split into one micro-batch of batch/ranks sequences per rank.
#pragma once

#include "common/problem.h"
#include "distributed/data_parallel_report.h"
#include "parallel/collectives.h"
#include "reference/trainer.h"
#include "scenario/scenario.h"

#include <optional>
#include <string_view>

namespace lse::distributed {

Scenario dataParallelScenario(const reference::TrainConfig &config, int ranks, int zero_stage);

struct DataParallelPrediction {
    double bytes_per_rank = 0;  // the engine's DP communication volume (ZeRO §7)
    DataParallelMemory memory;  // params, grads, optimizer per GPU
};
Result<DataParallelPrediction> predictDataParallel(const reference::TrainConfig &config, int ranks, int zero_stage);

// The alpha-beta time of one measured collective of `ranks` ranks on `link`: α·steps + bytes/β, with
// the ring's step count (parallel::collectiveStepCount) and the bytes this rank sent. The ring sends
// one block of S/n per step, so bytes = steps·S/n and this equals parallel::collectiveSeconds(Ring).
// Nothing for other collectives than "all_reduce", "reduce_scatter" and "all_gather" (the
// communicator's broadcast is not the engine's ring), for ranks < 2 or a link without bandwidth.
std::optional<double> predictedCollectiveSeconds(std::string_view collective, double bytes_per_rank, int ranks,
                                                 const parallel::LinkModel &link);

}  // namespace lse::distributed
