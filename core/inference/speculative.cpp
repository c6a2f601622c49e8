// SPDX-License-Identifier: GPL-3.0-or-later
#include "inference/speculative.h"

#include <cmath>

namespace lse::inference {

double expectedTokensPerTargetStep(double acceptance, int draft_tokens)
{
    const double gamma = draft_tokens;
    // The geometric series 1 + α + … + α^γ; its closed form divides by zero at α = 1.
    if (std::fabs(1.0 - acceptance) < 1e-12)
        return gamma + 1;
    return (1.0 - std::pow(acceptance, gamma + 1)) / (1.0 - acceptance);
}

double speculativeSpeedup(double acceptance, int draft_tokens, double cost_coefficient)
{
    return expectedTokensPerTargetStep(acceptance, draft_tokens) / (double(draft_tokens) * cost_coefficient + 1.0);
}

}  // namespace lse::inference
