// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/ops/rope.h"
#include "reference/ops/parallel_thresholds.h"

#include <cmath>

namespace lse::reference {

template <typename S>
void RopeTable<S>::build(Index positions, Index head_dim, double theta)
{
    max_positions = positions;
    half = head_dim / 2;
    cos_table.assign(std::size_t(positions * half), S(0));
    sin_table.assign(std::size_t(positions * half), S(0));
    for (Index p = 0; p < positions; ++p)
        for (Index k = 0; k < half; ++k) {
            // Computed in double so the float table is the rounded exact angle.
            const double angle = double(p) * std::pow(theta, -2.0 * double(k) / double(head_dim));
            cos_table[std::size_t(p * half + k)] = S(std::cos(angle));
            sin_table[std::size_t(p * half + k)] = S(std::sin(angle));
        }
}

namespace {

// sign +1 rotates by θ (forward), −1 by −θ (backward).
template <typename S>
void rotate(S *x, Index ld, Index b, Index t, Index n_heads, Index head_dim, const RopeTable<S> &table,
            Index start, S sign)
{
    const Index half = head_dim / 2;
#pragma omp parallel for schedule(static) if (b * t >= 2 && b * t * n_heads * head_dim >= parallelMinElements(ParallelKernel::Rope))
    for (Index row = 0; row < b * t; ++row) {
        const Index pos = start + row % t;
        const S *c = table.cos_table.data() + pos * table.half;  // (Dh/2)
        const S *s = table.sin_table.data() + pos * table.half;  // (Dh/2)
        for (Index h = 0; h < n_heads; ++h) {
            S *v = x + row * ld + h * head_dim;  // (Dh) one head of one token
            for (Index k = 0; k < half; ++k) {
                const S a = v[2 * k], bb = v[2 * k + 1];
                const S sk = sign * s[k];
                v[2 * k] = a * c[k] - bb * sk;
                v[2 * k + 1] = a * sk + bb * c[k];
            }
        }
    }
}

}  // namespace

template <typename S>
void ropeForward(S *x, Index ld, Index b, Index t, Index n_heads, Index head_dim, const RopeTable<S> &table,
                 Index start)
{
    rotate(x, ld, b, t, n_heads, head_dim, table, start, S(1));
}

template <typename S>
void ropeBackward(S *dx, Index ld, Index b, Index t, Index n_heads, Index head_dim, const RopeTable<S> &table,
                  Index start)
{
    rotate(dx, ld, b, t, n_heads, head_dim, table, start, S(-1));
}

template struct RopeTable<float>;
template struct RopeTable<double>;
template void ropeForward<float>(float *, Index, Index, Index, Index, Index, const RopeTable<float> &, Index);
template void ropeForward<double>(double *, Index, Index, Index, Index, Index, const RopeTable<double> &, Index);
template void ropeBackward<float>(float *, Index, Index, Index, Index, Index, const RopeTable<float> &, Index);
template void ropeBackward<double>(double *, Index, Index, Index, Index, Index, const RopeTable<double> &, Index);

}  // namespace lse::reference
