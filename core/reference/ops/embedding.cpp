// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/ops/embedding.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace lse::reference {

template <typename S>
void embeddingForward(const std::int32_t *ids, const S *table, S *out, Index n, Index d)
{
#pragma omp parallel for schedule(static) if (n * d >= kParallelMinWork)
    for (Index i = 0; i < n; ++i)
        std::memcpy(out + i * d, table + Index(ids[i]) * d, std::size_t(d) * sizeof(S));
}

template <typename S>
void embeddingBackward(const std::int32_t *ids, const S *dout, S *dtable, Index n, Index d)
{
    // Serial over tokens: repeated ids would race if rows were split across threads. Columns are
    // independent, so the threads split blocks of those instead.
    const Index blocks = (d + kColumnBlock - 1) / kColumnBlock;
#pragma omp parallel for schedule(static) if (n * d >= kParallelMinWork)
    for (Index cb = 0; cb < blocks; ++cb) {
        const Index j0 = cb * kColumnBlock, j1 = std::min(d, j0 + kColumnBlock);
        for (Index i = 0; i < n; ++i)
            for (Index j = j0; j < j1; ++j)
                dtable[Index(ids[i]) * d + j] += dout[i * d + j];
    }
}

template <typename S>
void addLearnedPositions(S *x, const S *positions, Index b, Index t, Index d, Index start)
{
#pragma omp parallel for schedule(static) if (b * t * d >= kParallelMinWork)
    for (Index row = 0; row < b * t; ++row) {
        const S *p = positions + (start + row % t) * d;  // (D) position row of this token
        S *xr = x + row * d;
        for (Index j = 0; j < d; ++j)
            xr[j] += p[j];
    }
}

template <typename S>
void addLearnedPositionsBackward(const S *dx, S *dpositions, Index b, Index t, Index d, Index start)
{
#pragma omp parallel for schedule(static) if (b * t * d >= kParallelMinWork)
    for (Index pos = 0; pos < t; ++pos) {
        S *dp = dpositions + (start + pos) * d;  // (D)
        for (Index seq = 0; seq < b; ++seq) {
            const S *g = dx + (seq * t + pos) * d;
            for (Index j = 0; j < d; ++j)
                dp[j] += g[j];
        }
    }
}

template <typename S>
void addSinusoidalPositions(S *x, Index b, Index t, Index d, Index start)
{
#pragma omp parallel for schedule(static) if (b * t * d * 8 >= kParallelMinWork)
    for (Index row = 0; row < b * t; ++row) {
        const double pos = double(start + row % t);
        S *xr = x + row * d;
        for (Index j = 0; j < d; ++j) {
            // Pairs (2i, 2i+1) share the frequency 10000^(-2i/D); computed in double so the float
            // and double builds see the same table.
            const Index i2 = j - (j & 1);
            const double angle = pos * std::pow(10000.0, -double(i2) / double(d));
            xr[j] += S((j & 1) ? std::cos(angle) : std::sin(angle));
        }
    }
}

#define LSE_INSTANTIATE(S)                                                                           \
    template void embeddingForward<S>(const std::int32_t *, const S *, S *, Index, Index);          \
    template void embeddingBackward<S>(const std::int32_t *, const S *, S *, Index, Index);         \
    template void addLearnedPositions<S>(S *, const S *, Index, Index, Index, Index);              \
    template void addLearnedPositionsBackward<S>(const S *, S *, Index, Index, Index, Index);      \
    template void addSinusoidalPositions<S>(S *, Index, Index, Index, Index);
LSE_INSTANTIATE(float)
LSE_INSTANTIATE(double)
#undef LSE_INSTANTIATE

}  // namespace lse::reference
