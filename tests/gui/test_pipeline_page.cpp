// SPDX-License-Identifier: GPL-3.0-or-later
// The Pipeline page offscreen: task boxes of each schedule, the bubble against (p-1)/m and
// (p-1)/(v·m) (Narayanan et al. 2021 §2.2), and the CSV of the Gantt chart.

#include "charts/chart_view.h"
#include "cost/estimate.h"
#include "pages/page_format.h"
#include "pages/parallel/pipeline_page.h"
#include "pages/parallel/step_player.h"
#include "scenario/scenario_json.h"
#include "theme.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace lse;
using namespace lse::gui;
using lse::parallel::PipelineScheduleKind;

Q_DECLARE_METATYPE(lse::parallel::PipelineScheduleKind)

namespace {

int taskRects(const ChartData &data)
{
    int tasks = 0;
    for (const ChartRect &rect : data.rects)
        tasks += rect.group.startsWith(QLatin1String("idle")) ? 0 : 1;
    return tasks;
}

}  // namespace

class TestPipelinePage : public QObject {
    Q_OBJECT
private slots:
    void taskBoxes_data()
    {
        QTest::addColumn<PipelineScheduleKind>("schedule");
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("v");
        QTest::addColumn<int>("tasks");
        QTest::addRow("GPipe 4x8") << PipelineScheduleKind::GPipe << 4 << 8 << 1 << 4 * 8 * 2;
        QTest::addRow("1F1B 4x8") << PipelineScheduleKind::OneFOneB << 4 << 8 << 1 << 4 * 8 * 2;
        QTest::addRow("interleaved 4x8 v2") << PipelineScheduleKind::Interleaved << 4 << 8 << 2 << 4 * 8 * 2 * 2;
        QTest::addRow("ZB-H1 4x8") << PipelineScheduleKind::ZeroBubble << 4 << 8 << 1 << 4 * 8 * 3;
    }

    void taskBoxes()
    {
        QFETCH(PipelineScheduleKind, schedule);
        QFETCH(int, p);
        QFETCH(int, m);
        QFETCH(int, v);
        QFETCH(int, tasks);
        PipelinePage page;
        page.setStages(p);
        page.setMicroBatches(m);
        page.setChunks(v);
        page.setSchedule(schedule);
        QVERIFY2(page.problemText().isEmpty(), qPrintable(page.problemText()));
        const ChartData &gantt = page.ganttChart()->data();
        QCOMPARE(taskRects(gantt), tasks);
        QCOMPARE(gantt.y_categories.size(), p);
        // Boxes carry micro-batch numbers 1..m.
        for (const ChartRect &rect : gantt.rects) {
            if (rect.group.startsWith(QLatin1String("idle")))
                continue;
            const int number = rect.label.toInt();
            QVERIFY(number >= 1 && number <= m);
        }
    }

    void bubbleMatchesTheTimeline()
    {
        PipelinePage page;
        page.setStages(3);
        QSignalSpy changed(&page, &PipelinePage::timelineChanged);
        page.setSchedule(PipelineScheduleKind::OneFOneB);
        page.setStages(4);
        page.setMicroBatches(8);
        QVERIFY(changed.count() >= 1);
        // 1F1B: (p-1)/m = 3/8 (Narayanan et al. 2021 §2.2.1).
        QVERIFY(std::abs(page.timeline().bubble_fraction - 3.0 / 8.0) < 1e-9);
        QVERIFY2(page.bubbleText().contains(format::percent(page.timeline().bubble_fraction)),
                 qPrintable(page.bubbleText()));
        QVERIFY(page.ganttChart()->data().title.contains(format::percent(page.timeline().bubble_fraction)));
        const double one_f_one_b = page.timeline().bubble_fraction;

        // Interleaving with v = 2 halves it: (p-1)/(v·m) = 3/16 (§2.2.2).
        page.setChunks(2);
        page.setSchedule(PipelineScheduleKind::Interleaved);
        QVERIFY2(page.problemText().isEmpty(), qPrintable(page.problemText()));
        QVERIFY(page.timeline().bubble_fraction < one_f_one_b);
        QVERIFY(std::abs(page.timeline().bubble_fraction - 3.0 / 16.0) < 1e-9);
        QVERIFY(page.bubbleText().contains(format::percent(page.timeline().bubble_fraction)));

        // GPipe has the 1F1B bubble but keeps all m micro-batches in flight on stage 0.
        page.setSchedule(PipelineScheduleKind::GPipe);
        QVERIFY(std::abs(page.timeline().bubble_fraction - 3.0 / 8.0) < 1e-9);
        QCOMPARE(page.timeline().peak_in_flight_micro_batches.front(), 8);
        page.setSchedule(PipelineScheduleKind::OneFOneB);
        QCOMPARE(page.timeline().peak_in_flight_micro_batches.front(), 4);  // p on the first stage
    }

    // Space / Left / Right step through the schedule as on the Collectives page: the last step
    // (the default) draws every task; stepping back leaves out the tasks not started yet.
    void keysStepThroughTheSchedule()
    {
        PipelinePage page;
        page.setSchedule(PipelineScheduleKind::OneFOneB);
        page.setStages(4);
        page.setMicroBatches(8);
        page.resize(1000, 800);
        page.show();
        page.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&page));
        StepPlayer *player = page.player();
        QVERIFY(player->stepCount() > 1);
        QCOMPARE(player->currentStep(), player->stepCount());
        const int all = taskRects(page.ganttChart()->data());
        QCOMPARE(all, 4 * 8 * 2);
        QSignalSpy stepped(player, &StepPlayer::currentStepChanged);
        QTest::keyClick(&page, Qt::Key_Left);
        QCOMPARE(stepped.count(), 1);
        QCOMPARE(player->currentStep(), player->stepCount() - 1);
        QVERIFY(page.cursorSeconds() < page.timeline().makespan_seconds);
        QVERIFY(taskRects(page.ganttChart()->data()) < all);
        QTest::keyClick(&page, Qt::Key_Right);
        QCOMPARE(taskRects(page.ganttChart()->data()), all);
        // The keys also work with focus inside the page (on the step slider).
        auto *slider = player->findChild<QSlider *>();
        QVERIFY(slider);
        slider->setFocus();
        QTest::keyClick(slider, Qt::Key_Left);
        QCOMPARE(player->currentStep(), player->stepCount() - 1);
        // Space plays from the start when at the end, and pauses.
        QTest::keyClick(slider, Qt::Key_Right);
        QTest::keyClick(slider, Qt::Key_Space);
        QVERIFY(player->isPlaying());
        QCOMPARE(player->currentStep(), 0);
        QCOMPARE(taskRects(page.ganttChart()->data()), 0);
        QTest::keyClick(slider, Qt::Key_Space);
        QVERIFY(!player->isPlaying());
    }

    // ZB-H1 with m < p: the page says the closed form does not hold instead of showing it as the
    // analytic bubble (core's analytic_bubble_applies).
    void zeroBubbleWithFewMicroBatchesSaysTheFormulaDoesNotApply()
    {
        PipelinePage page;
        page.setSchedule(PipelineScheduleKind::ZeroBubble);
        page.setStages(4);
        page.setMicroBatches(2);
        QVERIFY(!page.timeline().analytic_bubble_applies);
        QVERIFY2(page.bubbleText().contains("does not apply"), qPrintable(page.bubbleText()));
        QVERIFY(!page.bubbleText().contains(format::percent(page.timeline().analytic_bubble_fraction)));
        page.setMicroBatches(8);
        QVERIFY(page.timeline().analytic_bubble_applies);
        QVERIFY(page.bubbleText().contains(format::percent(page.timeline().analytic_bubble_fraction)));
    }

    void invalidInputIsExplained()
    {
        PipelinePage page;
        page.setStages(4);
        page.setMicroBatches(6);  // interleaving needs m to be a multiple of p
        page.setChunks(2);
        page.setSchedule(PipelineScheduleKind::Interleaved);
        QVERIFY(!page.problemText().isEmpty());
        QVERIFY(page.ganttChart()->data().rects.isEmpty());
        QVERIFY(page.bubbleText().contains(page.problemText().toHtmlEscaped()));
    }

    void oneStageHasNoBubble()
    {
        PipelinePage page;
        page.setSchedule(PipelineScheduleKind::OneFOneB);
        page.setStages(1);
        page.setMicroBatches(5);
        QVERIFY2(page.problemText().isEmpty(), qPrintable(page.problemText()));
        QCOMPARE(page.timeline().bubble_fraction, 0.0);
        QCOMPARE(taskRects(page.ganttChart()->data()), 10);
    }

    void csvContainsTheTasks()
    {
        PipelinePage page;
        page.setSchedule(PipelineScheduleKind::OneFOneB);
        page.setStages(2);
        page.setMicroBatches(3);
        const QString csv = page.ganttChart()->toCsv();
        const QStringList lines = csv.split(QLatin1Char('\n'));
        int forwards = 0;
        int backwards = 0;
        for (const QString &line : lines) {
            forwards += line.startsWith(QLatin1String("forward,")) ? 1 : 0;
            backwards += line.startsWith(QLatin1String("backward,")) ? 1 : 0;
        }
        QCOMPARE(forwards, 2 * 3);
        QCOMPARE(backwards, 2 * 3);
        QVERIFY(csv.contains(QLatin1String("stage 1")));
    }

    // Every schedule renders and exports; set LSE_SCREENSHOT_DIR to keep the PNGs for a look.
    void exportsEverySchedule()
    {
        QTemporaryDir temporary;
        const QString folder = qEnvironmentVariableIsSet("LSE_SCREENSHOT_DIR") ? qEnvironmentVariable("LSE_SCREENSHOT_DIR")
                                                                                : temporary.path();
        PipelinePage page;
        page.resize(1000, 900);
        page.setStages(4);
        page.setMicroBatches(8);
        page.setChunks(2);
        const std::pair<PipelineScheduleKind, const char *> schedules[] = {
            {PipelineScheduleKind::GPipe, "gpipe"}, {PipelineScheduleKind::Interleaved, "interleaved"},
            {PipelineScheduleKind::ZeroBubble, "zb"}};
        for (const auto &[schedule, name] : schedules) {
            page.setSchedule(schedule);
            const QString path = folder + QStringLiteral("/pipeline-%1.png").arg(QLatin1String(name));
            QString error;
            QVERIFY2(page.ganttChart()->exportPng(path, 1.0, &error), qPrintable(error));
            QVERIFY(QFileInfo(path).size() > 0);
        }
    }

    void defaultsFromTheScenario()
    {
        PipelinePage page;
        Scenario scenario = defaultScenario();
        const Result<Estimate> estimate = lse::estimate(scenario);
        QVERIFY(estimate.ok());
        page.showEstimate(scenario, *estimate);
        QCOMPARE(page.timeline().stages, scenario.training.parallel.pp);
        // m = global batch / (micro-batch · dp) = 1024 / 32 = 32: the scenario's schedule (issue 28
        // item 18: it opened at m = 8, a 37.5 % bubble the scenario does not have).
        QCOMPARE(scenario.training.global_batch / (scenario.training.micro_batch * scenario.training.parallel.dp), 32);
        QCOMPARE(page.timeline().micro_batches, 32);
        // The chart names its bubble's definition (idle ÷ busy, (p−1)/m), as the lesson does.
        QVERIFY(page.ganttChart()->data().title.contains(QStringLiteral("idle ÷ busy")));
        // Activation memory per stage: in flight × one micro-batch's activations of the stage.
        const ChartData &in_flight = page.inFlightChart()->data();
        QCOMPARE(in_flight.series.size(), 1);
        const double per_micro_batch = estimate->memory.activation_bytes_per_layer * scenario.model.n_layers
            / scenario.training.parallel.pp;
        for (int stage = 0; stage < scenario.training.parallel.pp; ++stage)
            QVERIFY(std::abs(in_flight.series.front().y.at(stage)
                             - (scenario.training.parallel.pp - stage) * per_micro_batch)
                    <= 1e-9 * per_micro_batch * 8);
    }

    // Uneven stages (issue 17): each stage's bar is its in-flight micro-batches × its own layers'
    // activations, and the title gives the range of layers per stage.
    void unevenStagesHoldTheirOwnLayers()
    {
        PipelinePage page;
        Scenario scenario = defaultScenario();  // 80 layers over pp = 4 stages
        scenario.training.parallel.stage_layers = {14, 26, 22, 18};
        const Result<Estimate> estimate = lse::estimate(scenario);
        QVERIFY(estimate.ok());
        page.showEstimate(scenario, *estimate);
        const ChartData &in_flight = page.inFlightChart()->data();
        QVERIFY2(in_flight.title.contains(QStringLiteral("(14–26 layers")), qPrintable(in_flight.title));
        const double per_layer = estimate->memory.activation_bytes_per_layer;
        for (int stage = 0; stage < 4; ++stage) {
            const double expected = (4 - stage) * per_layer * scenario.training.parallel.stage_layers.at(std::size_t(stage));
            QVERIFY(std::abs(in_flight.series.front().y.at(stage) - expected) <= 1e-9 * expected);
        }
        // Another stage count on the page: the automatic split of the 80 layers over 3 stages.
        page.setStages(3);
        QVERIFY2(page.inFlightChart()->data().title.contains(QStringLiteral("(26–27 layers")),
                 qPrintable(page.inFlightChart()->data().title));
    }

    // Issue 13 item 15: the Gantt chart's x axis ends at the schedule's length (it reached 45 for a
    // 33-unit schedule to make room for an inside legend), the in-flight title counts whole layers,
    // and "Chunks per stage v" is enabled only for the interleaved schedule.
    void ganttAxisEndsAtTheStepAndLayersAreWhole()
    {
        PipelinePage page;
        page.resize(1000, 800);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        page.setSchedule(PipelineScheduleKind::OneFOneB);
        page.setStages(4);
        page.setMicroBatches(8);
        const double makespan = page.timeline().makespan_seconds;
        QVERIFY(makespan > 0);
        QCustomPlot *plot = page.ganttChart()->plot();
        plot->replot();
        QVERIFY2(plot->xAxis->range().upper <= 1.03 * makespan,
                 qPrintable(QStringLiteral("x axis to %1 for a %2-unit step").arg(plot->xAxis->range().upper).arg(makespan)));
        QVERIFY(plot->xAxis->range().upper >= makespan);

        Scenario scenario = defaultScenario();  // 80 layers over pp = 4 stages
        page.showEstimate(scenario, *lse::estimate(scenario));
        const QString title = page.inFlightChart()->data().title;
        QVERIFY2(title.contains(QStringLiteral("(20 layers")), qPrintable(title));

        const QList<QSpinBox *> spins = page.findChildren<QSpinBox *>();
        QSpinBox *chunks = nullptr;
        for (QSpinBox *spin : spins)
            if (spin->toolTip().contains(QStringLiteral("chunks per stage v")))
                chunks = spin;
        QVERIFY(chunks != nullptr);
        page.setSchedule(PipelineScheduleKind::OneFOneB);
        QVERIFY(!chunks->isEnabled());
        page.setSchedule(PipelineScheduleKind::Interleaved);
        QVERIFY(chunks->isEnabled());
        page.setSchedule(PipelineScheduleKind::GPipe);
        QVERIFY(!chunks->isEnabled());
        // Disabled must also look disabled: the light and high-contrast palettes gave disabled
        // text the enabled colour (QPalette::setColor(role, …) sets every group).
        for (const QPalette &palette : {lightPalette(), darkPalette(), highContrastPalette()})
            for (QPalette::ColorRole role : {QPalette::Text, QPalette::WindowText, QPalette::ButtonText})
                QVERIFY(palette.color(QPalette::Disabled, role) != palette.color(QPalette::Active, role));
    }
};

QTEST_MAIN(TestPipelinePage)
#include "test_pipeline_page.moc"
