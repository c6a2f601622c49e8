// SPDX-License-Identifier: GPL-3.0-or-later
// The ZeRO page offscreen: which slices each rank holds per stage and the memory per rank against
// ZeRO's §5 formulas.

#include "charts/chart_view.h"
#include "cost/estimate.h"
#include "pages/page_format.h"
#include "pages/parallel/step_player.h"
#include "pages/parallel/zero_page.h"
#include "parallel/zero_sharding.h"
#include "scenario/scenario_json.h"

#include <QCoreApplication>
#include <QLabel>
#include <QTranslator>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>

#include <cmath>

using namespace lse;
using namespace lse::gui;

namespace {

// Held slices of one column (0 parameters, 1 gradients, 2 optimizer states) in the shard grid: the
// labelled rectangles (the unlabelled ones are the whole vector behind them).
QVector<ChartRect> heldRects(const ChartData &data, int column)
{
    QVector<ChartRect> rects;
    for (const ChartRect &rect : data.rects) {
        const double middle = (rect.x0 + rect.x1) / 2;
        if (!rect.label.isEmpty() && middle >= column * 1.12 && middle <= column * 1.12 + 1.0)
            rects << rect;
    }
    return rects;
}

// Wraps every string of the ZeRO page in « », so a test sees which text went through tr().
class MarkingTranslator : public QTranslator {
public:
    bool isEmpty() const override { return false; }
    QString translate(const char *context, const char *source, const char *, int) const override
    {
        if (QLatin1String(context) != QLatin1String("lse::gui::ZeroPage"))
            return QString();
        return QStringLiteral("«") + QString::fromUtf8(source) + QStringLiteral("»");
    }
};

}  // namespace

class TestZeroPage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        scenario_ = defaultScenario();
        // Mixed precision with AdamW: 2 + 2 + 12 bytes per parameter (ZeRO §3.1, K = 12).
        scenario_.training.precision = precisionForRecipe(PrecisionRecipe::BF16Mixed);
        scenario_.training.optimizer = Optimizer::AdamW;
        const Result<Estimate> result = lse::estimate(scenario_);
        QVERIFY(result.ok());
        estimate_ = *result;
    }

    // Space / Left / Right step through the stages 0 → 3 as on the Collectives page.
    void keysStepThroughTheStages()
    {
        ZeroPage page;
        page.setStage(0);
        page.resize(1000, 800);
        page.show();
        page.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&page));
        QSignalSpy stepped(page.player(), &StepPlayer::currentStepChanged);
        QTest::keyClick(&page, Qt::Key_Right);
        QCOMPARE(page.stage(), 1);
        QCOMPARE(stepped.count(), 1);
        QTest::keyClick(&page, Qt::Key_Right);
        QTest::keyClick(&page, Qt::Key_Right);
        QTest::keyClick(&page, Qt::Key_Right);  // stays at the last stage
        QCOMPARE(page.stage(), 3);
        QTest::keyClick(&page, Qt::Key_Left);
        QCOMPARE(page.stage(), 2);
        // The stage box and the player stay in step.
        page.setStage(0);
        QCOMPARE(page.player()->currentStep(), 0);
        // Focus on a child (the step slider): the shortcuts still apply; Space plays and pauses.
        auto *slider = page.player()->findChild<QSlider *>();
        QVERIFY(slider);
        slider->setFocus();
        QTest::keyClick(slider, Qt::Key_Right);
        QCOMPARE(page.stage(), 1);
        QTest::keyClick(slider, Qt::Key_Space);
        QVERIFY(page.player()->isPlaying());
        QTest::keyClick(slider, Qt::Key_Space);
        QVERIFY(!page.player()->isPlaying());
    }

    void shardsPerStage_data()
    {
        QTest::addColumn<int>("stage");
        QTest::addColumn<bool>("params_sharded");
        QTest::addColumn<bool>("grads_sharded");
        QTest::addColumn<bool>("optimizer_sharded");
        QTest::addRow("stage 0") << 0 << false << false << false;
        QTest::addRow("stage 1") << 1 << false << false << true;
        QTest::addRow("stage 2") << 2 << false << true << true;
        QTest::addRow("stage 3") << 3 << true << true << true;
    }

    void shardsPerStage()
    {
        QFETCH(int, stage);
        QFETCH(bool, params_sharded);
        QFETCH(bool, grads_sharded);
        QFETCH(bool, optimizer_sharded);
        ZeroPage page;
        page.showEstimate(scenario_, estimate_);
        const int n = 4;
        page.setDp(n);
        page.setStage(stage);
        const ChartData &data = page.shardChart()->data();
        const bool columns[] = {params_sharded, grads_sharded, optimizer_sharded};
        for (int column = 0; column < 3; ++column) {
            const bool sharded = columns[column];
            const QVector<ChartRect> held = heldRects(data, column);
            QCOMPARE(held.size(), n);  // one slice per rank
            double covered = 0;
            for (const ChartRect &rect : held) {
                QCOMPARE(rect.x1 - rect.x0, sharded ? 1.0 / n : 1.0);
                covered += rect.x1 - rect.x0;
            }
            // Sharded slices tile the vector exactly once; replicated ones cover it n times.
            QCOMPARE(covered, sharded ? 1.0 : double(n));
            if (sharded) {
                for (int a = 0; a < n; ++a)
                    for (int b = a + 1; b < n; ++b)
                        QVERIFY(held[a].x1 <= held[b].x0 + 1e-12 || held[b].x1 <= held[a].x0 + 1e-12);
            }
        }
    }

    void memoryMatchesZeroFormulas()
    {
        ZeroPage page;
        page.showEstimate(scenario_, estimate_);
        const int n = 8;
        page.setDp(n);
        const double psi = double(estimate_.memory.parameters_on_gpu);
        QVERIFY(psi > 0);
        // ZeRO §5 (Figure 1) with K = 12: 16Ψ, 4Ψ + 12Ψ/N, 2Ψ + 14Ψ/N, 16Ψ/N.
        const double expected[4] = {16 * psi, 4 * psi + 12 * psi / n, 2 * psi + 14 * psi / n, 16 * psi / n};
        const ChartData &memory = page.memoryChart()->data();
        QCOMPARE(memory.series.size(), 3);
        QCOMPARE(memory.categories.size(), 4);
        for (int stage = 0; stage < 4; ++stage) {
            double total = 0;
            for (const ChartSeries &series : memory.series)
                total += series.y.at(stage);
            QVERIFY2(std::abs(total / expected[stage] - 1) < 1e-12, qPrintable(QString::number(stage)));
            // And the page shows exactly the layout's bytes.
            const parallel::RankHoldings &rank = page.layouts().at(std::size_t(stage)).holdings.front();
            QCOMPARE(memory.series.at(0).y.at(stage), rank.parameter_bytes);
            QCOMPARE(memory.series.at(1).y.at(stage), rank.gradient_bytes);
            QCOMPARE(memory.series.at(2).y.at(stage), rank.optimizer_bytes);
        }
        // Trade-off: ZeRO-3 sends 1.5x what data parallelism sends (ZeRO §7.2.2), in 2(N-1)/N Ψ·2 bytes.
        const ChartData &tradeoff = page.tradeoffChart()->data();
        QCOMPARE(tradeoff.series.size(), 1);
        const ChartSeries &points = tradeoff.series.front();
        QCOMPARE(points.x.size(), 4);
        QVERIFY(std::abs(points.x.at(0) / (2.0 * (n - 1) / n * psi * 2) - 1) < 1e-12);
        QVERIFY(std::abs(points.x.at(3) / points.x.at(0) - 1.5) < 1e-12);
        QCOMPARE(points.y.at(3), expected[3]);
    }

    void followsTheScenarioDp()
    {
        ZeroPage page;
        page.showEstimate(scenario_, estimate_);
        QCOMPARE(page.dp(), scenario_.training.parallel.dp);
        QCOMPARE(page.stage(), scenario_.training.parallel.zero_stage);
        // More ranks than rows: the grid still shows 1/N slices.
        page.setDp(64);
        page.setStage(3);
        const QVector<ChartRect> held = heldRects(page.shardChart()->data(), 0);
        QVERIFY(!held.isEmpty() && held.size() < 64);
        for (const ChartRect &rect : held)
            QCOMPARE(rect.x1 - rect.x0, 1.0 / 64);
    }

    void oneRankCommunicatesNothing()
    {
        ZeroPage page;
        page.showEstimate(scenario_, estimate_);
        page.setDp(1);
        const ChartSeries &points = page.tradeoffChart()->data().series.front();
        for (double bytes : points.x)
            QCOMPARE(bytes, 0.0);
        // With one rank every stage holds everything: 16Ψ.
        const double psi = double(estimate_.memory.parameters_on_gpu);
        for (double bytes : points.y)
            QVERIFY(std::abs(bytes / (16 * psi) - 1) < 1e-12);
    }

    // Issue 13 items 15 and 17: the communication sentence started with the core's lowercase
    // collective name and pasted the core's untranslated English phrases into a translated frame
    // ("all-reduce of the gradients after backward"). Under a translator that marks every ZeRO-page
    // string, the sentence is one marked piece that starts with a capital.
    void communicationIsOneWholeSentence()
    {
        MarkingTranslator marking;
        QVERIFY(QCoreApplication::installTranslator(&marking));
        ZeroPage page;
        page.showEstimate(scenario_, estimate_);
        page.setDp(8);
        auto *summary = page.findChild<QLabel *>(QStringLiteral("zeroSummary"));
        QVERIFY(summary != nullptr);
        for (int stage = 0; stage < 4; ++stage) {
            page.setStage(stage);
            const QString text = summary->text();
            const qsizetype br = text.indexOf(QStringLiteral("<br>"));
            QVERIFY2(br > 0, qPrintable(text));
            const QString sentence = text.mid(br + 4);
            QVERIFY2(sentence.startsWith(QStringLiteral("«")) && sentence.size() > 1 && sentence.at(1).isUpper(),
                     qPrintable(sentence));
            // The summary's own frame ("…<br>%8") closes after it.
            QVERIFY2(sentence.endsWith(QStringLiteral(".»»")), qPrintable(sentence));
            QCOMPARE(sentence.count(QStringLiteral("«")), 1);  // one whole sentence, not assembled
            const Result<parallel::ZeroLayout> layout =
                parallel::zeroLayout(double(estimate_.memory.parameters_on_gpu), scenario_.training, 8, stage);
            QVERIFY(layout.ok());
            QVERIFY(!layout->communication.empty());
            for (const parallel::ZeroCommunication &c : layout->communication)
                QVERIFY2(sentence.contains(format::bytes(c.bytes_per_rank)), qPrintable(sentence));
        }
        QCoreApplication::removeTranslator(&marking);
    }

private:
    Scenario scenario_;
    Estimate estimate_;
};

QTEST_MAIN(TestZeroPage)
#include "test_zero_page.moc"
