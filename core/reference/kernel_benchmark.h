// SPDX-License-Identifier: GPL-3.0-or-later
// Micro-benchmarks of the reference transformer's kernel classes on this CPU, at one thread count:
// the factors the operator-level step predictor needs (hardware/machine_kernel_factors.h).
//
//   matrix products   Eigen's C = A·Bᵀ (the reference's linear layer) and C += Aᵀ·B (its weight
//                     gradient) on a log grid of (m, n, k) at the run's threads, each call's
//                     operands taken from memory as a training step's are; a point is the best of
//                     a few timed batches of calls after a warm-up (two calls where one call is long)
//   attention         the reference's own attention kernels (scores, values, forward and backward)
//                     on a grid of (sequence, head dim), on the model's fused-QKV layout
//   decode attention  the reference's attention of one new token per sequence against its KV cache
//                     over (keys, head dim), the cache from memory
//   one-row product   the reference's linear layer on one row (Eigen's GEMV) over working sets from
//                     L2- to memory-sized
//   element-wise      a float32 triad over working sets from L2- to memory-sized, split over threads
//                     as the reference's loops are (from kParallelMinWork elements); and the
//                     reference's own RMSNorm, SwiGLU, causal softmax and residual kernels, forward
//                     and backward, whose FLOPs (core/ops/flop_rules.h) per second are the
//                     element-wise rate
//   fixed costs       a call of a tiny kernel; an empty OpenMP parallel region (fork and barrier)
#pragma once

#include "hardware/machine_kernel_factors.h"
#include "hardware/machine_roofline.h"

namespace lse::reference {

struct KernelBenchmarkOptions {
    int threads = 1;
    bool quick = false;  // a small grid and small sizes (tests): well under a second, never cached
    const std::atomic<bool> *cancel = nullptr;
    // Above one thread: the same machine's one-thread factors (same grid), whose product rates are
    // a floor for this thread count's (nullptr: none).
    const CpuKernelFactors *one_thread = nullptr;
};

// Runs in the calling thread and restores OpenMP's and Eigen's thread counts afterwards. A few
// seconds per thread count.
CpuKernelFactors measureCpuKernelFactors(const KernelBenchmarkOptions &options, const MachineMeasureProgress &progress = {});

// The roofline and the kernel factors of this machine for a run at `threads`, each from the cache
// when checkCachedMeasurement accepts it, otherwise measured now (both, so they come from one
// session) and cached. `remeasured_because` says why they were measured again (empty: cached).
struct CpuMachine {
    MachineRoofline roofline;
    CpuKernelFactors kernels;
    std::string remeasured_because;
    // Set when factors measured now above one thread fail gemmThreadScalingIsPlausible (the host
    // held the cores): they are used and cached, and the next run measures them again.
    std::string implausible_because;
    Problems save_problems;
};
// `measure_when_missing`: measure when nothing is cached at all (false: nothing, and `why_not`
// says so — e.g. a train run that was never preceded by `machine`).
std::optional<CpuMachine> cpuMachineForRun(int threads, bool measure_when_missing, const MachineMeasureProgress &progress = {},
                                           std::string *why_not = nullptr, const std::atomic<bool> *cancel = nullptr);

// The kernel factors alone at `threads` (the roofline stays whatever the caller chose): cached when
// checkCachedKernelFactors accepts them, otherwise measured now and cached.
struct KernelFactorsForRun {
    CpuKernelFactors kernels;
    std::string remeasured_because;   // empty: from the cache
    std::string implausible_because;  // as CpuMachine's
    Problems save_problems;
};
std::optional<KernelFactorsForRun> kernelFactorsForRun(int threads, const MachineMeasureProgress &progress = {},
                                                       const std::atomic<bool> *cancel = nullptr);

}  // namespace lse::reference
