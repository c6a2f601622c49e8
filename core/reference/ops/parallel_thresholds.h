// SPDX-License-Identifier: GPL-3.0-or-later
// From how many elements each element-wise kernel of the reference splits its loop over threads.
//
// A split pays when the time the other threads save, (threads − 1) · the loop's time on all
// threads, exceeds what the parallel region costs (an OpenMP fork and join, measured by the
// kernel factors as barrier_seconds: about 0.5 µs on two threads here). That point differs by
// kernel: a SwiGLU element (an exp and a divide) costs several times a residual add's. The fixed
// kParallelMinWork is the default; useThreads (thread_choice.h) replaces it with the thresholds
// cpuParallelMinElements (performance/cpu_kernel_time.h) derives from this machine's cached
// kernel factors at the run's thread count, and the predictor applies the same thresholds, so a
// measured operator and its prediction split (or not) alike (issue 35).
#pragma once

#include <cstddef>

namespace lse::reference {

// Below this many scalar operations a loop runs on one thread by default: starting an OpenMP team
// costs a few microseconds, more than small ops (decode steps, gradient checks) take.
inline constexpr std::ptrdiff_t kParallelMinWork = std::ptrdiff_t(1) << 15;

enum class ParallelKernel { Norm, Residual, Activation, Rope, CrossEntropy };
inline constexpr int kParallelKernelCount = 5;

// The kernel factors' names of the classes ("norm", "residual", "activation", "rope",
// "cross_entropy").
const char *parallelKernelName(ParallelKernel kernel);

// Elements (rows · width; rows · d_ff for the activation; rotated elements for RoPE; rows · vocab
// for the cross-entropy) from which a kernel of the class runs on more than one thread.
struct ParallelThresholds {
    std::ptrdiff_t elements[kParallelKernelCount] = {kParallelMinWork, kParallelMinWork, kParallelMinWork / 8,
                                            kParallelMinWork, kParallelMinWork};
    std::ptrdiff_t &operator[](ParallelKernel kernel) { return elements[int(kernel)]; }
    std::ptrdiff_t operator[](ParallelKernel kernel) const { return elements[int(kernel)]; }
    friend bool operator==(const ParallelThresholds &, const ParallelThresholds &) = default;
};

// The thresholds in force (one relaxed atomic load each: read by every kernel call). Set between
// runs, by useThreads; a kernel running meanwhile sees the old or the new value, both valid.
std::ptrdiff_t parallelMinElements(ParallelKernel kernel);
ParallelThresholds parallelThresholds();
void setParallelThresholds(const ParallelThresholds &thresholds);

// Sets thresholds for its lifetime and restores the previous ones (the kernel benchmark measures
// with the defaults, whatever a run set before).
class ScopedParallelThresholds {
public:
    explicit ScopedParallelThresholds(const ParallelThresholds &thresholds) : previous_(parallelThresholds())
    {
        setParallelThresholds(thresholds);
    }
    ~ScopedParallelThresholds() { setParallelThresholds(previous_); }
    ScopedParallelThresholds(const ScopedParallelThresholds &) = delete;
    ScopedParallelThresholds &operator=(const ScopedParallelThresholds &) = delete;

private:
    ParallelThresholds previous_;
};

}  // namespace lse::reference
