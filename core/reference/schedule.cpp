// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/schedule.h"

#include <cmath>
#include <numbers>

namespace lse {

double CosineSchedule::at(std::int64_t t) const
{
    if (t < warmupIters)
        return static_cast<double>(t) / static_cast<double>(warmupIters) * maxLearningRate;
    if (t > cosineCycleIters)
        return minLearningRate;
    if (cosineCycleIters == warmupIters)  // the cosine phase is one step long, at its start
        return maxLearningRate;
    const double progress = static_cast<double>(t - warmupIters) / static_cast<double>(cosineCycleIters - warmupIters);
    return minLearningRate + 0.5 * (1.0 + std::cos(progress * std::numbers::pi)) * (maxLearningRate - minLearningRate);
}

Problems CosineSchedule::validate() const
{
    Problems problems;
    if (!(minLearningRate >= 0) || !std::isfinite(minLearningRate))
        problems.push_back({"schedule.min_learning_rate", "range", "schedule.min_learning_rate must be a finite number ≥ 0."});
    if (!(maxLearningRate >= minLearningRate) || !std::isfinite(maxLearningRate))
        problems.push_back({"schedule.max_learning_rate", "range",
                            "schedule.max_learning_rate (" + std::to_string(maxLearningRate) +
                                ") must be finite and at least schedule.min_learning_rate (" + std::to_string(minLearningRate) + ").",
                            {"schedule.min_learning_rate"}});
    if (warmupIters < 0)
        problems.push_back({"schedule.warmup_iters", "range", "schedule.warmup_iters must not be negative."});
    if (cosineCycleIters < warmupIters)
        problems.push_back({"schedule.cosine_cycle_iters", "range",
                            "schedule.cosine_cycle_iters (" + std::to_string(cosineCycleIters) +
                                ") must be at least schedule.warmup_iters (" + std::to_string(warmupIters) + ").",
                            {"schedule.warmup_iters"}});
    return problems;
}

}  // namespace lse
