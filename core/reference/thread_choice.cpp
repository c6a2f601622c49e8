// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/thread_choice.h"

#include "hardware/machine_roofline.h"
#include "performance/cpu_kernel_time.h"

#include <Eigen/Core>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include <time.h>

namespace lse::reference {

namespace {

std::string readProcStat()
{
    std::ifstream in("/proc/stat");
    std::string line;
    std::getline(in, line);
    return line;
}

// The jiffy counters of the aggregate "cpu" line; empty when `line` is not one.
std::vector<double> cpuCounters(const std::string &text)
{
    std::istringstream in(text);
    std::string label;
    in >> label;
    std::vector<double> values;
    if (label != "cpu")
        return values;
    double value = 0;
    while (in >> value)
        values.push_back(value);
    return values;
}

}  // namespace

std::string ThreadChoice::reason() const
{
    char text[96];
    if (requested)
        std::snprintf(text, sizeof text, "%d thread%s (requested)", threads, threads == 1 ? "" : "s");
    else if (busy_cores >= 0)
        std::snprintf(text, sizeof text, "%d thread%s (%d cores, %.1f busy with other work)", threads,
                      threads == 1 ? "" : "s", logical_cores, busy_cores);
    else
        std::snprintf(text, sizeof text, "%d thread%s (%d cores)", threads, threads == 1 ? "" : "s", logical_cores);
    return text;
}

int threadsForIdleCores(int logical_cores, double busy_cores)
{
    const int cores = std::max(1, logical_cores);
    if (!(busy_cores >= 0))
        return cores;
    const double free_cores = double(cores) - busy_cores + kBusyShareThatCostsACore;
    return std::clamp(int(std::floor(free_cores)), 1, cores);
}

std::optional<double> busyCoresBetween(const std::string &before_text, const std::string &after_text,
                                       int logical_cores)
{
    const std::vector<double> before = cpuCounters(before_text), after = cpuCounters(after_text);
    // Fields 4 and 5 are idle and iowait (proc(5)); at least those must be present.
    if (before.size() < 5 || after.size() != before.size())
        return std::nullopt;
    double total = 0, idle = 0;
    for (std::size_t i = 0; i < before.size() && i < 8; ++i) {  // guest times are inside user/nice
        const double delta = after[i] - before[i];
        total += delta;
        if (i == 3 || i == 4)
            idle += delta;
    }
    if (!(total > 0))
        return std::nullopt;
    return std::clamp(1.0 - idle / total, 0.0, 1.0) * double(std::max(1, logical_cores));
}

ThreadChoice chooseThreads(int requested, double sample_seconds)
{
    // The calling thread sleeps through the whole window, so its own use is nothing to subtract.
    return chooseThreadsSince(requested, requested > 0 ? CpuLoadMark{} : CpuLoadMark::now(), sample_seconds);
}

CpuLoadMark CpuLoadMark::now()
{
    CpuLoadMark mark;
    mark.at = std::chrono::steady_clock::now();
    mark.proc_stat = readProcStat();
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    mark.process_cpu_seconds = double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
    return mark;
}

std::optional<double> otherProcessesBusyCores(const CpuLoadMark &before, const CpuLoadMark &after, int logical_cores)
{
    const std::optional<double> busy = busyCoresBetween(before.proc_stat, after.proc_stat, logical_cores);
    const double wall = std::chrono::duration<double>(after.at - before.at).count();
    if (!busy || !(wall > 0))
        return std::nullopt;
    const double own = (after.process_cpu_seconds - before.process_cpu_seconds) / wall;
    return std::clamp(*busy - own, 0.0, double(std::max(1, logical_cores)));
}

ThreadChoice chooseThreadsSince(int requested, const CpuLoadMark &start, double sample_seconds)
{
    ThreadChoice choice;
    choice.logical_cores = std::max(1, omp_get_num_procs());
    if (requested > 0) {
        choice.threads = requested;
        choice.requested = true;
        return choice;
    }
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start.at).count();
    if (elapsed < sample_seconds)
        std::this_thread::sleep_for(std::chrono::duration<double>(sample_seconds - elapsed));
    if (const std::optional<double> busy = otherProcessesBusyCores(start, CpuLoadMark::now(), choice.logical_cores))
        choice.busy_cores = *busy;
    choice.threads = threadsForIdleCores(choice.logical_cores, choice.busy_cores);
    return choice;
}

ParallelThresholds parallelThresholdsFor(const CpuKernelFactors &factors)
{
    ParallelThresholds out;
    for (int k = 0; k < kParallelKernelCount; ++k) {
        const double elements = performance::cpuParallelMinElements(factors, parallelKernelName(ParallelKernel(k)));
        out.elements[k] = elements >= double(std::numeric_limits<std::ptrdiff_t>::max() / 2)
                              ? std::numeric_limits<std::ptrdiff_t>::max() / 2
                              : std::ptrdiff_t(elements);
    }
    return out;
}

void useThreads(int threads)
{
    threads = std::max(1, threads);
    omp_set_num_threads(threads);
    Eigen::setNbThreads(threads);
    const std::optional<CpuKernelFactors> cached = threads > 1 ? loadCachedCpuKernelFactors(threads) : std::nullopt;
    const bool usable = cached && checkCachedKernelFactorsHere(cached, threads).usable;
    setParallelThresholds(usable ? parallelThresholdsFor(*cached) : ParallelThresholds{});
}

void useThreads(int threads, const CpuKernelFactors &factors)
{
    threads = std::max(1, threads);
    omp_set_num_threads(threads);
    Eigen::setNbThreads(threads);
    setParallelThresholds(threads > 1 && factors.threads == threads ? parallelThresholdsFor(factors) : ParallelThresholds{});
}

}  // namespace lse::reference
