// SPDX-License-Identifier: GPL-3.0-or-later
#include "distributed/data_parallel_prediction.h"

#include "cost/estimate.h"
#include "reference/engine_scenario.h"

namespace lse::distributed {

Scenario dataParallelScenario(const reference::TrainConfig &config, int ranks, int zero_stage)
{
    Scenario scenario = reference::engineScenarioFor(config, 0);
    scenario.cluster.gpus = ranks;  // the ranks share this machine: one node
    scenario.cluster.gpus_per_node = ranks;
    scenario.training.parallel.dp = ranks;
    scenario.training.parallel.zero_stage = zero_stage;
    scenario.training.micro_batch = config.batch_size / ranks;  // each rank's rows of the global batch
    return scenario;
}

Result<DataParallelPrediction> predictDataParallel(const reference::TrainConfig &config, int ranks, int zero_stage)
{
    const Result<Estimate> predicted = estimate(dataParallelScenario(config, ranks, zero_stage));
    if (!predicted)
        return predicted.problems();
    DataParallelPrediction prediction;
    prediction.bytes_per_rank = predicted->communication.dp.bytes;
    prediction.memory.params = double(predicted->memory.params);
    prediction.memory.grads = double(predicted->memory.grads);
    prediction.memory.optimizer_states = double(predicted->memory.optimizer);
    return prediction;
}

}  // namespace lse::distributed
