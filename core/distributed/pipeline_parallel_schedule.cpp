// SPDX-License-Identifier: GPL-3.0-or-later
#include "distributed/pipeline_parallel_schedule.h"

#include <algorithm>

namespace lse::distributed {

Result<std::vector<PipelineWork>> stageWorkOrder(parallel::PipelineScheduleKind schedule, int stages,
                                                 int micro_batches, int stage)
{
    using parallel::PipelineScheduleKind;
    if (schedule != PipelineScheduleKind::GPipe && schedule != PipelineScheduleKind::OneFOneB)
        return Result<std::vector<PipelineWork>>::failure(
            "schedule", "choice", "pipeline-parallel training runs gpipe or 1f1b, not "
                                      + std::string(parallel::toString(schedule)) + ".");
    if (stage < 0 || stage >= stages)
        return Result<std::vector<PipelineWork>>::failure(
            "stages", "range", "stage " + std::to_string(stage) + " is not one of the " + std::to_string(stages) + ".");
    // The engine's simulation with unit times gives each stage's order of units; the run keeps the
    // order and lets the measured times fall where they do.
    Result<parallel::PipelineTimeline> timeline =
        parallel::simulatePipeline(schedule, stages, micro_batches, 1, parallel::PipelineTimes{});
    if (!timeline)
        return timeline.problems();
    std::vector<parallel::PipelineTask> tasks;
    for (const parallel::PipelineTask &task : timeline->tasks)
        if (task.stage == stage)
            tasks.push_back(task);
    std::stable_sort(tasks.begin(), tasks.end(), [](const parallel::PipelineTask &a, const parallel::PipelineTask &b) {
        return a.start_seconds < b.start_seconds;
    });
    std::vector<PipelineWork> order;
    order.reserve(tasks.size());
    for (const parallel::PipelineTask &task : tasks)
        order.push_back({task.micro_batch, task.kind != parallel::WorkKind::Forward});
    return order;
}

PipelineBubble pipelineBubble(const std::vector<PipelinePass> &passes, int stages, int micro_batches)
{
    PipelineBubble bubble;
    if (stages >= 1 && micro_batches >= 1)
        bubble.formula = double(stages - 1) / double(micro_batches + stages - 1);
    if (passes.empty() || stages < 1)
        return bubble;
    double first = passes.front().start_seconds, last = passes.front().end_seconds;
    for (const PipelinePass &pass : passes) {
        first = std::min(first, pass.start_seconds);
        last = std::max(last, pass.end_seconds);
    }
    bubble.makespan_seconds = last - first;
    std::vector<double> busy(std::size_t(stages), 0.0);
    for (const PipelinePass &pass : passes)
        if (pass.rank >= 0 && pass.rank < stages)
            busy[std::size_t(pass.rank)] += pass.end_seconds - pass.start_seconds;
    bubble.per_rank.resize(std::size_t(stages), 0.0);
    if (bubble.makespan_seconds <= 0)
        return bubble;
    double sum = 0;
    for (int rank = 0; rank < stages; ++rank) {
        const double idle = std::max(0.0, bubble.makespan_seconds - busy[std::size_t(rank)]);
        bubble.per_rank[std::size_t(rank)] = idle / bubble.makespan_seconds;
        sum += bubble.per_rank[std::size_t(rank)];
    }
    bubble.measured = sum / stages;
    return bubble;
}

}  // namespace lse::distributed
