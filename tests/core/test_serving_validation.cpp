// SPDX-License-Identifier: GPL-3.0-or-later
// core/validation/serving_validation: the serving model against the published inference measurements
// (TensorRT-LLM performance.md and blogs, kipply's FasterTransformer 13B, LLM-Viewer issue #4). The
// compiled-in copy is the course's file; every row becomes a prediction; the catalog's factors reach
// the target (mean |error| ≤ 10 %) and are what the fit produces; a source held out of the fit
// is still predicted within the band stated in the docs.

#include "inference/serving_factors.h"
#include "validation/serving_validation.h"

#include <QFile>
#include <QTest>

#include <cmath>
#include <set>

using namespace lse;

namespace {

const PreparedCalibration &calibration()
{
    static const PreparedCalibration prepared = [] {
        Result<std::vector<ServingCalibrationRow>> rows = builtinServingCalibration();
        if (!rows)
            qFatal("%s", formatProblems(rows.problems()).c_str());
        Result<PreparedCalibration> result = prepareCalibration(*rows);
        if (!result)
            qFatal("%s", formatProblems(result.problems()).c_str());
        return *result;
    }();
    return prepared;
}

FactorLookup catalogLookup()
{
    return [](const std::string &accelerator, const std::string &precision) {
        return inference::builtinServingFactors().lookUp(accelerator, precision);
    };
}

}  // namespace

class TestServingValidation : public QObject {
    Q_OBJECT

private slots:
    // resources/validation/published_inference.json is the course's reference file, byte for byte.
    void compiledCopyIsTheCoursesFile()
    {
        QFile shared(QStringLiteral(LSE_SHARED_DIR "/reference/published-inference-calibration.json"));
        if (!shared.open(QIODevice::ReadOnly))
            QSKIP("the course folder (LSE_SHARED_DIR) has no reference/published-inference-calibration.json here");
        QFile compiled(QStringLiteral(":/validation/published_inference.json"));
        QVERIFY(compiled.open(QIODevice::ReadOnly));
        QVERIFY(compiled.readAll() == shared.readAll());
    }

    void everyRowIsPredicted()
    {
        QCOMPARE(int(calibration().rows.size()), 76);
        const std::vector<ServingComparison> comparisons = compareServing(calibration(), catalogLookup());
        // 76 rows: the kipply rows print prefill and decode (their end-to-end is those summed), the
        // blog's H100-vs-A100 rows throughput and first-token latency, every other row one figure.
        QCOMPARE(int(comparisons.size()), 82);
        std::set<std::string> accelerators, sources;
        for (const ServingComparison &comparison : comparisons) {
            QVERIFY2(std::isfinite(comparison.predicted) && comparison.predicted > 0, comparison.row_id.c_str());
            accelerators.insert(comparison.accelerator);
            sources.insert(comparison.source);
        }
        QCOMPARE(int(accelerators.size()), 5);  // A100 40/80 GB, H100, H200, L40S
        QCOMPARE(int(sources.size()), 5);
    }

    // The target: mean |error| ≤ 10 % on the calibration set with one set of factors per
    // accelerator and precision. Reached: 7.6 % (worst 28.3 %, the H200 blog's Llama 2 13B 128/2048
    // row, whose H100-pooled factors predict it too fast).
    void catalogFactorsReachTheTarget()
    {
        const ServingValidation validation = validateServing(calibration(), catalogLookup(), false);
        QVERIFY2(validation.overall.mean_abs_error <= 0.10,
                 qPrintable(QStringLiteral("mean |error| %1").arg(validation.overall.mean_abs_error)));
        QVERIFY(validation.overall.worst_abs_error < 0.30);
        for (const ServingErrorSummary &summary : validation.per_accelerator)
            QVERIFY2(summary.mean_abs_error <= 0.15, summary.key.c_str());
    }

    // The catalog holds what the fit produces (tools/fit_serving_factors.py wrote it): refitting
    // gives the same factors, to the catalog's rounding.
    void catalogIsTheFit()
    {
        const ServingFit fit = fitServingFactors(calibration());
        QCOMPARE(fit.factors.size(), inference::builtinServingFactors().fitted.size());
        for (const inference::ServingFactors &fitted : fit.factors) {
            const inference::ServingFactors catalog =
                inference::builtinServingFactors().lookUp(fitted.accelerator, fitted.precision);
            QVERIFY2(catalog.calibrated, fitted.accelerator.c_str());
            QVERIFY(std::abs(catalog.compute_fraction - fitted.compute_fraction) < 1e-3);
            QVERIFY(std::abs(catalog.bandwidth_fraction - fitted.bandwidth_fraction) < 1e-3);
            QVERIFY(std::abs(catalog.kernel_launch_seconds - fitted.kernel_launch_seconds) < 1e-8);
            QVERIFY(std::abs(catalog.host_step_seconds - fitted.host_step_seconds) < 1e-6);
        }
    }

    // Leave one source out, for the smallest source (LLM-Viewer issue #4's six A100 figures, from
    // TensorRT-LLM's A100 page): fitted without it, the A100 factors predict it with mean |error|
    // 6.6 % (all five sources held out in turn: 13.0 %, `validate --serving --leave-one-source-out`).
    void heldOutSourceIsStillPredicted()
    {
        const std::string source = "LLM-Viewer issue #4 (quoting TensorRT-LLM A100 performance page)";
        const ServingFit fit = fitServingFactors(calibration(), source);
        std::vector<ServingComparison> held;
        for (const ServingComparison &comparison : compareServing(calibration(), fit.lookup()))
            if (comparison.source == source)
                held.push_back(comparison);
        QCOMPARE(int(held.size()), 6);
        const ServingErrorSummary summary = summarise(held);
        QVERIFY2(summary.mean_abs_error <= 0.10, qPrintable(QString::number(summary.mean_abs_error)));
    }
};

QTEST_GUILESS_MAIN(TestServingValidation)
#include "test_serving_validation.moc"
