// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/kernel_benchmark.h"

#include "ops/flop_rules.h"
#include "reference/ops/activations.h"
#include "reference/ops/attention.h"
#include "reference/checkpoint_check.h"
#include "reference/ops/cross_entropy.h"
#include "reference/ops/linear.h"
#include "reference/ops/norms.h"
#include "reference/ops/parallel_thresholds.h"
#include "reference/ops/residual.h"
#include "reference/ops/rope.h"
#include "reference/model.h"
#include "reference/ops/tiled_attention.h"

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
// within [kMinLargestFlops, kMaxLargestFlops]: 0.5-1.5 GFLOP on this class of CPU (50-150 GFLOP/s,
// where Eigen's rate has long reached its plateau), tens of MFLOP on a build that runs tens of times
// slower (AddressSanitizer's), whose figures mean nothing but must not take minutes. 10 ms rather
// than the 25 ms before: measured here at one thread, alternating two runs of each, the grid's rates
// came out 1.03× the 25 ms ones on the mean (the largest cells within the 0.83-1.03 run-to-run
// spread of either) and one thread's factors took 3.1 s instead of 4.4 s.
constexpr double kLargestCallSeconds = 0.010;
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

// The two forms of the reference's linear layer (reference/ops/linear.cpp): the forward Y = X·Wᵀ
// (its input gradient dX = dY·W runs at the same rate within noise here: measured 0.95-1.11× of
// A·Bᵀ on the small preset's shapes) and the weight gradient dW += dYᵀ·X, whose transposed left
// operand Eigen packs more slowly when the reduction is long (measured at m = 4096, n = 256,
// k = 4096: 105 against 155 GFLOP/s for A·Bᵀ on one core).
enum class ProductForm { ABt, AtB };

// Operands for the product tables: three largest × largest float32 matrices (64 MiB each on the
// full grid), allocated and filled once for both forms. Filled with a cheap pattern in [-1, 1]
// rather than Eigen's Random(), which took 0.27 s per matrix here (2 s of `machine` for four
// tables); the values only have to stay away from subnormals, which the products never produce
// from them.
struct ProductOperands {
    explicit ProductOperands(Index largest)
        : size(largest * largest), a(std::size_t(size)), b(std::size_t(size)), c(std::size_t(size), 0.0f)
    {
        for (Index i = 0; i < size; ++i) {
            a[std::size_t(i)] = float((i * 37) % 255) / 127.0f - 1.0f;
            b[std::size_t(i)] = float((i * 91) % 251) / 125.0f - 1.0f;
        }
    }
    Index size;
    std::vector<float> a, b, c;
};

// Aᵀ·B cells shallower than this reuse the A·Bᵀ rate of the same (m, n, k): Aᵀ's packing only
// falls behind once the reduction is long (measured here: the same rate within noise at k = 256,
// 1.3-1.5× slower at k = 4096), and measuring the shallow cells again took a fifth of `machine`.
constexpr double kWeightGradientMinDepth = 256;

// Each call takes its operands and output from the next place in the operand buffers, as a
// training step's products read activations another kernel wrote, instead of the same
// cache-resident ones. `shallow_rates` (A·Bᵀ's table, for form AtB) gives the cells below
// kWeightGradientMinDepth.
std::vector<double> gemmTable(const std::vector<double> &axis, int threads, double min_batch_seconds,
                              const std::atomic<bool> *cancel, ProductForm form, ProductOperands &operands,
                              const std::vector<double> *shallow_rates = nullptr)
{
    const ThreadScope scope(threads);
    const double largestFlops = std::clamp(probeGemmFlopsPerSecond() * kLargestCallSeconds, kMinLargestFlops, kMaxLargestFlops);
    const Index size = operands.size;
    std::vector<double> table;
    table.reserve(axis.size() * axis.size() * axis.size());
    for (double m0 : axis)
        for (double n0 : axis)
            for (double k0 : axis) {
                if (cancel && *cancel)
                    return {};
                if (shallow_rates && k0 < kWeightGradientMinDepth && table.size() < shallow_rates->size()) {
                    table.push_back((*shallow_rates)[table.size()]);
                    continue;
                }
                double m = m0, n = n0, k = k0;
                if (form == ProductForm::AtB) {
                    // Aᵀ·B slows with its depth instead (Aᵀ's rows are m apart: a power-of-two m
                    // makes its packing hit the same cache sets; measured at m = 4096, n = 256:
                    // 117-124 GFLOP/s at k = 4096, 158 at k = 1024, where m = 1024 or 4096 made
                    // no difference): the output side is divided first, down to the grid's
                    // smallest, then the depth.
                    while (2 * m * n * k > largestFlops && std::max(m, n) > axis.front())
                        (m >= n ? m : n) /= 4;
                    while (2 * m * n * k > largestFlops)
                        k /= 4;
                } else {
                    while (2 * m * n * k > largestFlops / 4 && k > 256)
                        k /= 4;
                    while (2 * m * n * k > largestFlops)
                        (m >= n ? m : n) /= 4;
                }
                const auto am = Index(m * k), bm = Index(n * k), cm = Index(m * n);
                Index call = 0;
                float *const a = operands.a.data(), *const b = operands.b.data(), *const c = operands.c.data();
                const double seconds = secondsPerCall(
                    [&] {
                        const Index at = call++;
                        float *const A = a + at * am % (size - am + 1);
                        float *const B = b + at * bm % (size - bm + 1);
                        float *const out = c + at * cm % (size - cm + 1);
                        // A·Bᵀ through the reference's own linear layer, which splits a few rows'
                        // products over the threads by output columns (ops/linear.cpp) where
                        // Eigen's parallel GEMM would split them poorly: the factor is the kernel's.
                        if (form == ProductForm::ABt)
                            linearForward(A, Index(k), B, out, Index(n), Index(m), Index(k), Index(n));
                        else
                            viewOf(out, Index(m), Index(n)).noalias() +=
                                viewOf(A, Index(k), Index(m)).transpose() * viewOf(B, Index(k), Index(n));
                    },
                    min_batch_seconds);
                g_sink = g_sink + c[0];
                table.push_back(2 * m * n * k / seconds);
            }
    return table;
}

// The reference's four attention kernels (reference/ops/attention.h) at each (T, Dh) of the grid,
// at the current thread count, on the model's layout: Q, K and V are one fused (B, T, 3·H·Dh)
// buffer, so each head's slice has rows 3·H·Dh apart (headView). Enough (sequence, head) pairs
// that the scores and the fused projection fill about 8 MiB, at least one per thread. A rate is
// one pair's FLOPs over one round of the loop.
//
// Each call takes all its tensors from the next place in a 128 MiB pool, as a step does: by the
// time a layer's attention runs again the step has streamed through every other layer's
// activations, so its scores are written to and read from memory. Measured on this machine at
// T = 256, Dh = 32 (the small preset): the same scores buffer call after call ran Q·Kᵀ at
// 86-104 GFLOP/s up to 50 MB of scores and 54-57 from 134 MB on, where the step's own kernel
// ran at 62.
struct AttentionRates {
    std::vector<double> scores_forward, values_forward, scores_backward, values_backward, tiled_forward;
};

AttentionRates attentionRates(const std::vector<double> &seq_axis, const std::vector<double> &head_dim_axis, int threads,
                              double min_batch_seconds, const std::atomic<bool> *cancel, bool quick)
{
    constexpr Index heads = 4;
    const double workingSetFloats = quick ? double(1 << 14) : double(1 << 21);
    std::vector<float> pool(std::size_t(quick ? 1 << 18 : 1 << 25), 0.0f);
    // Where the next call's tensors start: it keeps moving through the pool from kernel to kernel
    // and cell to cell, so no call finds what an earlier one left in the cache.
    Index next = 0;
    const double largestFlops = std::clamp(probeGemmFlopsPerSecond() * kLargestCallSeconds, kMinLargestFlops, kMaxLargestFlops);
    AttentionRates rates;
    for (double seq : seq_axis)
        for (double head_dim : head_dim_axis) {
            if (cancel && *cancel)
                return {};
            const auto T = Index(seq), Dh = Index(head_dim);
            const double perPair = double(T * T + 3 * T * Dh);
            const double product = 2.0 * double(T) * double(T) * double(Dh);  // one pair's product
            // No more pairs per call than the machine multiplies in kLargestCallSeconds (a slow
            // build's, AddressSanitizer's, calls must not take seconds).
            const Index pairs = std::max<Index>(threads, Index(std::min(workingSetFloats / perPair, largestFlops / product)));
            const Index batch = (pairs + heads - 1) / heads;
            const Index width = heads * Dh;
            AttentionDims dims;
            dims.batch = batch;
            dims.seq = T;
            dims.heads = dims.kv_heads = heads;
            dims.head_dim = Dh;
            dims.ld_q = dims.ld_k = dims.ld_v = 3 * width;
            dims.ld_out = width;
            // One call's tensors, laid out one after another from `at`.
            const Index qkvSize = batch * T * 3 * width, probsSize = batch * heads * T * T, outSize = batch * T * width;
            // The tiled kernel's own blocks (this CPU's L2 rule, as a model built with defaults uses),
            // its per-thread scratch and one log-sum-exp per row.
            const AttentionBlocks blocks = attentionBlocksOf(ReferenceOptions{}, Dh, int(sizeof(float)));
            std::vector<float> scratch(std::size_t(threads) * std::size_t(tiledAttentionScratchPerThread(blocks)));
            std::vector<float> rowStatistics(std::size_t(batch * heads * T));
            const Index footprint = 2 * (qkvSize + probsSize + outSize);
            if (2 * footprint > Index(pool.size()))  // many threads: at least two calls' worth
                pool.resize(std::size_t(2 * footprint), 0.0f);
            const Index poolSize = Index(pool.size());
            struct Tensors {
                float *qkv, *dqkv, *probs, *dprobs, *out, *dout;
            };
            const auto tensors = [&]() {
                if (next + footprint > poolSize)
                    next = 0;
                float *at = pool.data() + next;
                next += footprint;
                Tensors t{};
                t.qkv = at;
                t.dqkv = t.qkv + qkvSize;
                t.probs = t.dqkv + qkvSize;
                t.dprobs = t.probs + probsSize;
                t.out = t.dprobs + probsSize;
                t.dout = t.out + outSize;
                return t;
            };
            const double rounds = std::ceil(double(batch * heads) / threads);
            const auto rate = [&](double flops_per_pair, const std::function<void(const Tensors &)> &run) {
                return flops_per_pair / (secondsPerCall([&] { run(tensors()); }, min_batch_seconds) / rounds);
            };
            rates.scores_forward.push_back(rate(product, [&](const Tensors &t) {
                attentionScoresForward(t.qkv, t.qkv + width, t.probs, dims);
            }));
            rates.values_forward.push_back(rate(product, [&](const Tensors &t) {
                attentionValuesForward(t.probs, t.qkv + 2 * width, t.out, dims);
            }));
            rates.values_backward.push_back(rate(2 * product, [&](const Tensors &t) {
                attentionValuesBackward(t.probs, t.qkv + 2 * width, t.dout, t.dqkv + 2 * width, t.dprobs, dims);
            }));
            rates.scores_backward.push_back(rate(2 * product, [&](const Tensors &t) {
                attentionScoresBackward(t.qkv, t.qkv + width, t.dprobs, t.dqkv, t.dqkv + width, dims);
            }));
            rates.tiled_forward.push_back(rate(2 * product, [&](const Tensors &t) {
                tiledAttentionForward(t.qkv, t.qkv + width, t.qkv + 2 * width, t.out, rowStatistics.data(), dims, blocks,
                                      scratch.data(), threads);
            }));
        }
    g_sink = g_sink + pool[0];
    return rates;
}

// The reference's decode attention (decodeAttentionBatch) at each (keys, Dh) of the grid, at the
// current thread count: one new query token per sequence, one sequence per thread (one round of the
// loop), each with `heads` heads and its own K and V cache. Each call takes the caches from the next
// place in a 64 MiB pool (aligned as the model's arenas): a decode step reads a layer's cache once,
// after every other layer's weights and caches have gone through the cache hierarchy, so it finds
// the cache where the one-row product finds its weights (its largest working set, 64 MiB). With a
// 128 MiB pool of std::vector (16 bytes off alignment) the rates were 4.0-5.0 GFLOP/s against the
// 8 of a cs336 decode step at 100-200 keys on one thread; with this pool 8.2-9.3. A rate is one sequence's FLOPs as the
// roofline's decode phase counts them (Q·Kᵀ and P·V 2·keys·Dh each per head, the softmax
// flop_rules::kSoftmax per score) over the time of the call.
std::vector<double> decodeAttentionRates(const std::vector<double> &keys_axis, const std::vector<double> &head_dim_axis,
                                         int threads, double min_batch_seconds, const std::atomic<bool> *cancel, bool quick)
{
    constexpr Index heads = 4;
    AlignedVector<float> pool(std::size_t(quick ? 1 << 18 : 1 << 24), 0.25f, ArenaAllocator<float>(true));
    Index next = 0;
    std::vector<double> rates;
    const Index sequences = std::max(1, threads);
    for (double keys : keys_axis)
        for (double head_dim : head_dim_axis) {
            if (cancel && *cancel)
                return {};
            const auto L = Index(keys), Dh = Index(head_dim), width = heads * Dh;
            const Index cacheSize = sequences * L * width;  // K (or V) of every sequence
            if (4 * cacheSize > Index(pool.size()))
                pool.resize(std::size_t(4 * cacheSize), 0.25f);
            std::vector<float> q(std::size_t(sequences * width), 0.5f), out(std::size_t(sequences * width));
            const std::vector<int> positions(std::size_t(sequences), int(L) - 1);
            const double seconds = secondsPerCall(
                [&] {
                    if (next + 2 * cacheSize > Index(pool.size()))
                        next = 0;
                    const float *k = pool.data() + next, *v = k + cacheSize;
                    next += 2 * cacheSize;
                    decodeAttentionBatch(q.data(), width, k, v, width, L * width, positions.data(), sequences, heads, heads, Dh,
                                         out.data(), width);
                },
                min_batch_seconds);
            g_sink = g_sink + out[0];
            const double flops = double(heads) * keys * (2 * 2 * head_dim + flop_rules::kSoftmax);
            // Below kParallelMinWork multiply-adds decodeAttentionBatch runs its sequences one after
            // another on one thread: the call is `sequences` rounds of one sequence, not one. Counted
            // as one, the 2-thread table halved every rate there (2.15 instead of 4.3 GFLOP/s at 64
            // keys, Dh 32) and the decode attention of short contexts came out twice too slow.
            const bool split = sequences > 1 && sequences * L * width >= kParallelMinWork;
            rates.push_back(flops * double(split ? 1 : sequences) / seconds);
        }
    return rates;
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

// Matrices in storage as the inference model keeps its weights (reference/arena_allocator.h:
// 64-byte aligned, on huge pages where the kernel gives them). A std::vector's 64 MB sits 16 bytes
// past a page boundary, and there the 8-row product ran at 5.7 GB/s instead of the 10.3 it runs at
// on aligned storage and in a decode step (1 thread; the one-row product at 27 GB/s either way).
AlignedVector<float> weightPool(std::size_t elements)
{
    AlignedVector<float> pool(elements, 0.0f, ArenaAllocator<float>(true));
    for (std::size_t i = 0; i < pool.size(); ++i)
        pool[i] = float((i * 37) % 255) / 127.0f - 1.0f;
    return pool;
}

// The reference's linear layer on one row (Eigen's matrix-vector product, a batch-1 decode step's
// weight product) with its matrices in a working set of `working_set_bytes`: matrices of up to
// 8 MiB (512 columns: a decode step's matrices are 1 to 20 MB for the cs336 model; with 2 MiB ones
// the fixed cost of each call held the rate from a 64 MB working set at 15 instead of 26 GB/s
// here), each call the next one, so the working set is what the calls cycle through.
// Bytes per second of the matrix, input and output.
double gemvBytesPerSecond(double working_set_bytes, double min_batch_seconds)
{
    constexpr Index k = 512;
    const double matrixBytes = std::min(working_set_bytes, double(8 << 20));
    const Index n = std::max<Index>(16, Index(matrixBytes / (4.0 * double(k))));
    const Index count = std::max<Index>(1, Index(working_set_bytes / (4.0 * double(n * k))));
    AlignedVector<float> pool = weightPool(std::size_t(count * n * k));
    AlignedVector<float> x(std::size_t(k), 0.5f), y(std::size_t(n), 0.0f);
    Index call = 0;
    const auto run = [&] {
        const float *w = pool.data() + (call++ % count) * n * k;
        linearForward(x.data(), k, w, y.data(), n, 1, k, n);
    };
    // A decode loop reads the same weights step after step, so the caches hold what fits of them:
    // the rate of the passes after the first few. Measured here from a 64 MB working set, the first
    // passes after filling it ran at 14-16 GB/s and later ones at 22-27 (a cs336 decode step read
    // its 91 MB of weights at 28 GB/s).
    for (Index i = 0; i < 8 * count; ++i)
        run();
    const double seconds = secondsPerCall(run, min_batch_seconds, 5);
    g_sink = g_sink + y[0];
    return 4.0 * double(n * k + k + n) / seconds;
}

// The reference's few-row product (linearForward with `rows` rows: a batched decode step's weight
// products) over 8 MiB matrices (512 inputs) cycling through a working set of `working_set_bytes`,
// at the threads in force: bytes per second of the matrix, the rows' inputs and their outputs.
double blockedVectorBytesPerSecond(Index rows, double working_set_bytes, double min_batch_seconds)
{
    constexpr Index k = 512;
    const double matrixBytes = std::min(working_set_bytes, double(8 << 20));
    const Index n = std::max<Index>(16, Index(matrixBytes / (4.0 * double(k))));
    const Index count = std::max<Index>(1, Index(working_set_bytes / (4.0 * double(n * k))));
    AlignedVector<float> pool = weightPool(std::size_t(count * n * k));
    AlignedVector<float> x(std::size_t(rows * k), 0.5f), y(std::size_t(rows * n), 0.0f);
    // In a decode step each product follows other kernels (the attention over every sequence's KV
    // cache, the norms) that leave other data in L2: 4 MiB is read between calls, outside the
    // timing. Measured for 8 rows (n 4096, k 512, one thread): 11.5 GB/s back to back, 10.1 after
    // the traffic; the products of a batch-8 decode step ran at 8.3.
    AlignedVector<float> traffic(std::size_t(1) << 20, 1.0f);
    Index call = 0;
    double productSeconds = 0;
    const auto run = [&] {
        float sum = 0;
        for (std::size_t i = 0; i < traffic.size(); i += 16)
            sum += traffic[i];
        g_sink = g_sink + sum;
        const float *w = pool.data() + (call++ % count) * n * k;
        const Clock::time_point start = Clock::now();
        linearForward(x.data(), k, w, y.data(), n, rows, k, n);
        productSeconds += secondsSince(start);
    };
    // As the one-row rate: the passes after the caches hold what fits of the working set.
    for (Index i = 0; i < 4 * count; ++i)
        run();
    // The best of five batches of at least min_batch_seconds of products (wall clock: the calls
    // are timed one by one to leave the traffic out).
    double best = 0;
    for (int batch = 0; batch < 5; ++batch) {
        productSeconds = 0;
        Index calls = 0;
        while (productSeconds < min_batch_seconds || calls < 2) {
            run();
            ++calls;
        }
        const double perCall = productSeconds / double(calls);
        best = batch == 0 ? perCall : std::min(best, perCall);
    }
    g_sink = g_sink + y[0];
    return 4.0 * double(n * k + rows * (k + n)) / best;
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
    const Index rows = tokens, lossRows = tokens / 4;
    // Each call takes its tensors from the next set in a 128 MiB pool, as the attention kernels'
    // (attentionRates says why): in a step a norm's backward reads the input it saved a whole
    // forward and backward ago. Measured on this machine (small preset) before this: the norms'
    // backward ran 60 % slower in the step than on cache-resident tensors.
    std::vector<float> pool(std::size_t(quick ? 1 << 18 : 1 << 25), 0.25f);
    Index next = 0;
    const auto take = [&](Index set) {
        if (next + set > Index(pool.size()))
            next = 0;
        float *at = pool.data() + next;
        next += set;
        return at;
    };
    AttentionDims dims;
    dims.batch = sequences;
    dims.seq = t;
    dims.heads = dims.kv_heads = heads;
    dims.head_dim = head_dim;
    RopeTable<float> rope;
    rope.build(t, head_dim, 10000.0);
    std::vector<std::int32_t> targets(static_cast<std::size_t>(lossRows));
    for (std::size_t i = 0; i < targets.size(); ++i)
        targets[i] = std::int32_t((i * 7919) % std::size_t(vocab));
    std::vector<float> rowLoss(static_cast<std::size_t>(lossRows));
    const Index activations = rows * d, up = rows * 2 * f, scoreCount = sequences * heads * t * t, logits = lossRows * vocab;
    const double width = double(d), ff = double(f);
    const double scores = double(sequences * heads) * flop_rules::causalScoreCount(double(t));
    const double back = flop_rules::kBackwardElementwiseFactor;
    struct Kernel {
        const char *name;
        double flops;
        std::function<void()> run;
    };
    const Kernel kernels[] = {
        {"norm", (1 + back) * flop_rules::kRmsNorm * double(rows) * width,
         [&] {
             float *x = take(4 * activations + 2 * d + rows), *y = x + activations, *dx = y + activations, *dy = dx + activations;
             float *g = dy + activations, *dg = g + d, *stats = dg + d;
             rmsNormForward(x, g, y, stats, rows, d, 1e-5f);
             rmsNormBackward(x, g, stats, dy, dx, dg, rows, d);
         }},
        {"activation", (1 + back) * flop_rules::kSwiGLU * double(rows) * ff,
         [&] {
             float *u = take(2 * up + rows * f), *dup = u + up, *act = dup + up;
             activationForward(Activation::SwiGLU, u, act, rows, f);
             activationBackward(Activation::SwiGLU, u, act, dup, rows, f);
         }},
        {"softmax", (1 + back) * flop_rules::kSoftmax * scores,
         [&] {
             float *probs = take(2 * scoreCount), *dprobs = probs + scoreCount;
             causalSoftmaxForward(probs, dims);
             causalSoftmaxBackward(probs, dprobs, dims);
         }},
        {"rope", (1 + back) * flop_rules::kRope * double(rows) * width,
         [&] {
             float *x = take(activations);
             ropeForward(x, d, sequences, t, heads, head_dim, rope, 0);
             ropeBackward(x, d, sequences, t, heads, head_dim, rope, 0);
         }},
        {"residual", flop_rules::kResidual * double(rows) * width,
         [&] {
             float *a = take(3 * activations);
             residualAdd(a, a + activations, a + 2 * activations, rows * d);
         }},
        // One fused kernel computes the loss and its gradient (reference/model.cpp).
        {"cross_entropy", (1 + back) * flop_rules::kCrossEntropy * double(lossRows) * double(vocab),
         [&] {
             float *l = take(2 * logits);
             crossEntropyForwardBackward(l, targets.data(), l + logits, rowLoss.data(), lossRows, vocab);
         }},
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
    g_sink = g_sink + pool[1] + rowLoss[0];
    rates.all = flops / seconds;
    // Generation's greedy sampling (generate.cpp): each row of logits checked finite, then its first
    // maximum taken; one FLOP per logit, as the inference predictor counts it. Not part of `all`,
    // which prices a training step's other element-wise operators.
    {
        float *l = take(logits);
        for (Index i = 0; i < logits; ++i)
            l[i] = float((i * 37) % 255) / 127.0f - 1.0f;
        std::int64_t chosen = 0;
        const double s = secondsPerCall(
            [&] {
                for (Index r = 0; r < lossRows; ++r) {
                    const float *row = l + r * vocab;
                    if (allFinite(row, vocab))
                        chosen += std::max_element(row, row + vocab) - row;
                }
            },
            min_batch_seconds);
        g_sink = g_sink + float(chosen % 2);
        rates.kernels.emplace_back("sampling");
        rates.flops_per_second.push_back(double(logits) / s);
    }
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
    // The kernels split their loops as they do by default, whatever thresholds a run set before
    // (the factors measured here are what derives those thresholds).
    const ScopedParallelThresholds defaults{ParallelThresholds{}};
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
    const int stages = 7;
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
    report("kernel factors: matrix products A·Bᵀ on a " + std::to_string(f.gemm_axis.size()) + "³ grid of (m, n, k)" + at);
    {
        ProductOperands operands(Index(f.gemm_axis.back()));
        f.gemm_flops_per_second = gemmTable(f.gemm_axis, f.threads, minBatch, options.cancel, ProductForm::ABt, operands);
        if (cancelled())
            return f;
        report("kernel factors: matrix products Aᵀ·B (weight gradients, k ≥ " + std::to_string(int(kWeightGradientMinDepth)) + ")" + at);
        f.gemm_weight_gradient_flops_per_second =
            gemmTable(f.gemm_axis, f.threads, minBatch, options.cancel, ProductForm::AtB, operands, &f.gemm_flops_per_second);
    }
    // A product never runs slower on more threads than on one: Eigen splits a product over threads
    // only when it is large enough to gain, and runs smaller ones on one. Above one thread a batch
    // lasts milliseconds of wall-clock time, and on a busy machine every batch of a cell can lose a
    // core to another process: measured here with two compilers running, some cells of the two-thread
    // tables came out 3-5× below the one-thread rate and the cs336-tinystories step was predicted at
    // 19-39 s where it took 5.8-6.6 s. Such a cell takes the one-thread rate instead.
    if (const CpuKernelFactors *one = options.one_thread; one && f.threads > 1 && one->threads == 1 && one->gemm_axis == f.gemm_axis) {
        const auto floor = [](std::vector<double> &rates, const std::vector<double> &floor_rates) {
            if (rates.size() == floor_rates.size())
                for (std::size_t i = 0; i < rates.size(); ++i)
                    rates[i] = std::max(rates[i], floor_rates[i]);
        };
        floor(f.gemm_flops_per_second, one->gemm_flops_per_second);
        floor(f.gemm_weight_gradient_flops_per_second, one->gemm_weight_gradient_flops_per_second);
    }
    if (cancelled())
        return f;

    const ThreadScope scope(f.threads);
    report("kernel factors: the reference's attention kernels over (sequence, head dim)" + at);
    f.attention_seq_axis = options.quick ? std::vector<double>{16, 64} : std::vector<double>{32, 128, 256, 1024};
    f.attention_head_dim_axis = options.quick ? std::vector<double>{8, 16} : std::vector<double>{16, 32, 64, 128};
    {
        AttentionRates attention = attentionRates(f.attention_seq_axis, f.attention_head_dim_axis, f.threads, minBatch, options.cancel, options.quick);
        f.attention_scores_forward_flops_per_second = std::move(attention.scores_forward);
        f.attention_values_forward_flops_per_second = std::move(attention.values_forward);
        f.attention_scores_backward_flops_per_second = std::move(attention.scores_backward);
        f.attention_values_backward_flops_per_second = std::move(attention.values_backward);
        f.attention_tiled_forward_flops_per_second = std::move(attention.tiled_forward);
    }
    if (cancelled())
        return f;
    report("kernel factors: the reference's decode attention over (keys, head dim)" + at);
    f.decode_attention_keys_axis = options.quick ? std::vector<double>{16, 64}
                                                 : std::vector<double>{16, 64, 256, 1024, 4096};
    f.decode_attention_flops_per_second = decodeAttentionRates(f.decode_attention_keys_axis, f.attention_head_dim_axis,
                                                               f.threads, minBatch, options.cancel, options.quick);
    if (cancelled())
        return f;
    report("kernel factors: element-wise, one-row and few-row product bandwidth against the working set" + at);
    f.stream_working_set_bytes = options.quick ? std::vector<double>{double(1 << 16), double(1 << 20)}
                                               : std::vector<double>{double(1 << 16), double(1 << 20), double(1 << 23),
                                                                     double(1 << 26)};
    for (double bytes : f.stream_working_set_bytes)
        f.stream_bytes_per_second.push_back(triadBytesPerSecond(bytes, minBatch));
    for (double bytes : f.stream_working_set_bytes)
        f.gemv_bytes_per_second.push_back(gemvBytesPerSecond(bytes, minBatch));
    if (cancelled())
        return f;
    // The few-row product at the largest working set (a decode step's weights are 1 to 20 MB a
    // matrix, 91 MB in all for the cs336 model).
    f.blocked_vector_working_set_bytes = f.stream_working_set_bytes.back();
    f.blocked_vector_rows_axis = {2, 4, 8};
    for (double rows : f.blocked_vector_rows_axis)
        f.blocked_vector_bytes_per_second.push_back(
            blockedVectorBytesPerSecond(Index(rows), f.blocked_vector_working_set_bytes, minBatch));
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

namespace {

// Above one thread, the one-thread factors whose product rates floor the measurement
// (KernelBenchmarkOptions::one_thread): from the cache when usable, else measured now (a few
// seconds) and cached. None at one thread.
std::optional<CpuKernelFactors> oneThreadFloor(int threads, const MachineMeasureProgress &progress,
                                               const std::atomic<bool> *cancel, Problems *save_problems)
{
    if (threads <= 1)
        return std::nullopt;
    std::optional<CpuKernelFactors> one = loadCachedCpuKernelFactors(1);
    if (one && checkCachedKernelFactorsHere(one, 1).usable)
        return one;
    KernelBenchmarkOptions options;
    options.threads = 1;
    options.cancel = cancel;
    one = measureCpuKernelFactors(options, progress);
    if (cancel && *cancel)
        return std::nullopt;
    if (Result<std::string> saved = saveCpuKernelFactors(*one); !saved && save_problems)
        save_problems->insert(save_problems->end(), saved.problems().begin(), saved.problems().end());
    return one;
}

}  // namespace

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
        const CacheVerdict verdict = checkCachedMeasurement(*roofline, kernels, threads, binaryBuiltAt(),
                                                            threads > 1 ? loadCachedCpuKernelFactors(1) : std::nullopt);
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
    const std::optional<CpuKernelFactors> one = oneThreadFloor(threads, progress, cancel, &machine.save_problems);
    if (cancel && *cancel)
        return std::nullopt;
    kernelOptions.one_thread = one ? &*one : nullptr;
    machine.kernels = measureCpuKernelFactors(kernelOptions, progress);
    if (cancel && *cancel)
        return std::nullopt;
    if (one)
        gemmThreadScalingIsPlausible(machine.kernels, *one, machine.roofline, &machine.implausible_because);
    if (Result<std::string> saved = saveCpuKernelFactors(machine.kernels); !saved)
        machine.save_problems.insert(machine.save_problems.end(), saved.problems().begin(), saved.problems().end());
    return machine;
}

std::optional<KernelFactorsForRun> kernelFactorsForRun(int threads, const MachineMeasureProgress &progress,
                                                       const std::atomic<bool> *cancel)
{
    KernelFactorsForRun out;
    const std::optional<CpuKernelFactors> cached = loadCachedCpuKernelFactors(threads);
    const CacheVerdict verdict = checkCachedKernelFactorsHere(cached, threads);
    if (verdict.usable) {
        out.kernels = *cached;
        return out;
    }
    out.remeasured_because = verdict.why;
    KernelBenchmarkOptions options;
    options.threads = threads;
    options.cancel = cancel;
    const std::optional<CpuKernelFactors> one = oneThreadFloor(threads, progress, cancel, &out.save_problems);
    if (cancel && *cancel)
        return std::nullopt;
    options.one_thread = one ? &*one : nullptr;
    out.kernels = measureCpuKernelFactors(options, progress);
    if (cancel && *cancel)
        return std::nullopt;
    if (const std::optional<MachineRoofline> roofline = loadCachedMachineRoofline(); one && roofline)
        gemmThreadScalingIsPlausible(out.kernels, *one, *roofline, &out.implausible_because);
    if (Result<std::string> saved = saveCpuKernelFactors(out.kernels); !saved)
        out.save_problems = saved.problems();
    return out;
}

}  // namespace lse::reference
