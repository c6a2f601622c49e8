// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Translated names of the parallelism enums for the Collectives, ZeRO and Pipeline pages, and the
// link models those pages read from the scenario's cluster.

#include "parallel/collectives.h"
#include "parallel/pipeline_schedule.h"
#include "scenario/cluster_config.h"

#include <QString>

namespace lse::gui {

QString collectiveOpLabel(parallel::CollectiveOp value);
QString collectiveAlgorithmLabel(parallel::CollectiveAlgorithm value);
QString pipelineScheduleLabel(parallel::PipelineScheduleKind value);
QString workKindLabel(parallel::WorkKind value);

// A duration with the unit that shows it with 1–3 integer digits: "3.00 µs", "1.42 ms", "2.10 s".
QString formatSeconds(double seconds);

}  // namespace lse::gui
