// SPDX-License-Identifier: GPL-3.0-or-later
// Training machinery of the reference transformer against the CS336 references (nn-utils/): the
// cosine schedule with warm-up, gradient clipping by global norm, and 1000 AdamW steps on a small
// least-squares problem; plus the update formula step by step, frozen and undecayed tensors, and
// checkpoint state that resumes bit-identically.
#include "reference/npz.h"
#include "reference/optimizer.h"
#include "reference/schedule.h"

#include "../fixture_paths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <cmath>
#include <cstring>

using namespace lse;

namespace {

// The course's nn-utils references, copied unchanged into tests/data (tests/data/README.md).
QString nnUtilsDir() { return lse::test::fixturePath(QStringLiteral("nn-utils")); }

// Fails (naming the file) when a fixture is absent.
#define REQUIRE_NN_UTILS()                                                    \
    for (const char *name_ : {"nn_utils_expected.json", "adamw_inputs.npz", "adamw_expected_params.npz"}) \
    LSE_REQUIRE_FIXTURE(nnUtilsDir() + "/" + name_)

QJsonObject expectedJson()
{
    QFile f(nnUtilsDir() + "/nn_utils_expected.json");
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// The README's AdamW case: y = [x0 + x1, −x2], loss = Σ_i (y_i − (W x)_i)², so
// ∂loss/∂W_ij = −2 (y_i − (W x)_i) x_j.
template <typename Scalar>
void leastSquaresGradient(const Scalar *W, const float *x, Scalar *grad)
{
    const Scalar xs[3] = {static_cast<Scalar>(x[0]), static_cast<Scalar>(x[1]), static_cast<Scalar>(x[2])};
    const Scalar y[2] = {xs[0] + xs[1], -xs[2]};
    for (int i = 0; i < 2; ++i) {
        const Scalar residual = y[i] - (W[3 * i] * xs[0] + W[3 * i + 1] * xs[1] + W[3 * i + 2] * xs[2]);
        for (int j = 0; j < 3; ++j)
            grad[3 * i + j] = Scalar(-2) * residual * xs[j];
    }
}

template <typename Scalar>
void runAdamwReference()
{
    const auto inputs = readNpz((nnUtilsDir() + "/adamw_inputs.npz").toStdString());
    QVERIFY2(inputs.ok(), formatProblems(inputs.problems()).c_str());
    const auto expected = readNpz((nnUtilsDir() + "/adamw_expected_params.npz").toStdString());
    QVERIFY2(expected.ok(), formatProblems(expected.problems()).c_str());
    const std::vector<float> x = inputs->at("adamw_x").toFloat();
    QCOMPARE(inputs->at("adamw_x").shape, (std::vector<std::int64_t>{1000, 3}));
    const std::vector<double> w0 = inputs->at("adamw_W0").toDouble();
    const std::vector<float> want = expected->at("array").toFloat();
    QCOMPARE(w0.size(), std::size_t(6));
    QCOMPARE(want.size(), std::size_t(6));

    std::vector<Scalar> W(w0.begin(), w0.end());
    std::vector<Scalar> grad(6);
    AdamWConfig config;
    config.learningRate = 1e-3;
    config.weightDecay = 0.01;
    config.beta1 = 0.9;
    config.beta2 = 0.999;
    config.eps = 1e-8;
    AdamW<Scalar> adamw({{W.data(), grad.data(), 6}}, config);
    for (std::size_t step = 0; step < 1000; ++step) {
        leastSquaresGradient(W.data(), x.data() + 3 * step, grad.data());
        adamw.step();
    }
    QCOMPARE(adamw.stepCount(), std::int64_t(1000));
    for (std::size_t i = 0; i < 6; ++i)
        QVERIFY2(std::abs(static_cast<double>(W[i]) - static_cast<double>(want[i])) < 1e-4,
                 qPrintable(QString("W[%1] = %2, expected %3").arg(i).arg(static_cast<double>(W[i]), 0, 'g', 9).arg(static_cast<double>(want[i]), 0, 'g', 9)));
}

}  // namespace

class TestReferenceOptimizer : public QObject {
    Q_OBJECT
private slots:
    // ---- cosine schedule ----------------------------------------------------------------------

    void cosineScheduleReference_data()
    {
        QTest::addColumn<int>("iteration");
        QTest::addColumn<double>("expected");
        const QJsonArray values = expectedJson().value("test_get_lr_cosine_schedule").toObject().value("expected_it0_to_24").toArray();
        for (int it = 0; it < values.size(); ++it)
            QTest::addRow("t=%d", it) << it << values[it].toDouble();
        if (values.isEmpty())
            QTest::addRow("absent") << -1 << 0.0;
    }

    void cosineScheduleReference()
    {
        REQUIRE_NN_UTILS();
        QFETCH(int, iteration);
        QFETCH(double, expected);
        const QJsonObject params = expectedJson().value("test_get_lr_cosine_schedule").toObject().value("params").toObject();
        CosineSchedule schedule;
        schedule.maxLearningRate = params.value("max_learning_rate").toDouble();
        schedule.minLearningRate = params.value("min_learning_rate").toDouble();
        schedule.warmupIters = params.value("warmup_iters").toInteger();
        schedule.cosineCycleIters = params.value("cosine_cycle_iters").toInteger();
        QCOMPARE(schedule.maxLearningRate, 1.0);
        QCOMPARE(schedule.warmupIters, std::int64_t(7));
        QVERIFY(schedule.validate().empty());
        // numpy.testing.assert_allclose default: |actual − expected| ≤ 1e-7·|expected|.
        const double actual = schedule.at(iteration);
        QVERIFY2(std::abs(actual - expected) <= 1e-7 * std::abs(expected),
                 qPrintable(QString("lr(%1) = %2, expected %3").arg(iteration).arg(actual, 0, 'g', 17).arg(expected, 0, 'g', 17)));
    }

    void cosineScheduleEdges_data()
    {
        QTest::addColumn<qint64>("warmup");
        QTest::addColumn<qint64>("cycle");
        QTest::addColumn<qint64>("t");
        QTest::addColumn<double>("expected");
        // max 2, min 0.5 throughout.
        QTest::addRow("no warm-up, start") << qint64(0) << qint64(10) << qint64(0) << 2.0;
        QTest::addRow("no warm-up, middle") << qint64(0) << qint64(10) << qint64(5) << 1.25;
        QTest::addRow("no warm-up, end") << qint64(0) << qint64(10) << qint64(10) << 0.5;
        QTest::addRow("warm-up half way") << qint64(4) << qint64(10) << qint64(2) << 1.0;
        QTest::addRow("end of warm-up") << qint64(4) << qint64(10) << qint64(4) << 2.0;
        QTest::addRow("after the cycle") << qint64(4) << qint64(10) << qint64(1000) << 0.5;
        QTest::addRow("cycle equals warm-up, at it") << qint64(4) << qint64(4) << qint64(4) << 2.0;
        QTest::addRow("cycle equals warm-up, after") << qint64(4) << qint64(4) << qint64(5) << 0.5;
    }

    void cosineScheduleEdges()
    {
        QFETCH(qint64, warmup);
        QFETCH(qint64, cycle);
        QFETCH(qint64, t);
        QFETCH(double, expected);
        const CosineSchedule schedule{2.0, 0.5, warmup, cycle};
        QVERIFY(schedule.validate().empty());
        QVERIFY(std::abs(schedule.at(t) - expected) < 1e-15);
    }

    void cosineScheduleValidation()
    {
        QCOMPARE((CosineSchedule{1.0, 2.0, 0, 10}.validate().front().field), std::string("schedule.max_learning_rate"));
        QCOMPARE((CosineSchedule{1.0, -0.1, 0, 10}.validate().front().field), std::string("schedule.min_learning_rate"));
        QCOMPARE((CosineSchedule{1.0, 0.1, -1, 10}.validate().front().field), std::string("schedule.warmup_iters"));
        QCOMPARE((CosineSchedule{1.0, 0.1, 11, 10}.validate().front().field), std::string("schedule.cosine_cycle_iters"));
    }

    // ---- gradient clipping --------------------------------------------------------------------

    void gradientClippingReference_data()
    {
        QTest::addColumn<bool>("doublePrecision");
        QTest::addRow("float") << false;
        QTest::addRow("double") << true;
    }

    void gradientClippingReference()
    {
        REQUIRE_NN_UTILS();
        QFETCH(bool, doublePrecision);
        const QJsonObject c = expectedJson().value("test_gradient_clipping").toObject();
        const double maxNorm = c.value("max_norm").toDouble();
        const double totalNorm = c.value("total_norm").toDouble();
        const double each = c.value("expected_grad_value_each").toDouble();
        QCOMPARE(maxNorm, 0.01);
        // Six 5×5 parameters with gradient 1; the last is frozen (no gradient), so it neither
        // counts in the norm nor gets scaled.
        auto run = [&](auto zero) {
            using Scalar = decltype(zero);
            std::vector<std::vector<Scalar>> params(6, std::vector<Scalar>(25, Scalar(0.5)));
            std::vector<std::vector<Scalar>> grads(6, std::vector<Scalar>(25, Scalar(1)));
            std::vector<ParamSpan<Scalar>> spans;
            for (std::size_t i = 0; i < 6; ++i)
                spans.push_back({params[i].data(), i < 5 ? grads[i].data() : nullptr, 25});
            const double norm = clipGradNorm(spans, maxNorm);
            QVERIFY(std::abs(norm - totalNorm) < 1e-9);
            for (std::size_t i = 0; i < 6; ++i)
                for (const Scalar g : grads[i])
                    QVERIFY(std::abs(static_cast<double>(g) - (i < 5 ? each : 1.0)) < 1e-8);
            // The clipped norm is max_norm up to the 1e-6 guard.
            QVERIFY(std::abs(globalGradNorm(spans) - maxNorm) < 1e-8);
            // Below the limit nothing changes, and the norm is still reported.
            const std::vector<Scalar> before = grads[0];
            QVERIFY(std::abs(clipGradNorm(spans, 1.0) - globalGradNorm(spans)) < 1e-15);
            QCOMPARE(grads[0], before);
        };
        if (doublePrecision)
            run(0.0);
        else
            run(0.0f);
    }

    // ---- AdamW --------------------------------------------------------------------------------

    void adamwReference_data()
    {
        QTest::addColumn<bool>("doublePrecision");
        QTest::addRow("float") << false;
        QTest::addRow("double") << true;
    }

    void adamwReference()
    {
        REQUIRE_NN_UTILS();
        QFETCH(bool, doublePrecision);
        if (doublePrecision)
            runAdamwReference<double>();
        else
            runAdamwReference<float>();
    }

    void adamwFormulaByHand()
    {
        // Two steps on two scalars, written out from the formula in double.
        const AdamWConfig config{0.1, 0.8, 0.9, 1e-3, 0.5};
        std::vector<double> theta = {1.0, -2.0};
        std::vector<double> grad = {0.3, -4.0};
        AdamW<double> adamw({{theta.data(), grad.data(), 2}}, config);
        double th[2] = {1.0, -2.0}, m[2] = {0, 0}, v[2] = {0, 0};
        for (int t = 1; t <= 2; ++t) {
            const double g[2] = {0.3 * t, -4.0 + t};
            grad = {g[0], g[1]};
            adamw.step();
            const double alphaT = 0.1 * std::sqrt(1 - std::pow(0.9, t)) / (1 - std::pow(0.8, t));
            for (int i = 0; i < 2; ++i) {
                m[i] = 0.8 * m[i] + 0.2 * g[i];
                v[i] = 0.9 * v[i] + 0.1 * g[i] * g[i];
                th[i] -= alphaT * m[i] / (std::sqrt(v[i]) + 1e-3);
                th[i] -= 0.1 * 0.5 * th[i];
                QVERIFY2(std::abs(theta[static_cast<std::size_t>(i)] - th[i]) < 1e-14, qPrintable(QString("step %1 element %2").arg(t).arg(i)));
            }
        }
        // A schedule's rate replaces the configured one for that step only.
        const double before = theta[0];
        grad = {0.0, 0.0};
        adamw.step(0.0);
        QCOMPARE(theta[0], before);
        QCOMPARE(adamw.config().learningRate, 0.1);
    }

    void adamwFrozenAndUndecayed()
    {
        std::vector<float> a = {1, 1}, b = {1, 1}, c = {1, 1};
        std::vector<float> ga = {0, 0}, gb = {0, 0};
        const AdamWConfig config{0.1, 0.9, 0.999, 1e-8, 0.5};
        // Zero gradients: only weight decay moves a parameter.
        AdamW<float> adamw({{a.data(), ga.data(), 2}, {b.data(), gb.data(), 2, false}, {c.data(), nullptr, 2}}, config);
        adamw.step();
        QCOMPARE(a[0], 1.0f - 0.05f);
        QCOMPARE(b[0], 1.0f);
        QCOMPARE(c[0], 1.0f);
        // State exists for the trainable tensors only: 2 × 2 moments of 2 floats.
        QCOMPARE(adamw.stateBytes(), std::size_t(2 * 2 * 2 * sizeof(float)));
    }

    void adamwLargeTensorIsThreadIndependent()
    {
        // Above the OpenMP threshold: the same update as an element-by-element reference.
        const std::size_t n = 100'000;
        std::vector<float> p(n), g(n), q(n), h(n);
        for (std::size_t i = 0; i < n; ++i) {
            p[i] = q[i] = std::sin(static_cast<float>(i));
            g[i] = h[i] = std::cos(static_cast<float>(i) * 0.37f);
        }
        AdamW<float> big({{p.data(), g.data(), n}}, AdamWConfig{});
        std::vector<ParamSpan<float>> pieces;
        for (std::size_t i = 0; i < n; i += 1000)  // small spans stay single-threaded
            pieces.push_back({q.data() + i, h.data() + i, 1000});
        AdamW<float> small(pieces, AdamWConfig{});
        for (int s = 0; s < 3; ++s) {
            big.step();
            small.step();
        }
        QCOMPARE(std::memcmp(p.data(), q.data(), n * sizeof(float)), 0);
    }

    void adamwStateResumesBitIdentically()
    {
        const std::size_t n = 50;
        auto gradientAt = [](int step, const std::vector<float> &w, std::vector<float> &g) {
            for (std::size_t i = 0; i < w.size(); ++i)
                g[i] = w[i] * 0.5f + std::sin(static_cast<float>(step) + static_cast<float>(i));
        };
        const CosineSchedule schedule{1e-2, 1e-3, 3, 15};
        std::vector<float> w(n, 0.25f), g(n);
        AdamW<float> straight({{w.data(), g.data(), n}}, AdamWConfig{});
        std::vector<float> wSaved;
        AdamWState<float> saved;
        for (int step = 1; step <= 20; ++step) {
            gradientAt(step, w, g);
            clipGradNorm(std::vector<ParamSpan<float>>{{w.data(), g.data(), n}}, 1.0);
            straight.step(schedule.at(step));
            if (step == 10) {
                wSaved = w;
                saved = straight.exportState();
            }
        }
        QCOMPARE(saved.step, std::int64_t(10));
        std::vector<float> w2 = wSaved, g2(n);
        AdamW<float> resumed({{w2.data(), g2.data(), n}}, AdamWConfig{});
        const auto imported = resumed.importState(saved);
        QVERIFY2(imported.ok(), formatProblems(imported.problems()).c_str());
        for (int step = 11; step <= 20; ++step) {
            gradientAt(step, w2, g2);
            clipGradNorm(std::vector<ParamSpan<float>>{{w2.data(), g2.data(), n}}, 1.0);
            resumed.step(schedule.at(step));
        }
        QCOMPARE(std::memcmp(w.data(), w2.data(), n * sizeof(float)), 0);
        QCOMPARE(resumed.stepCount(), std::int64_t(20));
    }

    void adamwStateMismatch_data()
    {
        QTest::addColumn<int>("tensors");
        QTest::addColumn<int>("elements");
        QTest::addColumn<qint64>("step");
        QTest::addColumn<std::string>("field");
        QTest::addRow("tensor count") << 1 << 4 << qint64(1) << std::string("optimizer.state");
        QTest::addRow("element count") << 2 << 5 << qint64(1) << std::string("optimizer.state.0");
        QTest::addRow("negative step") << 2 << 4 << qint64(-1) << std::string("optimizer.step");
    }

    void adamwStateMismatch()
    {
        QFETCH(int, tensors);
        QFETCH(int, elements);
        QFETCH(qint64, step);
        QFETCH(std::string, field);
        std::vector<double> p(8, 1.0), g(8, 1.0);
        AdamW<double> adamw({{p.data(), g.data(), 4}, {p.data() + 4, g.data() + 4, 4}}, AdamWConfig{});
        adamw.step();
        AdamWState<double> state;
        state.step = step;
        state.m.assign(static_cast<std::size_t>(tensors), std::vector<double>(static_cast<std::size_t>(elements), 7.0));
        state.v = state.m;
        const auto r = adamw.importState(state);
        QVERIFY(!r.ok());
        QCOMPARE(r.problems().front().field, field);
        // A refused import leaves the optimizer as it was.
        QCOMPARE(adamw.stepCount(), std::int64_t(1));
        QVERIFY(adamw.exportState().m[0][0] != 7.0);
    }

    void adamwConfigValidation()
    {
        QVERIFY(AdamWConfig{}.validate().empty());
        QCOMPARE((AdamWConfig{1e-3, 1.0, 0.999, 1e-8, 0.0}.validate().front().field), std::string("optimizer.beta1"));
        QCOMPARE((AdamWConfig{-1, 0.9, 0.999, 1e-8, 0.0}.validate().front().field), std::string("optimizer.learning_rate"));
        QCOMPARE((AdamWConfig{1e-3, 0.9, 0.999, 1e-8, -0.1}.validate().front().field), std::string("optimizer.weight_decay"));
    }
};

QTEST_GUILESS_MAIN(TestReferenceOptimizer)
#include "test_reference_optimizer.moc"
