// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Where a scenario sits on the Chinchilla law, and what its training compute would buy at the
// optimum: the compute-optimal model of the scenario's family on the scenario's cluster, run
// through the engine (days, GPU-hours, cost of both).

#include "common/problem.h"
#include "cost/estimate.h"
#include "scaling/chinchilla_law.h"
#include "scaling/chinchilla_table3.h"

#include <optional>
#include <string>
#include <vector>

namespace lse::scaling {

struct ScenarioScaling {
    double params = 0;   // lawParameters(scenario.model)
    double tokens = 0;   // training.tokens
    double compute = 0;  // 6·N·D
    double loss = 0;     // L(N, D), approach 3
    ComputeOptimum optimum;            // approach 3's closed form at the same C
    ComputeOptimum tokens_rule;        // 20 tokens per parameter at the same C (approaches 1/2)
    std::optional<Table3Row> table3;   // Table 3's row when C is one of its budgets

    // The compute-optimal model of the scenario's family, trained on C / (6·N) tokens so the
    // compute stays the same, on the scenario's cluster (layout adapted by adaptScenarioToModel).
    std::optional<Scenario> optimal_scenario;
    double optimal_model_params = 0;             // its lawParameters(); ≈ optimum.params
    std::optional<Estimate> optimal_estimate;
    std::vector<std::string> optimal_adjustments;  // what the layout adaptation changed
    Problems optimal_problems;  // why there is no optimal scenario or no estimate of it
};

// Everything above for a valid scenario.
ScenarioScaling scenarioScaling(const Scenario &scenario);

// The scenario with its model replaced by the family member nearest `target_params` (with a depth
// the scenario's pp · virtual stages divides, when there is one) and its
// tokens by compute / (6·N) of that member; the layout adapted to the model. Problems when no
// member exists or the token count leaves the validated range.
Result<Scenario> scenarioWithModelSize(const Scenario &scenario, double target_params, double compute,
                                       std::vector<std::string> *adjustments = nullptr);

}  // namespace lse::scaling
