// SPDX-License-Identifier: GPL-3.0-or-later
// How many OpenMP/Eigen threads the reference trainer uses when none is requested.
//
// Every op of a step is a parallel region ending in a barrier, so a step runs at the pace of its
// slowest thread. A thread that shares its core with another busy process gets that core only in
// time slices of milliseconds, and libgomp's waiting threads spin meanwhile: measured on a 2-core
// machine with one core busy, 2 threads trained at ≈630 tokens/s and 1 thread at ≈5,000 (issue 13,
// item 11). libgomp reads its wait policy (OMP_WAIT_POLICY, GOMP_SPINCOUNT) once when it is loaded,
// before main, so a passive wait cannot be switched on from inside the program; instead the default
// takes only the cores that other processes leave idle, sampled from /proc/stat at the start.
#pragma once

#include "hardware/machine_kernel_factors.h"
#include "reference/ops/parallel_thresholds.h"

#include <chrono>
#include <optional>
#include <string>

namespace lse::reference {

struct ThreadChoice {
    int threads = 1;          // what the run uses
    int logical_cores = 1;    // omp_get_num_procs()
    double busy_cores = -1;   // cores other processes kept busy while sampling; -1 unknown
    bool requested = false;   // the caller asked for this count (no sampling)
    std::string reason() const;  // e.g. "2 threads (2 cores, 0.1 busy)" or "1 thread (requested)"
};

// All cores minus those busy with other work, at least 1: a core counts as free when other
// processes use less than kBusyShareThatCostsACore of it.
int threadsForIdleCores(int logical_cores, double busy_cores);
inline constexpr double kBusyShareThatCostsACore = 0.25;

// Busy cores from two snapshots of /proc/stat's "cpu" line (user nice system idle iowait irq
// softirq steal ...): (1 − Δ(idle + iowait) / Δtotal) · logical_cores; nothing when unreadable.
std::optional<double> busyCoresBetween(const std::string &proc_stat_before, const std::string &proc_stat_after,
                                       int logical_cores);

// `requested` > 0 is used as is; 0 samples /proc/stat for `sample_seconds` (the calling thread
// sleeps meanwhile, so its own use is not counted) and applies threadsForIdleCores; all cores when
// /proc/stat is unreadable.
ThreadChoice chooseThreads(int requested, double sample_seconds = 0.2);

// The start of a load sample that other start-up work may overlap: /proc/stat's "cpu" line and
// this process's CPU time at one moment.
struct CpuLoadMark {
    std::string proc_stat;
    double process_cpu_seconds = 0;
    std::chrono::steady_clock::time_point at;
    static CpuLoadMark now();
};

// Busy cores of other processes between two marks: busyCoresBetween less this process's own use
// (its CPU seconds over the wall seconds between them), at least 0; nothing when unreadable.
std::optional<double> otherProcessesBusyCores(const CpuLoadMark &before, const CpuLoadMark &after, int logical_cores);

// As chooseThreads, but the sample runs from `start` (taken before the caller's own start-up work,
// such as building a model, which it does not count) to at least `sample_seconds` after it: the
// caller waits only for what is left of the window (issue 35: `generate` no longer sleeps 0.2 s
// before it starts). A tenth of a second is 10 clock ticks per core: one other process keeping a
// core busy shows as ≥ 0.8 of a core, well above kBusyShareThatCostsACore.
ThreadChoice chooseThreadsSince(int requested, const CpuLoadMark &start, double sample_seconds = 0.1);

// Sets OpenMP's and Eigen's thread counts for what runs next in this process (generation,
// training), and the element-wise kernels' parallel thresholds for that count: from this
// machine's cached kernel factors at `threads` when the cache is usable (parallelThresholdsFor),
// otherwise the fixed defaults.
void useThreads(int threads);
// The same with the factors given (a run that has just measured or loaded them): their
// thresholds when they are for `threads`, otherwise the defaults.
void useThreads(int threads, const CpuKernelFactors &factors);

// Each element-wise kernel class's threshold from the factors (performance::cpuParallelMinElements).
ParallelThresholds parallelThresholdsFor(const CpuKernelFactors &factors);

}  // namespace lse::reference
