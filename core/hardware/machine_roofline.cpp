// SPDX-License-Identifier: GPL-3.0-or-later
// Measures this machine's roofline: float32 GEMM peak (Eigen) and STREAM triad bandwidth.
//
// Bandwidth follows John McCalpin's STREAM benchmark (https://www.cs.virginia.edu/stream/ref.html):
// the triad a[i] = b[i] + s*c[i] over float64 arrays much larger than the caches, counted as
// 3 arrays x 8 bytes per element (the write-allocate read of a[] is not counted, as in STREAM),
// best time of several runs after a warm-up, arrays first-touched by the threads that later use them.

#include "hardware/machine_roofline.h"

#include "common/file_bytes.h"
#include "common/file_writer.h"
#include "common/json_fields.h"
#include "common/memory_limit.h"

// GCC 12 warns "'__Y' may be used uninitialized" inside its own AVX-512 intrinsics (the deliberate
// `__m512 __Y = __Y;` of _mm512_undefined_ps) when Eigen's GEMM packing is inlined: a false positive,
// GCC bug 105593, fixed in GCC 13. Silenced for this header only so the build stays warning-free.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <Eigen/Core>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#include <omp.h>

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QSysInfo>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <memory>
#include <string>

namespace lse {

namespace {

constexpr const char *kMachineRooflineFormat = "llm-explorer-machine-roofline";
constexpr int kMachineRooflineVersion = 1;

constexpr std::int64_t kMiB = std::int64_t(1) << 20;
constexpr std::int64_t kGiB = std::int64_t(1) << 30;

using Clock = std::chrono::steady_clock;

// Upper bound on the timed runs of one stage when a minimum stage time keeps it repeating.
constexpr int kMaxRuns = 100000;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Results are folded in here so the compiler cannot drop a computation whose output is unused.
volatile double g_sink = 0;

std::string trimmed(const std::string &text)
{
    const std::size_t begin = text.find_first_not_of(" \t\r\n");
    if (begin == std::string::npos)
        return {};
    const std::size_t end = text.find_last_not_of(" \t\r\n");
    return text.substr(begin, end - begin + 1);
}

// The value of the first "key : value" line of /proc/cpuinfo whose key is `key`.
std::string cpuinfoValue(const std::string &key)
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        const std::size_t colon = line.find(':');
        if (colon != std::string::npos && trimmed(line.substr(0, colon)) == key)
            return trimmed(line.substr(colon + 1));
    }
    return {};
}

std::string readFirstLine(const std::string &path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return trimmed(line);
}

// "32K", "1024K", "32M", "1024 KB" -> bytes; 0 when unreadable.
std::int64_t parseCacheSize(const std::string &text)
{
    std::size_t used = 0;
    long long value = 0;
    try {
        value = std::stoll(text, &used);
    } catch (...) {
        return 0;
    }
    const std::string unit = trimmed(text.substr(used));
    const char prefix = unit.empty() ? ' ' : unit.front();
    const std::int64_t scale = prefix == 'K' || prefix == 'k' ? 1024 : prefix == 'M' ? kMiB : prefix == 'G' ? kGiB : 1;
    return value > 0 ? std::int64_t(value) * scale : 0;
}

std::string buildFlags()
{
    std::string flags = "Eigen " + std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) + "."
                        + std::to_string(EIGEN_MINOR_VERSION) + "; SIMD: " + Eigen::SimdInstructionSetsInUse();
#ifdef _OPENMP
    flags += "; OpenMP " + std::to_string(_OPENMP);
#endif
#if defined(__clang__)
    flags += "; Clang " __clang_version__;
#elif defined(__GNUC__)
    flags += "; GCC " __VERSION__;
#endif
    // An unoptimised or sanitised build runs Eigen many times slower; its peak must not be reused by
    // (or replace) the optimised build's.
#ifdef __OPTIMIZE__
    flags += "; optimised";
#else
    flags += "; unoptimised";
#endif
#if defined(__SANITIZE_ADDRESS__)
    flags += "; ASan";
#endif
    return flags;
}

// Sets Eigen's thread count for one scope and restores the previous setting afterwards.
class EigenThreads {
public:
    explicit EigenThreads(int threads) : previous_(Eigen::nbThreads()) { Eigen::setNbThreads(threads); }
    ~EigenThreads() { Eigen::setNbThreads(previous_); }
    EigenThreads(const EigenThreads &) = delete;
    EigenThreads &operator=(const EigenThreads &) = delete;

private:
    int previous_;
};

// Best float32 GEMM rate C = A * B of size n x n over `repeats` timed runs after one warm-up,
// counting 2 n^3 FLOPs per product (one multiply and one add per inner-product term).
// On a machine (or a build: AddressSanitizer's) where one product of size n would last longer than
// kLongestProductSeconds, n is halved until it would not (`n` returns the size measured): the rate
// has reached its plateau long before, and the measurement must not take minutes.
constexpr double kLongestProductSeconds = 1.0;

double sgemmFlopsPerSecond(Eigen::Index &n, int threads, int repeats, double min_seconds,
                           const std::atomic<bool> *cancel)
{
    const EigenThreads scope(threads);
    {
        constexpr Eigen::Index probe = 512;
        const Eigen::MatrixXf a = Eigen::MatrixXf::Random(probe, probe);
        const Eigen::MatrixXf b = Eigen::MatrixXf::Random(probe, probe);
        Eigen::MatrixXf c(probe, probe);
        double seconds = std::numeric_limits<double>::infinity();
        for (int r = 0; r < 2; ++r) {
            const Clock::time_point start = Clock::now();
            c.noalias() = a * b;
            seconds = std::min(seconds, secondsSince(start));
        }
        g_sink = g_sink + double(c(1, 1));
        const double probeRate = 2.0 * double(probe * probe * probe) / std::max(seconds, 1e-9);
        while (n > 2 * probe && 2.0 * double(n) * double(n) * double(n) / probeRate > kLongestProductSeconds)
            n /= 2;
    }
    const Eigen::MatrixXf a = Eigen::MatrixXf::Random(n, n);
    const Eigen::MatrixXf b = Eigen::MatrixXf::Random(n, n);
    Eigen::MatrixXf c(n, n);
    c.noalias() = a * b;  // warm-up: page faults, packing buffers, clocks ramping up
    double best = std::numeric_limits<double>::infinity();
    const Clock::time_point stageStart = Clock::now();
    for (int r = 0; r < repeats || (secondsSince(stageStart) < min_seconds && r < kMaxRuns); ++r) {
        if (cancel && *cancel)
            break;
        const Clock::time_point start = Clock::now();
        c.noalias() = a * b;
        best = std::min(best, secondsSince(start));
        g_sink = g_sink + double(c(r % n, (r * 7) % n));
    }
    const double flops = 2.0 * double(n) * double(n) * double(n);
    return best > 0 && std::isfinite(best) ? flops / best : 0;
}

void triadSerial(double *a, const double *b, const double *c, std::int64_t n, double scalar)
{
    for (std::int64_t i = 0; i < n; ++i)
        a[i] = b[i] + scalar * c[i];
}

void triadParallel(double *a, const double *b, const double *c, std::int64_t n, double scalar)
{
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i)
        a[i] = b[i] + scalar * c[i];
}

// Best triad rate over `repeats` timed runs after one warm-up, STREAM's 24 bytes per element.
double triadBytesPerSecond(double *a, const double *b, const double *c, std::int64_t n, bool parallel, int repeats,
                           double min_seconds, const std::atomic<bool> *cancel)
{
    const double scalar = 3.0;  // STREAM's scalar
    double best = std::numeric_limits<double>::infinity();
    const Clock::time_point stageStart = Clock::now();
    for (int r = -1; r < repeats || (secondsSince(stageStart) < min_seconds && r < kMaxRuns); ++r) {
        if (cancel && *cancel)
            break;
        const Clock::time_point start = Clock::now();
        if (parallel)
            triadParallel(a, b, c, n, scalar);
        else
            triadSerial(a, b, c, n, scalar);
        const double seconds = secondsSince(start);
        if (r >= 0)
            best = std::min(best, seconds);
        g_sink = g_sink + a[std::int64_t(r + 1) * 7919 % n];
    }
    const double bytes = 3.0 * double(sizeof(double)) * double(n);
    return best > 0 && std::isfinite(best) ? bytes / best : 0;
}

struct FreeDeleter {
    void operator()(double *p) const { std::free(p); }
};
using ArrayPointer = std::unique_ptr<double[], FreeDeleter>;

// One array of n doubles on 2 MiB boundaries with transparent huge pages requested: first touch
// then faults once per 2 MiB instead of once per 4 KiB (seconds of kernel time for gigabytes in a
// VM), and the triad is not slowed by TLB misses, which STREAM does not mean to measure.
ArrayPointer allocateArray(std::int64_t n)
{
    constexpr std::size_t kHugePage = std::size_t(2) << 20;
    const std::size_t bytes = (std::size_t(n) * sizeof(double) + kHugePage - 1) / kHugePage * kHugePage;
    ArrayPointer array(static_cast<double *>(std::aligned_alloc(kHugePage, bytes)));
#ifdef MADV_HUGEPAGE
    if (array)
        madvise(array.get(), bytes, MADV_HUGEPAGE);  // only advice: ignored where THP is off
#endif
    return array;
}

struct Arrays {
    ArrayPointer a, b, c;
    std::int64_t n = 0;
};

// Three arrays of `total_bytes` together, halving the size when the allocation fails. The memory
// is left untouched here, so the parallel initialisation is the first touch and places each page
// near the thread that will use it in the parallel triad (STREAM's advice for NUMA machines).
Arrays allocateArrays(std::int64_t total_bytes)
{
    Arrays arrays;
    for (std::int64_t bytes = total_bytes; bytes >= kMiB; bytes /= 2) {
        const std::int64_t n = bytes / std::int64_t(3 * sizeof(double));
        arrays.a = allocateArray(n);
        arrays.b = allocateArray(n);
        arrays.c = allocateArray(n);
        if (arrays.a && arrays.b && arrays.c) {
            arrays.n = n;
            break;
        }
        arrays = Arrays{};
    }
    double *const a = arrays.a.get();
    double *const b = arrays.b.get();
    double *const c = arrays.c.get();
    const std::int64_t n = arrays.n;
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) {
        a[i] = 1.0;
        b[i] = 2.0;
        c[i] = 0.5;
    }
    return arrays;
}

std::int64_t defaultStreamBytes(std::int64_t llc_bytes)
{
    // McCalpin's rule is arrays several times the last-level cache, so that no run is served from
    // cache. A virtual machine may report the whole socket's L3 (glibc says 508 MiB on a 2-vCPU
    // Zen 5 EPYC VM, whose vCPUs share one CCD's 32 MiB), so the total is capped at 1 GiB: first
    // touch of 2 GiB alone took 3.6-10.9 s there on a busy host, against a budget of ~5 s in all.
    const std::int64_t wanted = std::max<std::int64_t>(64 * kMiB, 4 * (llc_bytes > 0 ? llc_bytes : 32 * kMiB));
    std::int64_t cap = kGiB;
    // A quarter of what this process may use (physical memory, ulimit -v, the cgroup limit): a
    // container's limit kills the process when the arrays are first touched.
    if (const MemoryAvailable memory = memoryAvailableToThisProcess(); memory.limit != MemoryLimitKind::Unknown)
        cap = std::min(cap, static_cast<std::int64_t>(memory.bytes / 4));
    return std::max<std::int64_t>(std::min(wanted, cap), 3 * kMiB);
}

void requireField(JsonFieldReader &reader, std::string_view key)
{
    if (!reader.has(key))
        reader.addProblem(key, "required", "missing");
}

}  // namespace

double MachineRoofline::ridge_point_flop_per_byte() const
{
    return bandwidth_bytes_per_s_all_cores > 0 ? peak_flops_per_s_all_cores / bandwidth_bytes_per_s_all_cores : 0;
}

double MachineRoofline::ridge_point_flop_per_byte_one_core() const
{
    return bandwidth_bytes_per_s_one_core > 0 ? peak_flops_per_s_one_core / bandwidth_bytes_per_s_one_core : 0;
}

Problems machineRooflineWarnings(const MachineRoofline &r)
{
    Problems warnings;
    const auto gflops = [](double flops_per_s) {
        char text[32];
        std::snprintf(text, sizeof text, "%.1f GFLOP/s", flops_per_s / 1e9);
        return std::string(text);
    };
    if (r.threads_used > 1 && r.peak_flops_per_s_one_core > 0 &&
        r.peak_flops_per_s_all_cores < r.peak_flops_per_s_one_core)
        warnings.push_back({"peak_flops_per_s_all_cores", "all-cores-slower",
                            "the SGEMM peak on all " + std::to_string(r.threads_used) + " threads (" +
                                gflops(r.peak_flops_per_s_all_cores) + ") is below the one-core peak (" +
                                gflops(r.peak_flops_per_s_one_core) +
                                "): other processes took cores while it was measured"});
    // Memory bandwidth may saturate with one core, so all cores can legitimately be a little
    // slower; a fifth less means the threads did not get their cores.
    if (r.threads_used > 1 && r.bandwidth_bytes_per_s_one_core > 0 &&
        r.bandwidth_bytes_per_s_all_cores < 0.8 * r.bandwidth_bytes_per_s_one_core) {
        char text[160];
        std::snprintf(text, sizeof text, "the STREAM bandwidth on all %d threads (%.1f GB/s) is far below one core's (%.1f GB/s)",
                      r.threads_used, r.bandwidth_bytes_per_s_all_cores / 1e9, r.bandwidth_bytes_per_s_one_core / 1e9);
        warnings.push_back({"bandwidth_bytes_per_s_all_cores", "all-cores-slower",
                            std::string(text) + ": other processes took cores while it was measured"});
    }
    if (r.load_average >= 0 && r.logical_cores > 0 && r.load_average >= r.logical_cores) {
        char load[32];
        std::snprintf(load, sizeof load, "%.2f", r.load_average);
        warnings.push_back({"load_average", "busy",
                            std::string("the load average was ") + load + " on " + std::to_string(r.logical_cores) +
                                " logical cores before measuring: the peaks are too low"});
    }
    if (r.previous_peak_flops_per_s_all_cores > 0 && r.peak_flops_per_s_all_cores > 0) {
        const double ratio = r.peak_flops_per_s_all_cores / r.previous_peak_flops_per_s_all_cores;
        if (ratio > kPlausiblePeakChangeRatio || ratio < 1 / kPlausiblePeakChangeRatio)
            warnings.push_back({"peak_flops_per_s_all_cores", "changed",
                                "the all-cores SGEMM peak (" + gflops(r.peak_flops_per_s_all_cores) +
                                    ") differs from the previous measurement (" +
                                    gflops(r.previous_peak_flops_per_s_all_cores) +
                                    (r.previous_measured_at.empty() ? std::string() : " at " + r.previous_measured_at) +
                                    ") by more than a factor " + std::to_string(kPlausiblePeakChangeRatio).substr(0, 3) +
                                    ": one of them ran under load"});
    }
    return warnings;
}

std::int64_t detectLastLevelCacheBytes()
{
    // Linux describes each cache of cpu0 under index0, index1, ...; the highest level that is not
    // an instruction cache is the last-level cache.
    int bestLevel = 0;
    std::int64_t bestSize = 0;
    for (int index = 0; index < 16; ++index) {
        const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
        const std::string levelText = readFirstLine(dir + "level");
        if (levelText.empty())
            continue;
        if (readFirstLine(dir + "type") == "Instruction")
            continue;
        const int level = std::atoi(levelText.c_str());
        const std::int64_t size = parseCacheSize(readFirstLine(dir + "size"));
        if (size > 0 && level >= bestLevel) {
            bestLevel = level;
            bestSize = size;
        }
    }
    if (bestSize > 0)
        return bestSize;
    // Containers and some hypervisors hide that directory; glibc asks CPUID instead.
    for (const int name : {_SC_LEVEL4_CACHE_SIZE, _SC_LEVEL3_CACHE_SIZE, _SC_LEVEL2_CACHE_SIZE}) {
        if (const long size = sysconf(name); size > 0)
            return std::int64_t(size);
    }
    return parseCacheSize(cpuinfoValue("cache size"));
}

MachineRoofline currentMachineIdentity()
{
    MachineRoofline identity;
    identity.cpu_model = cpuinfoValue("model name");
    if (identity.cpu_model.empty())
        identity.cpu_model = cpuinfoValue("Model");  // some ARM kernels
    if (identity.cpu_model.empty())
        identity.cpu_model = QSysInfo::currentCpuArchitecture().toStdString();
    identity.logical_cores = std::max(1, omp_get_num_procs());
    identity.build_flags = buildFlags();
    return identity;
}

bool sameMachine(const MachineRoofline &a, const MachineRoofline &b)
{
    return a.cpu_model == b.cpu_model && a.logical_cores == b.logical_cores && a.build_flags == b.build_flags;
}

MachineRoofline measureMachineRoofline(const MachineMeasureOptions &options, const MachineMeasureProgress &progress)
{
    MachineRoofline result = currentMachineIdentity();
    result.quick = options.quick;
    if (double load[1]; getloadavg(load, 1) == 1)
        result.load_average = load[0];
    result.threads_used = std::max(1, omp_get_max_threads());
    const int nAll = options.sgemm_n_all_cores > 0 ? options.sgemm_n_all_cores : options.quick ? 256 : 2048;
    const int nOne = options.sgemm_n_one_core > 0 ? options.sgemm_n_one_core : options.quick ? 192 : 1536;
    const int gemmRepeats = std::max(1, options.sgemm_repeats);
    const int streamRepeats = std::max(1, options.stream_repeats);
    const double minSeconds =
        options.min_seconds_per_stage >= 0 ? options.min_seconds_per_stage : options.quick ? 0.1 : 0.0;
    const std::int64_t llc = detectLastLevelCacheBytes();
    const std::int64_t streamBytes =
        options.stream_bytes > 0 ? options.stream_bytes : options.quick ? 6 * kMiB : defaultStreamBytes(llc);
    result.last_level_cache_bytes = double(llc);

    constexpr int kStages = 5;
    const auto report = [&progress](const std::string &stage, int index) {
        if (progress)
            progress(stage, index, kStages);
    };
    const std::string threads = std::to_string(result.threads_used);

    const std::atomic<bool> *cancel = options.cancel;
    const auto cancelled = [cancel] { return cancel && cancel->load(); };

    // Larger matrices for all cores: each thread needs enough blocks to stay busy between barriers.
    if (cancelled())
        return result;
    report("SGEMM float32 n=" + std::to_string(nAll) + " on " + threads + " threads", 0);
    Eigen::Index nAllMeasured = nAll, nOneMeasured = nOne;
    result.peak_flops_per_s_all_cores =
        sgemmFlopsPerSecond(nAllMeasured, result.threads_used, gemmRepeats, minSeconds, cancel);
    result.sgemm_n = int(nAllMeasured);
    if (cancelled())
        return result;
    report("SGEMM float32 n=" + std::to_string(nOne) + " on 1 thread", 1);
    result.peak_flops_per_s_one_core = sgemmFlopsPerSecond(nOneMeasured, 1, gemmRepeats, minSeconds, cancel);
    result.sgemm_n_one_core = int(nOneMeasured);

    if (cancelled())
        return result;
    report("STREAM arrays: " + std::to_string(streamBytes / kMiB) + " MiB, first touch on " + threads + " threads", 2);
    const Arrays arrays = allocateArrays(streamBytes);
    result.stream_bytes = double(arrays.n) * 3.0 * double(sizeof(double));
    if (arrays.n > 0 && !cancelled()) {
        report("STREAM triad on " + threads + " threads", 3);
        result.bandwidth_bytes_per_s_all_cores = triadBytesPerSecond(arrays.a.get(), arrays.b.get(), arrays.c.get(),
                                                                     arrays.n, true, streamRepeats, minSeconds, cancel);
        if (cancelled())
            return result;
        report("STREAM triad on 1 thread", 4);
        result.bandwidth_bytes_per_s_one_core = triadBytesPerSecond(arrays.a.get(), arrays.b.get(), arrays.c.get(),
                                                                    arrays.n, false, streamRepeats, minSeconds, cancel);
    }
    result.measured_at = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
    return result;
}

QJsonObject machineRooflineToJsonObject(const MachineRoofline &r)
{
    QJsonObject object;
    object.insert("format", QLatin1String(kMachineRooflineFormat));
    object.insert("version", kMachineRooflineVersion);
    object.insert("cpu_model", QString::fromStdString(r.cpu_model));
    object.insert("logical_cores", r.logical_cores);
    object.insert("threads_used", r.threads_used);
    object.insert("build_flags", QString::fromStdString(r.build_flags));
    object.insert("peak_flops_per_s_one_core", r.peak_flops_per_s_one_core);
    object.insert("peak_flops_per_s_all_cores", r.peak_flops_per_s_all_cores);
    object.insert("bandwidth_bytes_per_s_one_core", r.bandwidth_bytes_per_s_one_core);
    object.insert("bandwidth_bytes_per_s_all_cores", r.bandwidth_bytes_per_s_all_cores);
    object.insert("ridge_point_flop_per_byte", r.ridge_point_flop_per_byte());
    object.insert("measured_at", QString::fromStdString(r.measured_at));
    object.insert("sgemm_n", r.sgemm_n);
    object.insert("sgemm_n_one_core", r.sgemm_n_one_core);
    object.insert("stream_bytes", r.stream_bytes);
    object.insert("last_level_cache_bytes", r.last_level_cache_bytes);
    object.insert("quick", r.quick);
    object.insert("load_average", r.load_average);
    if (r.previous_peak_flops_per_s_all_cores > 0) {
        object.insert("previous_peak_flops_per_s_all_cores", r.previous_peak_flops_per_s_all_cores);
        object.insert("previous_measured_at", QString::fromStdString(r.previous_measured_at));
    }
    return object;
}

QByteArray machineRooflineToJson(const MachineRoofline &roofline)
{
    return QJsonDocument(machineRooflineToJsonObject(roofline)).toJson(QJsonDocument::Indented);
}

Result<MachineRoofline> machineRooflineFromJson(const QByteArray &json)
{
    Problems problems;
    const std::optional<QJsonObject> root =
        parseFormattedJson(json, kMachineRooflineFormat, kMachineRooflineVersion, problems);
    if (!root)
        return problems;
    MachineRoofline r;
    JsonFieldReader reader(*root, "", problems);
    for (const std::string_view key : {"cpu_model", "logical_cores", "build_flags", "peak_flops_per_s_one_core",
                                       "peak_flops_per_s_all_cores", "bandwidth_bytes_per_s_one_core",
                                       "bandwidth_bytes_per_s_all_cores", "measured_at"})
        requireField(reader, key);
    reader.readString("cpu_model", r.cpu_model);
    reader.readCount("logical_cores", r.logical_cores);
    reader.readCount("threads_used", r.threads_used);
    reader.readString("build_flags", r.build_flags);
    reader.readAmount("peak_flops_per_s_one_core", r.peak_flops_per_s_one_core);
    reader.readAmount("peak_flops_per_s_all_cores", r.peak_flops_per_s_all_cores);
    reader.readAmount("bandwidth_bytes_per_s_one_core", r.bandwidth_bytes_per_s_one_core);
    reader.readAmount("bandwidth_bytes_per_s_all_cores", r.bandwidth_bytes_per_s_all_cores);
    reader.readString("measured_at", r.measured_at);
    reader.readAmount("sgemm_n", r.sgemm_n);
    reader.readAmount("sgemm_n_one_core", r.sgemm_n_one_core);
    reader.readAmount("stream_bytes", r.stream_bytes);
    reader.readAmount("last_level_cache_bytes", r.last_level_cache_bytes);
    reader.readBool("quick", r.quick);
    reader.readAmount("previous_peak_flops_per_s_all_cores", r.previous_peak_flops_per_s_all_cores);
    reader.readString("previous_measured_at", r.previous_measured_at);
    if (reader.has("load_average") && (*root)["load_average"].toDouble(0) < 0)
        r.load_average = -1;  // "unknown" is stored as -1, which readAmount would reject
    else
        reader.readAmount("load_average", r.load_average);
    if (!problems.empty())
        return problems;
    return r;
}

std::string machineRooflineCachePath()
{
    QString dir = qEnvironmentVariable("LSE_CACHE_DIR");
    if (dir.isEmpty())
        dir = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation)
              + QStringLiteral("/llm-systems-explorer");
    return QDir(dir).filePath(QStringLiteral("machine-roofline.json")).toStdString();
}

MachineRooflineCacheLookup lookUpMachineRooflineCache()
{
    MachineRooflineCacheLookup lookup;
    const auto stale = [&lookup](std::string reason) {
        lookup.status = MachineRooflineCacheLookup::Status::Stale;
        lookup.why = std::move(reason);
        return lookup;
    };
    const std::string path = machineRooflineCachePath();
    if (!QFileInfo::exists(QString::fromStdString(path))) {
        lookup.why = path + ": no cached measurement";
        return lookup;
    }
    // A regular file of bounded size; a device or FIFO there is as unusable as a corrupt file.
    const Result<QByteArray> bytes = readFileBytes(path, FileKind::Config);
    if (!bytes)
        return stale("stale cache " + formatProblemsOnOneLine(bytes.problems()));
    Result<MachineRoofline> cached = machineRooflineFromJson(*bytes);
    if (!cached)
        return stale("stale cache " + path + ": not a measurement this program can read (" +
                     formatProblemsOnOneLine(cached.problems()) + ")");
    if (cached->quick)
        return stale("stale cache " + path + ": holds a quick (test-sized) measurement");
    if (!sameMachine(*cached, currentMachineIdentity()))
        return stale("stale cache " + path + ": measured on another CPU, core count or build ('" + cached->cpu_model + "', " +
                     std::to_string(cached->logical_cores) + " cores, " + cached->build_flags + ")");
    lookup.status = MachineRooflineCacheLookup::Status::Found;
    lookup.roofline = std::move(cached.value());
    lookup.roofline->from_cache = true;
    return lookup;
}

std::optional<MachineRoofline> loadCachedMachineRoofline(std::string *why_not)
{
    MachineRooflineCacheLookup lookup = lookUpMachineRooflineCache();
    if (why_not)
        *why_not = lookup.why;
    return std::move(lookup.roofline);
}

Result<std::string> saveMachineRoofline(const MachineRoofline &roofline)
{
    const std::string path = machineRooflineCachePath();
    if (roofline.quick)
        return Result<std::string>::failure(
            path, "quick", path + ": a quick (test-sized) measurement is not this machine's roofline; not cached");
    const QString qpath = QString::fromStdString(path);
    if (!QDir().mkpath(QFileInfo(qpath).absolutePath()))
        return Result<std::string>::failure(path, "write", path + ": cannot create the folder");
    // Every write checked before the file replaces an old cache (QSaveFile on Qt 6.4 can commit a short file).
    const QByteArray json = machineRooflineToJson(roofline);
    FileWriter file(path);
    file.allowReplacingInput();  // the cache this program read before re-measuring
    if (!file.open() || !file.write(json.constData(), static_cast<std::size_t>(json.size())) || !file.replace())
        return Result<std::string>::failure(path, "write", file.problem().message);
    return path;
}

bool measurementCancelled(const MachineMeasureOptions &options) { return options.cancel && options.cancel->load(); }

MachineRoofline machineRoofline(bool remeasure, const MachineMeasureProgress &progress, Problems *save_problems,
                                const MachineMeasureOptions &options)
{
    if (!remeasure) {
        if (std::optional<MachineRoofline> cached = loadCachedMachineRoofline())
            return *cached;
    }
    std::optional<MachineRoofline> replaced = loadCachedMachineRoofline();
    MachineRoofline measured = measureMachineRoofline(options, progress);
    if (measurementCancelled(options))
        return measured;  // partial: caching it would replace a good measurement with zeros
    if (replaced) {
        measured.previous_peak_flops_per_s_all_cores = replaced->peak_flops_per_s_all_cores;
        measured.previous_measured_at = replaced->measured_at;
    }
    const Result<std::string> saved = saveMachineRoofline(measured);
    if (!saved && save_problems)
        save_problems->insert(save_problems->end(), saved.problems().begin(), saved.problems().end());
    return measured;
}

}  // namespace lse
