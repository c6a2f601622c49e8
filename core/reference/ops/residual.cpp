// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/ops/residual.h"
#include "reference/ops/parallel_thresholds.h"

namespace lse::reference {

template <typename S>
void residualAdd(const S *a, const S *b, S *out, Index n)
{
#pragma omp parallel for schedule(static) if (n >= parallelMinElements(ParallelKernel::Residual))
    for (Index i = 0; i < n; ++i)
        out[i] = a[i] + b[i];
}

template <typename S>
void addInto(S *y, const S *x, Index n)
{
#pragma omp parallel for schedule(static) if (n >= parallelMinElements(ParallelKernel::Residual))
    for (Index i = 0; i < n; ++i)
        y[i] += x[i];
}

template void residualAdd<float>(const float *, const float *, float *, Index);
template void residualAdd<double>(const double *, const double *, double *, Index);
template void addInto<float>(float *, const float *, Index);
template void addInto<double>(double *, const double *, Index);

}  // namespace lse::reference
