// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/optimizer.h"

#include <cmath>
#include <cstddef>
#include <string>

namespace lse {

namespace {

// Below this many elements a tensor is updated on one thread: starting the OpenMP team costs more
// than the few microseconds of arithmetic.
constexpr std::size_t kParallelThreshold = std::size_t(1) << 15;

bool inRange(double x, double lo, double hi) { return x >= lo && x < hi; }

}  // namespace

Problems AdamWConfig::validate() const
{
    Problems problems;
    auto check = [&](bool ok, const char *field, const std::string &rule) {
        if (!ok)
            problems.push_back({field, "range", std::string(field) + " " + rule + "."});
    };
    check(learningRate >= 0 && std::isfinite(learningRate), "optimizer.learning_rate", "must be a finite number ≥ 0");
    check(inRange(beta1, 0, 1), "optimizer.beta1", "must be in [0, 1)");
    check(inRange(beta2, 0, 1), "optimizer.beta2", "must be in [0, 1)");
    check(eps >= 0 && std::isfinite(eps), "optimizer.eps", "must be a finite number ≥ 0");
    check(weightDecay >= 0 && std::isfinite(weightDecay), "optimizer.weight_decay", "must be a finite number ≥ 0");
    return problems;
}

template <typename Scalar>
AdamW<Scalar>::AdamW(std::vector<ParamSpan<Scalar>> params, AdamWConfig config)
    : params_(std::move(params)), config_(config)
{
    // Frozen spans get empty moments: they hold no state, as in PyTorch.
    m_.reserve(params_.size());
    v_.reserve(params_.size());
    for (const ParamSpan<Scalar> &p : params_) {
        const std::size_t n = p.grad != nullptr ? p.count : 0;
        m_.emplace_back(n, Scalar(0));
        v_.emplace_back(n, Scalar(0));
    }
}

template <typename Scalar>
void AdamW<Scalar>::step()
{
    step(config_.learningRate);
}

template <typename Scalar>
void AdamW<Scalar>::step(double learningRate)
{
    ++step_;
    const double t = static_cast<double>(step_);
    // Bias corrections of both moments folded into the step size (Kingma & Ba 2015, end of
    // section 2); powers are recomputed from t, not accumulated, so a resumed run gets the same
    // bits as an uninterrupted one.
    const double alphaT = learningRate * std::sqrt(1.0 - std::pow(config_.beta2, t)) / (1.0 - std::pow(config_.beta1, t));
    const auto b1 = static_cast<Scalar>(config_.beta1);
    const auto b2 = static_cast<Scalar>(config_.beta2);
    const auto oneMinusB1 = static_cast<Scalar>(1.0 - config_.beta1);
    const auto oneMinusB2 = static_cast<Scalar>(1.0 - config_.beta2);
    const auto eps = static_cast<Scalar>(config_.eps);
    const auto stepSize = static_cast<Scalar>(alphaT);

    for (std::size_t s = 0; s < params_.size(); ++s) {
        const ParamSpan<Scalar> &p = params_[s];
        if (p.grad == nullptr)
            continue;
        const auto decay = static_cast<Scalar>(p.decay ? learningRate * config_.weightDecay : 0.0);
        Scalar *theta = p.param;
        const Scalar *g = p.grad;
        Scalar *m = m_[s].data();
        Scalar *v = v_[s].data();
        const auto n = static_cast<std::ptrdiff_t>(p.count);
        // Element-wise, so threads never share an element and the result does not depend on the
        // number of threads.
#pragma omp parallel for simd schedule(static) if (p.count >= kParallelThreshold)
        for (std::ptrdiff_t i = 0; i < n; ++i) {
            const Scalar gi = g[i];
            const Scalar mi = b1 * m[i] + oneMinusB1 * gi;
            const Scalar vi = b2 * v[i] + oneMinusB2 * gi * gi;
            m[i] = mi;
            v[i] = vi;
            Scalar th = theta[i] - stepSize * mi / (std::sqrt(vi) + eps);
            th -= decay * th;
            theta[i] = th;
        }
    }
}

template <typename Scalar>
std::size_t AdamW<Scalar>::stateBytes() const
{
    std::size_t bytes = 0;
    for (std::size_t s = 0; s < m_.size(); ++s)
        bytes += (m_[s].size() + v_[s].size()) * sizeof(Scalar);
    return bytes;
}

template <typename Scalar>
AdamWState<Scalar> AdamW<Scalar>::exportState() const
{
    return AdamWState<Scalar>{step_, m_, v_};
}

template <typename Scalar>
Result<bool> AdamW<Scalar>::importState(const AdamWState<Scalar> &state)
{
    Problems problems;
    if (state.step < 0)
        problems.push_back({"optimizer.step", "range", "optimizer.step (" + std::to_string(state.step) + ") must not be negative."});
    if (state.m.size() != m_.size() || state.v.size() != v_.size()) {
        problems.push_back({"optimizer.state", "count",
                            "optimizer.state has " + std::to_string(state.m.size()) + " first and " + std::to_string(state.v.size()) +
                                " second moments for " + std::to_string(m_.size()) + " parameter tensors."});
    } else {
        for (std::size_t s = 0; s < m_.size(); ++s) {
            if (state.m[s].size() != m_[s].size() || state.v[s].size() != v_[s].size())
                problems.push_back({"optimizer.state." + std::to_string(s), "size",
                                    "optimizer.state." + std::to_string(s) + ": moments of " + std::to_string(state.m[s].size()) + " and " +
                                        std::to_string(state.v[s].size()) + " elements for a tensor of " +
                                        std::to_string(m_[s].size()) + " (trainable) elements."});
        }
    }
    if (!problems.empty())
        return problems;
    // Assignment into equally sized vectors reuses their storage.
    for (std::size_t s = 0; s < m_.size(); ++s) {
        m_[s].assign(state.m[s].begin(), state.m[s].end());
        v_[s].assign(state.v[s].begin(), state.v[s].end());
    }
    step_ = state.step;
    return true;
}

template <typename Scalar>
double globalGradNorm(const std::vector<ParamSpan<Scalar>> &params)
{
    // One thread and a fixed order: the clip factor, and so the whole run, must not depend on how
    // a parallel reduction happened to combine partial sums.
    double sum = 0;
    for (const ParamSpan<Scalar> &p : params) {
        if (p.grad == nullptr)
            continue;
        for (std::size_t i = 0; i < p.count; ++i) {
            const auto g = static_cast<double>(p.grad[i]);
            sum += g * g;
        }
    }
    return std::sqrt(sum);
}

template <typename Scalar>
double clipGradNorm(const std::vector<ParamSpan<Scalar>> &params, double maxNorm)
{
    const double norm = globalGradNorm(params);
    scaleGradientsToNorm(params, norm, maxNorm);
    return norm;
}

template <typename Scalar>
void scaleGradientsToNorm(const std::vector<ParamSpan<Scalar>> &params, double norm, double maxNorm)
{
    if (norm > maxNorm) {
        // The 1e-6 keeps the factor finite for a zero max norm and matches PyTorch/CS336 exactly.
        const auto scale = static_cast<Scalar>(maxNorm / (norm + 1e-6));
        for (const ParamSpan<Scalar> &p : params) {
            if (p.grad == nullptr)
                continue;
            for (std::size_t i = 0; i < p.count; ++i)
                p.grad[i] *= scale;
        }
    }
}

template class AdamW<float>;
template class AdamW<double>;
template double globalGradNorm<float>(const std::vector<ParamSpan<float>> &);
template double globalGradNorm<double>(const std::vector<ParamSpan<double>> &);
template double clipGradNorm<float>(const std::vector<ParamSpan<float>> &, double);
template double clipGradNorm<double>(const std::vector<ParamSpan<double>> &, double);
template void scaleGradientsToNorm<float>(const std::vector<ParamSpan<float>> &, double, double);
template void scaleGradientsToNorm<double>(const std::vector<ParamSpan<double>> &, double, double);

}  // namespace lse
