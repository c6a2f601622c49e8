// SPDX-License-Identifier: GPL-3.0-or-later
// Training time, GPU-hours and cost.

#include "cost/estimate.h"
#include "scenario/presets.h"
#include "scenario/scenario_json.h"
#include "test_models.h"

#include <QTest>

using namespace lse;

class TestTime : public QObject {
    Q_OBJECT
private slots:
    // CS336 lecture 2 worked example: 70B parameters, 15T tokens, 1024 H100 at 2 PFLOP/s
    // (the sparse headline figure) and 30% MFU: 6·70e9·15e12 / (1024·2e15·0.3) s ≈ 119 days.
    void courseExample()
    {
        const double seconds = trainingSeconds(6.0 * 70e9 * 15e12, 1024, 2e15, 0.3);
        QVERIFY2(std::abs(seconds / 86400.0 - 119.0) < 0.5, qPrintable(QString::number(seconds / 86400.0)));
    }

    void courseExampleThroughTheEngine()
    {
        // The same example as a scenario: Llama-3-70B (70.55B), 6ND, peak override 2 PFLOP/s.
        Scenario scenario = defaultScenario();
        scenario.model = findModelPreset("llama-3-70b")->model;
        scenario.cluster.peak_flops_per_second_override = 2e15;
        scenario.training.flops_model = FlopsModel::SixND;
        scenario.training.mfu = 0.3;
        const Result<Estimate> e = estimate(scenario);
        QVERIFY2(e.ok(), formatProblems(e.problems()).c_str());
        const double expected_days = 6.0 * double(e->params.active) * 15e12 / (1024 * 2e15 * 0.3) / 86400;
        QCOMPARE(e->time.days, expected_days);
        QVERIFY(std::abs(e->time.days - 119.0) < 1.5);
        QCOMPARE(e->time.gpu_hours, e->time.seconds * 1024 / 3600);
        QCOMPARE(e->time.cost, e->time.gpu_hours * scenario.cluster.price_per_gpu_hour);
        QCOMPARE(e->time.tokens_per_second, 15e12 / e->time.seconds);
    }

    void densePeakRoughlyHalvesTheCourseFigure()
    {
        // With the dense bf16 peak (989.4 TFLOP/s, H100 SXM datasheet) the same run takes about
        // twice as long as with the 2 PFLOP/s sparse figure.
        Scenario scenario = defaultScenario();
        scenario.training.flops_model = FlopsModel::SixND;
        scenario.training.mfu = 0.3;
        const Result<Estimate> dense = estimate(scenario);
        scenario.cluster.peak_flops_per_second_override = 2e15;
        const Result<Estimate> sparse = estimate(scenario);
        QVERIFY(dense.ok() && sparse.ok());
        QCOMPARE(dense->time.peak_flops_per_gpu, 989.4e12);
        const double ratio = dense->time.days / sparse->time.days;
        QVERIFY2(std::abs(ratio - 2e15 / 989.4e12) < 1e-9, qPrintable(QString::number(ratio)));
    }

    void stepsAndStepTime()
    {
        Scenario scenario = defaultScenario();
        const Result<Estimate> e = estimate(scenario);
        QVERIFY(e.ok());
        const double tokens_per_step = double(scenario.training.global_batch * scenario.training.seq_len);
        QCOMPARE(e->time.steps, double(scenario.training.tokens) / tokens_per_step);
        QCOMPARE(e->time.step_seconds * e->time.steps, e->time.seconds);
    }
};

QTEST_GUILESS_MAIN(TestTime)
#include "test_time.moc"
