// SPDX-License-Identifier: GPL-3.0-or-later
// kernels/flash_attention_io: the HBM bytes and FLOPs of standard attention and FlashAttention
// against the papers' accounting and hand counts (docs/user-guide/inside-the-gpu.md works the
// first row through by hand).
#include "hardware/hardware_catalog.h"
#include "kernels/flash_attention_io.h"
#include "kernels/flash_attention_sweep.h"
#include "kernels/kernel_roofline.h"
#include "problem_matchers.h"
#include "roofline/roofline.h"

#include <QTest>

using namespace lse;
using namespace lse::kernels;

namespace {

AttentionConfig config(qint64 n, qint64 d, qint64 m, qint64 e, bool causal)
{
    return AttentionConfig{n, d, m, e, causal};
}

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

}  // namespace

class TestFlashAttentionIo : public QObject {
    Q_OBJECT
private slots:
    void shapes_data();
    void Dao2022_Algorithm0_standardForward();
    void Dao2022_Algorithm0_standardForward_data() { shapes_data(); }
    void Dao2022_Algorithm1_flashForwardWithoutMask();
    void Dao2022_Algorithm1_flashForwardWithoutMask_data() { shapes_data(); }
    void Dao2022_Theorem2_flashBytesFallAsOneOverM();
    void Dao2023_Algorithm1_flash2ForwardWithoutMask();
    void Dao2023_Algorithm1_flash2ForwardWithoutMask_data() { shapes_data(); }
    void Dao2022_Algorithm3and4_backward();
    void Dao2022_Algorithm3and4_backward_data() { shapes_data(); }
    void causalSkipsTheBlocksAboveTheDiagonal();
    void causalSkipsTheBlocksAboveTheDiagonal_data() { shapes_data(); }
    void workedExampleByHand();
    void blocksAreTheRooflines();
    void defaultSramIsSharedMemoryPerSm_data();
    void defaultSramIsSharedMemoryPerSm();
    void badInputNamesTheField();
    void sweepsOverNAndM();
    void Williams2009_onTheRoofline();
};

void TestFlashAttentionIo::shapes_data()
{
    QTest::addColumn<qint64>("n");
    QTest::addColumn<qint64>("d");
    QTest::addColumn<qint64>("m");
    QTest::addColumn<qint64>("e");
    QTest::addRow("N1024_d64_M100KiB_bf16") << qint64(1024) << qint64(64) << qint64(100 * 1024) << qint64(2);
    QTest::addRow("N4096_d64_H100_228KiB_bf16") << qint64(4096) << qint64(64) << qint64(228 * 1024) << qint64(2);
    QTest::addRow("N2048_d128_A100_164KiB_bf16") << qint64(2048) << qint64(128) << qint64(164 * 1024) << qint64(2);
    QTest::addRow("N1000_d96_ragged_fp32") << qint64(1000) << qint64(96) << qint64(50'000) << qint64(4);
    QTest::addRow("N7_d4_tiny") << qint64(7) << qint64(4) << qint64(64) << qint64(2);
    QTest::addRow("N65536_d128_long") << qint64(65536) << qint64(128) << qint64(228 * 1024) << qint64(2);
}

void TestFlashAttentionIo::Dao2022_Algorithm0_standardForward()
{
    QFETCH(qint64, n);
    QFETCH(qint64, d);
    QFETCH(qint64, m);
    QFETCH(qint64, e);
    for (bool causal : {false, true}) {
        const Result<AttentionIo> io = attentionIo(config(n, d, m, e, causal));
        QVERIFY(io.ok());
        // Dao et al. 2022 §2.2 / Algorithm 0: Θ(Nd + N²) HBM accesses, (4Nd + 4N²)·E bytes.
        QCOMPARE(io->standard_forward.hbmBytes(), (4 * n * d + 4 * n * n) * e);
        QCOMPARE(io->standard_forward.read_bytes, (3 * n * d + 2 * n * n) * e);
        QCOMPARE(io->standard_forward.flops, 4 * n * n * d + 5 * n * n);
        QCOMPARE(io->standard_extra_memory_bytes, 2 * n * n * e);
    }
}

void TestFlashAttentionIo::Dao2022_Algorithm1_flashForwardWithoutMask()
{
    QFETCH(qint64, n);
    QFETCH(qint64, d);
    QFETCH(qint64, m);
    QFETCH(qint64, e);
    const Result<AttentionIo> io = attentionIo(config(n, d, m, e, false));
    QVERIFY(io.ok());
    const std::int64_t bc = std::min<std::int64_t>(n, ceilDiv(m / e, 4 * d)), br = std::min<std::int64_t>({bc, d, n});
    QCOMPARE(io->blocks.block_columns, bc);
    QCOMPARE(io->blocks.block_rows, br);
    const std::int64_t tc = ceilDiv(n, bc), tr = ceilDiv(n, br);
    QCOMPARE(io->blocks.column_blocks, tc);
    QCOMPARE(io->blocks.row_blocks, tr);
    // K, V once; per K/V block every Q_i, O_i, ℓ_i, m_i read and O_i, ℓ_i, m_i written; O, ℓ, m initialised.
    QCOMPARE(io->flash_forward.read_bytes, (2 * n * d + tc * (2 * n * d + 2 * n)) * e);
    QCOMPARE(io->flash_forward.written_bytes, (n * d + 2 * n + tc * (n * d + 2 * n)) * e);
    QCOMPARE(io->computed_blocks, tr * tc);
    QCOMPARE(io->skipped_blocks, qint64(0));
    // Per query row and key block: 2·2·c·d products + 4 per score + 9 statistics + 4·d output.
    QCOMPARE(io->flash_forward.flops, 4 * n * n * d + 4 * n * n + tc * (9 * n + 4 * n * d));
    QCOMPARE(io->flash_extra_memory_bytes, 2 * n * e);
}

void TestFlashAttentionIo::Dao2022_Theorem2_flashBytesFallAsOneOverM()
{
    // Theorem 2: Θ(N²d²M⁻¹). Exactly: bytes − (3Nd + 2N)E = T_c·(3Nd + 4N)E with T_c = ⌈N/⌈M/4dE⌉⌉.
    const std::int64_t n = 8192, d = 64, e = 2;
    std::int64_t previous = std::numeric_limits<std::int64_t>::max();
    for (std::int64_t m : {16 * 1024, 32 * 1024, 64 * 1024, 128 * 1024, 256 * 1024}) {
        const Result<AttentionIo> io = attentionIo(config(n, d, m, e, false));
        QVERIFY(io.ok());
        const std::int64_t tc = io->blocks.column_blocks;
        QCOMPARE(io->flash_forward.hbmBytes() - (3 * n * d + 2 * n) * e, tc * (3 * n * d + 4 * n) * e);
        // Doubling M halves T_c here (B_c = M/4dE divides N): the N²d²/M term halves.
        if (previous != std::numeric_limits<std::int64_t>::max())
            QCOMPARE(2 * (io->flash_forward.hbmBytes() - (3 * n * d + 2 * n) * e), previous);
        previous = io->flash_forward.hbmBytes() - (3 * n * d + 2 * n) * e;
    }
}

void TestFlashAttentionIo::Dao2023_Algorithm1_flash2ForwardWithoutMask()
{
    QFETCH(qint64, n);
    QFETCH(qint64, d);
    QFETCH(qint64, m);
    QFETCH(qint64, e);
    const Result<AttentionIo> io = attentionIo(config(n, d, m, e, false));
    QVERIFY(io.ok());
    const std::int64_t tr = io->blocks.row_blocks, tc = io->blocks.column_blocks;
    // Q once, K and V once per Q block; O and L = m + log ℓ written once.
    QCOMPARE(io->flash2_forward.read_bytes, (n * d + tr * 2 * n * d) * e);
    QCOMPARE(io->flash2_forward.written_bytes, (n * d + n) * e);
    QCOMPARE(io->flash2_forward.flops, 4 * n * n * d + 4 * n * n + tc * (5 * n + 2 * n * d) + n * d + 2 * n);
}

void TestFlashAttentionIo::Dao2022_Algorithm3and4_backward()
{
    QFETCH(qint64, n);
    QFETCH(qint64, d);
    QFETCH(qint64, m);
    QFETCH(qint64, e);
    const Result<AttentionIo> io = attentionIo(config(n, d, m, e, false));
    QVERIFY(io.ok());
    // Algorithm 3: reads 5N² + 5Nd, writes 2N² + 3Nd (Theorem 5: Θ(Nd + N²)); 4 products + dS.
    QCOMPARE(io->standard_backward.read_bytes, (5 * n * n + 5 * n * d) * e);
    QCOMPARE(io->standard_backward.written_bytes, (2 * n * n + 3 * n * d) * e);
    QCOMPARE(io->standard_backward.flops, 8 * n * n * d + 4 * n * n);
    // Algorithm 4: K, V read and dK, dV written once; Q, O, dO, dQ, ℓ, m read and dQ written per K/V block.
    const std::int64_t tc = io->blocks.column_blocks;
    QCOMPARE(io->flash_backward.read_bytes, (2 * n * d + tc * (4 * n * d + 2 * n)) * e);
    QCOMPARE(io->flash_backward.written_bytes, (3 * n * d + 2 * n * d + tc * n * d) * e);
    // Recomputation: five N²d products (S again) instead of four.
    QCOMPARE(io->flash_backward.flops, 10 * n * n * d + 5 * n * n + tc * 2 * n * d);
    // Dao 2023 Algorithm 2: dQ = 0 (Nd), D from dO and O (2Nd read, N written), K_j, V_j read and
    // dK_j, dV_j written once each (2Nd + 2Nd), per block Q_i, O_i, dO_i, dQ_i, L_i, D_i read and dQ_i
    // written; no per-block statistics recomputed, one division fewer per score than Algorithm 4.
    QCOMPARE(io->flash2_backward.read_bytes, (2 * n * d + 2 * n * d + tc * (4 * n * d + 2 * n)) * e);
    QCOMPARE(io->flash2_backward.written_bytes, (n * d + n + 2 * n * d + tc * n * d) * e);
    QCOMPARE(io->flash2_backward.flops, 10 * n * n * d + 4 * n * n + 2 * n * d);
    // The same loop order moves the same K/V and Q-side traffic; it saves dK, dV's initialisation
    // (2Nd written) and the per-row ℓ, m pair becomes L, D — the bytes differ only by O(Nd).
    QVERIFY(io->flash2_backward.flops < io->flash_backward.flops);
}

void TestFlashAttentionIo::causalSkipsTheBlocksAboveTheDiagonal()
{
    QFETCH(qint64, n);
    QFETCH(qint64, d);
    QFETCH(qint64, m);
    QFETCH(qint64, e);
    const Result<AttentionIo> full = attentionIo(config(n, d, m, e, false));
    const Result<AttentionIo> causal = attentionIo(config(n, d, m, e, true));
    QVERIFY(full.ok() && causal.ok());
    // Brute force over the blocks: (i, j) is skipped when every key of it comes after every query.
    const AttentionBlocks &b = causal->blocks;
    std::int64_t computed = 0, rows_visited = 0;
    for (std::int64_t j = 0; j < b.column_blocks; ++j)
        for (std::int64_t i = 0; i < b.row_blocks; ++i) {
            const std::int64_t first_key = j * b.block_columns;
            const std::int64_t last_query = std::min<std::int64_t>((i + 1) * b.block_rows, n) - 1;
            if (first_key <= last_query) {
                ++computed;
                rows_visited += std::min<std::int64_t>(b.block_rows, n - i * b.block_rows);
            }
        }
    QCOMPARE(causal->computed_blocks, computed);
    QCOMPARE(causal->skipped_blocks, b.row_blocks * b.column_blocks - computed);
    QCOMPARE(causal->flash_forward.read_bytes, (2 * n * d + rows_visited * (2 * d + 2)) * e);
    QCOMPARE(causal->flash_forward.written_bytes, (n * d + 2 * n + rows_visited * (d + 2)) * e);
    QCOMPARE(causal->flash2_backward.read_bytes, (4 * n * d + rows_visited * (4 * d + 2)) * e);
    QCOMPARE(causal->flash2_backward.written_bytes, (3 * n * d + n + rows_visited * d) * e);
    QVERIFY(causal->flash_forward.flops < full->flash_forward.flops);
    QVERIFY(causal->flash2_forward.hbmBytes() < full->flash2_forward.hbmBytes() || b.row_blocks == 1);
    QVERIFY(causal->flash_backward.hbmBytes() <= full->flash_backward.hbmBytes());
    // Standard attention materialises and masks the whole matrix: nothing changes.
    QCOMPARE(causal->standard_forward, full->standard_forward);
    // With many blocks about half are skipped.
    if (b.row_blocks * b.column_blocks >= 100)
        QVERIFY(causal->skipped_blocks * 3 > full->computed_blocks);
}

void TestFlashAttentionIo::workedExampleByHand()
{
    // docs/user-guide/inside-the-gpu.md: N = 4096, d = 64, bf16, M = 228 KiB (H100).
    // B_c = ⌈233472 / 2 / 256⌉ = 456, B_r = 64, T_c = ⌈4096/456⌉ = 9, T_r = 64.
    const Result<AttentionIo> io = attentionIo(config(4096, 64, 233472, 2, false));
    QVERIFY(io.ok());
    QCOMPARE(io->blocks.block_columns, qint64(456));
    QCOMPARE(io->blocks.block_rows, qint64(64));
    QCOMPARE(io->blocks.column_blocks, qint64(9));
    QCOMPARE(io->blocks.row_blocks, qint64(64));
    QCOMPARE(io->standard_forward.hbmBytes(), qint64(136'314'880));
    QCOMPARE(io->flash_forward.read_bytes, qint64(10'633'216));
    QCOMPARE(io->flash_forward.written_bytes, qint64(5'406'720));
    QCOMPARE(io->flash2_forward.read_bytes, qint64(67'633'152));
    QCOMPARE(io->flash2_forward.written_bytes, qint64(532'480));
}

void TestFlashAttentionIo::blocksAreTheRooflines()
{
    // One formula for the tiles: the roofline's FlashAttention operator and this model agree.
    for (std::int64_t m : {16'384, 100'000, 167'936, 233'472})
        for (std::int64_t d : {32, 64, 80, 128, 256})
            for (int e : {1, 2, 4}) {
                const AttentionConfig c = config(1 << 16, d, m, e, false);
                if (!validateAttentionConfig(c).empty())
                    continue;
                const AttentionBlocks b = attentionBlocks(c);
                QCOMPARE(b.block_columns, flashTileColumns(m, e, d));
                QCOMPARE(b.block_rows, flashTileRows(m, e, d));
            }
}

void TestFlashAttentionIo::defaultSramIsSharedMemoryPerSm_data()
{
    // CUDA C++ Programming Guide, "Technical Specifications per Compute Capability": shared memory
    // per SM 164 KB (8.0), 228 KB (9.0, 10.0).
    QTest::addColumn<QString>("id");
    QTest::addColumn<qint64>("bytes");
    QTest::addRow("A100_cc8.0_164KiB") << "a100-sxm-80gb" << qint64(164 * 1024);
    QTest::addRow("H100_cc9.0_228KiB") << "h100-sxm" << qint64(228 * 1024);
    QTest::addRow("H200_cc9.0_228KiB") << "h200-sxm" << qint64(228 * 1024);
    QTest::addRow("B200_cc10.0_228KiB") << "b200" << qint64(228 * 1024);
}

void TestFlashAttentionIo::defaultSramIsSharedMemoryPerSm()
{
    QFETCH(QString, id);
    QFETCH(qint64, bytes);
    const Accelerator *accelerator = builtinHardwareCatalog().find(id.toStdString());
    QVERIFY(accelerator);
    const Result<std::int64_t> m = defaultSramBytes(*accelerator);
    QVERIFY(m.ok());
    QCOMPARE(*m, bytes);
}

void TestFlashAttentionIo::badInputNamesTheField()
{
    using test::hasProblem;
    const Problems problems = validateAttentionConfig(config(0, 0, 0, 0, false));
    QVERIFY(hasProblem(problems, "sequence_length", "range"));
    QVERIFY(hasProblem(problems, "head_dim", "range"));
    QVERIFY(hasProblem(problems, "sram_bytes", "range"));
    QVERIFY(hasProblem(problems, "element_bytes", "range"));
    QVERIFY(hasProblem(validateAttentionConfig(config(1024, 128, 1000, 2, false)), "sram_bytes", "fits"));
    QVERIFY(hasProblem(attentionIo(config(kMaxSequenceLength + 1, 64, 1 << 17, 2, false)).problems(), "sequence_length",
                       "range"));
    // The largest configuration stays exact (no overflow): N² d E < 2^63.
    const Result<AttentionIo> largest = attentionIo(config(kMaxSequenceLength, kMaxHeadDim, 4 * kMaxHeadDim * 8, 8, false));
    QVERIFY(largest.ok());
    QVERIFY(largest->standard_backward.flops > 0 && largest->flash_backward.hbmBytes() > 0);
    const Accelerator *tpu = builtinHardwareCatalog().find("tpu-v5p");
    QVERIFY(tpu);
    QVERIFY(hasProblem(defaultSramBytes(*tpu).problems(), "sram_bytes", "unknown"));
}

void TestFlashAttentionIo::sweepsOverNAndM()
{
    // The curves of Theorem 2: standard grows 4× per doubling of N once N² dominates; FlashAttention
    // with T_c ∝ N as well, but from a far lower level; over M its T_c term falls as 1/M.
    const AttentionConfig base = config(1024, 64, 228 * 1024, 2, false);
    const std::vector<std::int64_t> lengths = doublingSeries(1024, 65536);
    QCOMPARE(lengths, (std::vector<std::int64_t>{1024, 2048, 4096, 8192, 16384, 32768, 65536}));
    const Result<std::vector<AttentionIoPoint>> over_n = attentionIoOverSequenceLength(base, lengths);
    QVERIFY(over_n.ok());
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        QCOMPARE((*over_n)[i].sequence_length, lengths[i]);
        QCOMPARE((*over_n)[i].io.flash_forward, attentionIo(config(lengths[i], 64, 228 * 1024, 2, false))->flash_forward);
        QVERIFY((*over_n)[i].io.flash_forward.hbmBytes() < (*over_n)[i].io.standard_forward.hbmBytes());
    }
    const Result<std::vector<AttentionIoPoint>> over_m = attentionIoOverSram(base, doublingSeries(1024, 1 << 20));
    QVERIFY(over_m.ok());
    for (std::size_t i = 1; i < over_m->size(); ++i)
        QVERIFY((*over_m)[i].io.flash_forward.hbmBytes() <= (*over_m)[i - 1].io.flash_forward.hbmBytes());
    // A point that breaks a rule is named with its index.
    const Result<std::vector<AttentionIoPoint>> bad = attentionIoOverSram(base, {1 << 17, 16});
    QVERIFY(!bad.ok());
    QCOMPARE(bad.problems().front().field, std::string("sram_bytes"));
    QVERIFY(bad.problems().front().message.find("sram_bytes[1]") != std::string::npos);
    QVERIFY(test::hasProblem(attentionIoOverSram(base, {}).problems(), "values", "points"));
}

void TestFlashAttentionIo::Williams2009_onTheRoofline()
{
    // H100 bf16: ridge 989.4e12 / 3.35e12 = 295.3 FLOP/byte. The worked example's standard attention
    // (32.1 FLOP/byte) runs at most at 32.1 × 3.35 TB/s; its bound is the bytes' time.
    const Accelerator &h100 = *builtinHardwareCatalog().find("h100-sxm");
    const RooflineMachine machine = rooflineMachine(h100, DType::BF16);
    const Result<AttentionIo> io = attentionIo(config(4096, 64, 233472, 2, false));
    const KernelRooflinePoint standard = rooflinePoint(io->standard_forward, machine);
    QVERIFY(standard.memory_bound);
    QCOMPARE(standard.intensity_flop_per_byte, 4'378'853'376.0 / 136'314'880.0);
    QCOMPARE(standard.attainable_flops_per_second, standard.intensity_flop_per_byte * 3.35e12);
    QCOMPARE(standard.seconds, 136'314'880.0 / 3.35e12);
    // Its backward pass recomputes, and crosses the ridge: compute-bound.
    const KernelRooflinePoint backward = rooflinePoint(io->flash_backward, machine);
    QVERIFY(!backward.memory_bound);
    QCOMPARE(backward.attainable_flops_per_second, 989.4e12);
    QVERIFY(*tensorDTypeForElementBytes(2) == DType::BF16);
    QVERIFY(!tensorDTypeForElementBytes(8));
}

QTEST_GUILESS_MAIN(TestFlashAttentionIo)
#include "test_flash_attention_io.moc"
