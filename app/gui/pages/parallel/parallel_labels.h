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

// The alpha-beta link of the cluster's intra-node (NVLink-class) or inter-node (network) links:
// the accelerator's unidirectional bandwidth times the cluster's link efficiency, and the
// matching latency — the same inputs core/cost/communication.cpp uses.
// A duration with the unit that shows it with 1–3 integer digits: "3.00 µs", "1.42 ms", "2.10 s".
QString formatSeconds(double seconds);

parallel::LinkModel clusterLink(const ClusterConfig &cluster, bool inter_node);

}  // namespace lse::gui
