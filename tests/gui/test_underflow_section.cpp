// SPDX-License-Identifier: GPL-3.0-or-later
// The Numbers page's "Underflow and loss scaling" tab offscreen: a run of the reference transformer
// finishes in the worker (not ready meanwhile), the histogram bars count every gradient element,
// the loss-scale slider changes the flushed and overflow fractions without retraining, Cancel
// stops a run, the dynamic loss-scaling simulation marks its overflow steps, and every chart
// exports; presentation mode and retranslation.

#include "background_timeout.h"
#include "charts/chart_view.h"
#include "pages/numbers/numbers_page.h"
#include "pages/numbers/underflow_section.h"

#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace lse;
using namespace lse::gui;

namespace {

constexpr int kTimeoutMs = kBackgroundWorkTimeoutMs;

// Sum of the y values of the chart's bar series: what the histogram shows, zero bucket included.
double barTotal(const ChartData &data)
{
    double total = 0;
    for (const ChartSeries &s : data.series)
        if (s.kind == ChartSeries::Kind::Bar)
            for (double y : s.y)
                total += y;
    return total;
}

}  // namespace

class TestUnderflowSection : public QObject {
    Q_OBJECT
private slots:
    void runCountsEveryGradientAndTheSliderRescales()
    {
        UnderflowSection section;
        QVERIFY(section.snapshot().gradients.empty());
        QSignalSpy finished(&section, &UnderflowSection::runFinished);
        QSignalSpy ready(&section, &UnderflowSection::ready);
        section.runButton()->click();
        QVERIFY(!section.isReady());
        QVERIFY(!section.runButton()->isEnabled());
        QVERIFY(section.cancelButton()->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        QVERIFY(section.isReady());
        QCOMPARE(ready.count(), 1);
        QVERIFY(section.runButton()->isEnabled());

        const numbers::GradientSnapshot &s = section.snapshot();
        QVERIFY(s.parameter_count > 0);
        QCOMPARE(std::int64_t(s.gradients.size()), s.parameter_count);
        QCOMPARE(s.histogram.total(), s.parameter_count);
        // The chart's bars (the zero bucket included) add up to the gradient count.
        QCOMPARE(barTotal(section.histogramChart()->data()), double(s.parameter_count));

        // The FP16 zones come from the format's definition: subnormal from 2^-24, normal from 2^-14.
        bool subnormal_zone = false;
        for (const ChartRect &r : section.histogramChart()->data().rects)
            subnormal_zone = subnormal_zone || (r.x0 == -24 && r.x1 == -14 && r.group.contains(QStringLiteral("subnormal")));
        QVERIFY(subnormal_zone);

        // No retraining: the slider re-casts the same gradients at another scale.
        section.scaleSlider()->setValue(0);
        const double flushed_unscaled = section.scaledCast().flushedFraction();
        QVERIFY(flushed_unscaled > 0);  // real gradients have elements below FP16's 2^-25
        section.scaleSlider()->setValue(12);
        QVERIFY(section.scaledCast().flushedFraction() < flushed_unscaled);
        QCOMPARE(section.scaledCast().scale, 4096.0);
        QVERIFY(section.histogramChart()->data().title.contains(QStringLiteral("2^12")));
        QCOMPARE(barTotal(section.histogramChart()->data()), double(s.parameter_count));
        section.scaleSlider()->setValue(24);
        QVERIFY(section.scaledCast().overflowFraction() > 0);  // 2^24 pushes the largest past 65504
        QCOMPARE(finished.count(), 1);  // nothing retrained
    }

    void cancelStopsARun()
    {
        UnderflowSection section;
        QSignalSpy finished(&section, &UnderflowSection::runFinished);
        section.startRun();
        section.cancelButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        QVERIFY(section.isReady());
        QVERIFY(section.snapshot().steps < 5);
        QVERIFY2(section.statusLabel()->text().contains(QStringLiteral("Cancelled")),
                 qPrintable(section.statusLabel()->text()));
    }

    void simulationMarksOverflowSteps()
    {
        UnderflowSection section;
        QSignalSpy finished(&section, &UnderflowSection::simulationFinished);
        section.initialScaleSpin()->setValue(24);  // far above what FP16 holds: the first steps overflow
        section.growthIntervalSpin()->setValue(3);
        section.simulationStepsSpin()->setValue(12);
        section.simulateButton()->click();
        QVERIFY(!section.isReady());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        QVERIFY(section.isReady());
        const numbers::LossScalingRun &run = section.simulation();
        QCOMPARE(int(run.steps.size()), 12);
        QVERIFY(run.steps.front().overflow);
        QCOMPARE(run.steps.front().scale, std::ldexp(1.0, 24));
        const ChartData &scale = section.scaleChart()->data();
        QCOMPARE(scale.series.size(), 2);
        QCOMPARE(scale.series[0].y.size(), 12);
        QCOMPARE(scale.series[1].x.size(), run.overflow_steps);  // one marker per overflow step
        QVERIFY(run.overflow_steps >= 1);
    }

    void numbersPageHasTheTabAndEveryChartExports()
    {
        NumbersPage page;
        QStringList titles;
        for (int i = 0; i < page.findChild<QTabWidget *>()->count(); ++i)
            titles << page.findChild<QTabWidget *>()->tabText(i);
        QVERIFY(titles.contains(QStringLiteral("Underflow and loss scaling")));
        QVERIFY(page.selectSection(QStringLiteral("underflow")));
        auto *section = page.findChild<UnderflowSection *>();
        QVERIFY(section);
        QSignalSpy finished(section, &UnderflowSection::runFinished);
        page.showEstimate(Scenario{}, Estimate{});  // the first estimate starts the default run
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(page.isReady(), kTimeoutMs);
        QVERIFY(!section->snapshot().gradients.empty());

        // Before a simulation only the histogram has data to export; after one, all four charts.
        QCOMPARE(section->charts().size(), 1);
        QSignalSpy simulated(section, &UnderflowSection::simulationFinished);
        section->simulationStepsSpin()->setValue(4);
        section->startSimulation();
        QTRY_COMPARE_WITH_TIMEOUT(simulated.count(), 1, kTimeoutMs);
        QTemporaryDir dir;
        const QList<ChartView *> charts = section->charts();
        QCOMPARE(charts.size(), 4);
        for (ChartView *chart : charts) {
            QVERIFY(page.charts().contains(chart));
            QString error;
            QVERIFY2(chart->exportAll(dir.path(), &error), qPrintable(error));
            for (const char *suffix : {".png", ".pdf", ".svg", ".csv"})
                QVERIFY(QFileInfo(dir.filePath(chart->id() + QLatin1String(suffix))).size() > 0);
        }
        QVERIFY(!section->histogramChart()->data().series.isEmpty());
        QVERIFY(section->histogramChart()->toCsv().count(QLatin1Char('\n')) > 5);
        page.setPresentation(true);
        for (ChartView *chart : charts)
            QVERIFY(chart->presentation());
        page.retranslate();
        QVERIFY(page.isReady());
    }
};

QTEST_MAIN(TestUnderflowSection)
#include "test_underflow_section.moc"
