// SPDX-License-Identifier: GPL-3.0-or-later
// The counting rules for FLOPs, stated once. The cost engine's operator list (operator_list.cpp),
// the roofline and the reference transformer's op profiler all read these, so a predicted and a
// measured count can only differ through the shapes, never through the rules.
//
// A multiply-add is 2 FLOPs, so a product of (m x k) and (k x n) is 2·m·n·k. Element-wise
// operators count a fixed number of FLOPs per element they produce; transcendental functions
// (exp, erf, rsqrt) count as one, as the usual hardware accounting does.
#pragma once

#include "scenario/model_config.h"

#include <cstdint>

namespace lse::flop_rules {

inline double matmul(double batch, double m, double n, double k) { return 2.0 * batch * m * n * k; }

inline constexpr double kRmsNorm = 4;       // square, sum, scale by rsqrt(mean + eps), gain
inline constexpr double kLayerNorm = 7;     // + mean, subtract, bias (Zhang & Sennrich 2019)
inline constexpr double kRope = 3;          // 2 multiplies + 1 add per rotated element
inline constexpr double kSoftmax = 5;       // max, subtract, exp, sum, scale per score
inline constexpr double kResidual = 1;
inline constexpr double kPositionAdd = 1;
inline constexpr double kBias = 1;
inline constexpr double kCrossEntropy = 5;  // per logit: max, subtract, exp, sum, (log, pick)
inline constexpr double kReLU = 1;
inline constexpr double kGeLU = 8;          // tanh or erf form
inline constexpr double kSiLU = 4;          // x · sigmoid(x): exp, add, divide, multiply
inline constexpr double kSwiGLU = 5;        // SiLU of the gate + the gate product
inline constexpr double kGeGLU = 9;         // GeLU of the gate + the gate product
// Backward pass: a matmul needs two products (input gradient and weight gradient), and an
// element-wise operator is counted at twice its forward work by the same convention.
inline constexpr double kBackwardMatmulFactor = 2;
inline constexpr double kBackwardElementwiseFactor = 2;
// A gradient that passes through (residual, bias, position add) or is masked (dropout) costs its
// forward work once more; the embedding's backward scatter-adds one value per element.
inline constexpr double kBackwardPassThroughFactor = 1;
inline constexpr double kEmbeddingBackwardPerElement = 1;

inline double normPerElement(NormType norm)
{
    switch (norm) {
    case NormType::LayerNorm: return kLayerNorm;
    case NormType::RMSNorm: return kRmsNorm;
    case NormType::None: return 0;
    }
    return 0;
}

inline double activationPerElement(Activation activation)
{
    switch (activation) {
    case Activation::ReLU: return kReLU;
    case Activation::GeLU: return kGeLU;
    case Activation::SiLU: return kSiLU;
    case Activation::SwiGLU: return kSwiGLU;
    case Activation::GeGLU: return kGeGLU;
    }
    return kGeLU;
}

// Scores a causal softmax touches in a (s x s) attention matrix: only the lower triangle with its
// diagonal is exponentiated; the masked entries are never computed.
inline double causalScoreCount(double s) { return s * (s + 1) / 2; }

}  // namespace lse::flop_rules
