// SPDX-License-Identifier: GPL-3.0-or-later
// This CPU's kernel times (core/performance/cpu_kernel_time.h) from given, not measured, kernel
// factors: each case computed by hand from the formulas in the header.
#include "performance/cpu_kernel_time.h"
#include "performance/kernel_time.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace lse;
using namespace lse::performance;

namespace {

// A 2-point grid per axis (16 and 256): the rate is 10 GFLOP/s where m = 16, 40 GFLOP/s where
// m = 256, whatever n and k are; the weight gradient's form (Aᵀ·B) at half that. The attention
// kernels on (T, Dh) ∈ {16, 256} × {16, 64}: scores forward 4 GFLOP/s per round where T = 16,
// 16 where T = 256; values forward twice that; each backward kernel (two products) 3 GFLOP/s.
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
                f.gemm_weight_gradient_flops_per_second.push_back(rate / 2);
            }
    f.attention_seq_axis = {16, 256};
    f.attention_head_dim_axis = {16, 64};
    f.attention_scores_forward_flops_per_second = {4e9, 4e9, 16e9, 16e9};
    f.attention_values_forward_flops_per_second = {8e9, 8e9, 32e9, 32e9};
    f.attention_scores_backward_flops_per_second.assign(4, 3e9);
    f.attention_values_backward_flops_per_second.assign(4, 3e9);
    f.decode_attention_keys_axis = {16, 256};
    f.decode_attention_flops_per_second = {1e9, 2e9, 4e9, 8e9};
    f.stream_working_set_bytes = {1e4, 1e6};
    f.stream_bytes_per_second = {40e9, 10e9};
    f.gemv_bytes_per_second = {50e9, 20e9};
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
        QVERIFY(near(cpuGemmFlopsPerSecond(f, 256, 16, 256, GemmPass::WeightGradient), 20e9));
        QVERIFY(near(cpuGemmFlopsPerSecond(f, 256, 16, 256, GemmPass::InputGradient), 40e9));
    }

    // m = 64 is halfway between 16 and 256 in log m: exp(½ ln 10e9 + ½ ln 40e9) = 20e9.
    void gemmRateInterpolatedInLogSpace()
    {
        const CpuKernelFactors f = givenFactors(1);
        QVERIFY(near(cpuGemmFlopsPerSecond(f, 64, 100, 200), 20e9));
        // Above the grid: the largest size's rate.
        QVERIFY(near(cpuGemmFlopsPerSecond(f, 4096, 4096, 4096), 40e9));
    }

    // Below the grid in m (a decode step's few rows, above the blocked matrix-vector products'
    // eight) the time is linear in m through the grid's two smallest m at this (n, k):
    // t(16) = 2·16·16·16 / 10e9, t(256) = 2·256·16·16 / 40e9, so t(12) = t(16) − 4 · (t(256) − t(16)) / 240.
    // The rate itself still scales as before.
    void gemmBelowTheGridIsLinearInRows()
    {
        const CpuKernelFactors f = givenFactors(1);
        QVERIFY(near(cpuGemmFlopsPerSecond(f, 4, 16, 16), 2.5e9));
        const double t16 = 2.0 * 16 * 16 * 16 / 10e9, t256 = 2.0 * 256 * 16 * 16 / 40e9;
        const KernelTime t = cpuGemmTime(GemmShape{1, 12, 16, 16}, f);
        QVERIFY(near(t.seconds, t16 - 4 * (t256 - t16) / 240));
        QVERIFY(!t.memory_bound);
    }

    // From 2 to 8 rows the reference runs one matrix-vector product per row over L2-sized blocks of
    // W (reference/ops/linear.cpp): W and the first row from the working set at its one-row
    // bandwidth (20 GB/s at 1 MB), the other rows' passes over W from a working set of one block
    // (here the whole 256 KiB matrix: 26.1 GB/s, between 50 GB/s at 10 kB and 20 at 1 MB in log-log).
    void fewRowsReadTheirMatrixOnceThenFromL2()
    {
        const CpuKernelFactors f = givenFactors(1);
        const double matrix = 4.0 * 256 * 256, row = 4.0 * (256 + 256);
        const double l2 = std::exp(std::log(50e9) + std::log(20e9 / 50e9) * std::log(matrix / 1e4) / std::log(1e6 / 1e4));
        const KernelTime t = cpuGemmTime(GemmShape{1, 4, 256, 256}, f, 1e6);
        QVERIFY(t.memory_bound);
        QVERIFY2(near(t.seconds, (matrix + row) / 20e9 + 3 * (matrix + row) / l2),
                 qPrintable(QString("%1 s").arg(t.seconds)));
        // Twice the rows, the same first pass: only the L2 passes grow.
        const KernelTime eight = cpuGemmTime(GemmShape{1, 8, 256, 256}, f, 1e6);
        QVERIFY(near(eight.seconds - t.seconds, 4 * (matrix + row) / l2));
    }

    // With the few-row product measured (rows 2, 4, 8 at 10, 8 and 5 GB/s from a 1 MB working set),
    // seconds per byte are interpolated linearly in rows, for the product's bytes; the one pass of W
    // from the working set moves from the table's (20 GB/s one-row) to the run's; never below one
    // pass of W at the run's one-row rate.
    void measuredFewRowsInterpolateInRows()
    {
        CpuKernelFactors f = givenFactors(2);
        f.blocked_vector_rows_axis = {2, 4, 8};
        f.blocked_vector_bytes_per_second = {10e9, 8e9, 5e9};
        f.blocked_vector_working_set_bytes = 1e6;
        const double matrix = 4.0 * 256 * 256;
        const auto bytes = [&](double rows) { return matrix + 4.0 * rows * (256 + 256); };
        KernelTime t = cpuGemmTime(GemmShape{1, 4, 256, 256}, f, 1e6);
        QVERIFY(t.memory_bound);
        QVERIFY2(near(t.seconds, bytes(4) / 8e9), qPrintable(QString("%1 s").arg(t.seconds)));
        // 6 rows: halfway between 4 and 8 in seconds per byte.
        t = cpuGemmTime(GemmShape{1, 6, 256, 256}, f, 1e6);
        QVERIFY(near(t.seconds, bytes(6) * (0.5 / 8e9 + 0.5 / 5e9)));
        // 3 rows: between 2 and 4.
        t = cpuGemmTime(GemmShape{1, 3, 256, 256}, f, 1e6);
        QVERIFY(near(t.seconds, bytes(3) * (0.5 / 10e9 + 0.5 / 8e9)));
        // A run whose weights sit in a smaller working set (here the product's own 279 kB, between
        // 50 GB/s at 10 kB and 20 at 1 MB in log-log) reads W's first pass faster.
        const double here = std::exp(std::log(50e9) + std::log(20e9 / 50e9) * std::log(bytes(8) / 1e4) / std::log(1e6 / 1e4));
        t = cpuGemmTime(GemmShape{1, 8, 256, 256}, f, 1e4);
        QVERIFY2(near(t.seconds, bytes(8) / 5e9 + matrix * (1 / here - 1 / 20e9)), qPrintable(QString("%1 s").arg(t.seconds)));
        // Measured rates faster than one pass of W allows are held at that pass.
        f.blocked_vector_bytes_per_second = {1e12, 1e12, 1e12};
        t = cpuGemmTime(GemmShape{1, 2, 256, 256}, f, 1e6);
        QVERIFY(near(t.seconds, matrix / 20e9));
        // One row and more than 8 rows keep their own models; without the table, the old one.
        QVERIFY(near(cpuGemmTime(GemmShape{1, 1, 256, 256}, f, 1e6).seconds, 4.0 * (256 + 65536 + 256) / 20e9));
        const CpuKernelFactors old = givenFactors(2);
        const double l2 = std::exp(std::log(50e9) + std::log(20e9 / 50e9) * std::log(matrix / 1e4) / std::log(1e6 / 1e4));
        const double row = 4.0 * (256 + 256);
        QVERIFY(near(cpuGemmTime(GemmShape{1, 4, 256, 256}, old, 1e6).seconds, (matrix + row) / 20e9 + 3 * (matrix + row) / l2));
    }

    // A product never takes less than reading its operands and writing its output (float32) at the
    // stream bandwidth of the working set they come from: at 1 TFLOP/s (12×256)·(256×256) from a
    // 1 MB working set (10 GB/s) is 4·(3072 + 65536 + 3072) bytes / 10e9, far above its table time.
    void gemmNeverBeatsItsBytes()
    {
        CpuKernelFactors f = givenFactors(1);
        std::fill(f.gemm_flops_per_second.begin(), f.gemm_flops_per_second.end(), 1e12);
        const KernelTime t = cpuGemmTime(GemmShape{1, 12, 256, 256}, f, 1e6);
        QVERIFY(t.memory_bound);
        QVERIFY(near(t.seconds, 4.0 * (3072 + 65536 + 3072) / 10e9));
    }

    // One row is Eigen's matrix-vector product: the matrix's bytes at the one-row product's bandwidth
    // of the working set, 20 GB/s at 1 MB: 4·(256 + 65536 + 256) bytes / 20e9.
    void oneRowProductReadsItsMatrix()
    {
        const CpuKernelFactors f = givenFactors(1);
        const KernelTime t = cpuGemmTime(GemmShape{1, 1, 256, 256}, f, 1e6);
        QVERIFY(t.memory_bound);
        QVERIFY(near(t.seconds, 4.0 * (256 + 65536 + 256) / 20e9));
    }

    // Decode attention at the rate of (keys 16, Dh 16) = 1 GFLOP/s: 5·16·4·16 = 5120 multiply-adds
    // stay on one thread (below 32768), so the 5 sequences run one after another, one call and no
    // region; split over the 2 threads they would be ⌈5/2⌉ = 3 rounds.
    void decodeAttentionRounds()
    {
        const CpuKernelFactors f = givenFactors(2);
        QVERIFY(near(cpuDecodeAttentionFlopsPerSecond(f, 16, 16), 1e9));
        QVERIFY(near(cpuDecodeAttentionFlopsPerSecond(f, 256, 64), 8e9));
        const double perSequence = 1000;
        QVERIFY(near(cpuDecodeAttentionTime(5 * perSequence, 5, 4, 4, 16, 16, f).seconds, 5 * perSequence / 1e9 + 1e-6));
        // 5 sequences of 256 keys, 8 heads of 64: 655360 multiply-adds, split over the threads.
        QVERIFY(near(cpuDecodeAttentionTime(5 * perSequence, 5, 8, 8, 256, 64, f).seconds, 3 * perSequence / 8e9 + 1e-6 + 5e-6));
        // One sequence of 256 keys, 8 heads of 64 (131072 multiply-adds): its 8 KV heads over the 2
        // threads, 4 each, half of its FLOPs on each thread, one region.
        QVERIFY(near(cpuDecodeAttentionTime(perSequence, 1, 8, 8, 256, 64, f).seconds, 0.5 * perSequence / 8e9 + 1e-6 + 5e-6));
        // With one KV head for the 8 query heads nothing splits.
        QVERIFY(near(cpuDecodeAttentionTime(perSequence, 1, 8, 1, 256, 64, f).seconds, perSequence / 8e9 + 1e-6));
        // 3 KV heads over 2 threads: ⌈3/2⌉ = 2 of the 3 groups on the slower thread.
        QVERIFY(near(cpuDecodeAttentionTime(perSequence, 1, 6, 3, 256, 64, f).seconds, 2.0 / 3 * perSequence / 8e9 + 1e-6 + 5e-6));
    }

    // One product: 2·256·256·256 FLOPs at 40 GFLOP/s, nothing added (the rate includes the call).
    void gemmTimeOfOneProduct()
    {
        const CpuKernelFactors f = givenFactors(2);
        const KernelTime t = cpuGemmTime(GemmShape{1, 256, 256, 256}, f);
        QVERIFY(near(t.seconds, 2.0 * 256 * 256 * 256 / 40e9));
        QVERIFY(near(t.efficiency, 1.0));  // the best rate of the table
    }

    // Attention scores Q·Kᵀ of 5 (sequence, head) pairs at T = 16, Dh = 16 over 2 threads:
    // ⌈5/2⌉ = 3 rounds of 2·16·16·16 FLOPs at 4 GFLOP/s + one call + one parallel region.
    void attentionRunsOnePairPerThread()
    {
        const CpuKernelFactors f = givenFactors(2);
        const double pair = 2.0 * 16 * 16 * 16;
        GemmShape scores{5, 16, 16, 16, GemmPass::Forward, BatchedProduct::AttentionScores};
        QVERIFY(near(cpuGemmTime(scores, f).seconds, 3 * pair / 4e9 + 1e-6 + 5e-6));
        // One thread: 5 rounds, no barrier.
        const CpuKernelFactors single = givenFactors(1);
        QVERIFY(near(cpuGemmTime(scores, single).seconds, 5 * pair / 4e9 + 1e-6));
        // P·V (T = 16, Dh = 16 as (m, n, k) = (T, Dh, T)) reads the values table: 8 GFLOP/s.
        const GemmShape values{5, 16, 16, 16, GemmPass::Forward, BatchedProduct::AttentionValues};
        QVERIFY(near(cpuGemmTime(values, f).seconds, 3 * pair / 8e9 + 1e-6 + 5e-6));
    }

    // T = 64 is halfway between 16 and 256 in log T: √(4e9 · 16e9) = 8e9 for the scores, whatever
    // Dh; the sequence and head dim are read from the shape whichever way it is written.
    void attentionRateInterpolatedOverSequence()
    {
        const CpuKernelFactors f = givenFactors(1);
        QVERIFY(near(cpuAttentionFlopsPerSecond(f, BatchedProduct::AttentionScores, false, 64, 32), 8e9));
        const double pair = 2.0 * 64 * 64 * 32;
        QVERIFY(near(cpuGemmTime(GemmShape{1, 64, 64, 32, GemmPass::Forward, BatchedProduct::AttentionScores}, f).seconds,
                     pair / 8e9 + 1e-6));
    }

    // A backward kernel runs its two products in one loop at 3 GFLOP/s per round for both: each
    // product's row is half its time — one product's FLOPs at that rate — and half its call and region.
    void attentionBackwardSharesItsKernel()
    {
        const CpuKernelFactors f = givenFactors(2);
        const double pair = 2.0 * 16 * 16 * 64;  // T = 16, Dh = 64
        const GemmShape inputGradient{4, 16, 64, 16, GemmPass::InputGradient, BatchedProduct::AttentionScores};  // dS·K
        const GemmShape weightGradient{4, 64, 16, 16, GemmPass::WeightGradient, BatchedProduct::AttentionScores};  // dSᵀ·Q
        const double expected = 2 * pair / 3e9 + 0.5 * (1e-6 + 5e-6);
        QVERIFY(near(cpuGemmTime(inputGradient, f).seconds, expected));
        QVERIFY(near(cpuGemmTime(weightGradient, f).seconds, expected));
    }

    // A weight gradient (Aᵀ·B) takes its own table: 2·256³ FLOPs at 20 GFLOP/s.
    void weightGradientUsesItsTable()
    {
        const CpuKernelFactors f = givenFactors(1);
        QVERIFY(near(cpuGemmTime(GemmShape{1, 256, 256, 256, GemmPass::WeightGradient}, f).seconds, 2.0 * 256 * 256 * 256 / 20e9));
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

    // The parallel threshold: the split pays from barrier / ((threads − 1) · seconds per element).
    // Norm on 2 threads: 5 µs / (1 · max(4 FLOPs / 2 GFLOP/s, 8 B / 40 GB/s)) = 2,500 elements.
    // Without a measured rate the bytes decide: activation 5 µs / (8 / 40e9) = 25,000; residual
    // (12 bytes) 16,667. The softmax has no threshold of its own: the fixed default.
    void parallelThresholdFromTheMeasuredRegion()
    {
        const CpuKernelFactors two = givenFactors(2);
        QCOMPARE(cpuParallelMinElements(two, "norm"), 2500.0);
        QCOMPARE(cpuParallelMinElements(two, "activation"), 25000.0);
        QCOMPARE(cpuParallelMinElements(two, "residual"), 16667.0);
        QCOMPARE(cpuParallelMinElements(two, "softmax"), kParallelMinElements);
        CpuKernelFactors three = givenFactors(3);
        QCOMPARE(cpuParallelMinElements(three, "norm"), 1250.0);  // two threads save time
        QVERIFY(std::isinf(cpuParallelMinElements(givenFactors(1), "norm")));
        CpuKernelFactors noRegion = two;
        noRegion.barrier_seconds = 0;
        QCOMPARE(cpuParallelMinElements(noRegion, "norm"), kParallelMinElements);
        QCOMPARE(cpuParallelMinElements(noRegion, "activation"), kParallelMinElements / 8);
        CpuKernelFactors cheapRegion = two;
        cheapRegion.barrier_seconds = 1e-10;
        QCOMPARE(cpuParallelMinElements(cheapRegion, "norm"), kParallelMinElementsFloor);

        // The predictor splits where the threshold says, and never one row.
        const auto hasRegion = [&](double elements, double rows) {
            const KernelTime t = cpuStreamingTime(4 * elements, 8 * elements, two, 1, "attention_norm", rows);
            const double noRegionSeconds = std::max(8 * elements / cpuStreamBytesPerSecond(two, 8 * elements), 4 * elements / 2e9) + 1e-6;
            return !near(t.seconds, noRegionSeconds);
        };
        QVERIFY(hasRegion(2500, 5));
        QVERIFY(!hasRegion(2499, 5));
        QVERIFY(!hasRegion(4096, 1));  // one row of 4,096: one thread
        QVERIFY(hasRegion(4096, 0));   // rows unknown: as many as it takes
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
