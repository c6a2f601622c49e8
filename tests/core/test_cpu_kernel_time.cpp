// SPDX-License-Identifier: GPL-3.0-or-later
// This CPU's kernel times (core/performance/cpu_kernel_time.h) from given, not measured, kernel
// factors: each case computed by hand from the formulas in the header.
#include "performance/cpu_kernel_time.h"
#include "performance/kernel_time.h"

#include <QtTest>

#include <cmath>

using namespace lse;
using namespace lse::performance;

namespace {

// A 2-point grid per axis (16 and 256): the rate is 10 GFLOP/s where m = 16, 40 GFLOP/s where
// m = 256, whatever n and k are; one thread runs at half that.
CpuKernelFactors givenFactors(int threads)
{
    CpuKernelFactors f;
    f.threads = threads;
    f.gemm_axis = {16, 256};
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            for (int l = 0; l < 2; ++l) {
                const double rate = i == 0 ? 10e9 : 40e9;
                f.gemm_flops_per_second.push_back(rate);
                f.gemm_flops_per_second_one_thread.push_back(rate / 2);
            }
    f.stream_working_set_bytes = {1e4, 1e6};
    f.stream_bytes_per_second = {40e9, 10e9};
    f.elementwise_kernels = {"norm", "softmax"};
    f.elementwise_kernel_flops_per_second = {2e9, 4e9};
    f.elementwise_flops_per_second = 3e9;
    f.call_overhead_seconds = 1e-6;
    f.barrier_seconds = 5e-6;
    f.measured_at = "2026-12-01T10:00:00Z";
    return f;
}

bool near(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b)); }

}  // namespace

class TestCpuKernelTime : public QObject {
    Q_OBJECT

private slots:
    void gemmRateOnTheGrid()
    {
        const CpuKernelFactors f = givenFactors(2);
        QVERIFY(near(cpuGemmFlopsPerSecond(f, 16, 16, 16), 10e9));
        QVERIFY(near(cpuGemmFlopsPerSecond(f, 256, 16, 256), 40e9));
        QVERIFY(near(cpuGemmFlopsPerSecond(f, 256, 16, 256, true), 20e9));
    }

    // m = 64 is halfway between 16 and 256 in log m: exp(½ ln 10e9 + ½ ln 40e9) = 20e9.
    void gemmRateInterpolatedInLogSpace()
    {
        const CpuKernelFactors f = givenFactors(1);
        QVERIFY(near(cpuGemmFlopsPerSecond(f, 64, 100, 200), 20e9));
        // Above the grid: the largest size's rate.
        QVERIFY(near(cpuGemmFlopsPerSecond(f, 4096, 4096, 4096), 40e9));
    }

    // Below the grid a product costs what the smallest one does: m = 4 runs at 10e9 · 4/16.
    void gemmBelowTheGridKeepsTheSmallestTime()
    {
        const CpuKernelFactors f = givenFactors(1);
        QVERIFY(near(cpuGemmFlopsPerSecond(f, 4, 16, 16), 2.5e9));
        const KernelTime t = cpuGemmTime(GemmShape{1, 4, 16, 16}, f);
        QVERIFY(near(t.seconds, 2.0 * 16 * 16 * 16 / 10e9));  // the 16·16·16 product's time
    }

    // One product: 2·256·256·256 FLOPs at 40 GFLOP/s, nothing added (the rate includes the call).
    void gemmTimeOfOneProduct()
    {
        const CpuKernelFactors f = givenFactors(2);
        const KernelTime t = cpuGemmTime(GemmShape{1, 256, 256, 256}, f);
        QVERIFY(near(t.seconds, 2.0 * 256 * 256 * 256 / 40e9));
        QVERIFY(near(t.efficiency, 1.0));  // the best rate of the table
    }

    // Attention: 5 products of (16, 16, 16) over 2 threads: ⌈5/2⌉ = 3 rounds at the one-thread
    // rate (5 GFLOP/s) + one call + one parallel region.
    void batchedProductsRunOnePerThread()
    {
        const CpuKernelFactors f = givenFactors(2);
        const KernelTime t = cpuGemmTime(GemmShape{5, 16, 16, 16}, f);
        const double one = 2.0 * 16 * 16 * 16 / 5e9;
        QVERIFY(near(t.seconds, 3 * one + 1e-6 + 5e-6));
        // One thread: 5 rounds, no barrier.
        CpuKernelFactors single = givenFactors(1);
        QVERIFY(near(cpuGemmTime(GemmShape{5, 16, 16, 16}, single).seconds, 5 * one + 1e-6));
    }

    // Bandwidth between 1e4 and 1e6 bytes: at 1e5 (halfway in log) √(40e9 · 10e9) = 20e9.
    void streamBandwidthInterpolated()
    {
        const CpuKernelFactors f = givenFactors(1);
        QVERIFY(near(cpuStreamBytesPerSecond(f, 1e5), 20e9));
        QVERIFY(near(cpuStreamBytesPerSecond(f, 1e3), 40e9));
        QVERIFY(near(cpuStreamBytesPerSecond(f, 1e9), 10e9));
    }

    // A norm of 1e6 bytes and 1e7 FLOPs on 2 threads: max(1e6 / 10e9, 1e7 / 2e9) = 5 ms, + a call
    // + a parallel region (1e6 / 8 = 125,000 elements, above the parallel threshold).
    void elementwiseTimeByKernel()
    {
        const CpuKernelFactors f = givenFactors(2);
        QCOMPARE(cpuElementwiseKernel("attention_norm"), std::string_view("norm"));
        QCOMPARE(cpuElementwiseKernel("mlp_residual"), std::string_view("residual"));
        QCOMPARE(cpuElementwiseKernel("position_embedding_add"), std::string_view("residual"));
        QCOMPARE(cpuElementwiseKernel("mlp_activation"), std::string_view("activation"));
        QCOMPARE(cpuElementwiseKernel("token_embedding"), std::string_view());
        const KernelTime norm = cpuStreamingTime(1e7, 1e6, f, 1, "mlp_norm");
        QVERIFY(near(norm.seconds, 5e-3 + 1e-6 + 5e-6));
        QVERIFY(!norm.memory_bound);
        // An operator without a measured kernel takes the rate of all of them (3 GFLOP/s).
        QVERIFY(near(cpuStreamingTime(1e7, 1e6, f, 1, "rope").seconds, 1e7 / 3e9 + 1e-6 + 5e-6));
        // Small (1000 bytes: 125 elements): one thread, no parallel region; bandwidth-bound.
        const KernelTime small = cpuStreamingTime(10, 1000, f, 1, "softmax");
        QVERIFY(near(small.seconds, 1000 / 40e9 + 1e-6));
        QVERIFY(small.memory_bound);
    }

    // The GPU kernel classes take the CPU's times when the machine carries its factors.
    void kernelMachineDispatchesToTheCpu()
    {
        const CpuKernelFactors f = givenFactors(1);
        KernelMachine machine;
        machine.matmul_peak_flops_per_second = 1e15;
        machine.memory_bandwidth_bytes_per_second = 1e15;
        machine.vector_peak_flops_per_second = 1e15;
        machine.cpu = &f;
        QVERIFY(near(gemmTime(GemmShape{1, 256, 256, 256}, 0, machine).seconds, 2.0 * 256 * 256 * 256 / 40e9));
        QVERIFY(near(streamingTime(1e7, 1e6, machine, 1, "final_norm").seconds, 5e-3 + 1e-6));
    }
};

QTEST_GUILESS_MAIN(TestCpuKernelTime)
#include "test_cpu_kernel_time.moc"
