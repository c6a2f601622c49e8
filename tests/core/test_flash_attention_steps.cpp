// SPDX-License-Identifier: GPL-3.0-or-later
// kernels/flash_attention_steps: the animation's counters equal the closed forms of
// flash_attention_io at every step (the steps are generated block by block, the closed forms summed
// per K/V or Q block), and the online softmax of the numeric example equals softmax(QKᵀ)V
// (Milakov & Gimelshein 2018; Dao et al. 2022 Algorithm 1; Dao 2023 Algorithm 1).
#include "kernels/flash_attention_io.h"
#include "kernels/flash_attention_steps.h"
#include "problem_matchers.h"

#include <QTest>

#include <cmath>

using namespace lse;
using namespace lse::kernels;

class TestFlashAttentionSteps : public QObject {
    Q_OBJECT
private slots:
    void configs_data();
    void Dao2022_Algorithm1_everyStepEqualsThePrefixClosedForm();
    void Dao2022_Algorithm1_everyStepEqualsThePrefixClosedForm_data() { configs_data(); }
    void Dao2023_Algorithm1_everyStepEqualsThePrefixClosedForm();
    void Dao2023_Algorithm1_everyStepEqualsThePrefixClosedForm_data() { configs_data(); }
    void Dao2022_Algorithm0_standardSteps();
    void Dao2022_Algorithm0_standardSteps_data() { configs_data(); }
    void MilakovGimelshein2018_onlineSoftmaxEqualsDirect_data();
    void MilakovGimelshein2018_onlineSoftmaxEqualsDirect();
    void Dao2023_chosenBlockSizes();
    void sramHoldsTheTiles();
    void hugeAnimationsAreRefused();
};

void TestFlashAttentionSteps::configs_data()
{
    QTest::addColumn<qint64>("n");
    QTest::addColumn<qint64>("d");
    QTest::addColumn<qint64>("m");
    QTest::addColumn<qint64>("e");
    QTest::addColumn<bool>("causal");
    for (bool causal : {false, true}) {
        const char *mask = causal ? "causal" : "full";
        QTest::addRow("N256_d16_M2KiB_%s", mask) << qint64(256) << qint64(16) << qint64(2048) << qint64(2) << causal;
        QTest::addRow("N1000_d64_M100KiB_%s", mask) << qint64(1000) << qint64(64) << qint64(100 * 1024) << qint64(2) << causal;
        QTest::addRow("N4096_d64_H100_%s", mask) << qint64(4096) << qint64(64) << qint64(228 * 1024) << qint64(2) << causal;
        QTest::addRow("N777_d40_M5000_fp32_%s", mask) << qint64(777) << qint64(40) << qint64(5000) << qint64(4) << causal;
        QTest::addRow("N5_d3_M48_%s", mask) << qint64(5) << qint64(3) << qint64(48) << qint64(2) << causal;
        QTest::addRow("N64_d128_Mwhole_%s", mask) << qint64(64) << qint64(128) << qint64(1 << 20) << qint64(2) << causal;
    }
}

void TestFlashAttentionSteps::Dao2022_Algorithm1_everyStepEqualsThePrefixClosedForm()
{
    QFETCH(qint64, n);
    QFETCH(qint64, d);
    QFETCH(qint64, m);
    QFETCH(qint64, e);
    QFETCH(bool, causal);
    const AttentionConfig config{n, d, m, e, causal};
    const Result<AttentionSteps> steps = attentionSteps(config, {AttentionAlgorithm::Flash});
    const Result<AttentionIo> io = attentionIo(config);
    QVERIFY(steps.ok() && io.ok());
    QCOMPARE(std::int64_t(steps->steps.size()), attentionStepCount(config, AttentionAlgorithm::Flash));
    std::int64_t j = 0, i = 0, skipped = 0;
    bool loaded = false;
    for (const AttentionStep &step : steps->steps) {
        if (step.kind == AttentionStepKind::LoadKeyValueBlock) {
            j = step.column_block;
            loaded = true;
            i = 0;
        } else if (step.kind == AttentionStepKind::ComputeBlock || step.kind == AttentionStepKind::SkipBlock) {
            QCOMPARE(step.column_block, j);
            QCOMPARE(step.row_block, i);
            QCOMPARE(step.kind == AttentionStepKind::SkipBlock, blockFullyMasked(config, io->blocks, i, j));
            skipped += step.kind == AttentionStepKind::SkipBlock ? 1 : 0;
            ++i;
        }
        QCOMPARE(step.cumulative, flashForwardPrefix(config, io->blocks, j, loaded, i));
    }
    QCOMPARE(steps->steps.back().cumulative, io->flash_forward);
    QCOMPARE(skipped, io->skipped_blocks);
}

void TestFlashAttentionSteps::Dao2023_Algorithm1_everyStepEqualsThePrefixClosedForm()
{
    QFETCH(qint64, n);
    QFETCH(qint64, d);
    QFETCH(qint64, m);
    QFETCH(qint64, e);
    QFETCH(bool, causal);
    const AttentionConfig config{n, d, m, e, causal};
    const Result<AttentionSteps> steps = attentionSteps(config, {AttentionAlgorithm::Flash2});
    const Result<AttentionIo> io = attentionIo(config);
    QVERIFY(steps.ok() && io.ok());
    QCOMPARE(std::int64_t(steps->steps.size()), attentionStepCount(config, AttentionAlgorithm::Flash2));
    std::int64_t i = 0, j = 0, skipped = 0;
    bool loaded = false;
    for (const AttentionStep &step : steps->steps) {
        switch (step.kind) {
        case AttentionStepKind::LoadQueryBlock:
            i = step.row_block;
            loaded = true;
            j = 0;
            break;
        case AttentionStepKind::ComputeBlock:
        case AttentionStepKind::SkipBlock:
            QCOMPARE(step.row_block, i);
            QCOMPARE(step.column_block, j);
            skipped += step.kind == AttentionStepKind::SkipBlock ? 1 : 0;
            ++j;
            break;
        case AttentionStepKind::WriteOutputBlock:
            i = step.row_block + 1;
            loaded = false;
            j = 0;
            break;
        default: QFAIL("unexpected step kind");
        }
        QCOMPARE(step.cumulative, flash2ForwardPrefix(config, io->blocks, i, loaded, j));
    }
    QCOMPARE(steps->steps.back().cumulative, io->flash2_forward);
    QCOMPARE(skipped, io->skipped_blocks);
}

void TestFlashAttentionSteps::Dao2022_Algorithm0_standardSteps()
{
    QFETCH(qint64, n);
    QFETCH(qint64, d);
    QFETCH(qint64, m);
    QFETCH(qint64, e);
    QFETCH(bool, causal);
    const AttentionConfig config{n, d, m, e, causal};
    const Result<AttentionSteps> steps = attentionSteps(config, {AttentionAlgorithm::Standard});
    const Result<AttentionIo> io = attentionIo(config);
    QVERIFY(steps.ok() && io.ok());
    QCOMPARE(steps->steps.size(), std::size_t(3));
    // Algorithm 0 line by line: S written, then read with P written, then P and V read.
    QCOMPARE(steps->steps[0].cumulative.hbmBytes(), (2 * n * d + n * n) * e);
    QCOMPARE(steps->steps[1].cumulative.hbmBytes(), (2 * n * d + 3 * n * n) * e);
    QCOMPARE(steps->steps.back().cumulative, io->standard_forward);
}

void TestFlashAttentionSteps::MilakovGimelshein2018_onlineSoftmaxEqualsDirect_data()
{
    QTest::addColumn<int>("algorithm");
    QTest::addColumn<bool>("causal");
    for (AttentionAlgorithm algorithm : {AttentionAlgorithm::Standard, AttentionAlgorithm::Flash, AttentionAlgorithm::Flash2})
        for (bool causal : {false, true})
            QTest::addRow("%s_%s", toString(algorithm).data(), causal ? "causal" : "full") << int(algorithm) << causal;
}

void TestFlashAttentionSteps::MilakovGimelshein2018_onlineSoftmaxEqualsDirect()
{
    QFETCH(int, algorithm);
    QFETCH(bool, causal);
    // N = 50, d = 8, M = 512 bytes at fp32: B_c = 4, B_r = 4, so every row sees 13 blocks, the last short.
    const AttentionConfig config{50, 8, 512, 4, causal};
    AttentionStepOptions options;
    options.algorithm = AttentionAlgorithm(algorithm);
    options.with_values = true;
    options.seed = 7;
    const Result<AttentionSteps> steps = attentionSteps(config, options);
    QVERIFY(steps.ok());
    QVERIFY2(steps->example_max_abs_error < 1e-12, qPrintable(QString::number(steps->example_max_abs_error)));
    // The running max never falls; the first block of a row starts from m = −∞, ℓ = 0.
    int rescaled = 0;
    for (const AttentionStep &step : steps->steps)
        for (const RowStatistics &row : step.rows) {
            QVERIFY(row.m_after >= row.m_before);
            QVERIFY(row.l_after >= 0);
            if (std::isinf(row.m_before))
                QCOMPARE(row.l_before, 0.0);
            else if (row.m_after > row.m_before)
                ++rescaled;  // a larger max arrived: O and ℓ were scaled by e^{m_before − m_after} < 1
        }
    if (options.algorithm != AttentionAlgorithm::Standard)
        QVERIFY(rescaled > 0);
}

void TestFlashAttentionSteps::Dao2023_chosenBlockSizes()
{
    // FlashAttention-2 picks its own blocks (e.g. 128 query rows × 64 keys): its K/V re-reads fall
    // with T_r, and the step counters still equal the closed forms at every step.
    for (bool causal : {false, true}) {
        AttentionConfig config{1000, 64, 228 * 1024, 2, causal};
        config.block_rows = 128;
        config.block_columns = 64;
        const Result<AttentionIo> io = attentionIo(config);
        QVERIFY(io.ok());
        QCOMPARE(io->blocks.row_blocks, std::int64_t(8));
        QCOMPARE(io->blocks.column_blocks, std::int64_t(16));
        if (!causal)
            QCOMPARE(io->flash2_forward.read_bytes, (1000 * 64 + 8 * 2 * 1000 * 64) * std::int64_t(2));
        for (AttentionAlgorithm algorithm : {AttentionAlgorithm::Flash, AttentionAlgorithm::Flash2}) {
            const Result<AttentionSteps> steps = attentionSteps(config, {algorithm});
            QVERIFY(steps.ok());
            QCOMPARE(steps->steps.back().cumulative,
                     algorithm == AttentionAlgorithm::Flash ? io->flash_forward : io->flash2_forward);
        }
        AttentionStepOptions values;
        values.algorithm = AttentionAlgorithm::Flash2;
        values.with_values = true;
        const Result<AttentionSteps> example = attentionSteps(config, values);
        QVERIFY(example.ok());
        QVERIFY(example->example_max_abs_error < 1e-12);
    }
    AttentionConfig too_big{2000, 128, 64 * 1024, 2, false};
    too_big.block_rows = 128;
    too_big.block_columns = 128;  // (2·128 + 2·128)·128·2 = 131072 > 65536
    QVERIFY(test::hasProblem(validateAttentionConfig(too_big), "block_rows", "fits"));
    too_big.block_rows = -1;
    QVERIFY(test::hasProblem(validateAttentionConfig(too_big), "block_rows", "range"));
}

void TestFlashAttentionSteps::sramHoldsTheTiles()
{
    const AttentionConfig config{4096, 64, 228 * 1024, 2, true};
    const Result<AttentionSteps> steps = attentionSteps(config, {AttentionAlgorithm::Flash});
    QVERIFY(steps.ok());
    const AttentionBlocks &b = steps->blocks;
    for (const AttentionStep &step : steps->steps) {
        if (step.kind != AttentionStepKind::ComputeBlock)
            continue;
        QVERIFY(step.sram_query_block == step.row_block && step.sram_key_value_block == step.column_block);
        // K_j, V_j, Q_i, O_i (4·B·d ≤ M, B_c = ⌈M/4dE⌉ rounds up by less than a row) + ℓ, m + the score block.
        QVERIFY(step.sram_bytes_in_use <= (2 * b.block_columns * 64 + 2 * b.block_rows * 64 + 2 * b.block_rows
                                           + b.block_rows * b.block_columns) * 2);
    }
}

void TestFlashAttentionSteps::hugeAnimationsAreRefused()
{
    using test::hasProblem;
    const AttentionConfig huge{1 << 20, 128, 16 * 1024, 2, false};
    QVERIFY(attentionStepCount(huge, AttentionAlgorithm::Flash) > kMaxAttentionSteps);
    QVERIFY(hasProblem(attentionSteps(huge, {AttentionAlgorithm::Flash}).problems(), "sequence_length", "steps"));
    AttentionStepOptions values;
    values.with_values = true;
    QVERIFY(hasProblem(attentionSteps({2048, 64, 1 << 20, 2, false}, values).problems(), "sequence_length", "example"));
    QVERIFY(hasProblem(attentionSteps({0, 64, 1 << 20, 2, false}, values).problems(), "sequence_length", "range"));
}

QTEST_GUILESS_MAIN(TestFlashAttentionSteps)
#include "test_flash_attention_steps.moc"
