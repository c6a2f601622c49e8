// SPDX-License-Identifier: GPL-3.0-or-later
// The Time page's predicted-step chart (issue 29: each term of the step, with its formula and
// source in the tooltip): its bars are the operator-level prediction's parts of the current
// scenario and add up to the predicted step, whether the estimate's MFU is given or predicted.
#include "cost/estimate.h"
#include "charts/chart_view.h"
#include "pages/cost/time_page.h"
#include "performance/step_prediction.h"
#include "scenario/scenario_json.h"

#include <QtTest>

#include <cmath>

using namespace lse;
using namespace lse::gui;

namespace {

ChartView *stepChart(const TimePage &page)
{
    for (ChartView *chart : page.charts())
        if (chart->id() == QStringLiteral("predicted-step-parts"))
            return chart;
    return nullptr;
}

double barSum(const ChartData &data)
{
    double sum = 0;
    for (const ChartSeries &series : data.series)
        for (double y : series.y)
            sum += y;
    return sum;
}

}  // namespace

class TestTimePage : public QObject {
    Q_OBJECT

private slots:
    // The default scenario gives its MFU: the chart still shows what the predictor says for the
    // same scenario, and says that the days use the given MFU.
    void givenMfuShowsThePredictorsStep()
    {
        TimePage page;
        const Scenario scenario = defaultScenario();
        QVERIFY(scenario.training.mfu_source == MfuSource::Given);
        const Result<Estimate> estimate = lse::estimate(scenario);
        QVERIFY(estimate.ok());
        page.showEstimate(scenario, *estimate);
        ChartView *chart = stepChart(page);
        QVERIFY(chart);
        const Result<performance::StepPrediction> prediction = performance::predictStep(scenario);
        QVERIFY(prediction.ok());
        QVERIFY(!chart->data().categories.isEmpty());
        QVERIFY(std::abs(barSum(chart->data()) - prediction->total_seconds) <= 1e-9 * prediction->total_seconds);
        QVERIFY2(chart->data().title.contains(QStringLiteral("given MFU")), qPrintable(chart->data().title));
    }

    // Predicted MFU at 8,192 GPUs: the bars are the estimate's own step breakdown, the stragglers
    // among them with their formula and source in the tooltip.
    void predictedMfuShowsTheEstimatesParts()
    {
        TimePage page;
        Scenario scenario = defaultScenario();
        scenario.training.mfu_source = MfuSource::Predicted;
        scenario.cluster.gpus *= 8;
        scenario.training.parallel.dp *= 8;
        scenario.training.global_batch *= 8;
        const Result<Estimate> estimate = lse::estimate(scenario);
        QVERIFY2(estimate.ok(), formatProblems(estimate.problems()).c_str());
        QVERIFY(estimate->time.predicted);
        page.showEstimate(scenario, *estimate);
        ChartView *chart = stepChart(page);
        QVERIFY(chart);
        const double step = estimate->time.predicted->step_seconds;
        QVERIFY(std::abs(barSum(chart->data()) - step) <= 1e-9 * step);
        QVERIFY(!chart->data().title.contains(QStringLiteral("given MFU")));
        const int stragglers = int(chart->data().categories.indexOf(QStringLiteral("Stragglers")));
        QVERIFY2(stragglers >= 0, qPrintable(chart->data().categories.join(QStringLiteral(", "))));
        QVERIFY(chart->data().series.front().point_tooltips.at(stragglers).contains(QStringLiteral("Blom 1958")));
    }

    // Before any estimate: no bars, no crash.
    void beforeAnEstimateThereAreNoBars()
    {
        TimePage page;
        ChartView *chart = stepChart(page);
        QVERIFY(chart);
        if (!page.hasEstimate())
            QVERIFY(chart->data().categories.isEmpty());
    }
};

QTEST_MAIN(TestTimePage)
#include "test_time_page.moc"
