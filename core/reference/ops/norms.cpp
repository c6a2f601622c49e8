// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/ops/norms.h"
#include "reference/ops/parallel_thresholds.h"

#include <algorithm>
#include <cmath>

namespace lse::reference {

template <typename S>
void rmsNormForward(const S *x, const S *gain, S *y, S *stats, Index n, Index d, S eps)
{
#pragma omp parallel for schedule(static) if (n >= 2 && n * d >= parallelMinElements(ParallelKernel::Norm))
    for (Index i = 0; i < n; ++i) {
        const S *xr = x + i * d;  // (D)
        S *yr = y + i * d;        // (D)
        S sum_sq = 0;
        for (Index j = 0; j < d; ++j)
            sum_sq += xr[j] * xr[j];
        const S rstd = S(1) / std::sqrt(sum_sq / S(d) + eps);
        stats[i] = rstd;
        for (Index j = 0; j < d; ++j)
            yr[j] = xr[j] * rstd * gain[j];
    }
}

template <typename S>
void rmsNormBackward(const S *x, const S *gain, const S *stats, const S *dy, S *dx, S *dgain, Index n, Index d,
                     bool accumulate)
{
    // x̂ = x·r with r = 1/rms; ∂L/∂x = r · (g⊙dy − x̂ · mean(g⊙dy⊙x̂)).
#pragma omp parallel for schedule(static) if (n >= 2 && n * d >= parallelMinElements(ParallelKernel::Norm))
    for (Index i = 0; i < n; ++i) {
        const S *xr = x + i * d, *gr = dy + i * d;
        S *out = dx + i * d;
        const S rstd = stats[i];
        S dot = 0;
        for (Index j = 0; j < d; ++j)
            dot += gr[j] * gain[j] * xr[j] * rstd;
        const S mean_dot = dot / S(d);
        for (Index j = 0; j < d; ++j) {
            const S v = rstd * (gr[j] * gain[j] - xr[j] * rstd * mean_dot);
            out[j] = accumulate ? out[j] + v : v;
        }
    }
    // The gain gradient sums over rows; threads own blocks of columns (never sharing an element)
    // and walk the rows, so each row is read as a contiguous run.
    const Index blocks = (d + kColumnBlock - 1) / kColumnBlock;
#pragma omp parallel for schedule(static) if (n >= 2 && n * d >= parallelMinElements(ParallelKernel::Norm))
    for (Index cb = 0; cb < blocks; ++cb) {
        const Index j0 = cb * kColumnBlock, j1 = std::min(d, j0 + kColumnBlock);
        for (Index i = 0; i < n; ++i)
            for (Index j = j0; j < j1; ++j)
                dgain[j] += dy[i * d + j] * x[i * d + j] * stats[i];
    }
}

template <typename S>
void layerNormForward(const S *x, const S *gain, const S *bias, S *y, S *stats, Index n, Index d, S eps)
{
#pragma omp parallel for schedule(static) if (n >= 2 && n * d >= parallelMinElements(ParallelKernel::Norm))
    for (Index i = 0; i < n; ++i) {
        const S *xr = x + i * d;
        S *yr = y + i * d;
        S mean = 0;
        for (Index j = 0; j < d; ++j)
            mean += xr[j];
        mean /= S(d);
        // Two passes (mean, then centred squares) avoid the cancellation of E[x²] − E[x]².
        S var = 0;
        for (Index j = 0; j < d; ++j)
            var += (xr[j] - mean) * (xr[j] - mean);
        var /= S(d);
        const S rstd = S(1) / std::sqrt(var + eps);
        stats[2 * i] = mean;
        stats[2 * i + 1] = rstd;
        for (Index j = 0; j < d; ++j)
            yr[j] = (xr[j] - mean) * rstd * gain[j] + bias[j];
    }
}

template <typename S>
void layerNormBackward(const S *x, const S *gain, const S *stats, const S *dy, S *dx, S *dgain, S *dbias, Index n,
                       Index d, bool accumulate)
{
    // With ĝ = g⊙dy: ∂L/∂x = r · (ĝ − mean(ĝ) − x̂ · mean(ĝ⊙x̂)).
#pragma omp parallel for schedule(static) if (n >= 2 && n * d >= parallelMinElements(ParallelKernel::Norm))
    for (Index i = 0; i < n; ++i) {
        const S *xr = x + i * d, *gr = dy + i * d;
        S *out = dx + i * d;
        const S mean = stats[2 * i], rstd = stats[2 * i + 1];
        S sum_g = 0, sum_gx = 0;
        for (Index j = 0; j < d; ++j) {
            const S g = gr[j] * gain[j];
            sum_g += g;
            sum_gx += g * (xr[j] - mean) * rstd;
        }
        const S mg = sum_g / S(d), mgx = sum_gx / S(d);
        for (Index j = 0; j < d; ++j) {
            const S xhat = (xr[j] - mean) * rstd;
            const S v = rstd * (gr[j] * gain[j] - mg - xhat * mgx);
            out[j] = accumulate ? out[j] + v : v;
        }
    }
    const Index blocks = (d + kColumnBlock - 1) / kColumnBlock;
#pragma omp parallel for schedule(static) if (n >= 2 && n * d >= parallelMinElements(ParallelKernel::Norm))
    for (Index cb = 0; cb < blocks; ++cb) {
        const Index j0 = cb * kColumnBlock, j1 = std::min(d, j0 + kColumnBlock);
        for (Index i = 0; i < n; ++i)
            for (Index j = j0; j < j1; ++j) {
                const S g = dy[i * d + j];
                dgain[j] += g * (x[i * d + j] - stats[2 * i]) * stats[2 * i + 1];
                dbias[j] += g;
            }
    }
}

#define LSE_INSTANTIATE(S)                                                                                     \
    template void rmsNormForward<S>(const S *, const S *, S *, S *, Index, Index, S);                          \
    template void rmsNormBackward<S>(const S *, const S *, const S *, const S *, S *, S *, Index, Index, bool);  \
    template void layerNormForward<S>(const S *, const S *, const S *, S *, S *, Index, Index, S);             \
    template void layerNormBackward<S>(const S *, const S *, const S *, const S *, S *, S *, S *, Index, Index, \
                                       bool);
LSE_INSTANTIATE(float)
LSE_INSTANTIATE(double)
#undef LSE_INSTANTIATE

}  // namespace lse::reference
