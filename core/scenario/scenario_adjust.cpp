// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/scenario_adjust.h"

#include "scenario/scenario_fitter.h"

namespace lse {

Adjusted adaptScenarioToModel(const Scenario &current, const ModelConfig &model, const PinnedFields &pinned)
{
    Scenario scenario = current;
    scenario.model = model;
    return fitScenarioToModel(scenario, pinned);
}

Adjusted fitScenarioToModel(const Scenario &scenario, const PinnedFields &pinned)
{
    ScenarioFitter fitter(scenario, pinned);
    fitter.fitAll();
    return {fitter.scenario(), fitter.adjustments()};
}

std::string joinAdjustments(const std::vector<std::string> &adjustments)
{
    std::string text;
    for (const std::string &adjustment : adjustments)
        text += (text.empty() ? "" : "; ") + adjustment;
    return text;
}

}  // namespace lse
