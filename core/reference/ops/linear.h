// SPDX-License-Identifier: GPL-3.0-or-later
// Bias-free linear layer y = x·Wᵀ with W stored (d_out, d_in), as torch.nn.Linear and the CS336
// state dict store it. Shape legend: N rows (B·T tokens), Din input width, Dout output width.
#pragma once

#include "reference/ops/eigen_maps.h"

namespace lse::reference {

// x (N, Din) rows `ldx` apart, w (Dout, Din), y (N, Dout) rows `ldy` apart. Overwrites y, or adds
// to it when `accumulate` (a residual stream folded into the GEMM's C += A·B).
template <typename S>
void linearForward(const S *x, Index ldx, const S *w, S *y, Index ldy, Index n, Index d_in, Index d_out,
                   bool accumulate = false);

// dx (N, Din) = dy·W (skipped when dx is null; added when accumulate_dx); dw (Dout, Din) += dyᵀ·x.
template <typename S>
void linearBackward(const S *x, Index ldx, const S *w, const S *dy, Index ldy, S *dx, S *dw, Index n, Index d_in,
                    Index d_out, bool accumulate_dx = false);

}  // namespace lse::reference
