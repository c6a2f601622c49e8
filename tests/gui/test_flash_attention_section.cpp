// SPDX-License-Identifier: GPL-3.0-or-later
// The "Inside the GPU" page's FlashAttention tab offscreen (issue 32): the counters it shows equal
// core's closed forms at several steps (Dao et al. 2022 Algorithm 1, Dao 2023 Algorithm 1, computed
// here from flash_attention_io.h's prefix forms, not from the steps the tab plays), the step player
// answers Space, Left and Right, lesson settings round-trip and refuse bad values naming the key,
// refused inputs name the field and its rule, the causal mask's skipped blocks are drawn, and the
// charts carry the expected series.

#include "charts/chart_view.h"
#include "kernels/flash_attention_io.h"
#include "kernels/flash_attention_steps.h"
#include "pages/kernels/flash_attention_animation.h"
#include "pages/kernels/flash_attention_counters.h"
#include "pages/kernels/flash_attention_section.h"
#include "pages/kernels/kernels_page.h"
#include "pages/parallel/step_player.h"

#include <QJsonObject>
#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

using namespace lse;
using namespace lse::gui;
using kernels::AttentionAlgorithm;
using kernels::IoCounts;

namespace {

// The counts the table shows in `column` (exact integers kept in Qt::UserRole).
IoCounts shownCounts(const FlashAttentionSection &section, int column)
{
    const QTableWidget *table = section.counters()->countersTable();
    IoCounts counts;
    counts.read_bytes = table->item(FlashAttentionCounters::Read, column)->data(Qt::UserRole).toLongLong();
    counts.written_bytes = table->item(FlashAttentionCounters::Written, column)->data(Qt::UserRole).toLongLong();
    counts.flops = table->item(FlashAttentionCounters::Flops, column)->data(Qt::UserRole).toLongLong();
    return counts;
}

QStringList seriesNames(const ChartView *chart)
{
    QStringList names;
    for (const ChartSeries &series : chart->data().series)
        names << series.name;
    return names;
}

}  // namespace

class TestFlashAttentionSection : public QObject {
    Q_OBJECT
private slots:
    void pageHasTheSection()
    {
        KernelsPage page;
        QCOMPARE(page.id(), QStringLiteral("kernels"));
        QVERIFY(page.sectionIds().contains(QStringLiteral("flash-attention")));
        // The page's charts are its sections' (FlashAttention 3, GEMM waves 1, fusion 3).
        QCOMPARE(page.charts().size(), 7);
        QVERIFY(page.selectSection(QStringLiteral("flash-attention")));
        QCOMPARE(page.currentSection()->charts().size(), 3);
    }

    // FlashAttention (Algorithm 1): after the initialisation, K/V block j loaded and i Q blocks of
    // it visited, the counters equal flashForwardPrefix; at the end, the closed form of attentionIo.
    void countersEqualClosedFormsFlash_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("d");
        QTest::addColumn<int>("m");
        QTest::addColumn<bool>("causal");
        QTest::newRow("N 64 d 8 M 512") << 64 << 8 << 512 << false;
        QTest::newRow("N 100 d 16 M 2048 causal") << 100 << 16 << 2048 << true;
        QTest::newRow("N 2048 d 64 M 164 KiB causal") << 2048 << 64 << 164 * 1024 << true;
    }
    void countersEqualClosedFormsFlash()
    {
        QFETCH(int, n);
        QFETCH(int, d);
        QFETCH(int, m);
        QFETCH(bool, causal);
        FlashAttentionSection section;
        section.setAlgorithm(AttentionAlgorithm::Flash);
        section.setSequenceLength(n);
        section.setHeadDim(d);
        section.setSramBytes(m);
        section.setCausal(causal);
        QVERIFY2(section.problemText().isEmpty(), qPrintable(section.problemText()));
        const kernels::AttentionConfig config = section.config();
        const kernels::AttentionBlocks blocks = kernels::attentionBlocks(config);
        // Step 1 initialises; then per K/V block j: one load, T_r block steps (computed or skipped).
        const int per_column = int(1 + blocks.row_blocks);
        QCOMPARE(section.player()->stepCount(), int(1 + blocks.column_blocks * per_column));
        for (std::int64_t j : {std::int64_t(0), blocks.column_blocks / 2, blocks.column_blocks - 1}) {
            for (std::int64_t i : {std::int64_t(0), blocks.row_blocks / 2, blocks.row_blocks}) {
                const int step = int(1 + j * per_column + 1 + i);
                section.player()->setCurrentStep(step);
                QCOMPARE(shownCounts(section, FlashAttentionCounters::SoFar),
                         kernels::flashForwardPrefix(config, blocks, j, true, i));
            }
        }
        const Result<kernels::AttentionIo> io = kernels::attentionIo(config);
        QVERIFY(io);
        section.player()->setCurrentStep(section.player()->stepCount());
        QCOMPARE(shownCounts(section, FlashAttentionCounters::SoFar), io->flash_forward);
        QCOMPARE(shownCounts(section, FlashAttentionCounters::AlgorithmTotal), io->flash_forward);
        // Standard attention beside: Algorithm 0's (4Nd + 4N²)·E bytes, by hand.
        const std::int64_t standard_bytes = (4LL * n * d + 4LL * n * n) * 2;
        QCOMPARE(shownCounts(section, FlashAttentionCounters::StandardTotal).read_bytes
                     + shownCounts(section, FlashAttentionCounters::StandardTotal).written_bytes,
                 standard_bytes);
        // Step 0: nothing counted yet.
        section.player()->setCurrentStep(0);
        QCOMPARE(shownCounts(section, FlashAttentionCounters::SoFar), IoCounts{});
    }

    // FlashAttention-2's loop order: after Q block i loaded and j K/V blocks visited.
    void countersEqualClosedFormsFlash2()
    {
        FlashAttentionSection section;
        section.setAlgorithm(AttentionAlgorithm::Flash2);
        section.setSequenceLength(200);
        section.setHeadDim(16);
        section.setSramBytes(4096);
        section.setCausal(true);
        const kernels::AttentionConfig config = section.config();
        const kernels::AttentionBlocks blocks = kernels::attentionBlocks(config);
        const int per_row = int(blocks.column_blocks + 2);  // load Q_i, T_c blocks, write O_i
        for (std::int64_t i : {std::int64_t(0), blocks.row_blocks - 1})
            for (std::int64_t j : {std::int64_t(0), blocks.column_blocks / 2, blocks.column_blocks}) {
                section.player()->setCurrentStep(int(i * per_row + 1 + j));
                QCOMPARE(shownCounts(section, FlashAttentionCounters::SoFar),
                         kernels::flash2ForwardPrefix(config, blocks, i, true, j));
            }
        section.player()->setCurrentStep(section.player()->stepCount());
        QCOMPARE(shownCounts(section, FlashAttentionCounters::SoFar), kernels::attentionIo(config)->flash2_forward);
    }

    void keysStepThePlayer()
    {
        FlashAttentionSection section;
        section.setSequenceLength(64);
        section.setHeadDim(8);
        section.setSramBytes(512);
        section.show();
        QVERIFY(QTest::qWaitForWindowExposed(&section));
        section.player()->setCurrentStep(3);
        QSignalSpy spy(section.player(), &StepPlayer::currentStepChanged);
        section.setFocus();
        QTest::keyClick(&section, Qt::Key_Right);
        QCOMPARE(section.player()->currentStep(), 4);
        QCOMPARE(section.animation()->step(), 4);
        QTest::keyClick(&section, Qt::Key_Left);
        QTest::keyClick(&section, Qt::Key_Left);
        QCOMPARE(section.player()->currentStep(), 2);
        QCOMPARE(spy.count(), 3);
        QTest::keyClick(&section, Qt::Key_Space);
        QVERIFY(section.player()->isPlaying());
        QTest::keyClick(&section, Qt::Key_Space);
        QVERIFY(!section.player()->isPlaying());
        // The step's caption names the block.
        const QLabel *caption = section.findChild<QLabel *>(QStringLiteral("flash-attention-step"));
        QVERIFY(caption);
        QVERIFY2(caption->text().contains(QStringLiteral("Step 2 of")), qPrintable(caption->text()));
    }

    // Causal: the blocks above the diagonal are drawn skipped, as many as attentionIo counts.
    void causalShowsSkippedBlocks()
    {
        FlashAttentionSection section;
        section.setSequenceLength(256);
        section.setHeadDim(16);
        section.setSramBytes(4096);  // B_c = 32, B_r = 16: 16 × 8 blocks
        section.setCausal(false);
        section.player()->setCurrentStep(section.player()->stepCount());
        QCOMPARE(section.animation()->blockCount(FlashAttentionAnimation::BlockState::Skipped), 0);
        section.setCausal(true);
        section.player()->setCurrentStep(section.player()->stepCount());
        // Block (i, j) is skipped when 32j > 16(i+1) − 1: per column j, the first 2j row blocks.
        const int skipped_by_hand = 0 + 2 + 4 + 6 + 8 + 10 + 12 + 14;
        QCOMPARE(section.io()->skipped_blocks, std::int64_t(skipped_by_hand));
        QCOMPARE(section.animation()->blockCount(FlashAttentionAnimation::BlockState::Skipped), skipped_by_hand);
        QCOMPARE(section.animation()->blockState(0, 7), FlashAttentionAnimation::BlockState::Skipped);
        QCOMPARE(section.animation()->blockState(15, 0), FlashAttentionAnimation::BlockState::Computed);
        // Before the first step nothing is computed or skipped.
        section.player()->setCurrentStep(0);
        QCOMPARE(section.animation()->blockCount(FlashAttentionAnimation::BlockState::Pending), 16 * 8);
    }

    // M too small for one row each of Q, K, V, O (4·d·E = 512 bytes at d = 64, E = 2).
    void badInputNamesTheField()
    {
        FlashAttentionSection section;
        section.setHeadDim(64);
        QSignalSpy spy(&section, &FlashAttentionSection::computed);
        section.setSramBytes(100);
        QCOMPARE(spy.count(), 1);
        QVERIFY(!section.io());
        QVERIFY(!section.steps());
        const QString problem = section.problemText();
        QVERIFY2(problem.contains(QStringLiteral("M (SRAM bytes)")) && problem.contains(QStringLiteral("[fits]"))
                     && problem.contains(QStringLiteral("512")),
                 qPrintable(problem));
        QCOMPARE(section.player()->stepCount(), 0);
        QVERIFY(section.ioOverSequenceChart()->data().series.isEmpty());
        section.setSramBytes(512);
        QVERIFY(section.problemText().isEmpty());
        QVERIFY(section.io());
    }

    // Past kMaxAttentionSteps: no animation, the limit explained, the totals still shown.
    void stepLimitExplained()
    {
        FlashAttentionSection section;
        section.setHeadDim(64);
        section.setSramBytes(2048);  // B_c = B_r = 4
        section.setSequenceLength(65536);
        QVERIFY(section.problemText().isEmpty());
        QVERIFY(!section.steps());
        QVERIFY2(section.animationNote().contains(QStringLiteral("100,000")), qPrintable(section.animationNote()));
        QCOMPARE(shownCounts(section, FlashAttentionCounters::AlgorithmTotal), section.io()->flash_forward);
    }

    void rowStatisticsShownForSmallExamples()
    {
        FlashAttentionSection section;
        section.setSequenceLength(8);
        section.setHeadDim(4);
        section.setSramBytes(64);  // the CLI's example: B_c = B_r = 2
        section.player()->setCurrentStep(8);  // compute block (0, 1)
        const QTableWidget *table = section.counters()->statisticsTable();
        QCOMPARE(table->rowCount(), 2);
        const kernels::RowStatistics &row = section.steps()->steps[7].rows[0];
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("0"));
        QCOMPARE(table->item(0, 5)->text(), QLocale().toString(std::exp(row.m_before - row.m_after), 'f', 4));
    }

    void lessonSettingsRoundTrip()
    {
        FlashAttentionSection section;
        QString error;
        const QJsonObject settings{{"sequence_length", 256}, {"head_dim", 16},        {"sram_bytes", 4096},
                                   {"element_bytes", 4},     {"causal", true},        {"algorithm", "flash2"},
                                   {"step", 5}};
        QVERIFY2(section.applyLessonSettings(settings, &error), qPrintable(error));
        QCOMPARE(section.lessonSettings(), settings);
        QVERIFY(section.algorithm() == AttentionAlgorithm::Flash2);
        QCOMPARE(section.player()->currentStep(), 5);
        QVERIFY(section.applyLessonSettings(section.lessonSettings(), &error));
        QCOMPARE(section.lessonSettings(), settings);
        // Bad values name the key and change nothing.
        const QList<std::pair<QJsonObject, QString>> bad{
            {{{"head_dim", 32}, {"algorithm", "flash3"}}, "algorithm"},
            {{{"element_bytes", 3}}, "element_bytes"},
            {{{"sram_bytes", 100}}, "sram_bytes"},
            {{{"step", 100000}}, "step"},
            {{{"no_such_setting", 1}}, "no_such_setting"},
        };
        for (const auto &[values, key] : bad) {
            QVERIFY(!section.applyLessonSettings(values, &error));
            QVERIFY2(error.startsWith(key + QLatin1Char(':')), qPrintable(error));
            QCOMPARE(section.lessonSettings(), settings);
        }
        // The animation: restart at step 0, then Next advances.
        QVERIFY(section.restartLessonAnimation());
        QCOMPARE(section.player()->currentStep(), 0);
        QVERIFY(section.advanceLessonAnimation());
        QCOMPARE(section.player()->currentStep(), 1);
        QVERIFY(section.lessonAnimationWidgets().contains(section.animation()));
    }

    void chartsHaveTheirSeries()
    {
        FlashAttentionSection section;
        const QStringList curves{"standard forward", "FlashAttention forward", "FlashAttention-2 order forward",
                                 "standard backward", "FlashAttention backward"};
        QCOMPARE(seriesNames(section.ioOverSequenceChart()), curves + QStringList{"chosen N"});
        QCOMPARE(seriesNames(section.ioOverSramChart()), curves + QStringList{"chosen M"});
        const QStringList roofline = seriesNames(section.rooflineChart());
        QCOMPARE(roofline.size(), 6);
        QVERIFY(roofline.first().startsWith(QStringLiteral("roofline")));
        QCOMPARE(roofline.mid(1), curves);
        QVERIFY(section.ioOverSequenceChart()->data().log_x && section.ioOverSequenceChart()->data().log_y);
        // Over N the standard forward is (4Nd + 4N²)·E at every N (by hand at N = 1024, d = 64).
        const ChartSeries &standard = section.ioOverSequenceChart()->data().series.first();
        const qsizetype at = standard.x.indexOf(1024.0);
        QVERIFY(at >= 0);
        QCOMPARE(standard.y[at], double((4LL * 1024 * 64 + 4LL * 1024 * 1024) * 2));
        // The roofline places FlashAttention's forward at its FLOPs / bytes.
        const ChartSeries &flash = section.rooflineChart()->data().series[2];
        QCOMPARE(flash.x.first(), section.io()->flash_forward.arithmeticIntensity());
        QVERIFY(!section.rooflineChart()->data().formula.source.isEmpty());
    }
};

QTEST_MAIN(TestFlashAttentionSection)
#include "test_flash_attention_section.moc"
