// SPDX-License-Identifier: GPL-3.0-or-later
// The step-time model per accelerator (issue 29): the catalog's factors are the fit on that
// accelerator's own published runs, its prediction_accuracy is the leave-one-source-out error those
// runs give (recomputed here, not copied), the acceptance bound holds (held-out mean ≤ 7% on every
// accelerator with runs from two sources or more), and the nearest-rank percentile by hand.

#include "hardware/hardware_catalog.h"
#include "validation/accelerator_validation.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace lse;

namespace {

// The sanitizer build runs the fits about ten times slower: there the fits get a small budget and
// only the structure is checked; the default build checks the catalog against the full fit.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitizerBuild = true;
#else
constexpr bool kSanitizerBuild = false;
#endif
const int kEvaluations = kSanitizerBuild ? 40 : AcceleratorValidationOptions{}.max_evaluations;

const AcceleratorValidation *find(const std::vector<AcceleratorValidation> &all, const std::string &id)
{
    for (const AcceleratorValidation &one : all)
        if (one.accelerator_id == id)
            return &one;
    return nullptr;
}

// The catalog keeps 3 decimals of a fraction, 1 of the depth and 4 of an error.
bool sameAtCatalogPrecision(double catalog, double computed, double step) { return std::abs(catalog - computed) <= 0.5 * step + 1e-12; }

}  // namespace

class TestAcceleratorValidation : public QObject {
    Q_OBJECT

    std::vector<AcceleratorValidation> validations_;

private slots:
    void initTestCase()
    {
        AcceleratorValidationOptions options;
        options.fit = true;
        options.leave_one_source_out = true;
        options.max_evaluations = kEvaluations;
        Result<std::vector<AcceleratorValidation>> all = validateByAccelerator(builtinPublishedRuns(), options);
        QVERIFY2(all.ok(), formatProblems(all.problems()).c_str());
        validations_ = std::move(all.value());
    }

    void catalogHoldsTheFitAndItsHeldOutError_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<int>("runs");
        QTest::addColumn<int>("sources");
        QTest::addRow("A100 SXM 80GB: Narayanan 2021, Korthikanti 2022") << "a100-sxm-80gb" << 18 << 2;
        QTest::addRow("H100 SXM: seven sources") << "h100-sxm" << 34 << 7;
    }
    void catalogHoldsTheFitAndItsHeldOutError()
    {
        QFETCH(QString, id);
        QFETCH(int, runs);
        QFETCH(int, sources);
        const AcceleratorValidation *validation = find(validations_, id.toStdString());
        QVERIFY(validation && validation->fit);
        QCOMPARE(int(validation->catalog.rows.size()), runs);
        QCOMPARE(int(validation->sources.size()), sources);
        if (kSanitizerBuild)
            QSKIP("the sanitizer build fits with a small budget; the default build compares with the catalog");
        const Accelerator *accelerator = builtinHardwareCatalog().find(id.toStdString());
        QVERIFY(accelerator);
        const EfficiencyFactors &catalog = accelerator->efficiency;
        const EfficiencyFactors &fitted = validation->fit->factors;
        std::vector<PublishedRun> own;
        for (const PublishedRun &run : builtinPublishedRuns())
            if (run.scenario.cluster.accelerator.id == id.toStdString())
                own.push_back(run);
        for (EfficiencyParameter parameter : fittableParameters(own)) {
            const double step = parameter == EfficiencyParameter::GemmFixedCostDepth ? 0.1 : 0.001;
            QVERIFY2(sameAtCatalogPrecision(parameterValue(catalog, parameter), parameterValue(fitted, parameter), step),
                     qPrintable(QStringLiteral("%1: catalog %2, fit %3").arg(id).arg(parameterValue(catalog, parameter)).arg(parameterValue(fitted, parameter))));
        }
        const PredictionAccuracy &accuracy = accelerator->accuracy;
        QVERIFY(accuracy.hasBand());
        QCOMPARE(accuracy.published_runs, runs);
        QCOMPARE(accuracy.sources, sources);
        QVERIFY(sameAtCatalogPrecision(accuracy.fitted_mean_error, validation->fit->mean_absolute_error, 1e-4));
        QVERIFY(sameAtCatalogPrecision(accuracy.held_out_mean_error, validation->held_out_mean_absolute_error, 1e-4));
        QVERIFY(sameAtCatalogPrecision(accuracy.held_out_p90_error, validation->held_out_p90_absolute_error, 1e-4));
        QVERIFY(sameAtCatalogPrecision(accuracy.held_out_worst_error, validation->held_out_worst_absolute_error, 1e-4));
        // Issue 29's acceptance: leave-one-source-out at most 7% mean on each accelerator.
        QVERIFY2(validation->held_out_mean_absolute_error <= 0.07,
                 qPrintable(QString::number(validation->held_out_mean_absolute_error)));
        // Held out is never better than fitted on the same runs by more than noise.
        QVERIFY(validation->held_out_mean_absolute_error >= validation->fit->mean_absolute_error - 1e-9);
    }

    // One source: no held-out error, so no band; the catalog says so in words.
    void oneSourceHasNoBand()
    {
        const AcceleratorValidation *titan = find(validations_, "h100-sxm-96gb-500w");
        QVERIFY(titan);
        QVERIFY(titan->leave_one_source_out.empty());
        QVERIFY(titan->held_out_errors.empty());
        const Accelerator *accelerator = builtinHardwareCatalog().find("h100-sxm-96gb-500w");
        QVERIFY(accelerator && !accelerator->accuracy.hasBand());
        QVERIFY(!accelerator->accuracy.basis.empty());
        const Accelerator *b200 = builtinHardwareCatalog().find("b200");
        QVERIFY(b200 && !b200->accuracy.hasBand());
        QCOMPARE(b200->accuracy.factors_from, std::string("h100-sxm"));
    }

    // The fit starts from the middle of each range, not from the catalog: the same runs give the
    // same factors whatever the catalog holds.
    void fitOwesNothingToTheCatalog()
    {
        std::vector<PublishedRun> runs;
        for (const PublishedRun &run : builtinPublishedRuns())
            if (run.scenario.cluster.accelerator.id == "a100-sxm-80gb") {
                runs.push_back(run);
                runs.back().scenario.cluster.accelerator.efficiency.gemm_peak_fraction = 0.55;
                runs.back().scenario.cluster.accelerator.efficiency.memory_bandwidth_fraction = 0.9;
            }
        AcceleratorValidationOptions options;
        options.fit = true;
        options.max_evaluations = kEvaluations;
        const Result<std::vector<AcceleratorValidation>> moved = validateByAccelerator(runs, options);
        QVERIFY(moved.ok() && moved->size() == 1 && moved->front().fit);
        QVERIFY(moved->front().fit->factors.gemm_peak_fraction == find(validations_, "a100-sxm-80gb")->fit->factors.gemm_peak_fraction);
    }

    // Nearest rank (the smallest value with at least p% at or below it): of |errors| 0.01 … 0.10,
    // the 90th percentile is the 9th, 0.09; of three, ceil(2.7) = 3rd, the largest.
    void percentileByHand()
    {
        QCOMPARE(absolutePercentile({-0.01, 0.02, -0.03, 0.04, 0.05, -0.06, 0.07, 0.08, -0.09, 0.10}, 90), 0.09);
        QCOMPARE(absolutePercentile({0.3, -0.1, 0.2}, 90), 0.3);
        QCOMPARE(absolutePercentile({}, 90), 0.0);
    }

    // What each set of runs can determine: A100 Megatron runs use neither FlashAttention nor FP8;
    // the H100 runs use both kernels and FP8.
    void fittableParametersFollowTheRuns()
    {
        QCOMPARE(int(find(validations_, "a100-sxm-80gb")->fit->factors.flash_attention_fraction * 1000),
                 int(builtinHardwareCatalog().find("a100-sxm-80gb")->efficiency.flash_attention_fraction * 1000));
        std::vector<PublishedRun> h100;
        for (const PublishedRun &run : builtinPublishedRuns())
            if (run.scenario.cluster.accelerator.id == "h100-sxm")
                h100.push_back(run);
        QCOMPARE(fittableParameters(h100).size(), std::size_t(6));
        // One run determines one parameter: the GEMM fraction.
        const std::vector<EfficiencyParameter> one = fittableParameters({h100.front()});
        QCOMPARE(one.size(), std::size_t(1));
        QVERIFY(one.front() == EfficiencyParameter::GemmPeakFraction);
        std::vector<PublishedRun> a100;
        for (const PublishedRun &run : builtinPublishedRuns())
            if (run.scenario.cluster.accelerator.id == "a100-sxm-80gb")
                a100.push_back(run);
        QCOMPARE(fittableParameters(a100).size(), std::size_t(3));
    }
};

QTEST_GUILESS_MAIN(TestAcceleratorValidation)
#include "test_accelerator_validation.moc"
