// SPDX-License-Identifier: GPL-3.0-or-later
// AdamW (Loshchilov & Hutter, "Decoupled Weight Decay Regularization", ICLR 2019, Algorithm 2) in
// the form of the CS336 assignment 1 handout, and gradient clipping by global L2 norm. Both work
// on raw parameter/gradient arrays owned by the model, so the optimizer never copies weights and
// allocates nothing after construction. Instantiated for float (what the model trains in) and
// double (for finite-difference and reference checks).
#pragma once

#include "common/problem.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lse {

// One contiguous parameter tensor and its gradient, `count` elements each. A null gradient marks
// a frozen parameter: the optimizer and the clipper skip it (PyTorch's requires_grad=False).
template <typename Scalar>
struct ParamSpan {
    Scalar *param = nullptr;
    Scalar *grad = nullptr;
    std::size_t count = 0;
    // false excludes this tensor from weight decay (a common choice for norm gains and biases;
    // the CS336 reference decays everything, which is the default).
    bool decay = true;
};

struct AdamWConfig {
    double learningRate = 1e-3;  // α (the maximum, when a schedule sets it per step)
    double beta1 = 0.9;
    double beta2 = 0.999;
    double eps = 1e-8;
    double weightDecay = 0.01;  // λ

    // Empty when usable: α, ε, λ ≥ 0 and 0 ≤ β1, β2 < 1.
    Problems validate() const;
};

// Moments and step counter, for checkpoints: one m and one v per parameter span, in the order the
// spans were given. Saving and restoring this (with the weights) makes resumed training
// bit-identical to uninterrupted training.
template <typename Scalar>
struct AdamWState {
    std::int64_t step = 0;
    std::vector<std::vector<Scalar>> m;
    std::vector<std::vector<Scalar>> v;
};

template <typename Scalar>
class AdamW {
public:
    // Allocates the zero-initialised first and second moments for every span now, once.
    AdamW(std::vector<ParamSpan<Scalar>> params, AdamWConfig config);

    // One update of every non-frozen parameter from its current gradient, at the configured
    // learning rate or the one given (a schedule's value for this step). For step t = 1, 2, …:
    //   m ← β1·m + (1 − β1)·g            v ← β2·v + (1 − β2)·g²
    //   α_t = α·√(1 − β2^t) / (1 − β1^t)
    //   θ ← θ − α_t·m / (√v + ε)        θ ← θ − α·λ·θ
    // (handout Algorithm 1). The decay acts on θ directly with the plain α instead of entering the
    // gradient, so the adaptive 1/√v scaling never touches it: the "decoupling" of the paper.
    void step();
    void step(double learningRate);

    std::int64_t stepCount() const { return step_; }
    const AdamWConfig &config() const { return config_; }
    void setLearningRate(double learningRate) { config_.learningRate = learningRate; }
    const std::vector<ParamSpan<Scalar>> &params() const { return params_; }

    // Bytes held in optimizer state (m and v), for the measured-memory table.
    std::size_t stateBytes() const;

    AdamWState<Scalar> exportState() const;
    // Problems (nothing changed) when the state does not fit these parameters.
    Result<bool> importState(const AdamWState<Scalar> &state);

private:
    std::vector<ParamSpan<Scalar>> params_;
    AdamWConfig config_;
    std::vector<std::vector<Scalar>> m_, v_;
    std::int64_t step_ = 0;
};

// √(Σ g²) over every non-frozen gradient, accumulated in double.
template <typename Scalar>
double globalGradNorm(const std::vector<ParamSpan<Scalar>> &params);

// Gradient clipping by global L2 norm (Pascanu et al. 2013; torch.nn.utils.clip_grad_norm_ as
// CS336 specifies it): when the norm exceeds maxNorm, every gradient is scaled by
// maxNorm / (norm + 1e-6). Returns the norm before clipping.
template <typename Scalar>
double clipGradNorm(const std::vector<ParamSpan<Scalar>> &params, double maxNorm);
// The scaling half of clipGradNorm for a norm computed elsewhere (ZeRO: each rank holds a shard of
// the gradient, and the global norm comes from an all-reduce of the shards' sums of squares).
template <typename Scalar>
void scaleGradientsToNorm(const std::vector<ParamSpan<Scalar>> &params, double norm, double maxNorm);

extern template class AdamW<float>;
extern template class AdamW<double>;
extern template double globalGradNorm<float>(const std::vector<ParamSpan<float>> &);
extern template double globalGradNorm<double>(const std::vector<ParamSpan<double>> &);
extern template double clipGradNorm<float>(const std::vector<ParamSpan<float>> &, double);
extern template double clipGradNorm<double>(const std::vector<ParamSpan<double>> &, double);
extern template void scaleGradientsToNorm<float>(const std::vector<ParamSpan<float>> &, double, double);
extern template void scaleGradientsToNorm<double>(const std::vector<ParamSpan<double>> &, double, double);

}  // namespace lse
