// SPDX-License-Identifier: GPL-3.0-or-later
#include "scaling/scenario_scaling.h"

#include "scaling/model_family.h"
#include "scenario/scenario_adjust.h"

#include <algorithm>
#include <cmath>

namespace lse::scaling {

Result<Scenario> scenarioWithModelSize(const Scenario &scenario, double target_params, double compute,
                                       std::vector<std::string> *adjustments)
{
    // Depths the scenario's pipeline can split, so the layout stays as it is where it can.
    const ParallelConfig &parallel = scenario.training.parallel;
    const int layer_multiple = std::max(1, parallel.pp * parallel.virtual_stages);
    Result<ModelConfig> model = modelWithParameters(scenario.model, target_params, layer_multiple);
    if (!model && layer_multiple > 1)
        model = modelWithParameters(scenario.model, target_params);
    if (!model)
        return model.problems();
    Adjusted adjusted = adaptScenarioToModel(scenario, *model);
    const double tokens = std::round(compute / (kTrainingFlopsPerParameterToken * lawParameters(*model)));
    // Validation's upper limit on training.tokens (2^52), so the engine accepts the count.
    constexpr double kMaxTokens = 4503599627370496.0;
    if (!(tokens >= 1 && tokens <= kMaxTokens))
        return Result<Scenario>::failure("training.tokens", "range",
                                         "the compute-optimal model would train on " + std::to_string(tokens)
                                             + " tokens, outside 1 .. 2^52");
    adjusted.scenario.training.tokens = std::int64_t(tokens);
    if (adjustments)
        *adjustments = std::move(adjusted.adjustments);
    return adjusted.scenario;
}

ScenarioScaling scenarioScaling(const Scenario &scenario)
{
    ScenarioScaling result;
    result.params = lawParameters(scenario.model);
    result.tokens = double(scenario.training.tokens);
    result.compute = trainingFlops(result.params, result.tokens);
    result.loss = loss(result.params, result.tokens);
    result.optimum = computeOptimum(result.compute);
    result.tokens_rule = splitAtTokensPerParam(result.compute, kChinchillaTokensPerParameter);
    result.table3 = table3RowForFlops(result.compute);

    Result<Scenario> optimal = scenarioWithModelSize(scenario, result.optimum.params, result.compute,
                                                     &result.optimal_adjustments);
    if (!optimal) {
        result.optimal_problems = optimal.problems();
        return result;
    }
    result.optimal_scenario = *optimal;
    result.optimal_model_params = lawParameters(optimal->model);
    const Result<Estimate> estimated = estimate(*optimal);
    if (estimated)
        result.optimal_estimate = *estimated;
    else
        result.optimal_problems = estimated.problems();
    return result;
}

}  // namespace lse::scaling
