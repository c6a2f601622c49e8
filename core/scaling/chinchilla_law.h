// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Chinchilla scaling law (Hoffmann et al. 2022, "Training Compute-Optimal Large Language
// Models"): approach 3's parametric loss, its closed-form compute-optimal split, training compute
// C = 6·N·D and the ≈20 tokens-per-parameter rule of approaches 1 and 2.
// N is the parameter count, D the training tokens, C the training FLOPs; losses are in nats per
// token on the paper's MassiveText evaluation set.

namespace lse::scaling {

// L(N, D) = E + A / N^α + B / D^β.
struct LossFit {
    double E = 0;      // irreducible loss: the entropy of natural text
    double A = 0;      // model-size term
    double B = 0;      // data term
    double alpha = 0;  // exponent of N
    double beta = 0;   // exponent of D
};

// Approach 3's fitted constants, as printed in the paper (eq. 10 / Appendix D.2, rounded there).
inline constexpr LossFit kChinchillaApproach3{1.69, 406.4, 410.7, 0.34, 0.28};

// Approaches 1 and 2 put the optimum near 20 training tokens per parameter (the paper's Table 3:
// 67B parameters for 1.5T tokens, 70B Chinchilla on 1.4T).
inline constexpr double kChinchillaTokensPerParameter = 20.0;

// FLOPs per parameter per training token: 2 forward + 4 backward (Kaplan et al. 2020, §2.1;
// Hoffmann et al. 2022, §3.3 use the same C ≈ 6ND).
inline constexpr double kTrainingFlopsPerParameterToken = 6.0;
// FLOPs per parameter per generated token: one forward pass, a multiply and an add per weight.
inline constexpr double kInferenceFlopsPerParameterToken = 2.0;

struct ComputeOptimum {
    double compute = 0;  // FLOPs
    double params = 0;
    double tokens = 0;
    double loss = 0;
    double tokensPerParam() const { return tokens / params; }
};

// E + A/N^α + B/D^β.
double loss(double params, double tokens, const LossFit &fit = kChinchillaApproach3);
// 6·N·D.
double trainingFlops(double params, double tokens);

// G = (αA / (βB))^(1/(α+β)) (Hoffmann et al. 2022, eq. 4).
double optimumScale(const LossFit &fit = kChinchillaApproach3);
// Exponents of the optimum: N_opt ∝ C^a with a = β/(α+β), D_opt ∝ C^b with b = α/(α+β) (eq. 4).
double paramsExponent(const LossFit &fit = kChinchillaApproach3);
double tokensExponent(const LossFit &fit = kChinchillaApproach3);

// Minimising L subject to 6ND = C: N_opt = G·(C/6)^a, D_opt = G⁻¹·(C/6)^b (eq. 4). C > 0.
ComputeOptimum computeOptimum(double compute, const LossFit &fit = kChinchillaApproach3);

// The split at `tokens_per_param` tokens per parameter: N = √(C / (6·r)), D = r·N; with
// r = kChinchillaTokensPerParameter the rule of approaches 1/2. C > 0, r > 0.
ComputeOptimum splitAtTokensPerParam(double compute, double tokens_per_param,
                                     const LossFit &fit = kChinchillaApproach3);

}  // namespace lse::scaling
