// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/ops/linear.h"

#include <omp.h>

#include <algorithm>

namespace lse::reference {

namespace {

// A few rows (decode: one token per sequence) against a large weight matrix is a matrix-vector
// product that reads the whole W once per call and is bound by memory bandwidth. Eigen runs
// matrix-vector products on one thread, and its parallel GEMM splits a few rows poorly, so up to
// this many rows the output columns (rows of W) are split over the threads instead: each streams
// its own slice of W. Measured for batched decode of the cs336 shape on 2 threads (`generate
// --batch B`, two alternating A/B rounds): at 8 rows the limit, batch 16/32/64 gave 1,009–1,164 /
// 1,602–1,721 / 1,906–1,977 tokens/s; at 64, 1,202–1,555 / 1,897–2,042 / 2,186–2,429.
constexpr Index kSplitWeightsMaxRows = 64;
// Output columns per slice boundary: 16 floats, one 64-byte cache line of a row of Y.
constexpr Index kSliceAlignment = 16;
// From 2 to this many rows, the product runs as matrix-vector products over blocks of W of about
// kBlockedVectorBytes (an eighth of this CPU's 2 MB L2, so a block stays while every row reads it).
// Measured for the decode step's products of the cs336 shape on one thread (Eigen 3.4, AVX-512):
// 2 rows 2.1-2.3x Eigen's GEMM, 4 rows 1.4-1.7x, 8 rows 1.06-1.2x.
constexpr Index kBlockedVectorMaxRows = 8;
constexpr Index kBlockedVectorBytes = 256 * 1024;

template <typename S>
void product(const S *x, Index ldx, const S *w, S *y, Index ldy, Index n, Index d_in, Index first_out, Index outs,
             bool accumulate)
{
    const auto X = viewOf(x, n, d_in, ldx);                          // (N, Din)
    const auto W = viewOf(w + first_out * d_in, outs, d_in, d_in);   // (outs, Din): rows of W
    auto Y = viewOf(y + first_out, n, outs, ldy);                    // (N, outs)
    if (n >= 2 && n <= kBlockedVectorMaxRows) {
        // A few rows (batched decode): Eigen's GEMM packs W on every call, which costs more than
        // the product. Instead W is taken in blocks that stay in L2, and each row's
        // matrix-vector product runs over the block, so W is read from memory once.
        const Index block = std::max<Index>(kSliceAlignment, kBlockedVectorBytes / Index(sizeof(S)) / std::max<Index>(1, d_in));
        for (Index first = 0; first < outs; first += block) {
            const Index count = std::min(block, outs - first);
            const auto Wb = W.middleRows(first, count);  // (count, Din)
            for (Index r = 0; r < n; ++r) {
                auto Yr = Y.row(r).segment(first, count);
                if (accumulate)
                    Yr.noalias() += X.row(r) * Wb.transpose();
                else
                    Yr.noalias() = X.row(r) * Wb.transpose();
            }
        }
        return;
    }
    // Wᵀ is only a storage-order flip: Eigen's GEMM packs it directly, no transpose is copied.
    if (accumulate)
        Y.noalias() += X * W.transpose();
    else
        Y.noalias() = X * W.transpose();
}

}  // namespace

template <typename S>
void linearForward(const S *x, Index ldx, const S *w, S *y, Index ldy, Index n, Index d_in, Index d_out,
                   bool accumulate)
{
    const int threads = omp_in_parallel() ? 1 : omp_get_max_threads();
    if (n > kSplitWeightsMaxRows || threads < 2 || d_out * d_in < kParallelMinWork || d_out < 2 * kSliceAlignment) {
        product(x, ldx, w, y, ldy, n, d_in, 0, d_out, accumulate);
        return;
    }
#pragma omp parallel num_threads(threads)
    {
        const Index team = omp_get_num_threads(), me = omp_get_thread_num();
        const Index per = (d_out / team + kSliceAlignment - 1) / kSliceAlignment * kSliceAlignment;
        const Index first = std::min(d_out, me * per);
        const Index count = me == team - 1 ? d_out - first : std::min(per, d_out - first);
        if (count > 0)
            product(x, ldx, w, y, ldy, n, d_in, first, count, accumulate);
    }
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
