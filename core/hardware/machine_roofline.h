// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"

#include <QByteArray>
#include <QJsonObject>

#include <atomic>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace lse {

// This machine's own roofline: the CPU's measured float32 GEMM peak and its main-memory bandwidth,
// on one core and on all cores. The roofline lab plots it beside the catalog GPUs, and the
// reference transformer reports its achieved GFLOP/s and MFU against peak_flops_per_s_all_cores.
struct MachineRoofline {
    // Identity: a cached measurement is reused only when all three match this process.
    std::string cpu_model;    // "model name" of /proc/cpuinfo
    int logical_cores = 0;    // omp_get_num_procs(): the processors this process may run on
    std::string build_flags;  // Eigen version, its SIMD instruction sets, OpenMP, compiler

    int threads_used = 0;  // OpenMP threads of the all-cores runs (omp_get_max_threads())
    double peak_flops_per_s_one_core = 0;
    double peak_flops_per_s_all_cores = 0;
    double bandwidth_bytes_per_s_one_core = 0;
    double bandwidth_bytes_per_s_all_cores = 0;
    std::string measured_at;  // ISO 8601 UTC, e.g. "2026-11-29T17:30:00Z"

    // What was run, so a reader can judge the numbers.
    double sgemm_n = 0;           // square SGEMM size of the all-cores peak
    double sgemm_n_one_core = 0;  // square SGEMM size of the one-core peak
    double stream_bytes = 0;      // total size of the three triad arrays
    double last_level_cache_bytes = 0;  // as detected; 0 when unknown
    bool quick = false;  // test-sized run (cache-resident): not this machine's real roofline
    // 1-minute load average just before measuring (-1 unknown). At or above logical_cores other
    // processes competed for the cores and the numbers, the all-cores ones most, are too low.
    double load_average = -1;
    // The all-cores SGEMM peak and time of the measurement this one replaced in the cache (0 and
    // empty when there was none), so a result far from the last one can be flagged.
    double previous_peak_flops_per_s_all_cores = 0;
    std::string previous_measured_at;

    // Not serialised: whether machineRoofline() returned this from the cache file.
    bool from_cache = false;

    // Arithmetic intensity where the all-cores roofline turns from memory- to compute-bound:
    // peak / bandwidth; 0 when the bandwidth is unknown.
    double ridge_point_flop_per_byte() const;
    double ridge_point_flop_per_byte_one_core() const;
};

struct MachineMeasureOptions {
    // Small, cache-resident sizes that finish in well under a second: for tests, never cached.
    bool quick = false;
    // 0 = default (2048 all cores, 1536 one core; 256 and 192 when quick).
    int sgemm_n_all_cores = 0;
    int sgemm_n_one_core = 0;
    int sgemm_repeats = 3;  // timed runs after one warm-up; the best is kept
    // 0 = default: 4 x the last-level cache, at least 64 MiB, at most 1 GiB and a quarter of the
    // memory this process may use (memoryAvailableToThisProcess; 6 MiB when quick).
    std::int64_t stream_bytes = 0;
    int stream_repeats = 5;  // timed runs after one warm-up; the best is kept
    // Each stage also keeps repeating until it has run this long (< 0 = default: 0.1 s when quick,
    // else 0). Tiny runs take well under a millisecond, so on a busy machine every one of a few
    // multi-threaded runs can lose a thread to another process at a barrier (measured: 1 GFLOP/s
    // instead of 100 at load 7 on 2 cores); the best of many finds a window with all threads running.
    double min_seconds_per_stage = -1;
    // When set and true, the measurement stops before its next stage or timed run (a GUI's Cancel;
    // issue 20: long work has a working Cancel). The figures not measured stay 0 and
    // measurementCancelled() says so.
    const std::atomic<bool> *cancel = nullptr;
};

// Whether `options.cancel` was raised: the measurement made with them is partial.
bool measurementCancelled(const MachineMeasureOptions &options);

// Called before each stage with a description ("SGEMM float32 n=2048 on 2 threads") and the
// stage's position, for progress on a terminal or in a status bar.
using MachineMeasureProgress = std::function<void(std::string_view stage, int index, int count)>;

// Runs the measurement in the calling thread (a few seconds with the default sizes). It changes
// Eigen's global thread count while it runs and restores it afterwards, so do not run Eigen work
// in other threads at the same time (their timings would be wrong anyway).
MachineRoofline measureMachineRoofline(const MachineMeasureOptions &options = {},
                                       const MachineMeasureProgress &progress = {});

// Why a measurement looks wrong, each a Problem naming the suspicious field (empty: plausible).
// Rules: "all-cores-slower" (more threads gave a lower SGEMM peak than one core, or under 80% of
// one core's STREAM bandwidth: other processes took cores while it ran), "busy" (load average at or above the logical cores before measuring),
// "changed" (the all-cores peak differs from the previous measurement by more than
// kPlausiblePeakChangeRatio). Such a peak makes MFU meaningless (it can exceed 100%): re-measure.
Problems machineRooflineWarnings(const MachineRoofline &roofline);
// Two measurements of one idle machine agree within a few percent; a factor this large means one
// of them ran under load.
inline constexpr double kPlausiblePeakChangeRatio = 1.3;

// The identity fields (cpu_model, logical_cores, build_flags) of this process; the rest is zero.
MachineRoofline currentMachineIdentity();
bool sameMachine(const MachineRoofline &a, const MachineRoofline &b);

// Last-level cache size in bytes from /sys/devices/system/cpu/cpu0/cache, else sysconf, else
// /proc/cpuinfo; 0 when none of them says.
std::int64_t detectLastLevelCacheBytes();

// JSON with the struct's field names plus "format", "version" and the derived
// "ridge_point_flop_per_byte" (ignored when read back).
QJsonObject machineRooflineToJsonObject(const MachineRoofline &roofline);
QByteArray machineRooflineToJson(const MachineRoofline &roofline);
Result<MachineRoofline> machineRooflineFromJson(const QByteArray &json);

// $LSE_CACHE_DIR/machine-roofline.json when that variable is set (tests), otherwise
// <GenericCacheLocation>/llm-systems-explorer/machine-roofline.json (~/.cache/... on Linux).
std::string machineRooflineCachePath();

// What the cache file holds for this machine and build.
struct MachineRooflineCacheLookup {
    enum class Status {
        Found,    // a measurement of this machine and build
        Missing,  // never measured (no file)
        Stale,    // a file that cannot be used: unreadable, corrupt (not JSON, missing fields), a quick
                  // run, or another CPU, core count or build; measuring again replaces it
    };
    Status status = Status::Missing;
    std::optional<MachineRoofline> roofline;  // with Found
    std::string why;                          // with Missing and Stale: one line naming the file
};
MachineRooflineCacheLookup lookUpMachineRooflineCache();

// The cached measurement of this machine and build; nothing when the file is missing or stale.
// `why_not` (optional) says which, on one line.
std::optional<MachineRoofline> loadCachedMachineRoofline(std::string *why_not = nullptr);
// Writes the cache file atomically; returns its path. Quick runs are refused (rule "quick").
Result<std::string> saveMachineRoofline(const MachineRoofline &roofline);

// The cached roofline unless `remeasure` or there is none (missing or stale); otherwise measures
// with `options` (the default sizes unless given) and saves — except a cancelled measurement, which
// is returned partial and never saved, recording the replaced cache entry's peak and time as
// previous_*. A failed save is not fatal: the measurement is returned and the problems are added to
// `save_problems` when given. A caller that wants to say why the cache did not serve asks
// lookUpMachineRooflineCache() first.
MachineRoofline machineRoofline(bool remeasure, const MachineMeasureProgress &progress = {},
                                Problems *save_problems = nullptr, const MachineMeasureOptions &options = {});

}  // namespace lse
