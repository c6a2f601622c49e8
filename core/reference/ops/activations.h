// SPDX-License-Identifier: GPL-3.0-or-later
// Feed-forward nonlinearities, element-wise over the hidden width. ReLU; GeLU in its exact form
// x·Φ(x) = x/2·(1 + erf(x/√2)) (Hendrycks & Gimpel 2016, not the tanh approximation); SiLU
// x·σ(x) (Elfwing et al. 2018); SwiGLU SiLU(W1x) ⊙ W3x (Shazeer 2020, Eq. 6).
// Shape legend: N rows (B·T tokens), F d_ff. `up` is the up-projection output: (N, F), or for
// SwiGLU (N, 2F) with the W1x half first and the W3x half second (one fused GEMM).
#pragma once

#include "reference/ops/eigen_maps.h"
#include "scenario/model_config.h"

namespace lse::reference {

// out (N, F) = act(up). Activation::GeGLU is not supported (the model rejects it).
template <typename S>
void activationForward(Activation kind, const S *up, S *out, Index n, Index f);
// dup (layout of up) = ∂L/∂up from dout (N, F), overwritten.
template <typename S>
void activationBackward(Activation kind, const S *up, const S *dout, S *dup, Index n, Index f);

// Width of the up-projection for `kind`: 2F for the gated SwiGLU, F otherwise.
inline Index upWidth(Activation kind, Index f) { return kind == Activation::SwiGLU ? 2 * f : f; }

}  // namespace lse::reference
