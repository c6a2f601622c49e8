// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Over-training for inference (Llama-style: 1,000+ tokens per parameter instead of ≈20): at a
// fixed training compute C, a smaller model trained on more tokens reaches a higher loss than the
// compute-optimal one but costs less per generated token (2·N FLOPs, one forward pass).

#include "scaling/chinchilla_law.h"

#include <vector>

namespace lse::scaling {

struct OverTrainingPoint {
    double tokens_per_param = 0;
    double params = 0;  // √(C / (6·r))
    double tokens = 0;  // r·N
    double loss = 0;
    double loss_penalty = 0;           // loss − the optimum's loss at the same C (>= 0)
    double loss_penalty_fraction = 0;  // loss_penalty / the optimum's loss
    double inference_flops_per_token = 0;        // 2·N
    double inference_flops_saved_per_token = 0;  // 2·(N_opt − N); negative for a larger model
    double inference_saved_fraction = 0;         // 1 − N / N_opt
};

// One point per ratio at the training compute C, against approach 3's closed-form optimum for C.
std::vector<OverTrainingPoint> overTraining(double compute, const std::vector<double> &tokens_per_param,
                                            const LossFit &fit = kChinchillaApproach3);
OverTrainingPoint overTrainingAt(double compute, double tokens_per_param, const LossFit &fit = kChinchillaApproach3);

}  // namespace lse::scaling
