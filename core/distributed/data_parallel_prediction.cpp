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

std::optional<double> predictedCollectiveSeconds(std::string_view collective, double bytes_per_rank, int ranks,
                                                 const parallel::LinkModel &link)
{
    std::optional<parallel::CollectiveOp> op;
    if (collective == "all_reduce")
        op = parallel::CollectiveOp::AllReduce;
    else if (collective == "reduce_scatter")
        op = parallel::CollectiveOp::ReduceScatter;
    else if (collective == "all_gather")
        op = parallel::CollectiveOp::AllGather;
    if (!op || ranks < 2 || !(link.bandwidth_bytes_per_second > 0) || link.latency_seconds < 0)
        return std::nullopt;
    const int steps = parallel::collectiveStepCount(*op, parallel::CollectiveAlgorithm::Ring, ranks);
    return steps * link.latency_seconds + bytes_per_rank / link.bandwidth_bytes_per_second;
}

}  // namespace lse::distributed
