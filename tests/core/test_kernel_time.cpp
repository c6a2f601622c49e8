// SPDX-License-Identifier: GPL-3.0-or-later
// Kernel times of the step prediction against hand calculations: tile and wave quantisation of a
// matrix product (NVIDIA Deep Learning Performance Guide, "Matrix Multiplication Background"), the
// depth factor, streaming kernels at the sustained bandwidth, FlashAttention at its fraction.

#include "performance/kernel_time.h"

#include <QTest>

#include <cmath>

using namespace lse;
using namespace lse::performance;

namespace {

// An A100-like machine with round figures.
KernelMachine machine()
{
    KernelMachine m;
    m.matmul_peak_flops_per_second = 312e12;
    m.vector_peak_flops_per_second = 19.5e12;
    m.memory_bandwidth_bytes_per_second = 2e12;
    m.sm_count = 108;
    m.efficiency.gemm_peak_fraction = 0.75;
    m.efficiency.gemm_tile_rows = 128;
    m.efficiency.gemm_tile_columns = 128;
    m.efficiency.gemm_fixed_cost_depth = 32;
    m.efficiency.memory_bandwidth_fraction = 0.7;
    m.efficiency.flash_attention_fraction = 0.5;
    m.efficiency.kernel_overhead_seconds = 5e-6;
    return m;
}

bool close(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b)); }

}  // namespace

class TestKernelTime : public QObject {
    Q_OBJECT
private slots:
    void gemmEfficiencyByHand_data()
    {
        QTest::addColumn<double>("batch");
        QTest::addColumn<double>("m");
        QTest::addColumn<double>("n");
        QTest::addColumn<double>("k");
        QTest::addColumn<double>("tile");
        QTest::addColumn<double>("wave");
        // 4096² output: 32·32 = 1024 tiles in ceil(1024/108) = 10 waves of 108 → 1024/1080.
        QTest::addRow("4096 cube") << 1.0 << 4096.0 << 4096.0 << 4096.0 << 1.0 << 1024.0 / 1080.0;
        // m = 100 fills 100/128 of its one row of tiles; 8 column tiles of 128: one wave of 8 on 108 SMs.
        QTest::addRow("thin rows") << 1.0 << 100.0 << 1024.0 << 512.0 << 100.0 / 128.0 << 8.0 / 108.0;
        // m = 8 runs on a 16-row tile (the smallest the libraries ship): 8/16 of it is used.
        QTest::addRow("skinny") << 1.0 << 8.0 << 4096.0 << 4096.0 << 0.5 << 32.0 / 108.0;
        // 108 tiles exactly: one full wave; 109 would need a second, nearly empty one.
        QTest::addRow("one full wave") << 1.0 << 128.0 * 108 << 128.0 << 64.0 << 1.0 << 1.0;
        QTest::addRow("one tile too many") << 1.0 << 128.0 * 109 << 128.0 << 64.0 << 1.0 << 109.0 / 216.0;
        // A batched product counts every batch's tiles: 48 heads · 16·16 tiles = 12288 = 113.8 waves → 114.
        QTest::addRow("batched scores") << 48.0 << 2048.0 << 2048.0 << 128.0 << 1.0 << 12288.0 / (114.0 * 108);
    }
    void gemmEfficiencyByHand()
    {
        QFETCH(double, batch);
        QFETCH(double, m);
        QFETCH(double, n);
        QFETCH(double, k);
        QFETCH(double, tile);
        QFETCH(double, wave);
        const GemmEfficiency e = gemmEfficiency(GemmShape{batch, m, n, k}, machine());
        QVERIFY(close(e.tile_quantisation, tile));
        QVERIFY(close(e.wave_quantisation, wave));
        QVERIFY(close(e.depth, k / (k + 32)));
        QVERIFY(close(e.total, 0.75 * tile * wave * k / (k + 32)));
    }

    void gemmTimeIsComputeOrMemoryBound()
    {
        const KernelMachine m = machine();
        const GemmShape big{1, 4096, 4096, 4096};
        const double efficiency = 0.75 * (1024.0 / 1080.0) * 4096.0 / 4128.0;
        const double bytes = 3 * 4096.0 * 4096 * 2;
        const KernelTime t = gemmTime(big, bytes, m);
        QVERIFY(!t.memory_bound);
        QVERIFY(close(t.seconds, big.flops() / (312e12 * efficiency) + 5e-6));
        QVERIFY(close(t.efficiency, big.flops() / (312e12 * t.seconds)));
        // A matrix-vector product (decode) is bound by reading the matrix.
        const GemmShape vector{1, 1, 4096, 4096};
        const double matrix_bytes = 4096.0 * 4096 * 2;
        const KernelTime v = gemmTime(vector, matrix_bytes, m);
        QVERIFY(v.memory_bound);
        QVERIFY(close(v.seconds, matrix_bytes / (2e12 * 0.7) + 5e-6));
    }

    void streamingAndFlash()
    {
        const KernelMachine m = machine();
        const KernelTime copy = streamingTime(1e6, 1e9, m);
        QVERIFY(copy.memory_bound);
        QVERIFY(close(copy.seconds, 1e9 / 1.4e12 + 5e-6));
        // Many FLOPs per byte on the vector units: compute-bound at the fp32 rate.
        const KernelTime dense = streamingTime(1e12, 1e6, m);
        QVERIFY(!dense.memory_bound);
        QVERIFY(close(dense.seconds, 1e12 / 19.5e12 + 5e-6));
        const KernelTime flash = flashAttentionTime(1e12, 1e8, m);
        QVERIFY(close(flash.seconds, 1e12 / (312e12 * 0.5) + 5e-6));
        QCOMPARE(streamingTime(0, 0, m).seconds, 0.0);
        QCOMPARE(gemmTime(GemmShape{1, 0, 10, 10}, 0, m).seconds, 0.0);
    }

    // FlashAttention's fraction grows with the keys each query visits like a GEMM's with its depth,
    // keys/(keys + d0) (issue 29: short sequences and causal skipping leave short inner loops): with
    // d0 = 32 and 96 keys, 0.5 · 96/128 = 0.375 of the peak; FlashAttention-3 takes its own fraction.
    void flashAttentionDepthAndKernel()
    {
        KernelMachine m = machine();
        const KernelTime short_keys = flashAttentionTime(1e12, 1e8, m, 96);
        QVERIFY(close(short_keys.seconds, 1e12 / (312e12 * 0.375) + 5e-6));
        m.flash_attention3 = true;
        m.efficiency.flash_attention3_fraction = 0.7;
        const KernelTime fa3 = flashAttentionTime(1e12, 1e8, m, 96);
        QVERIFY(close(fa3.seconds, 1e12 / (312e12 * 0.7 * 0.75) + 5e-6));
    }

    // FP8 recipes (Transformer Engine): the weight GEMMs at the FP8 peak times fp8_gemm_peak_fraction,
    // attention at the BF16 peak. On an H100-like part (BF16 989 TFLOP/s, FP8 1979): a 4096³ GEMM's
    // compute at 0.6 of 1979e12 and FlashAttention's at the BF16 989e12.
    void fp8GemmsAndBf16Attention()
    {
        Accelerator h100;
        h100.dense_peak.bf16_flops_per_second = 989e12;
        h100.dense_peak.fp8_flops_per_second = 1979e12;
        h100.memory_bandwidth_bytes_per_second = 3.35e12;
        h100.sm_count = 0;  // no wave loss, to keep the hand figure simple
        h100.efficiency = machine().efficiency;
        h100.efficiency.gemm_fixed_cost_depth = 0;
        h100.efficiency.fp8_gemm_peak_fraction = 0.6;
        const KernelMachine m = kernelMachine(h100, 1979e12, DType::FP8);
        QVERIFY(m.fp8_matmuls);
        QCOMPARE(m.attention_peak_flops_per_second, 989e12);
        const double flops = 2.0 * 4096 * 4096 * 4096;
        const KernelTime gemm = gemmTime(GemmShape{1, 4096, 4096, 4096}, 1.0, m);
        QVERIFY2(close(gemm.seconds, flops / (1979e12 * 0.6) + 5e-6), qPrintable(QString::number(gemm.seconds, 'g', 12)));
        const KernelTime flash = flashAttentionTime(1e12, 1e8, m);
        QVERIFY(close(flash.seconds, 1e12 / (989e12 * 0.5) + 5e-6));
    }

    void noSmCountMeansNoWaveLoss()
    {
        KernelMachine m = machine();
        m.sm_count = 0;
        QCOMPARE(gemmEfficiency(GemmShape{1, 128, 128 * 109, 64}, m).wave_quantisation, 1.0);
    }
};

QTEST_APPLESS_MAIN(TestKernelTime)
#include "test_kernel_time.moc"
