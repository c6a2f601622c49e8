// SPDX-License-Identifier: GPL-3.0-or-later
// The Distributed run page's timeline of rank 0: per step, compute (the step's seconds minus its
// exposed communication) then the exposed communication, and each collective's duration with the
// part hidden behind compute in a lighter shade.
#pragma once

#include "charts/chart_data.h"
#include "pages/distributed/distributed_run_results.h"

#include <QPalette>

namespace lse::gui {

// The chart for `results` in `palette`'s colours; a chart with only a title when there are no steps.
ChartData distributedTimelineChart(const DistributedRunResults &results, const QPalette &palette);

}  // namespace lse::gui
