// SPDX-License-Identifier: GPL-3.0-or-later
#include "scaling/over_training.h"

namespace lse::scaling {

OverTrainingPoint overTrainingAt(double compute, double tokens_per_param, const LossFit &fit)
{
    const ComputeOptimum optimum = computeOptimum(compute, fit);
    const ComputeOptimum split = splitAtTokensPerParam(compute, tokens_per_param, fit);
    OverTrainingPoint point;
    point.tokens_per_param = tokens_per_param;
    point.params = split.params;
    point.tokens = split.tokens;
    point.loss = split.loss;
    point.loss_penalty = split.loss - optimum.loss;
    point.loss_penalty_fraction = point.loss_penalty / optimum.loss;
    point.inference_flops_per_token = kInferenceFlopsPerParameterToken * split.params;
    point.inference_flops_saved_per_token = kInferenceFlopsPerParameterToken * (optimum.params - split.params);
    point.inference_saved_fraction = 1.0 - split.params / optimum.params;
    return point;
}

std::vector<OverTrainingPoint> overTraining(double compute, const std::vector<double> &tokens_per_param,
                                            const LossFit &fit)
{
    std::vector<OverTrainingPoint> points;
    for (double ratio : tokens_per_param)
        points.push_back(overTrainingAt(compute, ratio, fit));
    return points;
}

}  // namespace lse::scaling
