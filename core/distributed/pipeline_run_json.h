// SPDX-License-Identifier: GPL-3.0-or-later
// A measured pipeline-parallel run read back from the `train --pp P --json` output (issue 33): the
// Pipeline page draws its Gantt chart beside the simulated schedule of the same p and m.
#pragma once

#include "common/problem.h"
#include "distributed/pipeline_parallel_schedule.h"
#include "parallel/pipeline_schedule.h"

#include <QByteArray>

#include <string>
#include <vector>

namespace lse::distributed {

struct MeasuredPipelineRun {
    parallel::PipelineScheduleKind schedule = parallel::PipelineScheduleKind::OneFOneB;
    int stages = 0;
    int micro_batches = 0;
    int step = 0;                      // the step shown: the run's last
    std::vector<PipelinePass> passes;  // that step's, every rank
    PipelineBubble bubble;             // recomputed from the passes (pipelineBubble)
    double recorded_bubble = 0;        // bubble_fraction.measured as the run wrote it
};

// Problems name `where` (the file) and the field: "pp", "micro_batches", "schedule" (gpipe or
// 1f1b), "steps" (none), "schedule[]" (a pass with a rank outside [0, pp), a micro-batch outside
// [0, m), a pass other than forward/backward, or times that are not finite or end before they
// start), and "json" when the text is not a JSON object.
Result<MeasuredPipelineRun> readMeasuredPipelineRun(const QByteArray &json, const std::string &where);

}  // namespace lse::distributed
