// SPDX-License-Identifier: GPL-3.0-or-later
#include "scaling/loss_curves.h"

#include <cmath>

namespace lse::scaling {

std::vector<double> logSpaced(double low, double high, int points)
{
    std::vector<double> values;
    if (points < 2) {
        values.push_back(low);
        return values;
    }
    const double first = std::log(low);
    const double step = (std::log(high) - first) / (points - 1);
    for (int i = 0; i < points; ++i)
        values.push_back(i == points - 1 ? high : std::exp(first + step * i));
    return values;
}

std::vector<LossPoint> isoFlopCurve(double compute, double min_params, double max_params, int points,
                                    const LossFit &fit)
{
    std::vector<LossPoint> curve;
    for (double params : logSpaced(min_params, max_params, points)) {
        const double tokens = compute / (kTrainingFlopsPerParameterToken * params);
        curve.push_back({params, tokens, loss(params, tokens, fit)});
    }
    return curve;
}

ComputeOptimum minimiseAlongIsoFlop(double compute, const LossFit &fit)
{
    // The constant E is left out of the objective: near the minimum the excess loss changes in
    // its last digits only, and E would take away another digit of the double's precision.
    const auto excess = [&](double log_params) {
        const double params = std::exp(log_params);
        const double tokens = compute / (kTrainingFlopsPerParameterToken * params);
        return fit.A / std::pow(params, fit.alpha) + fit.B / std::pow(tokens, fit.beta);
    };
    // A bracket of e^±60 around N = D = √(C/6): the optimum lies within a few e-folds of it for
    // any fit with comparable exponents, and the search shrinks the bracket geometrically.
    const double balanced = 0.5 * std::log(compute / kTrainingFlopsPerParameterToken);
    double low = balanced - 60.0;
    double high = balanced + 60.0;
    const double inverse_phi = (std::sqrt(5.0) - 1.0) / 2.0;
    double x1 = high - inverse_phi * (high - low);
    double x2 = low + inverse_phi * (high - low);
    double f1 = excess(x1);
    double f2 = excess(x2);
    // Golden-section search (Kiefer 1953; Press et al., Numerical Recipes §10.2) down to a
    // bracket of 1e-12 in log N, or as far as the doubles can still tell the two probes apart.
    for (int iteration = 0; iteration < 400 && high - low > 1e-12; ++iteration) {
        if (f1 < f2) {
            high = x2;
            x2 = x1;
            f2 = f1;
            x1 = high - inverse_phi * (high - low);
            f1 = excess(x1);
        } else {
            low = x1;
            x1 = x2;
            f1 = f2;
            x2 = low + inverse_phi * (high - low);
            f2 = excess(x2);
        }
    }
    ComputeOptimum optimum;
    optimum.compute = compute;
    optimum.params = std::exp(0.5 * (low + high));
    optimum.tokens = compute / (kTrainingFlopsPerParameterToken * optimum.params);
    optimum.loss = loss(optimum.params, optimum.tokens, fit);
    return optimum;
}

std::vector<LossPoint> isoLossContour(double level, double min_params, double max_params, double min_tokens,
                                      double max_tokens, int points, const LossFit &fit)
{
    std::vector<LossPoint> line;
    if (!(level > fit.E))
        return line;
    for (double params : logSpaced(min_params, max_params, points)) {
        const double data_term = level - fit.E - fit.A / std::pow(params, fit.alpha);
        if (!(data_term > 0))
            continue;  // this model cannot reach the level on any amount of data
        const double tokens = std::pow(fit.B / data_term, 1.0 / fit.beta);
        if (tokens >= min_tokens && tokens <= max_tokens)
            line.push_back({params, tokens, level});
    }
    return line;
}

std::vector<ComputeOptimum> computeOptimalFrontier(double min_compute, double max_compute, int points,
                                                   const LossFit &fit)
{
    std::vector<ComputeOptimum> frontier;
    for (double compute : logSpaced(min_compute, max_compute, points))
        frontier.push_back(computeOptimum(compute, fit));
    return frontier;
}

}  // namespace lse::scaling
