// SPDX-License-Identifier: GPL-3.0-or-later
// Gradient histogram and loss scaling (core/numbers/gradient_histogram.h, loss_scaling.h): log2
// buckets for hand-made values, FP16 flush-to-zero and overflow through roundToFormat, a loss
// scale of 2^k moving every bucket by k, GradScaler's update rule on a scripted sequence of steps,
// and both on real gradients of the reference transformer (counts sum to the gradient count; a
// short seeded run is deterministic). The text prefix is small so the file runs in seconds.
#include "numbers/gradient_histogram.h"
#include "numbers/loss_scaling.h"

#include <QtTest>

#include <atomic>
#include <cmath>
#include <vector>

using namespace lse;
using namespace lse::numbers;

namespace {
constexpr std::int64_t kTestTextBytes = 24 * 1024;
}

class TestGradientHistogram : public QObject {
    Q_OBJECT
private slots:
    void bucketsOfHandMadeValues()
    {
        // 1 and 1.5 in [2^0, 2^1); 0.25 in [2^-2, 2^-1); -3 in [2^1, 2^2); 2^-30 and the largest float
        // below 2^-29 in bucket -30; zeros and non-finite values counted apart.
        const float below = std::nextafter(std::ldexp(1.0f, -29), 0.0f);
        const std::vector<float> g = {1.0f, 1.5f, 0.25f, -3.0f, std::ldexp(1.0f, -30), below, 0.0f, -0.0f,
                                      INFINITY, NAN};
        const Log2Histogram h = log2Histogram(g);
        QCOMPARE(h.min_exponent, -30);
        QCOMPARE(h.max_exponent, 1);
        QCOMPARE(h.countAt(0), 2);
        QCOMPARE(h.countAt(-2), 1);
        QCOMPARE(h.countAt(1), 1);
        QCOMPARE(h.countAt(-30), 2);
        QCOMPARE(h.countAt(-29), 0);
        QCOMPARE(h.countAt(-1), 0);
        QCOMPARE(h.zero_count, 2);
        QCOMPARE(h.non_finite_count, 2);
        QCOMPARE(h.total(), std::int64_t(g.size()));
        QCOMPARE(log2Bucket(0.5), -1);
        QCOMPARE(log2Bucket(std::nextafter(0.5, 0.0)), -2);
    }

    void emptyInputHasNoBuckets()
    {
        const Log2Histogram h = log2Histogram(std::vector<float>{0.0f, 0.0f});
        QVERIFY(h.counts.empty());
        QCOMPARE(h.zero_count, 2);
        QCOMPARE(h.total(), 2);
    }

    void scalingByPowerOfTwoShiftsBuckets()
    {
        std::vector<float> g;
        for (int i = 0; i < 200; ++i)
            g.push_back(float(std::ldexp(1.0 + (i % 7) / 8.0, -(i % 37))) * (i % 2 ? -1.0f : 1.0f));
        const Log2Histogram base = log2Histogram(g);
        for (int k : {1, 5, 12, 24}) {
            const Log2Histogram shifted = log2Histogram(g, std::ldexp(1.0, k));
            QCOMPARE(shifted.min_exponent, base.min_exponent + k);
            QCOMPARE(shifted.max_exponent, base.max_exponent + k);
            QCOMPARE(shifted.counts, base.counts);
        }
    }

    void flushFractionForKnownValues()
    {
        // 1e-8 is below half of FP16's smallest subnormal 2^-24 ≈ 5.96e-8: it rounds to zero in FP16,
        // while BF16 (FP32's exponent range) keeps it as a normal number. 1e-6 is an FP16 subnormal.
        const std::vector<float> g = {1e-8f, 1e-8f, 1e-6f, 0.5f, 0.0f};
        const CastStatistics fp16 = castStatistics(g, FormatId::FP16);
        QCOMPARE(fp16.non_zero, 4);
        QCOMPARE(fp16.flushed, 2);
        QCOMPARE(fp16.subnormal, 1);
        QCOMPARE(fp16.overflow, 0);
        QCOMPARE(fp16.flushedFraction(), 0.5);
        QCOMPARE(fp16.subnormalFraction(), 0.25);
        const CastStatistics bf16 = castStatistics(g, FormatId::BF16);
        QCOMPARE(bf16.flushed, 0);
        QCOMPARE(bf16.subnormal, 0);
        // × 2^10: 1e-8 becomes 1.02e-5, an FP16 subnormal, no longer flushed; 0.5 becomes 512.
        const CastStatistics scaled = castStatistics(g, FormatId::FP16, 1024);
        QCOMPARE(scaled.flushed, 0);
        QCOMPARE(scaled.overflow, 0);
        // × 2^17: 0.5 becomes 65536, past FP16's max 65504 (and past the rounding midpoint 65520).
        const CastStatistics overflowing = castStatistics(g, FormatId::FP16, std::ldexp(1.0, 17));
        QCOMPARE(overflowing.overflow, 1);
        QVERIFY(overflowing.anyOverflow());
        QCOMPARE(overflowing.overflowFraction(), 0.25);
    }

    void formatRangesComeFromTheFormats()
    {
        const FormatRange fp16 = formatRange(FormatId::FP16);
        QCOMPARE(fp16.max, 65504.0);
        QCOMPARE(fp16.min_subnormal, std::ldexp(1.0, -24));
        QCOMPARE(fp16.min_normal, std::ldexp(1.0, -14));
        const FormatRange bf16 = formatRange(FormatId::BF16);
        QCOMPARE(bf16.min_normal, std::ldexp(1.0, -126));
        QCOMPARE(bf16.min_subnormal, std::ldexp(1.0, -133));
    }

    void scalerRuleOnScriptedSteps()
    {
        LossScalerConfig config;
        config.initial_scale = 1024;
        config.growth_interval = 3;
        DynamicLossScaler s(config);
        // Three good steps: the scale doubles after the third.
        QVERIFY(!s.update(false));
        QVERIFY(!s.update(false));
        QCOMPARE(s.scale(), 1024.0);
        QVERIFY(!s.update(false));
        QCOMPARE(s.scale(), 2048.0);
        QCOMPARE(s.goodStepsInARow(), 0);
        // Two good steps, then an overflow: the step is skipped, the scale halves, the count restarts.
        QVERIFY(!s.update(false));
        QVERIFY(!s.update(false));
        QVERIFY(s.update(true));
        QCOMPARE(s.scale(), 1024.0);
        QCOMPARE(s.goodStepsInARow(), 0);
        // Two overflows in a row halve twice.
        QVERIFY(s.update(true));
        QVERIFY(s.update(true));
        QCOMPARE(s.scale(), 256.0);
        // Growth needs three good steps counted from the last overflow.
        QVERIFY(!s.update(false));
        QVERIFY(!s.update(false));
        QCOMPARE(s.scale(), 256.0);
        QVERIFY(!s.update(false));
        QCOMPARE(s.scale(), 512.0);
    }

    void scalerConfigProblemsNameTheField()
    {
        LossScalerConfig bad;
        bad.initial_scale = 0;
        bad.growth_interval = 0;
        bad.backoff_factor = 1.5;
        const Problems problems = validateLossScalerConfig(bad);
        QCOMPARE(problems.size(), std::size_t(3));
        QCOMPARE(problems[0].field, std::string("initial_scale"));
        QCOMPARE(problems[1].field, std::string("backoff_factor"));
        QCOMPARE(problems[2].field, std::string("growth_interval"));
        LossScalingOptions options;
        options.scaler = bad;
        QVERIFY(!simulateLossScaling(options).ok());
    }

    void histogramOfRealGradientsCountsEveryElement()
    {
        GradientSnapshotOptions options;
        options.steps = 3;
        options.text_bytes = kTestTextBytes;
        int calls = 0;
        const Result<GradientSnapshot> run =
            collectReferenceGradients(options, [&](int, int, double) { ++calls; });
        QVERIFY2(run.ok(), formatProblems(run.problems()).c_str());
        const GradientSnapshot &s = run.value();
        QCOMPARE(s.steps, 3);
        QCOMPARE(calls, 4);  // after tokenizing and after each step
        QVERIFY(s.parameter_count > 10000);
        QCOMPARE(std::int64_t(s.gradients.size()), s.parameter_count);
        // The acceptance point of issue 16: every gradient element is in exactly one bucket.
        QCOMPARE(s.histogram.total(), s.parameter_count);
        QVERIFY(s.histogram.counts.size() > 5);  // real gradients span many binades
        QVERIFY(std::isfinite(s.loss) && s.loss > 0);
    }

    void cancelBeforeTheFirstStepKeepsNothing()
    {
        std::atomic<bool> cancel{true};
        GradientSnapshotOptions options;
        options.text_bytes = kTestTextBytes;
        const Result<GradientSnapshot> run = collectReferenceGradients(options, {}, &cancel);
        QVERIFY(run.ok());
        QVERIFY(run.value().cancelled);
        QCOMPARE(run.value().steps, 0);
    }

    void lossScalingOnARealRun()
    {
        // A start far above what FP16 can hold: the first steps overflow and halve the scale until
        // the scaled gradients fit, then it grows every 4 good steps.
        LossScalingOptions options;
        options.steps = 16;
        options.text_bytes = kTestTextBytes;
        options.scaler.initial_scale = std::ldexp(1.0, 24);
        options.scaler.growth_interval = 4;
        int reported = 0;
        const Result<LossScalingRun> run =
            simulateLossScaling(options, [&](const LossScalingStep &, int) { ++reported; });
        QVERIFY2(run.ok(), formatProblems(run.problems()).c_str());
        const LossScalingRun &r = run.value();
        QCOMPARE(int(r.steps.size()), 16);
        QCOMPARE(reported, 16);
        QVERIFY(r.steps.front().overflow);
        QVERIFY(r.overflow_steps >= 1);
        // The scale each step used follows the rule from the flags recorded.
        DynamicLossScaler replay(options.scaler);
        bool changed = false;
        for (const LossScalingStep &s : r.steps) {
            QCOMPARE(s.scale, replay.scale());
            QCOMPARE(s.skipped, s.overflow);
            replay.update(s.overflow);
            changed = changed || s.scale != r.steps.front().scale;
            QVERIFY(s.flushed_fraction >= 0 && s.flushed_fraction <= 1);
            QVERIFY(s.flushed_fraction <= s.unscaled_flushed_fraction);  // a scale ≥ 1 flushes no more
        }
        QVERIFY(changed);

        // Deterministic with a seed: the same run gives the same steps.
        const Result<LossScalingRun> again = simulateLossScaling(options);
        QVERIFY(again.ok());
        for (std::size_t i = 0; i < r.steps.size(); ++i) {
            QCOMPARE(again.value().steps[i].loss, r.steps[i].loss);
            QCOMPARE(again.value().steps[i].scale, r.steps[i].scale);
            QCOMPARE(again.value().steps[i].flushed_fraction, r.steps[i].flushed_fraction);
        }
    }
};

QTEST_GUILESS_MAIN(TestGradientHistogram)
#include "test_gradient_histogram.moc"
