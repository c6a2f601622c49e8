// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/ops/cross_entropy.h"
#include "reference/ops/parallel_thresholds.h"

#include <algorithm>
#include <cmath>

namespace lse::reference {

namespace {

// (row maximum, log Σ exp(z − max)) of one row.
template <typename S>
void logSumExp(const S *z, Index v, S &row_max, S &log_sum)
{
    const ConstArrayView<S> row(z, v);
    row_max = row.maxCoeff();
    log_sum = std::log((row - row_max).exp().sum());
}

template <typename S>
S orderedMean(const S *row_loss, Index n)
{
    double total = 0;
    for (Index i = 0; i < n; ++i)
        total += double(row_loss[i]);
    return S(total / double(n));
}

}  // namespace

template <typename S>
void softmaxRows(const S *x, S *y, Index n, Index v)
{
#pragma omp parallel for schedule(static) if (n >= 2 && n * v >= parallelMinElements(ParallelKernel::CrossEntropy))
    for (Index i = 0; i < n; ++i) {
        S row_max, log_sum;
        logSumExp(x + i * v, v, row_max, log_sum);
        // (x − max) first: it is exact near the maximum, whereas max + log_sum would round at the
        // scale of the logits (e.g. 1e-5 for logits near 100 in float).
        ArrayView<S>(y + i * v, v) = ((ConstArrayView<S>(x + i * v, v) - row_max) - log_sum).exp();
    }
}

template <typename S>
S crossEntropyLoss(const S *logits, const std::int32_t *targets, S *row_loss, Index n, Index v)
{
#pragma omp parallel for schedule(static) if (n >= 2 && n * v >= parallelMinElements(ParallelKernel::CrossEntropy))
    for (Index i = 0; i < n; ++i) {
        const S *z = logits + i * v;  // (V)
        S row_max, log_sum;
        logSumExp(z, v, row_max, log_sum);
        row_loss[i] = row_max + log_sum - z[targets[i]];
    }
    return orderedMean(row_loss, n);
}

template <typename S>
S crossEntropyForwardBackward(const S *logits, const std::int32_t *targets, S *dlogits, S *row_loss, Index n,
                              Index v)
{
    const S inv_n = S(1) / S(n);
#pragma omp parallel for schedule(static) if (n >= 2 && n * v >= parallelMinElements(ParallelKernel::CrossEntropy))
    for (Index i = 0; i < n; ++i) {
        const S *z = logits + i * v;
        S *dz = dlogits + i * v;
        S row_max, log_sum;
        logSumExp(z, v, row_max, log_sum);
        row_loss[i] = row_max + log_sum - z[targets[i]];
        // Element-wise, so writing over the logits (dz == z) is safe. Subtraction order as in softmaxRows.
        ArrayView<S>(dz, v) = ((ConstArrayView<S>(z, v) - row_max) - log_sum).exp() * inv_n;
        dz[targets[i]] -= inv_n;
    }
    return orderedMean(row_loss, n);
}

#define LSE_INSTANTIATE(S)                                                                                   \
    template void softmaxRows<S>(const S *, S *, Index, Index);                                              \
    template S crossEntropyLoss<S>(const S *, const std::int32_t *, S *, Index, Index);                     \
    template S crossEntropyForwardBackward<S>(const S *, const std::int32_t *, S *, S *, Index, Index);
LSE_INSTANTIATE(float)
LSE_INSTANTIATE(double)
#undef LSE_INSTANTIATE

}  // namespace lse::reference
