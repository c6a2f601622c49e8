// SPDX-License-Identifier: GPL-3.0-or-later
// The element-wise kernels' parallel thresholds (reference/ops/parallel_thresholds.h): the
// defaults are the fixed kParallelMinWork rule, useThreads with kernel factors sets the thresholds
// the predictor derives from them (and the defaults on one thread or for another thread count), a
// scope restores what was there, and a kernel's results do not depend on whether it split.
#include "performance/cpu_kernel_time.h"
#include "reference/ops/norms.h"
#include "reference/ops/parallel_thresholds.h"
#include "reference/thread_choice.h"

#include <QtTest>

#include <omp.h>

#include <cmath>
#include <vector>

using namespace lse;
using namespace lse::reference;

namespace {

CpuKernelFactors factorsAt(int threads)
{
    CpuKernelFactors f;
    f.threads = threads;
    f.stream_working_set_bytes = {65536, 1048576};
    f.stream_bytes_per_second = {40e9, 20e9};
    f.elementwise_kernels = {"norm", "residual", "activation", "rope", "cross_entropy"};
    f.elementwise_kernel_flops_per_second = {4e9, 2e9, 10e9, 6e9, 10e9};
    f.barrier_seconds = 0.5e-6;
    return f;
}

}  // namespace

class TestParallelThresholds : public QObject {
    Q_OBJECT
private slots:
    void defaultsAreTheFixedRule()
    {
        const ParallelThresholds d;
        QCOMPARE(d[ParallelKernel::Norm], kParallelMinWork);
        QCOMPARE(d[ParallelKernel::Activation], kParallelMinWork / 8);  // n · f · 8 >= kParallelMinWork before
        QCOMPARE(std::string(parallelKernelName(ParallelKernel::CrossEntropy)), std::string("cross_entropy"));
    }

    void useThreadsWithFactorsSetsWhatThePredictorAssumes()
    {
        const CpuKernelFactors two = factorsAt(2);
        useThreads(2, two);
        for (int k = 0; k < kParallelKernelCount; ++k) {
            const auto kernel = ParallelKernel(k);
            QCOMPARE(double(parallelMinElements(kernel)), performance::cpuParallelMinElements(two, parallelKernelName(kernel)));
        }
        // Norm: 0.5 µs / max(4 / 4e9, 8 / 40e9) = 500 elements.
        QCOMPARE(parallelMinElements(ParallelKernel::Norm), std::ptrdiff_t(500));
        useThreads(1, factorsAt(1));
        QVERIFY(parallelThresholds() == ParallelThresholds{});
        useThreads(2, factorsAt(3));  // factors of another thread count: the defaults
        QVERIFY(parallelThresholds() == ParallelThresholds{});
    }

    void scopeRestores()
    {
        ParallelThresholds low;
        for (auto &e : low.elements)
            e = 1;
        setParallelThresholds(low);
        {
            const ScopedParallelThresholds scope{ParallelThresholds{}};
            QVERIFY(parallelThresholds() == ParallelThresholds{});
        }
        QVERIFY(parallelThresholds() == low);
        setParallelThresholds(ParallelThresholds{});
    }

    void splitOrNotTheSameValues()
    {
        // 64 rows of 96: below the default threshold (one thread), above a threshold of 1 (split).
        const Index n = 64, d = 96;
        std::vector<float> x(static_cast<std::size_t>(n * d)), gain(static_cast<std::size_t>(d)), serial(x.size()), split(x.size());
        std::vector<float> stats(static_cast<std::size_t>(n));
        for (std::size_t i = 0; i < x.size(); ++i)
            x[i] = float(std::sin(double(i)));
        for (std::size_t j = 0; j < gain.size(); ++j)
            gain[j] = 1.0f + 0.01f * float(j);
        omp_set_num_threads(2);
        rmsNormForward(x.data(), gain.data(), serial.data(), stats.data(), n, d, 1e-5f);
        ParallelThresholds low;
        for (auto &e : low.elements)
            e = 1;
        const ScopedParallelThresholds scope(low);
        rmsNormForward(x.data(), gain.data(), split.data(), stats.data(), n, d, 1e-5f);
        QVERIFY(serial == split);
    }
};

QTEST_GUILESS_MAIN(TestParallelThresholds)
#include "test_parallel_thresholds.moc"
