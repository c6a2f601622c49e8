// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/attention_measurement.h"

#include "common/memory_limit.h"
#include "reference/model.h"
#include "reference/ops/attention.h"

#include <linux/perf_event.h>
#include <omp.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>

namespace lse::reference {

namespace {

constexpr std::int64_t kMaxMeasuredSequence = 131072;
constexpr int kMaxMeasuredHeadDim = 1024;
constexpr int kMaxMeasuredHeads = 1024;
constexpr int kMaxMeasuredRepeats = 101;
constexpr double kCacheLineBytes = 64;

// Counts the bytes of every buffer a measured call allocates, so the peak is what was really
// asked of the allocator (64-byte aligned, as the model's arenas), not a formula.
class AllocationTally {
public:
    void add(double bytes)
    {
        current_ += bytes;
        peak_ = std::max(peak_, current_);
    }
    void remove(double bytes) { current_ -= bytes; }
    double peak() const { return peak_; }
    void resetPeak() { peak_ = current_; }

private:
    double current_ = 0;
    double peak_ = 0;
};

class CountedBuffer {
public:
    CountedBuffer(AllocationTally &tally, std::int64_t elements) : tally_(&tally)
    {
        bytes_ = std::size_t(std::max<std::int64_t>(elements, 1)) * sizeof(float);
        bytes_ = (bytes_ + 63) / 64 * 64;
        data_ = static_cast<float *>(std::aligned_alloc(64, bytes_));
        if (!data_)
            throw std::bad_alloc();
        tally_->add(double(bytes_));
    }
    ~CountedBuffer()
    {
        std::free(data_);
        tally_->remove(double(bytes_));
    }
    CountedBuffer(const CountedBuffer &) = delete;
    CountedBuffer &operator=(const CountedBuffer &) = delete;
    float *data() const { return data_; }

private:
    AllocationTally *tally_;
    float *data_ = nullptr;
    std::size_t bytes_ = 0;
};

void fillRandom(float *data, std::int64_t count, std::mt19937_64 &rng)
{
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (std::int64_t i = 0; i < count; ++i)
        data[i] = u(rng);
}

// Last-level-cache read misses of this process (user space) while enabled: one fd, or the reason
// there is none (no PMU in a VM: ENOENT; perf_event_paranoid > 2: EACCES).
class MissCounter {
public:
    MissCounter()
    {
        perf_event_attr attr;
        std::memset(&attr, 0, sizeof attr);
        attr.size = sizeof attr;
        attr.type = PERF_TYPE_HW_CACHE;
        attr.config = PERF_COUNT_HW_CACHE_LL | (PERF_COUNT_HW_CACHE_OP_READ << 8) | (PERF_COUNT_HW_CACHE_RESULT_MISS << 16);
        attr.disabled = 1;
        attr.exclude_kernel = 1;
        attr.exclude_hv = 1;
        attr.inherit = 1;  // the OpenMP threads this process starts afterwards
        fd_ = int(syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0));
        if (fd_ < 0)
            why_not_ = std::string("perf_event_open(LLC read misses) failed: ") + std::strerror(errno)
                + (errno == ENOENT ? " (no hardware cache counter: a virtual machine without a PMU?)"
                   : errno == EACCES || errno == EPERM ? " (/proc/sys/kernel/perf_event_paranoid forbids it)"
                                                       : "");
    }
    ~MissCounter()
    {
        if (fd_ >= 0)
            close(fd_);
    }
    MissCounter(const MissCounter &) = delete;
    MissCounter &operator=(const MissCounter &) = delete;
    bool available() const { return fd_ >= 0; }
    const std::string &whyNot() const { return why_not_; }
    void start()
    {
        if (fd_ < 0)
            return;
        ioctl(fd_, PERF_EVENT_IOC_RESET, 0);
        ioctl(fd_, PERF_EVENT_IOC_ENABLE, 0);
    }
    std::optional<double> stop()
    {
        if (fd_ < 0)
            return std::nullopt;
        ioctl(fd_, PERF_EVENT_IOC_DISABLE, 0);
        long long count = 0;
        if (read(fd_, &count, sizeof count) != ssize_t(sizeof count))
            return std::nullopt;
        return double(count);
    }

private:
    int fd_ = -1;
    std::string why_not_;
};

double median(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Bytes the naive kernel's buffers take for one forward + backward: Q, K, V, O, dO, dQ, dK, dV
// (B·N·H·d each) and probabilities plus their gradient (B·H·N² each), 64-byte rounded.
double naiveTrainingBytes(std::int64_t n, const AttentionMeasureRequest &r)
{
    const auto rounded = [](double elements) { return std::ceil(elements * 4 / 64) * 64; };
    const double rows = double(r.batch) * double(n) * double(r.heads) * double(r.head_dim);
    const double square = double(r.batch) * double(r.heads) * double(n) * double(n);
    return 8 * rounded(rows) + 2 * rounded(square);
}

struct Shapes {
    AttentionDims dims;
    std::int64_t rows = 0;        // B·N·H·d: one of Q, K, V, O
    std::int64_t row_stats = 0;   // B·H·N
    std::int64_t square = 0;      // B·H·N²
};

Shapes shapesFor(std::int64_t n, const AttentionMeasureRequest &r)
{
    Shapes s;
    const Index width = Index(r.heads) * r.head_dim;
    s.dims = AttentionDims{r.batch, n, r.heads, r.heads, r.head_dim, width, width, width, width};
    s.rows = std::int64_t(r.batch) * n * width;
    s.row_stats = std::int64_t(r.batch) * r.heads * n;
    s.square = s.row_stats * n;
    return s;
}

// One timed run of one kernel: every buffer allocated (and counted) inside, filled, the kernel
// run once, freed. Returns seconds; peak and working bytes and LLC misses through the pointers.
double runOnce(bool tiled, bool with_backward, std::int64_t n, const AttentionMeasureRequest &r,
               const AttentionBlocks &blocks, std::mt19937_64 &rng, MissCounter &counter, double *peak_bytes,
               double *working_bytes, std::optional<double> *misses)
{
    const Shapes s = shapesFor(n, r);
    AllocationTally io, work;
    CountedBuffer q(io, s.rows), k(io, s.rows), v(io, s.rows), out(io, s.rows);
    fillRandom(q.data(), s.rows, rng);
    fillRandom(k.data(), s.rows, rng);
    fillRandom(v.data(), s.rows, rng);
    std::unique_ptr<CountedBuffer> dout, dq, dk, dv;
    if (with_backward) {
        dout = std::make_unique<CountedBuffer>(io, s.rows);
        dq = std::make_unique<CountedBuffer>(io, s.rows);
        dk = std::make_unique<CountedBuffer>(io, s.rows);
        dv = std::make_unique<CountedBuffer>(io, s.rows);
        fillRandom(dout->data(), s.rows, rng);
    }
    double seconds = 0;
    if (tiled) {
        const int threads = attentionScratchThreads();
        CountedBuffer scratch(work, std::int64_t(threads) * tiledAttentionScratchPerThread(blocks));
        CountedBuffer lse(work, s.row_stats);
        std::unique_ptr<CountedBuffer> row_dot;
        if (with_backward)
            row_dot = std::make_unique<CountedBuffer>(work, s.row_stats);
        counter.start();
        const auto start = std::chrono::steady_clock::now();
        tiledAttentionForward(q.data(), k.data(), v.data(), out.data(), lse.data(), s.dims, blocks, scratch.data(), threads);
        if (with_backward)
            tiledAttentionBackward(q.data(), k.data(), v.data(), out.data(), lse.data(), dout->data(), dq->data(), dk->data(),
                                   dv->data(), row_dot->data(), s.dims, blocks, scratch.data(), threads);
        seconds = secondsSince(start);
        *misses = counter.stop();
    } else {
        CountedBuffer probs(work, s.square);
        std::unique_ptr<CountedBuffer> dprobs;
        if (with_backward)
            dprobs = std::make_unique<CountedBuffer>(work, s.square);
        counter.start();
        const auto start = std::chrono::steady_clock::now();
        causalAttentionForward(q.data(), k.data(), v.data(), probs.data(), out.data(), s.dims);
        if (with_backward)
            causalAttentionBackward(q.data(), k.data(), v.data(), probs.data(), dout->data(), dq->data(), dk->data(),
                                    dv->data(), dprobs->data(), s.dims);
        seconds = secondsSince(start);
        *misses = counter.stop();
    }
    *peak_bytes = io.peak() + work.peak();
    *working_bytes = work.peak();
    return seconds;
}

}  // namespace

double attentionTrafficBytes(bool tiled, std::int64_t n, std::int64_t head_dim, std::int64_t heads, std::int64_t batch,
                             const AttentionBlocks &blocks, bool with_backward)
{
    const double N = double(n), d = double(head_dim), E = sizeof(float);
    double per_head = 0;  // elements
    if (!tiled) {
        per_head = 4 * N * d + 4 * N * N;  // Dao et al. 2022, Algorithm 0
        if (with_backward)
            per_head += 7 * N * d + 7 * N * N;
    } else {
        const std::int64_t Br = std::max<std::int64_t>(1, blocks.rows), Bc = std::max<std::int64_t>(1, blocks.cols);
        // Forward: per query block, the keys [0, last_key) rounded up to whole key blocks.
        per_head += 2 * N * d + N;  // Q read, O written, L written
        for (std::int64_t q0 = 0; q0 < n; q0 += Br) {
            const std::int64_t last_key = std::min(n, q0 + Br);
            const std::int64_t keys = std::min(n, (last_key + Bc - 1) / Bc * Bc);
            per_head += 2 * double(keys) * d;  // K and V rows
        }
        if (with_backward) {
            per_head += 2 * N * d + N;      // D = rowsum(dO ∘ O): dO, O read, D written
            per_head += 4 * N * d;          // K, V read, dK, dV written, once per key block
            for (std::int64_t k0 = 0; k0 < n; k0 += Bc) {
                const std::int64_t first_query = k0 / Br * Br;
                const double queries = double(n - first_query);
                per_head += queries * (4 * d + 2);  // Q, dO read, dQ read and written; L, D read
            }
        }
    }
    return per_head * E * double(heads) * double(batch);
}

Problems validateAttentionMeasureRequest(const AttentionMeasureRequest &r)
{
    Problems problems;
    if (r.sequence_lengths.empty())
        problems.push_back({"sequence_lengths", "required", "give at least one sequence length N."});
    for (const std::int64_t n : r.sequence_lengths)
        if (n < 1 || n > kMaxMeasuredSequence) {
            problems.push_back({"sequence_lengths", "range", "every sequence length N must be between 1 and "
                                                                 + std::to_string(kMaxMeasuredSequence) + ", got " + std::to_string(n) + "."});
            break;
        }
    if (r.head_dim < 1 || r.head_dim > kMaxMeasuredHeadDim)
        problems.push_back({"head_dim", "range", "head_dim must be between 1 and " + std::to_string(kMaxMeasuredHeadDim) + "."});
    if (r.heads < 1 || r.heads > kMaxMeasuredHeads)
        problems.push_back({"heads", "range", "heads must be between 1 and " + std::to_string(kMaxMeasuredHeads) + "."});
    if (r.batch < 1 || r.batch > 1024)
        problems.push_back({"batch", "range", "batch must be between 1 and 1024."});
    if (r.repeats < 1 || r.repeats > kMaxMeasuredRepeats)
        problems.push_back({"repeats", "range", "repeats must be between 1 and " + std::to_string(kMaxMeasuredRepeats) + "."});
    if (r.block_rows < 0 || r.block_rows > kMaxTiledAttentionBlock)
        problems.push_back({"block_rows", "range", "block_rows must be between 1 and " + std::to_string(kMaxTiledAttentionBlock) + ", or 0 for the cache rule."});
    if (r.block_cols < 0 || r.block_cols > kMaxTiledAttentionBlock)
        problems.push_back({"block_cols", "range", "block_cols must be between 1 and " + std::to_string(kMaxTiledAttentionBlock) + ", or 0 for the cache rule."});
    if (!(r.naive_memory_limit_bytes >= 0))
        problems.push_back({"naive_memory_limit_bytes", "range", "naive_memory_limit_bytes must be 0 (half the available memory) or positive."});
    return problems;
}

Result<AttentionMeasurement> measureAttention(const AttentionMeasureRequest &request, const AttentionMeasureProgress &progress)
{
    if (Problems p = validateAttentionMeasureRequest(request); !p.empty())
        return p;
    AttentionMeasurement m;
    m.request = request;
    m.caches = detectCpuCacheSizes();
    m.blocks = attentionBlocksForCache(m.caches.l2_bytes, request.head_dim, int(sizeof(float)));
    if (request.block_rows > 0)
        m.blocks.rows = request.block_rows;
    if (request.block_cols > 0)
        m.blocks.cols = request.block_cols;
    m.tiled_working_set_bytes = attentionWorkingSetBytes(m.blocks, request.head_dim, int(sizeof(float)));
    m.threads = std::max(1, omp_get_max_threads());

    // The tiled kernel's buffers grow with N·d: refuse the sweep when even they do not fit.
    const MemoryAvailable available = memoryAvailableToThisProcess();
    const double limit = request.naive_memory_limit_bytes > 0 ? request.naive_memory_limit_bytes
        : available.bytes > 0                                  ? available.bytes / 2
                                                               : 4e9;
    const std::string limit_text = request.naive_memory_limit_bytes > 0
        ? "the limit of " + formatMemoryBytes(limit) + " given"
        : available.bytes > 0 ? "half of what this process may use (" + available.what + ")"
                              : "4 GB (the memory available is unknown)";
    for (const std::int64_t n : request.sequence_lengths) {
        const double rows = double(request.batch) * double(n) * double(request.heads) * double(request.head_dim) * 4;
        if (available.bytes > 0 && 12 * rows > available.bytes)
            return Result<AttentionMeasurement>::failure(
                "sequence_lengths", "memory",
                "N = " + std::to_string(n) + " needs " + formatMemoryBytes(12 * rows) + " even for the tiled kernel, but "
                    + available.what + ".");
    }

    MissCounter counter;
    m.bytes_moved_source = counter.available() ? "perf_event (LLC read misses × 64 B)"
                                               : "model (Dao et al. 2022 IO accounting of the kernels as implemented)";
    m.counter_note = counter.available() ? "" : counter.whyNot();

    const int runs_per_kernel = request.backward ? 2 : 1;
    const int total = int(request.sequence_lengths.size()) * request.repeats * 2 * runs_per_kernel;
    int done = 0;
    std::mt19937_64 rng(request.seed);
    for (const std::int64_t n : request.sequence_lengths) {
        AttentionMeasureRow row;
        row.n = n;
        row.scores_bytes_per_head = double(n) * double(n) * 4;
        const double needed = naiveTrainingBytes(n, request);
        const bool naive_fits = needed <= limit;
        if (!naive_fits)
            row.naive.skipped = "needs " + formatMemoryBytes(needed) + " (the N × N scores and their gradient) beyond "
                + limit_text;
        std::vector<double> seconds[2][2];  // [tiled][with_backward]
        std::optional<double> misses[2];
        for (int repeat = 0; repeat < request.repeats; ++repeat) {
            // Alternating, so drift (another process, frequency changes) falls on both kernels.
            for (const bool tiled : {false, true}) {
                if (!tiled && !naive_fits)
                    continue;
                AttentionKernelRun &run = tiled ? row.tiled : row.naive;
                for (int pass = 0; pass < runs_per_kernel; ++pass) {
                    const bool with_backward = pass == 1;
                    double peak = 0, working = 0;
                    std::optional<double> counted;
                    seconds[tiled][with_backward].push_back(
                        runOnce(tiled, with_backward, n, request, m.blocks, rng, counter, &peak, &working, &counted));
                    if (with_backward) {
                        run.training_peak_bytes = peak;
                        run.training_working_bytes = working;
                    } else {
                        run.forward_peak_bytes = peak;
                        run.forward_working_bytes = working;
                    }
                    if (with_backward == request.backward && counted)
                        misses[tiled] = counted;
                    ++done;
                    if (progress
                        && !progress(done, total,
                                     "N = " + std::to_string(n) + ", " + (tiled ? "tiled" : "naive") + (with_backward ? " forward + backward" : " forward")
                                         + ", run " + std::to_string(repeat + 1) + " of " + std::to_string(request.repeats))) {
                        m.cancelled = true;
                        return m;
                    }
                }
            }
        }
        const double useful = 4.0 * double(request.batch) * double(request.heads) * double(request.head_dim)
            * (double(n) * double(n + 1) / 2);
        for (const bool tiled : {false, true}) {
            AttentionKernelRun &run = tiled ? row.tiled : row.naive;
            if (seconds[tiled][false].empty())
                continue;
            run.ran = true;
            run.forward_seconds = median(seconds[tiled][false]);
            run.training_seconds = median(seconds[tiled][true]);
            run.modelled_bytes_moved = attentionTrafficBytes(tiled, n, request.head_dim, request.heads, request.batch,
                                                             m.blocks, request.backward);
            if (misses[tiled])
                run.counted_bytes_moved = *misses[tiled] * kCacheLineBytes;
            run.useful_flops = request.backward ? 3 * useful : useful;
        }
        m.rows.push_back(row);
    }
    return m;
}

}  // namespace lse::reference
