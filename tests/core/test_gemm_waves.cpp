// SPDX-License-Identifier: GPL-3.0-or-later
// kernels/gemm_waves: the tiles and waves of a matrix product are exactly the step-time model's
// (performance/kernel_time: gemmTiling, gemmEfficiency, gemmTime) for every shape and accelerator,
// and the sweep over N shows the saw-tooth of the NVIDIA Deep Learning Performance Guide, "Matrix
// Multiplication Background" (tile quantisation, wave quantisation).
#include "hardware/hardware_catalog.h"
#include "kernels/gemm_waves.h"
#include "ops/byte_rules.h"
#include "problem_matchers.h"

#include <QTest>

using namespace lse;
using namespace lse::kernels;

class TestGemmWaves : public QObject {
    Q_OBJECT
private slots:
    void agreesWithKernelTimeForEveryShape();
    void DLPerfGuide_tileQuantisation_handCount();
    void DLPerfGuide_waveQuantisation_handCount();
    void DLPerfGuide_sawTooth();
    void badInputNamesTheField();
};

void TestGemmWaves::agreesWithKernelTimeForEveryShape()
{
    const std::int64_t sides[] = {1, 7, 16, 100, 127, 128, 129, 255, 256, 257, 1000, 1024, 1025, 4096, 5120, 12288};
    int checked = 0;
    for (const Accelerator &accelerator : builtinHardwareCatalog().accelerators) {
        if (accelerator.sm_count <= 0 || accelerator.dense_peak.forDType(DType::BF16) <= 0)
            continue;
        const double peak = accelerator.dense_peak.forDType(DType::BF16);
        const performance::KernelMachine machine = performance::kernelMachine(accelerator, peak, DType::BF16);
        for (std::int64_t m : sides)
            for (std::int64_t n : sides)
                for (std::int64_t k : {std::int64_t(64), std::int64_t(4096)}) {
                    const Result<GemmWaves> waves = gemmWaves({m, n, k, DType::BF16}, accelerator);
                    QVERIFY(waves.ok());
                    performance::GemmShape shape;
                    shape.m = double(m);
                    shape.n = double(n);
                    shape.k = double(k);
                    const performance::GemmEfficiency expected = performance::gemmEfficiency(shape, machine);
                    QCOMPARE(waves->efficiency.tile_quantisation, expected.tile_quantisation);
                    QCOMPARE(waves->efficiency.wave_quantisation, expected.wave_quantisation);
                    QCOMPARE(waves->efficiency.total, expected.total);
                    const double bytes = byte_rules::matmulForward(1, double(m), double(n), double(k), 2, 2, true).total();
                    QCOMPARE(waves->time.seconds, performance::gemmTime(shape, bytes, machine).seconds);
                    // The picture's own counts give the same efficiencies.
                    QCOMPARE(double(m * n) / double(waves->tiles * waves->tile_rows * waves->tile_columns),
                             expected.tile_quantisation);
                    QCOMPARE(double(waves->tiles) / double(waves->waves * waves->sm_count), expected.wave_quantisation);
                    QCOMPARE(waves->tiles, waves->row_tiles * waves->column_tiles);
                    QCOMPARE((waves->waves - 1) * waves->sm_count + waves->last_wave_tiles, waves->tiles);
                    QVERIFY(waves->last_wave_tiles >= 1 && waves->last_wave_tiles <= waves->sm_count);
                    QCOMPARE(waves->waveOfTile(waves->tiles - 1), waves->waves - 1);
                    ++checked;
                }
    }
    QVERIFY(checked > 1000);
}

void TestGemmWaves::DLPerfGuide_tileQuantisation_handCount()
{
    // H100 (132 SMs), 128×128 tiles: M = 4096, N = 257 needs 3 tile columns, the last holding one
    // column: tile quantisation 257/384; 32 × 3 = 96 tiles, one wave on 132 SMs: 96/132.
    const Result<GemmWaves> waves = gemmWaves({4096, 257, 4096, DType::BF16}, *builtinHardwareCatalog().find("h100-sxm"));
    QVERIFY(waves.ok());
    QCOMPARE(waves->tile_rows, std::int64_t(128));
    QCOMPARE(waves->tile_columns, std::int64_t(128));
    QCOMPARE(waves->column_tiles, std::int64_t(3));
    QCOMPARE(waves->tiles, std::int64_t(96));
    QCOMPARE(waves->waves, std::int64_t(1));
    QCOMPARE(waves->efficiency.tile_quantisation, 257.0 / 384.0);
    QCOMPARE(waves->efficiency.wave_quantisation, 96.0 / 132.0);
    // A skinny product gets a smaller tile: N = 8 → 16 (the smallest CUTLASS tile side).
    const Result<GemmWaves> skinny = gemmWaves({4096, 8, 4096, DType::BF16}, *builtinHardwareCatalog().find("h100-sxm"));
    QCOMPARE(skinny->tile_columns, std::int64_t(16));
}

void TestGemmWaves::DLPerfGuide_waveQuantisation_handCount()
{
    // A100 (108 SMs): M = N = 1408 → 11 × 11 = 121 tiles: one full wave of 108 and 13 in the second,
    // wave quantisation 121/216.
    const Result<GemmWaves> waves = gemmWaves({1408, 1408, 4096, DType::BF16}, *builtinHardwareCatalog().find("a100-sxm-80gb"));
    QVERIFY(waves.ok());
    QCOMPARE(waves->tiles, std::int64_t(121));
    QCOMPARE(waves->waves, std::int64_t(2));
    QCOMPARE(waves->full_waves, std::int64_t(1));
    QCOMPARE(waves->last_wave_tiles, std::int64_t(13));
    QCOMPARE(waves->efficiency.wave_quantisation, 121.0 / 216.0);
}

void TestGemmWaves::DLPerfGuide_sawTooth()
{
    const Accelerator &h100 = *builtinHardwareCatalog().find("h100-sxm");
    const Result<std::vector<GemmSweepPoint>> sweep = gemmWaveSweep({4096, 0, 4096, DType::BF16}, 128, 2048, 1, h100);
    QVERIFY(sweep.ok());
    QCOMPARE(sweep->size(), std::size_t(2048 - 128 + 1));
    const auto at = [&](std::int64_t n) { return (*sweep)[std::size_t(n - 128)]; };
    // One column past a multiple of 128 costs a whole tile column, and its 32 tiles may open a wave.
    // (At N = 256 → 257 the gain in wave filling, 64 → 96 of 132 SMs, offsets the tile's loss.)
    for (std::int64_t n : {512, 1024, 1536})
        QVERIFY(at(n).achieved_flops_per_second > at(n + 1).achieved_flops_per_second);
    // Wave quantisation: 4 tile columns = 128 tiles fit one wave of 132 SMs; 5 need two.
    QCOMPARE(at(512).waves, std::int64_t(1));
    QCOMPARE(at(640).waves, std::int64_t(2));
    QVERIFY(at(512).achieved_flops_per_second > at(640).achieved_flops_per_second);
}

void TestGemmWaves::badInputNamesTheField()
{
    using test::hasProblem;
    const Accelerator &a100 = *builtinHardwareCatalog().find("a100-sxm-80gb");
    const Result<GemmWaves> bad = gemmWaves({0, 1, kMaxGemmDimension + 1, DType::FP8}, a100);
    QVERIFY(hasProblem(bad.problems(), "m", "range"));
    QVERIFY(hasProblem(bad.problems(), "k", "range"));
    QVERIFY(!bad.problems().empty());
    bool dtype = false;
    for (const Problem &problem : bad.problems())
        dtype = dtype || (problem.field == "dtype" && problem.rule == "supported");
    QVERIFY(dtype);  // the A100 has no FP8
    QVERIFY(hasProblem(gemmWaveSweep({128, 0, 128, DType::BF16}, 1, 1'000'000, 1, a100).problems(), "n_step", "points"));
}

QTEST_GUILESS_MAIN(TestGemmWaves)
#include "test_gemm_waves.moc"
