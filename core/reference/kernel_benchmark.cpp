// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/kernel_benchmark.h"

#include "ops/flop_rules.h"
#include "reference/ops/activations.h"
#include "reference/ops/attention.h"
#include "reference/ops/cross_entropy.h"
#include "reference/ops/norms.h"
#include "reference/ops/residual.h"
#include "reference/ops/rope.h"

#include <QDateTime>

#include <omp.h>
#if defined(__SSE__)
#include <xmmintrin.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <vector>

namespace lse::reference {

namespace {

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

volatile float g_sink = 0;

// OpenMP's and Eigen's thread counts for one scope, restored afterwards.
class ThreadScope {
public:
    explicit ThreadScope(int threads) : omp_(omp_get_max_threads()), eigen_(Eigen::nbThreads())
    {
        omp_set_num_threads(threads);
        Eigen::setNbThreads(threads);
    }
    ~ThreadScope()
    {
        omp_set_num_threads(omp_);
        Eigen::setNbThreads(eigen_);
    }
    ThreadScope(const ThreadScope &) = delete;
    ThreadScope &operator=(const ThreadScope &) = delete;

private:
    int omp_, eigen_;
};

// The clock of a measurement: on one thread the thread's own CPU time, which does not run while
// another process holds the core (measured on 2 shared cores: wall-clock rates of one product
// varied by up to 2× between runs, CPU-time rates by a few percent); on more threads the wall clock
// (a thread that loses its core holds the others up at the next barrier: that is part of the cost).
double clockSeconds()
{
    if (omp_get_max_threads() == 1 && Eigen::nbThreads() == 1) {
        timespec t{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
    }
    return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}

// Seconds of one call of `run`: after a warm-up, calls are batched until a batch lasts
// `min_batch_seconds`; the best of three batches, what the core does when no other process holds
// it (the share other processes take is measured separately: CpuKernelFactors::cpu_share).
template <typename Run>
double secondsPerCall(const Run &run, double min_batch_seconds, int batches = 0)
{
    // More batches above one thread: a batch there is slowed whenever any thread loses its core.
    if (batches <= 0)
        batches = omp_get_max_threads() > 1 ? 5 : 3;
    const double warmStart = clockSeconds();
    run();
    const double warm = clockSeconds() - warmStart;
    // A call that lasts four batches already spans scheduler time slices: one more call, timed, is
    // the measurement (this is what keeps the grid's large corners, and the whole grid on a build
    // that runs tens of times slower such as AddressSanitizer's, to two calls each).
    if (warm >= 4 * min_batch_seconds) {
        const double start = clockSeconds();
        run();
        return std::min(warm, clockSeconds() - start);
    }
    // The warm-up call's time sets the first batch's length (it is slower than the calls after it:
    // the batch may still come out short and grow).
    int reps = warm > 0 ? int(std::clamp(min_batch_seconds / warm, 1.0, double(1 << 20))) : 1;
    double batch = 0;
    for (;;) {
        const double start = clockSeconds();
        for (int r = 0; r < reps; ++r)
            run();
        batch = clockSeconds() - start;
        if (batch >= min_batch_seconds || reps >= (1 << 20))
            break;
        reps = batch > 0 ? std::max(reps * 2, int(std::min(double(1 << 20), reps * 1.2 * min_batch_seconds / batch))) : reps * 2;
    }
    double best = batch / reps;
    for (int i = 1; i < batches; ++i) {
        const double start = clockSeconds();
        for (int r = 0; r < reps; ++r)
            run();
        best = std::min(best, (clockSeconds() - start) / reps);
    }
    return best;
}

// The grid's largest corners would take seconds. A product is measured with its depth k divided by
// 4 while it is above a quarter of the largest product (not below k = 256, where Eigen's blocking
// has reached its full depth), and above the largest with its larger output side divided by 4 too.
// The output's size (whether C stays in cache) is kept as long as possible: it is what slows the
// large products here. The largest product is what this machine multiplies in kLargestCallSeconds,
// within [kMinLargestFlops, kMaxLargestFlops]: 2 GFLOP (the upper bound) on this class of CPU
// (50-150 GFLOP/s, where Eigen's rate has long reached its plateau), tens of MFLOP on a build that
// runs tens of times slower (AddressSanitizer's), whose figures mean nothing but must not take minutes.
constexpr double kLargestCallSeconds = 0.025;
constexpr double kMinLargestFlops = double(1u << 25);
constexpr double kMaxLargestFlops = double(1u << 31);

// FLOP/s of one 512³ product at the current thread count, after a warm-up call.
double probeGemmFlopsPerSecond()
{
    constexpr Index n = 512;
    const RowMatrix<float> a = RowMatrix<float>::Random(n, n), b = RowMatrix<float>::Random(n, n);
    RowMatrix<float> c(n, n);
    double best = 0;
    for (int i = 0; i < 2; ++i) {
        const double start = clockSeconds();
        c.noalias() = a * b.transpose();
        const double seconds = clockSeconds() - start;
        if (seconds > 0)
            best = std::max(best, 2.0 * double(n * n * n) / seconds);
    }
    g_sink = g_sink + c(0, 0);
    return best;
}

// `cold`: each call takes its operands and output from the next place in 64 MiB buffers, as the
// reference's attention loop does (every (sequence, head) its own slices of Q, K, V and scores),
// instead of the same cache-resident ones.
std::vector<double> gemmTable(const std::vector<double> &axis, int threads, double min_batch_seconds,
                              const std::atomic<bool> *cancel, bool cold)
{
    const ThreadScope scope(threads);
    const double largestFlops = std::clamp(probeGemmFlopsPerSecond() * kLargestCallSeconds, kMinLargestFlops, kMaxLargestFlops);
    const auto largest = Index(axis.back());
    RowMatrix<float> a = RowMatrix<float>::Random(largest, largest);
    RowMatrix<float> b = RowMatrix<float>::Random(largest, largest);
    RowMatrix<float> c = RowMatrix<float>::Zero(largest, largest);
    std::vector<double> table;
    table.reserve(axis.size() * axis.size() * axis.size());
    for (double m0 : axis)
        for (double n0 : axis)
            for (double k0 : axis) {
                if (cancel && *cancel)
                    return {};
                double m = m0, n = n0, k = k0;
                while (2 * m * n * k > largestFlops / 4 && k > 256)
                    k /= 4;
                while (2 * m * n * k > largestFlops)
                    (m >= n ? m : n) /= 4;
                const Index size = largest * largest;
                const auto am = Index(m * k), bm = Index(n * k), cm = Index(m * n);
                Index call = 0;
                const double seconds = secondsPerCall(
                    [&] {
                        const Index at = cold ? call++ : 0;
                        const auto A = viewOf(a.data() + at * am % (size - am + 1), Index(m), Index(k));
                        const auto B = viewOf(b.data() + at * bm % (size - bm + 1), Index(n), Index(k));
                        auto C = viewOf(c.data() + at * cm % (size - cm + 1), Index(m), Index(n));
                        C.noalias() = A * B.transpose();
                    },
                    min_batch_seconds);
                g_sink = g_sink + c(0, 0);
                table.push_back(2 * m * n * k / seconds);
            }
    return table;
}

// float32 triad over a working set, split over the threads as the reference's loops are.
double triadBytesPerSecond(double working_set_bytes, double min_batch_seconds)
{
    const auto n = Index(working_set_bytes / 12);
    std::vector<float> x(std::size_t(n), 1.0f), y(std::size_t(n), 2.0f), z(std::size_t(n), 0.0f);
    float *const zp = z.data();
    const float *const xp = x.data();
    const float *const yp = y.data();
    const double seconds = secondsPerCall(
        [&] {
#pragma omp parallel for schedule(static) if (n >= kParallelMinWork)
            for (Index i = 0; i < n; ++i)
                zp[i] = xp[i] + 3.0f * yp[i];
        },
        min_batch_seconds);
    g_sink = g_sink + z[std::size_t(n / 2)];
    return 12.0 * double(n) / seconds;
}

// The reference's element-wise kernels over one layer's shapes (tokens × model width, tokens ×
// feed-forward width, sequences · heads × context², tokens × vocabulary), each forward and
// backward: FLOPs as the op profiler counts them (core/ops/flop_rules.h) per second.
struct ElementwiseRates {
    std::vector<std::string> kernels;
    std::vector<double> flops_per_second;
    double all = 0;  // all of them together
};

ElementwiseRates elementwiseRates(bool quick, double min_batch_seconds)
{
    const Index tokens = quick ? 256 : 2048, d = quick ? 64 : 256, f = quick ? 192 : 704, t = quick ? 64 : 128;
    const Index heads = 4, sequences = tokens / t, head_dim = d / heads, vocab = quick ? 512 : 4096;
    std::vector<float> x(std::size_t(tokens * d), 0.5f), g(std::size_t(d), 1.0f);
    std::vector<float> y(x.size()), dx(x.size()), dg(g.size()), stats(static_cast<std::size_t>(tokens));
    std::vector<float> up(std::size_t(tokens * 2 * f), 0.25f), act(std::size_t(tokens * f)), dup(up.size());
    AttentionDims dims;
    dims.batch = sequences;
    dims.seq = t;
    dims.heads = dims.kv_heads = heads;
    dims.head_dim = head_dim;
    std::vector<float> probs(std::size_t(sequences * heads * t * t), 0.1f), dprobs(probs.size(), 0.01f);
    RopeTable<float> rope;
    rope.build(t, head_dim, 10000.0);
    std::vector<float> logits(std::size_t(tokens / 4 * vocab), 0.01f), dlogits(logits.size()), rowLoss(std::size_t(tokens / 4));
    std::vector<std::int32_t> targets(std::size_t(tokens / 4));
    for (std::size_t i = 0; i < targets.size(); ++i)
        targets[i] = std::int32_t((i * 7919) % std::size_t(vocab));
    const double rows = double(tokens), width = double(d), ff = double(f);
    const double scores = double(sequences * heads) * flop_rules::causalScoreCount(double(t));
    const double back = flop_rules::kBackwardElementwiseFactor;
    struct Kernel {
        const char *name;
        double flops;
        std::function<void()> run;
    };
    const Kernel kernels[] = {
        {"norm", (1 + back) * flop_rules::kRmsNorm * rows * width,
         [&] {
             rmsNormForward(x.data(), g.data(), y.data(), stats.data(), tokens, d, 1e-5f);
             rmsNormBackward(x.data(), g.data(), stats.data(), y.data(), dx.data(), dg.data(), tokens, d);
         }},
        {"activation", (1 + back) * flop_rules::kSwiGLU * rows * ff,
         [&] {
             activationForward(Activation::SwiGLU, up.data(), act.data(), tokens, f);
             activationBackward(Activation::SwiGLU, up.data(), act.data(), dup.data(), tokens, f);
         }},
        {"softmax", (1 + back) * flop_rules::kSoftmax * scores,
         [&] {
             causalSoftmaxForward(probs.data(), dims);
             causalSoftmaxBackward(probs.data(), dprobs.data(), dims);
         }},
        {"rope", (1 + back) * flop_rules::kRope * rows * width,
         [&] {
             ropeForward(x.data(), d, sequences, t, heads, head_dim, rope, 0);
             ropeBackward(x.data(), d, sequences, t, heads, head_dim, rope, 0);
         }},
        {"residual", flop_rules::kResidual * rows * width, [&] { residualAdd(x.data(), dx.data(), y.data(), tokens * d); }},
        // One fused kernel computes the loss and its gradient (reference/model.cpp).
        {"cross_entropy", (1 + back) * flop_rules::kCrossEntropy * double(tokens / 4) * double(vocab),
         [&] { crossEntropyForwardBackward(logits.data(), targets.data(), dlogits.data(), rowLoss.data(), tokens / 4, vocab); }},
    };
    // Repeating a backward kernel on its own output shrinks the values into subnormals, which the
    // FPU handles tens of times slower; a training step never meets them. Flushed to zero here.
#if defined(__SSE__)
    const unsigned int mxcsr = _mm_getcsr();
    _mm_setcsr(mxcsr | 0x8040);  // FTZ | DAZ
#endif
    ElementwiseRates rates;
    double flops = 0, seconds = 0;
    for (const Kernel &kernel : kernels) {
        const double s = secondsPerCall(kernel.run, min_batch_seconds);
        rates.kernels.emplace_back(kernel.name);
        rates.flops_per_second.push_back(kernel.flops / s);
        flops += kernel.flops;
        seconds += s;
    }
#if defined(__SSE__)
    _mm_setcsr(mxcsr);
#endif
    g_sink = g_sink + y[0] + dup[0] + dprobs[1] + dlogits[0] + x[1];
    rates.all = flops / seconds;
    return rates;
}

double processCpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

}  // namespace

CpuKernelFactors measureCpuKernelFactors(const KernelBenchmarkOptions &options, const MachineMeasureProgress &progress)
{
    const Clock::time_point start = Clock::now();
    // Core-seconds this process could have used (wall time × threads, stage by stage) and used.
    double coreSeconds = 0;
    const double cpuStart = processCpuSeconds();
    Clock::time_point stageStart = start;
    int stageThreads = std::max(1, options.threads);
    const auto endStage = [&](int nextThreads) {
        coreSeconds += secondsSince(stageStart) * stageThreads;
        stageStart = Clock::now();
        stageThreads = nextThreads;
    };
    CpuKernelFactors f;
    f.threads = std::max(1, options.threads);
    f.quick = options.quick;
    if (double load[1]; getloadavg(load, 1) == 1)
        f.load_average = load[0];
    // Above one thread a batch of calls lasts a few milliseconds, longer than a scheduler's time
    // slice, so on a shared machine each batch takes its share of other processes' slices as a
    // training step does; on one thread the clock is the thread's CPU time, which other processes
    // do not advance, and a millisecond is enough.
    const double minBatch = options.quick ? 2e-5 : f.threads == 1 ? 1e-3 : 2e-3;
    f.gemm_axis = options.quick ? std::vector<double>{16, 64, 256} : std::vector<double>{16, 64, 256, 1024, 4096};
    const int stages = 5;
    int stage = 0;
    const std::string at = " on " + std::to_string(f.threads) + (f.threads == 1 ? " thread" : " threads");
    const auto report = [&](const std::string &what) {
        if (progress)
            progress(what, stage++, stages);
    };
    const auto cancelled = [&] { return options.cancel && options.cancel->load(); };

    // Operands from memory, not the same cache-resident buffers call after call: in a training step
    // every product reads activations another kernel wrote and weights last touched a layer ago.
    // Measured on this machine at one thread, cache-resident operands were up to 1.5× faster at
    // k = 64 (the tiny preset's linear layers ran at the from-memory rate, not the resident one)
    // and the same within noise at k ≥ 256.
    report("kernel factors: matrix products on a " + std::to_string(f.gemm_axis.size()) + "³ grid of (m, n, k)" + at);
    f.gemm_flops_per_second = gemmTable(f.gemm_axis, f.threads, minBatch, options.cancel, true);
    if (cancelled())
        return f;
    report("kernel factors: matrix products one per thread, operands from memory (attention)");
    const std::size_t cells = f.gemm_axis.size() * f.gemm_axis.size() * f.gemm_axis.size();
    if (options.one_thread_table.size() == cells) {
        f.gemm_flops_per_second_one_thread = options.one_thread_table;
    } else if (f.threads == 1) {
        f.gemm_flops_per_second_one_thread = f.gemm_flops_per_second;  // the same measurement
    } else {
        endStage(1);
        f.gemm_flops_per_second_one_thread = gemmTable(f.gemm_axis, 1, options.quick ? minBatch : 1e-3, options.cancel, true);
        endStage(f.threads);
    }
    if (cancelled())
        return f;

    const ThreadScope scope(f.threads);
    report("kernel factors: element-wise bandwidth against the working set" + at);
    f.stream_working_set_bytes = options.quick ? std::vector<double>{double(1 << 16), double(1 << 20)}
                                               : std::vector<double>{double(1 << 16), double(1 << 20), double(1 << 23),
                                                                     double(1 << 26)};
    for (double bytes : f.stream_working_set_bytes)
        f.stream_bytes_per_second.push_back(triadBytesPerSecond(bytes, minBatch));
    if (cancelled())
        return f;
    report("kernel factors: the reference's element-wise kernels" + at);
    const ElementwiseRates rates = elementwiseRates(options.quick, minBatch);
    f.elementwise_kernels = rates.kernels;
    f.elementwise_kernel_flops_per_second = rates.flops_per_second;
    f.elementwise_flops_per_second = rates.all;
    report("kernel factors: call overhead and parallel-region barrier" + at);
    std::vector<float> tiny(64, 1.0f), out(64);
    f.call_overhead_seconds = secondsPerCall([&] { residualAdd(tiny.data(), tiny.data(), out.data(), Index(64)); }, minBatch);
    if (f.threads > 1) {
        // An empty region: the fork, the work-sharing and the closing barrier of one parallel loop.
        // Bimodal on a shared machine (measured on 2 cores: 0.8 µs, or 10-18 ms for stretches while
        // a thread waits for its core), so regions are timed one by one for at most 0.3 s and the
        // fifth-fastest of each hundred is kept: what the barrier costs when the threads have their cores.
        std::vector<double> regions;
        const Clock::time_point regionsStart = Clock::now();
        while (regions.size() < 5000 && secondsSince(regionsStart) < (options.quick ? 0.02 : 0.3)) {
            const Clock::time_point t = Clock::now();
#pragma omp parallel
            {
                g_sink = g_sink + 0.0f;
            }
            regions.push_back(secondsSince(t));
        }
        std::sort(regions.begin(), regions.end());
        const double region = regions.empty() ? 0 : regions[regions.size() / 20];
        f.barrier_seconds = std::max(0.0, region - f.call_overhead_seconds);
    }
    endStage(f.threads);
    // Above one thread the rates are wall-clock ones and already carry the time a thread waits for
    // its core (at the next barrier the others wait too); only one thread's CPU-time rates need the
    // share added back.
    if (coreSeconds > 0 && f.threads == 1)
        f.cpu_share = std::clamp((processCpuSeconds() - cpuStart) / coreSeconds, 0.01, 1.0);
    f.measured_at = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
    f.measure_seconds = secondsSince(start);
    return f;
}

std::optional<CpuMachine> cpuMachineForRun(int threads, bool measure_when_missing, const MachineMeasureProgress &progress,
                                           std::string *why_not, const std::atomic<bool> *cancel)
{
    std::string missing;
    std::optional<MachineRoofline> roofline = loadCachedMachineRoofline(&missing);
    std::optional<CpuKernelFactors> kernels = loadCachedCpuKernelFactors(threads);
    if (!roofline && !measure_when_missing) {
        if (why_not)
            *why_not = missing;
        return std::nullopt;
    }
    CpuMachine machine;
    if (roofline) {
        const CacheVerdict verdict = checkCachedMeasurement(*roofline, kernels, threads, binaryBuiltAt());
        if (verdict.usable) {
            machine.roofline = *roofline;
            machine.kernels = *kernels;
            return machine;
        }
        machine.remeasured_because = verdict.why;
    } else {
        machine.remeasured_because = missing;
    }
    MachineMeasureOptions rooflineOptions;
    rooflineOptions.cancel = cancel;
    {
        // The roofline's all-cores figures use every logical core, whatever the run's threads are.
        const ThreadScope all(std::max(1, omp_get_num_procs()));
        machine.roofline = machineRoofline(true, progress, &machine.save_problems, rooflineOptions);
    }
    if (cancel && *cancel)
        return std::nullopt;
    KernelBenchmarkOptions kernelOptions;
    kernelOptions.threads = threads;
    kernelOptions.cancel = cancel;
    machine.kernels = measureCpuKernelFactors(kernelOptions, progress);
    if (cancel && *cancel)
        return std::nullopt;
    if (Result<std::string> saved = saveCpuKernelFactors(machine.kernels); !saved)
        machine.save_problems.insert(machine.save_problems.end(), saved.problems().begin(), saved.problems().end());
    return machine;
}

std::optional<KernelFactorsForRun> kernelFactorsForRun(int threads, const MachineMeasureProgress &progress,
                                                       const std::atomic<bool> *cancel)
{
    KernelFactorsForRun out;
    const std::optional<CpuKernelFactors> cached = loadCachedCpuKernelFactors(threads);
    const CacheVerdict verdict =
        checkCachedKernelFactors(cached, threads, currentMachineIdentity().logical_cores, binaryBuiltAt());
    if (verdict.usable) {
        out.kernels = *cached;
        return out;
    }
    out.remeasured_because = verdict.why;
    KernelBenchmarkOptions options;
    options.threads = threads;
    options.cancel = cancel;
    out.kernels = measureCpuKernelFactors(options, progress);
    if (cancel && *cancel)
        return std::nullopt;
    if (Result<std::string> saved = saveCpuKernelFactors(out.kernels); !saved)
        out.save_problems = saved.problems();
    return out;
}

}  // namespace lse::reference
