// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/ops/parallel_thresholds.h"

#include <atomic>

namespace lse::reference {

namespace {

std::atomic<std::ptrdiff_t> &threshold(ParallelKernel kernel)
{
    static std::atomic<std::ptrdiff_t> values[kParallelKernelCount] = {
        ParallelThresholds{}.elements[0], ParallelThresholds{}.elements[1], ParallelThresholds{}.elements[2],
        ParallelThresholds{}.elements[3], ParallelThresholds{}.elements[4]};
    return values[int(kernel)];
}

}  // namespace

const char *parallelKernelName(ParallelKernel kernel)
{
    switch (kernel) {
    case ParallelKernel::Norm:
        return "norm";
    case ParallelKernel::Residual:
        return "residual";
    case ParallelKernel::Activation:
        return "activation";
    case ParallelKernel::Rope:
        return "rope";
    case ParallelKernel::CrossEntropy:
        return "cross_entropy";
    }
    return "";
}

std::ptrdiff_t parallelMinElements(ParallelKernel kernel) { return threshold(kernel).load(std::memory_order_relaxed); }

ParallelThresholds parallelThresholds()
{
    ParallelThresholds out;
    for (int k = 0; k < kParallelKernelCount; ++k)
        out.elements[k] = parallelMinElements(ParallelKernel(k));
    return out;
}

void setParallelThresholds(const ParallelThresholds &thresholds)
{
    for (int k = 0; k < kParallelKernelCount; ++k)
        threshold(ParallelKernel(k)).store(thresholds.elements[k], std::memory_order_relaxed);
}

}  // namespace lse::reference
