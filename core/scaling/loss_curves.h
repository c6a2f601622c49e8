// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Curves of the Chinchilla loss L(N, D) for the charts and tests: iso-FLOP profiles (L over N at
// fixed C = 6ND, Hoffmann et al. 2022 §3.2 / Figure 3), their numerical minimum, iso-loss contour
// lines of L(N, D) and the compute-optimal frontier.

#include "scaling/chinchilla_law.h"

#include <vector>

namespace lse::scaling {

struct LossPoint {
    double params = 0;
    double tokens = 0;
    double loss = 0;
};

// `points` log-spaced model sizes from `min_params` to `max_params` (both > 0, points >= 2), each
// trained on D = C / (6N) tokens.
std::vector<LossPoint> isoFlopCurve(double compute, double min_params, double max_params, int points,
                                    const LossFit &fit = kChinchillaApproach3);

// The model size minimising L along the iso-FLOP curve of `compute`, found numerically by golden-
// section search on log N (the curve is convex in log N: A·N^-α + B·(6N/C)^β is a sum of
// exponentials of log N). Independent of the closed form, which the tests check it against.
ComputeOptimum minimiseAlongIsoFlop(double compute, const LossFit &fit = kChinchillaApproach3);

// The contour L(N, D) = level: D(N) = (B / (level − E − A/N^α))^(1/β) wherever level − E − A/N^α
// > 0, at `points` log-spaced N in [min_params, max_params], keeping only the points with D in
// [min_tokens, max_tokens]. Empty when level <= E (no model reaches the irreducible loss).
std::vector<LossPoint> isoLossContour(double level, double min_params, double max_params, double min_tokens,
                                      double max_tokens, int points, const LossFit &fit = kChinchillaApproach3);

// The closed-form optimum for `points` log-spaced budgets from `min_compute` to `max_compute`.
std::vector<ComputeOptimum> computeOptimalFrontier(double min_compute, double max_compute, int points,
                                                   const LossFit &fit = kChinchillaApproach3);

// `points` log-spaced values from `low` to `high` (both > 0; points >= 2).
std::vector<double> logSpaced(double low, double high, int points);

}  // namespace lse::scaling
