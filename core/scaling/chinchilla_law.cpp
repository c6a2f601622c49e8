// SPDX-License-Identifier: GPL-3.0-or-later
#include "scaling/chinchilla_law.h"

#include <cmath>

namespace lse::scaling {

double loss(double params, double tokens, const LossFit &fit)
{
    return fit.E + fit.A / std::pow(params, fit.alpha) + fit.B / std::pow(tokens, fit.beta);
}

double trainingFlops(double params, double tokens) { return kTrainingFlopsPerParameterToken * params * tokens; }

double optimumScale(const LossFit &fit)
{
    return std::pow(fit.alpha * fit.A / (fit.beta * fit.B), 1.0 / (fit.alpha + fit.beta));
}

double paramsExponent(const LossFit &fit) { return fit.beta / (fit.alpha + fit.beta); }

double tokensExponent(const LossFit &fit) { return fit.alpha / (fit.alpha + fit.beta); }

ComputeOptimum computeOptimum(double compute, const LossFit &fit)
{
    const double G = optimumScale(fit);
    const double budget = compute / kTrainingFlopsPerParameterToken;
    ComputeOptimum optimum;
    optimum.compute = compute;
    optimum.params = G * std::pow(budget, paramsExponent(fit));
    optimum.tokens = std::pow(budget, tokensExponent(fit)) / G;
    optimum.loss = loss(optimum.params, optimum.tokens, fit);
    return optimum;
}

ComputeOptimum splitAtTokensPerParam(double compute, double tokens_per_param, const LossFit &fit)
{
    ComputeOptimum split;
    split.compute = compute;
    split.params = std::sqrt(compute / (kTrainingFlopsPerParameterToken * tokens_per_param));
    split.tokens = tokens_per_param * split.params;
    split.loss = loss(split.params, split.tokens, fit);
    return split;
}

}  // namespace lse::scaling
