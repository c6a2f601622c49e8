// SPDX-License-Identifier: GPL-3.0-or-later
#include "tensors/access_timing.h"

// GCC 12 with -march=native reports false "may be used uninitialized" warnings inside Eigen's
// AVX-512 kernels; CMakeLists.txt silences them for the reference/ sources the same way.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <Eigen/Core>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <string>

namespace lse {

namespace {

using ColumnMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;
using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

constexpr double kFloatBytes = 4;

// Eigen's thread count is global: set it for the measurement, restore it afterwards.
class EigenThreads {
public:
    explicit EigenThreads(int threads) : previous_(Eigen::nbThreads()) { Eigen::setNbThreads(threads); }
    ~EigenThreads() { Eigen::setNbThreads(previous_); }
    EigenThreads(const EigenThreads &) = delete;
    EigenThreads &operator=(const EigenThreads &) = delete;

private:
    int previous_;
};

double median(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

// Sums `outer × inner` floats; the two orders differ only in the strides. Four accumulators keep
// the additions from being one dependency chain, so the row order is limited by memory, not by
// the latency of one add.
float sweep(const float *data, std::int64_t outer, std::int64_t inner, std::int64_t outer_stride,
            std::int64_t inner_stride)
{
    float acc[4] = {0, 0, 0, 0};
    for (std::int64_t o = 0; o < outer; ++o) {
        const float *p = data + o * outer_stride;
        std::int64_t i = 0;
        for (; i + 4 <= inner; i += 4) {
            acc[0] += p[i * inner_stride];
            acc[1] += p[(i + 1) * inner_stride];
            acc[2] += p[(i + 2) * inner_stride];
            acc[3] += p[(i + 3) * inner_stride];
        }
        for (; i < inner; ++i)
            acc[0] += p[i * inner_stride];
    }
    return acc[0] + acc[1] + acc[2] + acc[3];
}

struct AccessBuffers {
    std::int64_t n, rows, cols;
    std::vector<float> a, b, c, b_copy, s, s_copy;
    AccessBuffers(const AccessTimingRequest &request)
        : n(request.matmul_size), rows(request.sweep_rows), cols(request.sweep_cols)
    {
        std::mt19937 generator(16);
        std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
        auto fill = [&](std::vector<float> &v, std::int64_t elements) {
            v.resize(std::size_t(elements));
            for (float &x : v)
                x = uniform(generator);
        };
        fill(a, n * n);
        fill(b, n * n);
        fill(s, rows * cols);
        c.assign(std::size_t(n * n), 0.0f);
        b_copy.assign(std::size_t(n * n), 0.0f);
        s_copy.assign(std::size_t(rows * cols), 0.0f);
    }
};

volatile float g_sink = 0;  // keeps the sweeps' sums observable

void run(AccessVariant variant, AccessBuffers &buf)
{
    const Eigen::Map<const ColumnMajor> a(buf.a.data(), buf.n, buf.n);
    Eigen::Map<ColumnMajor> c(buf.c.data(), buf.n, buf.n);
    switch (variant) {
    case AccessVariant::MatmulContiguous:
        c.noalias() = a * Eigen::Map<const ColumnMajor>(buf.b.data(), buf.n, buf.n);
        break;
    case AccessVariant::MatmulTransposedView:
        // The same buffer read in the other storage order: logically Bᵀ, as torch's b.t().
        c.noalias() = a * Eigen::Map<const RowMajor>(buf.b.data(), buf.n, buf.n);
        break;
    case AccessVariant::MatmulCopy:
        Eigen::Map<ColumnMajor>(buf.b_copy.data(), buf.n, buf.n) = Eigen::Map<const RowMajor>(buf.b.data(), buf.n, buf.n);
        break;
    case AccessVariant::SweepByRows:
        g_sink = sweep(buf.s.data(), buf.rows, buf.cols, buf.cols, 1);
        break;
    case AccessVariant::SweepByColumns:
        g_sink = sweep(buf.s.data(), buf.cols, buf.rows, 1, buf.cols);
        break;
    case AccessVariant::SweepCopy:
        Eigen::Map<ColumnMajor>(buf.s_copy.data(), buf.rows, buf.cols) =
            Eigen::Map<const RowMajor>(buf.s.data(), buf.rows, buf.cols);
        break;
    }
}

constexpr AccessVariant kVariants[] = {AccessVariant::MatmulContiguous, AccessVariant::MatmulTransposedView,
                                       AccessVariant::MatmulCopy,       AccessVariant::SweepByRows,
                                       AccessVariant::SweepByColumns,   AccessVariant::SweepCopy};

}  // namespace

std::string_view toString(AccessVariant variant)
{
    switch (variant) {
    case AccessVariant::MatmulContiguous: return "matmul_contiguous";
    case AccessVariant::MatmulTransposedView: return "matmul_transposed_view";
    case AccessVariant::MatmulCopy: return "matmul_copy";
    case AccessVariant::SweepByRows: return "sweep_by_rows";
    case AccessVariant::SweepByColumns: return "sweep_by_columns";
    case AccessVariant::SweepCopy: return "sweep_copy";
    }
    return "matmul_contiguous";
}

const AccessVariantTiming *AccessTiming::find(AccessVariant variant) const
{
    for (const AccessVariantTiming &v : variants)
        if (v.variant == variant)
            return &v;
    return nullptr;
}

double AccessTiming::matmulCopySavingSeconds() const
{
    const AccessVariantTiming *view = find(AccessVariant::MatmulTransposedView);
    const AccessVariantTiming *copy = find(AccessVariant::MatmulCopy);
    const AccessVariantTiming *contiguous = find(AccessVariant::MatmulContiguous);
    if (!view || !copy || !contiguous)
        return 0;
    return view->median_seconds - (copy->median_seconds + contiguous->median_seconds);
}

double AccessTiming::sweepCopySavingSeconds() const
{
    const AccessVariantTiming *strided = find(AccessVariant::SweepByColumns);
    const AccessVariantTiming *copy = find(AccessVariant::SweepCopy);
    const AccessVariantTiming *rows = find(AccessVariant::SweepByRows);
    if (!strided || !copy || !rows)
        return 0;
    return strided->median_seconds - (copy->median_seconds + rows->median_seconds);
}

namespace {

int breakEvenReads(const AccessVariantTiming *contiguous, const AccessVariantTiming *strided,
                   const AccessVariantTiming *copy)
{
    if (!contiguous || !strided || !copy)
        return 0;
    const double saved_per_read = strided->median_seconds - contiguous->median_seconds;
    if (saved_per_read <= 0)
        return 0;
    return std::max(1, int(std::ceil(copy->median_seconds / saved_per_read)));
}

}  // namespace

int AccessTiming::matmulCopyBreakEvenReads() const
{
    return breakEvenReads(find(AccessVariant::MatmulContiguous), find(AccessVariant::MatmulTransposedView),
                          find(AccessVariant::MatmulCopy));
}

int AccessTiming::sweepCopyBreakEvenReads() const
{
    return breakEvenReads(find(AccessVariant::SweepByRows), find(AccessVariant::SweepByColumns),
                          find(AccessVariant::SweepCopy));
}

AccessVariantTiming accessCost(AccessVariant variant, const AccessTimingRequest &request)
{
    const double n = double(request.matmul_size);
    const double sweep_elements = double(request.sweep_rows) * double(request.sweep_cols);
    AccessVariantTiming cost;
    cost.variant = variant;
    switch (variant) {
    case AccessVariant::MatmulContiguous:
    case AccessVariant::MatmulTransposedView:
        cost.flops = 2 * n * n * n;               // n² outputs, n multiply-adds each
        cost.bytes = 3 * n * n * kFloatBytes;     // read A and B, write C, each once at least
        cost.inner_stride_bytes = std::int64_t(kFloatBytes)
            * (variant == AccessVariant::MatmulContiguous ? 1 : request.matmul_size);  // B(k, j), k → k + 1
        break;
    case AccessVariant::MatmulCopy:
        cost.bytes = 2 * n * n * kFloatBytes;  // read the view, write the contiguous copy
        cost.inner_stride_bytes = std::int64_t(kFloatBytes) * request.matmul_size;  // one side is strided
        break;
    case AccessVariant::SweepByRows:
    case AccessVariant::SweepByColumns:
        cost.flops = sweep_elements;  // one add per element
        cost.bytes = sweep_elements * kFloatBytes;
        cost.inner_stride_bytes =
            std::int64_t(kFloatBytes) * (variant == AccessVariant::SweepByRows ? 1 : request.sweep_cols);
        break;
    case AccessVariant::SweepCopy:
        cost.bytes = 2 * sweep_elements * kFloatBytes;
        cost.inner_stride_bytes = std::int64_t(kFloatBytes) * request.sweep_cols;
        break;
    }
    return cost;
}

Result<AccessTiming> timeAccessOrders(const AccessTimingRequest &request, const std::atomic<bool> &cancel,
                                      const std::function<void(int done, int total)> &progress)
{
    using R = Result<AccessTiming>;
    if (request.matmul_size < 1 || request.matmul_size > kMaxAccessMatmulSize)
        return R::failure("matmul_size", "1 to " + std::to_string(kMaxAccessMatmulSize),
                          "matmul_size must be between 1 and " + std::to_string(kMaxAccessMatmulSize));
    if (request.sweep_rows < 1)
        return R::failure("sweep_rows", "at least 1", "sweep_rows must be at least 1");
    if (request.sweep_cols < 1)
        return R::failure("sweep_cols", "at least 1", "sweep_cols must be at least 1");
    if (request.sweep_rows > kMaxAccessSweepElements / request.sweep_cols)
        return R::failure("sweep_rows", "sweep_rows·sweep_cols ≤ 2^26",
                          "sweep_rows · sweep_cols must not exceed " + std::to_string(kMaxAccessSweepElements)
                              + " elements");
    if (request.repetitions < 1)
        return R::failure("repetitions", "at least 1", "repetitions must be at least 1");
    if (request.threads < 1)
        return R::failure("threads", "at least 1", "threads must be at least 1");

    const EigenThreads threads(request.threads);
    AccessTiming timing;
    timing.request = request;
    AccessBuffers buffers(request);
    const int total = int(std::size(kVariants)) * request.repetitions;
    int done = 0;
    for (AccessVariant variant : kVariants) {
        AccessVariantTiming measured = accessCost(variant, request);
        run(variant, buffers);  // warm-up: page faults, caches, Eigen's packing buffers
        for (int r = 0; r < request.repetitions; ++r) {
            if (cancel.load()) {
                timing.cancelled = true;
                return timing;
            }
            const auto start = std::chrono::steady_clock::now();
            run(variant, buffers);
            const auto stop = std::chrono::steady_clock::now();
            measured.seconds.push_back(std::chrono::duration<double>(stop - start).count());
            if (progress)
                progress(++done, total);
        }
        measured.median_seconds = median(measured.seconds);
        timing.variants.push_back(std::move(measured));
    }
    return timing;
}

}  // namespace lse
