// SPDX-License-Identifier: GPL-3.0-or-later
// Calibration of an accelerator's efficiency factors (core/performance/calibration.h): it recovers
// factors it generated the "measurements" with, matches a single run exactly with one parameter,
// names every bad input, and turns a measured TFLOP/s into a step time by the model-FLOP count.
#include "hardware/hardware_catalog.h"
#include "performance/calibration.h"
#include "performance/step_prediction.h"
#include "test_models.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace lse;
using namespace lse::performance;

namespace {

// A GPT on A100s; the layouts below vary the shapes the factors act on (GEMM depth, the share of
// memory-bound work) so that each factor changes the step times differently.
Scenario a100Scenario(int layers, std::int64_t hidden, int heads, std::int64_t seq, int gpus)
{
    Scenario scenario = test::scenarioFor(test::gptModel(layers, hidden, heads, 50304, seq), gpus);
    scenario.cluster.accelerator = *builtinHardwareCatalog().find("a100-sxm-80gb");
    scenario.cluster.gpus_per_node = std::min(gpus, 8);
    return scenario;
}

std::vector<Scenario> variedScenarios()
{
    std::vector<Scenario> scenarios;
    Scenario narrow = a100Scenario(8, 512, 8, 512, 8);  // shallow GEMMs: the fixed cost shows
    narrow.training.micro_batch = 8;
    narrow.training.global_batch = 64;
    scenarios.push_back(narrow);
    Scenario wide = a100Scenario(12, 2048, 16, 1024, 8);  // deep GEMMs: the peak fraction dominates
    wide.training.global_batch = 32;
    wide.training.micro_batch = 4;
    scenarios.push_back(wide);
    Scenario tensor_parallel = a100Scenario(12, 1536, 12, 2048, 8);  // k split by tp
    tensor_parallel.training.parallel.tp = 4;
    tensor_parallel.training.parallel.dp = 2;
    tensor_parallel.training.global_batch = 8;
    tensor_parallel.training.micro_batch = 1;
    scenarios.push_back(tensor_parallel);
    Scenario long_sequence = a100Scenario(6, 768, 12, 4096, 4);  // attention and softmax traffic
    long_sequence.training.global_batch = 8;
    long_sequence.training.micro_batch = 2;
    scenarios.push_back(long_sequence);
    Scenario recompute = a100Scenario(8, 1024, 16, 1024, 8);  // recomputation adds a forward
    recompute.training.recomputation = Recomputation::Full;
    recompute.training.global_batch = 64;
    recompute.training.micro_batch = 4;
    scenarios.push_back(recompute);
    for (Scenario &scenario : scenarios) {
        scenario.training.tokens = scenario.training.global_batch * scenario.training.seq_len;
        if (!validate(scenario).empty())
            qFatal("test scenario invalid: %s", formatProblems(validate(scenario)).c_str());
    }
    return scenarios;
}

double predictedSeconds(const Scenario &scenario, const EfficiencyFactors &factors)
{
    const Result<StepPrediction> prediction = predictStep(scenario, factors);
    if (!prediction) {
        qWarning("%s", formatProblems(prediction.problems()).c_str());
        return std::numeric_limits<double>::quiet_NaN();
    }
    return prediction->total_seconds;
}

bool hasProblem(const Problems &problems, const std::string &field, const std::string &rule)
{
    return std::any_of(problems.begin(), problems.end(),
                       [&](const Problem &problem) { return problem.field == field && problem.rule == rule; });
}

bool hasProblemUnder(const Problems &problems, const std::string &prefix)
{
    return std::any_of(problems.begin(), problems.end(),
                       [&](const Problem &problem) { return problem.field.rfind(prefix, 0) == 0; });
}

}  // namespace

class TestCalibration : public QObject {
    Q_OBJECT

private slots:
    void recoversTheFactorsThatMadeTheMeasurements_data()
    {
        QTest::addColumn<double>("gemm_peak_fraction");
        QTest::addColumn<double>("gemm_fixed_cost_depth");
        QTest::addColumn<double>("memory_bandwidth_fraction");
        QTest::addColumn<double>("start_gemm_peak_fraction");
        QTest::addColumn<double>("start_gemm_fixed_cost_depth");
        QTest::addColumn<double>("start_memory_bandwidth_fraction");
        QTest::addRow("slow GEMMs, start optimistic") << 0.62 << 180.0 << 0.55 << 0.9 << 20.0 << 0.9;
        QTest::addRow("fast GEMMs, start pessimistic") << 0.88 << 40.0 << 0.85 << 0.5 << 400.0 << 0.4;
        QTest::addRow("large fixed cost, start at the catalog") << 0.75 << 600.0 << 0.7 << -1.0 << -1.0 << -1.0;
    }
    void recoversTheFactorsThatMadeTheMeasurements()
    {
        QFETCH(double, gemm_peak_fraction);
        QFETCH(double, gemm_fixed_cost_depth);
        QFETCH(double, memory_bandwidth_fraction);
        QFETCH(double, start_gemm_peak_fraction);
        QFETCH(double, start_gemm_fixed_cost_depth);
        QFETCH(double, start_memory_bandwidth_fraction);
        const EfficiencyFactors catalog = builtinHardwareCatalog().find("a100-sxm-80gb")->efficiency;
        EfficiencyFactors truth = catalog;
        truth.gemm_peak_fraction = gemm_peak_fraction;
        truth.gemm_fixed_cost_depth = gemm_fixed_cost_depth;
        truth.memory_bandwidth_fraction = memory_bandwidth_fraction;
        EfficiencyFactors start = catalog;  // a negative start value keeps the catalog's
        if (start_gemm_peak_fraction > 0) {
            start.gemm_peak_fraction = start_gemm_peak_fraction;
            start.gemm_fixed_cost_depth = start_gemm_fixed_cost_depth;
            start.memory_bandwidth_fraction = start_memory_bandwidth_fraction;
        }

        std::vector<CalibrationPoint> points;
        int index = 0;
        for (const Scenario &scenario : variedScenarios())
            points.push_back({"synthetic" + std::to_string(index++), scenario, predictedSeconds(scenario, truth)});
        for (const CalibrationPoint &point : points)
            QVERIFY(std::isfinite(point.measured_step_seconds) && point.measured_step_seconds > 0);

        const Result<CalibrationResult> fit = calibrateEfficiency(points, start);
        QVERIFY2(fit.ok(), formatProblems(fit.problems()).c_str());
        QVERIFY(fit->evaluations <= CalibrationOptions{}.max_evaluations);
        for (const CalibrationPoint &point : points) {
            const double predicted = predictedSeconds(point.scenario, fit->factors);
            QVERIFY2(std::abs(predicted / point.measured_step_seconds - 1) < 0.01,
                     qPrintable(QStringLiteral("%1: %2 vs %3").arg(QString::fromStdString(point.id)).arg(predicted)
                                    .arg(point.measured_step_seconds)));
        }
        QVERIFY2(std::abs(fit->factors.gemm_peak_fraction / truth.gemm_peak_fraction - 1) < 0.03,
                 qPrintable(QString::number(fit->factors.gemm_peak_fraction)));
        QVERIFY(fit->mean_absolute_error < 0.01);
        QVERIFY(fit->worst_absolute_error >= fit->mean_absolute_error);
        // What was not fitted keeps the start's value; the source says what the fit used.
        QCOMPARE(fit->factors.flash_attention_fraction, start.flash_attention_fraction);
        QCOMPARE(fit->factors.gemm_tile_rows, start.gemm_tile_rows);
        QVERIFY(fit->factors.source.find("fitted by calibrateEfficiency to 5 runs: synthetic0, synthetic1") == 0);
        QVERIFY(fit->factors.source.find("mean error") != std::string::npos);
    }

    void isDeterministic()
    {
        const std::vector<Scenario> scenarios = variedScenarios();
        EfficiencyFactors truth = builtinHardwareCatalog().find("a100-sxm-80gb")->efficiency;
        truth.gemm_peak_fraction = 0.7;
        const std::vector<CalibrationPoint> points{{"a", scenarios[0], predictedSeconds(scenarios[0], truth)},
                                                   {"b", scenarios[1], predictedSeconds(scenarios[1], truth)}};
        CalibrationOptions options;
        options.max_evaluations = 60;
        const EfficiencyFactors start = builtinHardwareCatalog().find("a100-sxm-80gb")->efficiency;
        const Result<CalibrationResult> first = calibrateEfficiency(points, start, options);
        const Result<CalibrationResult> second = calibrateEfficiency(points, start, options);
        QVERIFY(first.ok() && second.ok());
        QVERIFY(first->factors == second->factors);
        QVERIFY(first->evaluations <= 60);
    }

    // One run determines one parameter: the peak fraction that reproduces its time.
    void singleRunFitsTheGemmPeakFractionExactly()
    {
        const Scenario scenario = variedScenarios()[1];
        const EfficiencyFactors start = builtinHardwareCatalog().find("a100-sxm-80gb")->efficiency;
        EfficiencyFactors truth = start;
        truth.gemm_peak_fraction = 0.62;  // inside the fitted range [0.5, 0.95]
        const double measured = predictedSeconds(scenario, truth);
        CalibrationOptions options;
        options.parameters = {EfficiencyParameter::GemmPeakFraction};
        const Result<CalibrationResult> fit = calibrateEfficiency({{"mine", scenario, measured}}, start, options);
        QVERIFY2(fit.ok(), formatProblems(fit.problems()).c_str());
        QVERIFY2(fit->mean_absolute_error < 1e-3, qPrintable(QString::number(fit->mean_absolute_error)));
        QVERIFY(std::abs(predictedSeconds(scenario, fit->factors) / measured - 1) < 1e-3);
        QCOMPARE(fit->factors.gemm_fixed_cost_depth, start.gemm_fixed_cost_depth);
        QCOMPARE(fit->factors.memory_bandwidth_fraction, start.memory_bandwidth_fraction);
        QCOMPARE(fit->worst_absolute_error, fit->mean_absolute_error);
    }

    // A time no fraction in (0.05, 1] reaches: the fit stops at the bound, never outside it.
    void keepsEachParameterInItsRange()
    {
        const Scenario scenario = variedScenarios()[1];
        const EfficiencyFactors start = builtinHardwareCatalog().find("a100-sxm-80gb")->efficiency;
        CalibrationOptions options;
        options.parameters = {EfficiencyParameter::GemmPeakFraction, EfficiencyParameter::GemmFixedCostDepth};
        const double impossible = 1e-3 * predictedSeconds(scenario, start);
        const Result<CalibrationResult> fit = calibrateEfficiency({{"fast", scenario, impossible}}, start, options);
        QVERIFY(fit.ok());
        QVERIFY(fit->factors.gemm_peak_fraction > 0.05 && fit->factors.gemm_peak_fraction <= 1.0);
        QVERIFY(fit->factors.gemm_fixed_cost_depth >= 0 && fit->factors.gemm_fixed_cost_depth <= 1024);
        QVERIFY(fit->mean_absolute_error > 0.5);
    }

    void badInputsNameTheField()
    {
        const std::vector<Scenario> scenarios = variedScenarios();
        const EfficiencyFactors start = builtinHardwareCatalog().find("a100-sxm-80gb")->efficiency;

        const Result<CalibrationResult> none = calibrateEfficiency({}, start);
        QVERIFY(!none.ok());
        QVERIFY(hasProblem(none.problems(), "points", "required"));

        Scenario broken = scenarios[0];
        broken.training.parallel.tp = 3;  // divides neither the GPUs nor the heads
        Scenario other_accelerator = scenarios[0];
        other_accelerator.cluster.accelerator = *builtinHardwareCatalog().find("h100-sxm");
        const std::vector<CalibrationPoint> bad{{"zero", scenarios[0], 0.0},
                                                {"nan", scenarios[1], std::numeric_limits<double>::quiet_NaN()},
                                                {"broken", broken, 1.0},
                                                {"h100", other_accelerator, 1.0},
                                                {"negative", scenarios[2], -2.0}};
        const Result<CalibrationResult> points = calibrateEfficiency(bad, start);
        QVERIFY(!points.ok());
        const Problems &problems = points.problems();
        QVERIFY(hasProblem(problems, "points[0].measured_step_seconds", "range"));
        QVERIFY(hasProblem(problems, "points[1].measured_step_seconds", "range"));
        QVERIFY(hasProblem(problems, "points[4].measured_step_seconds", "range"));
        QVERIFY(hasProblemUnder(problems, "points[2].training."));
        QVERIFY(hasProblem(problems, "points[3].scenario.cluster.accelerator", "same"));
        QVERIFY(!hasProblemUnder(problems, "points[2].measured"));

        EfficiencyFactors out_of_range = start;
        out_of_range.gemm_peak_fraction = 1.5;
        const Result<CalibrationResult> bad_start =
            calibrateEfficiency({{"ok", scenarios[0], 1.0}}, out_of_range);
        QVERIFY(!bad_start.ok());
        QVERIFY(hasProblem(bad_start.problems(), "start.gemm_peak_fraction", "range"));

        CalibrationOptions nothing_to_fit;
        nothing_to_fit.parameters.clear();
        nothing_to_fit.max_evaluations = 0;
        const Result<CalibrationResult> bad_options = calibrateEfficiency({{"ok", scenarios[0], 1.0}}, start, nothing_to_fit);
        QVERIFY(!bad_options.ok());
        QVERIFY(hasProblem(bad_options.problems(), "options.parameters", "required"));
        QVERIFY(hasProblem(bad_options.problems(), "options.max_evaluations", "range"));
    }

    // tokens per step × model FLOPs per token / (TFLOP/s · GPUs), with the model FLOPs of a GPT
    // step by hand: 72·B·s·l·h²·(1 + s/6h + V/12lh) (Korthikanti et al. 2022 App. A).
    void stepSecondsFromModelTflopsByHand()
    {
        const int layers = 8;
        const double h = 1024, s = 1024, V = 50304, B = 64, gpus = 8, tflops = 150;
        Scenario scenario = a100Scenario(layers, std::int64_t(h), 16, std::int64_t(s), int(gpus));
        scenario.training.global_batch = std::int64_t(B);
        scenario.training.micro_batch = 8;
        scenario.training.recomputation = Recomputation::Full;  // model FLOPs ignore recomputation
        const double l = layers;
        const double model_flops = 72 * B * s * l * h * h * (1 + s / (6 * h) + V / (12 * l * h));
        const Result<double> seconds = stepSecondsFromModelTflops(scenario, tflops);
        QVERIFY2(seconds.ok(), formatProblems(seconds.problems()).c_str());
        QVERIFY2(std::abs(*seconds / (model_flops / (tflops * 1e12 * gpus)) - 1) < 1e-12,
                 qPrintable(QString::number(*seconds)));
    }

    void stepSecondsFromModelTflopsRefusesBadInput_data()
    {
        QTest::addColumn<double>("tflops");
        QTest::addRow("zero") << 0.0;
        QTest::addRow("negative") << -10.0;
        QTest::addRow("nan") << std::numeric_limits<double>::quiet_NaN();
        QTest::addRow("infinite") << std::numeric_limits<double>::infinity();
    }
    void stepSecondsFromModelTflopsRefusesBadInput()
    {
        QFETCH(double, tflops);
        const Result<double> seconds = stepSecondsFromModelTflops(variedScenarios()[0], tflops);
        QVERIFY(!seconds.ok());
        QVERIFY(hasProblem(seconds.problems(), "model_tflops_per_gpu", "range"));
        QVERIFY(seconds.problems().front().message.find("model_tflops_per_gpu") != std::string::npos);
    }

    void stepSecondsFromModelTflopsReportsTheScenariosProblems()
    {
        Scenario broken = variedScenarios()[0];
        broken.training.parallel.tp = 3;
        const Result<double> seconds = stepSecondsFromModelTflops(broken, 100);
        QVERIFY(!seconds.ok());
        QVERIFY(hasProblemUnder(seconds.problems(), "training."));
    }
};

QTEST_GUILESS_MAIN(TestCalibration)
#include "test_calibration.moc"
