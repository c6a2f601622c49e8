// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/ops/linear.h"

namespace lse::reference {

template <typename S>
void linearForward(const S *x, Index ldx, const S *w, S *y, Index ldy, Index n, Index d_in, Index d_out,
                   bool accumulate)
{
    const auto X = viewOf(x, n, d_in, ldx);   // (N, Din)
    const auto W = viewOf(w, d_out, d_in);    // (Dout, Din)
    auto Y = viewOf(y, n, d_out, ldy);        // (N, Dout)
    // Wᵀ is only a storage-order flip: Eigen's GEMM packs it directly, no transpose is copied.
    if (accumulate)
        Y.noalias() += X * W.transpose();
    else
        Y.noalias() = X * W.transpose();
}

template <typename S>
void linearBackward(const S *x, Index ldx, const S *w, const S *dy, Index ldy, S *dx, S *dw, Index n, Index d_in,
                    Index d_out, bool accumulate_dx)
{
    const auto X = viewOf(x, n, d_in, ldx);    // (N, Din)
    const auto W = viewOf(w, d_out, d_in);     // (Dout, Din)
    const auto dY = viewOf(dy, n, d_out, ldy); // (N, Dout)
    if (dx) {
        auto dX = viewOf(dx, n, d_in);         // (N, Din)
        if (accumulate_dx)
            dX.noalias() += dY * W;
        else
            dX.noalias() = dY * W;
    }
    auto dW = viewOf(dw, d_out, d_in);         // (Dout, Din), summed over all N tokens
    dW.noalias() += dY.transpose() * X;
}

template void linearForward<float>(const float *, Index, const float *, float *, Index, Index, Index, Index, bool);
template void linearForward<double>(const double *, Index, const double *, double *, Index, Index, Index, Index,
                                    bool);
template void linearBackward<float>(const float *, Index, const float *, const float *, Index, float *, float *,
                                    Index, Index, Index, bool);
template void linearBackward<double>(const double *, Index, const double *, const double *, Index, double *,
                                     double *, Index, Index, Index, bool);

}  // namespace lse::reference
