// SPDX-License-Identifier: GPL-3.0-or-later
// Row normalisations over the model width. RMSNorm (Zhang & Sennrich 2019, Eq. 4):
// y = x / sqrt(mean(x²) + eps) ⊙ g. LayerNorm (Ba et al. 2016): y = (x − μ) / sqrt(var + eps) ⊙ g + b.
// Shape legend: N rows (B·T tokens), D d_model. `stats` keeps what the backward pass needs per row:
// RMSNorm its 1/rms (N); LayerNorm its mean and 1/σ interleaved (N, 2).
#pragma once

#include "reference/ops/eigen_maps.h"

namespace lse::reference {

template <typename S>
void rmsNormForward(const S *x, const S *gain, S *y, S *stats, Index n, Index d, S eps);
// dx (N, D) = ∂L/∂x (overwritten, or added when accumulate); dgain (D) += Σ_rows dy ⊙ x̂.
template <typename S>
void rmsNormBackward(const S *x, const S *gain, const S *stats, const S *dy, S *dx, S *dgain, Index n, Index d,
                     bool accumulate = false);

template <typename S>
void layerNormForward(const S *x, const S *gain, const S *bias, S *y, S *stats, Index n, Index d, S eps);
// As rmsNormBackward, plus dbias (D) += Σ_rows dy.
template <typename S>
void layerNormBackward(const S *x, const S *gain, const S *stats, const S *dy, S *dx, S *dgain, S *dbias, Index n,
                       Index d, bool accumulate = false);

}  // namespace lse::reference
