// SPDX-License-Identifier: GPL-3.0-or-later
// What a pipeline-parallel step runs on each stage and how long its pipeline stood idle (issue 33):
// the order of the forward and backward micro-batches, taken from the engine's simulated schedule
// (parallel/pipeline_schedule.h) so the run and the Pipeline page's chart are the same schedule;
// the measured passes of every rank; and the bubble measured from them beside the formula.
#pragma once

#include "common/problem.h"
#include "parallel/pipeline_schedule.h"

#include <string>
#include <vector>

namespace lse::distributed {

// One unit of a stage's work: the forward or the backward of one micro-batch.
struct PipelineWork {
    int micro_batch = 0;
    bool backward = false;
};

// The order stage `stage` of `stages` runs its 2·m units under GPipe (Huang et al. 2019: every
// forward, then every backward) or 1F1B (Narayanan et al. 2021 §2.2: p−s−1 warm-up forwards, then
// one forward and one backward alternately, then the remaining backwards). Only GPipe and OneFOneB;
// problems name "schedule", "stages" or "micro_batches".
Result<std::vector<PipelineWork>> stageWorkOrder(parallel::PipelineScheduleKind schedule, int stages,
                                                 int micro_batches, int stage);

// One forward or backward micro-batch as it ran on one rank: seconds since the step's start on the
// common clock (every rank leaves a barrier at the step's start and measures from there).
struct PipelinePass {
    int rank = 0;
    int micro_batch = 0;
    std::string pass;  // "forward" or "backward"
    double start_seconds = 0;
    double end_seconds = 0;
};

// The bubble as the engine's formula means it. (p−1)/(m+p−1) is the idle share of the pipeline's
// makespan on each stage (GPipe §2.3; Narayanan et al. 2021 §2.2.1 write it (p−1)/m relative to
// the busy time; (p−1)/(m+p−1) = idle / (idle + busy)): with equal stages every stage computes for
// m·(t_f + t_b) out of a makespan of (m+p−1)·(t_f + t_b). Measured the same way: the makespan is
// from the earliest start to the latest end of any pass on any rank; a rank's idle time is the
// makespan minus the sum of its passes' durations (waiting for a neighbour's message counts as
// idle); `measured` is the mean over the ranks of idle / makespan.
struct PipelineBubble {
    double measured = 0;
    double formula = 0;  // (p−1)/(m+p−1)
    double makespan_seconds = 0;
    std::vector<double> per_rank;  // idle / makespan of each rank
};
PipelineBubble pipelineBubble(const std::vector<PipelinePass> &passes, int stages, int micro_batches);

}  // namespace lse::distributed
