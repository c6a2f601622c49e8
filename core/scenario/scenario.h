// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"
#include "scenario/cluster_config.h"
#include "scenario/model_config.h"
#include "scenario/training_config.h"

namespace lse {

// Everything one estimate is computed from.
struct Scenario {
    ModelConfig model;
    ClusterConfig cluster;
    TrainingConfig training;
};

// Every rule the scenario breaks, all at once; empty when the scenario can be estimated.
Problems validate(const Scenario &scenario);
Problems validateModel(const ModelConfig &model);

}  // namespace lse
