// SPDX-License-Identifier: GPL-3.0-or-later
// measureFusion (reference/fusion_measurement.h) at test sizes: the fused loop's output is bitwise
// the unfused passes' (the same float operations per element, no reduction), the bytes are
// kernels/fusion_chain's at 4-byte elements, bad sizes are refused naming the field, and the
// progress callback cancels. No timing is asserted: speed is never a test's business.
#include "reference/fusion_measurement.h"

#include "hardware/hardware_catalog.h"
#include "kernels/fusion_chain.h"

#include <QtTest>

#include <cstring>
#include <random>
#include <vector>

using namespace lse;
using namespace lse::reference;

namespace {

bool hasField(const Problems &problems, const std::string &field)
{
    for (const Problem &p : problems)
        if (p.field == field)
            return true;
    return false;
}

}  // namespace

class TestFusionMeasurement : public QObject {
    Q_OBJECT
private slots:
    void fusedOutputIsBitwiseTheUnfused_data()
    {
        QTest::addColumn<qint64>("tokens");
        QTest::addColumn<qint64>("width");
        QTest::addColumn<double>("p");
        QTest::newRow("1x1, no dropout") << qint64(1) << qint64(1) << 0.0;
        QTest::newRow("7x13, p 0.1") << qint64(7) << qint64(13) << 0.1;
        QTest::newRow("64x1024, p 0.5 (parallel loops)") << qint64(64) << qint64(1024) << 0.5;
    }
    void fusedOutputIsBitwiseTheUnfused()
    {
        QFETCH(qint64, tokens);
        QFETCH(qint64, width);
        QFETCH(double, p);
        const auto n = std::size_t(tokens * width);
        std::vector<float> x(n), residual(n), bias(static_cast<std::size_t>(width)), scratch(3 * n), a(n), b(n), saved(n);
        std::mt19937 rng(3);
        std::normal_distribution<float> normal(0.0f, 2.0f);
        for (float &v : x)
            v = normal(rng);
        for (float &v : residual)
            v = normal(rng);
        for (float &v : bias)
            v = normal(rng);
        fusionChainUnfused(x.data(), bias.data(), residual.data(), a.data(), scratch.data(), tokens, width, p, 9);
        fusionChainFused(x.data(), bias.data(), residual.data(), b.data(), saved.data(), tokens, width, p, 9);
        QVERIFY(std::memcmp(a.data(), b.data(), n * sizeof(float)) == 0);
        // Training: the fused loop's saved tensor is the unfused bias pass's output.
        QVERIFY(std::memcmp(saved.data(), scratch.data(), n * sizeof(float)) == 0);
        // The chain did something: GeLU(x + b) + r differs from r, and dropout zeroed some (p > 0).
        QVERIFY(std::memcmp(a.data(), residual.data(), n * sizeof(float)) != 0);
        if (p >= 0.5) {
            int dropped = 0;
            for (std::size_t i = 0; i < n; ++i)
                dropped += scratch[2 * n + i] == 0.0f;
            QVERIFY(dropped > int(n) / 4 && dropped < 3 * int(n) / 4);
        }
    }

    void measurementReportsEqualOutputsAndTheModelsBytes_data()
    {
        QTest::addColumn<bool>("training");
        QTest::newRow("inference") << false;
        QTest::newRow("training") << true;
    }
    void measurementReportsEqualOutputsAndTheModelsBytes()
    {
        QFETCH(bool, training);
        FusionMeasureRequest request;
        request.tokens = 48;
        request.width = 320;
        request.training = training;
        request.repeats = 3;
        const Result<FusionMeasurement> m = measureFusion(request);
        QVERIFY(m.ok());
        QVERIFY(m->outputs_bitwise_equal);
        QCOMPARE(m->max_abs_difference, 0.0);
        QVERIFY(!m->cancelled);
        QVERIFY(m->unfused.seconds > 0 && m->fused.seconds > 0);
        QVERIFY(m->speedup() > 0);

        kernels::FusionChainConfig config;
        config.tokens = request.tokens;
        config.width = request.width;
        config.dtype = DType::FP32;
        config.training = training;
        const Accelerator *gpu = builtinHardwareCatalog().find("h100-sxm");
        QVERIFY(gpu);
        const Result<kernels::FusionChain> chain = kernels::fusionChain(config, *gpu);
        QVERIFY(chain.ok());
        QCOMPARE(m->unfused.bytes, chain->unfused_bytes);
        QCOMPARE(m->fused.bytes, chain->fused_bytes);
        QCOMPARE(m->flops, chain->flops);
        // 4-byte elements: unfused bias 2, GeLU 2, dropout 2, residual 3 tensors; fused reads x and
        // the residual and writes the output (+ GeLU's input when training).
        const double tensor = 4.0 * 48 * 320;
        QCOMPARE(m->unfused.bytes, 9 * tensor);
        QCOMPARE(m->fused.bytes, (training ? 4 : 3) * tensor);
        QCOMPARE(m->unfused.bytes_per_second, m->unfused.bytes / m->unfused.seconds);
        QCOMPARE(m->fused.bytes_per_second, m->fused.bytes / m->fused.seconds);
    }

    void badSizesAreRefusedNamingTheField()
    {
        FusionMeasureRequest r;
        r.tokens = 0;
        QVERIFY(hasField(validateFusionMeasureRequest(r), "tokens"));
        r = {};
        r.width = -3;
        QVERIFY(hasField(measureFusion(r).problems(), "width"));
        r = {};
        r.tokens = std::int64_t(1) << 20;
        r.width = std::int64_t(1) << 20;  // 2^40 elements: refused before anything is allocated
        QVERIFY(hasField(measureFusion(r).problems(), "tokens"));
        r = {};
        r.repeats = 0;
        QVERIFY(hasField(validateFusionMeasureRequest(r), "repeats"));
        r = {};
        r.dropout_probability = 1.0;
        QVERIFY(hasField(validateFusionMeasureRequest(r), "dropout_probability"));
        QVERIFY(validateFusionMeasureRequest(FusionMeasureRequest{}).empty());
    }

    void progressCancels()
    {
        FusionMeasureRequest request;
        request.tokens = 16;
        request.width = 64;
        request.repeats = 9;
        int calls = 0;
        const Result<FusionMeasurement> m = measureFusion(request, [&](int done, int total) {
            ++calls;
            [&] { QCOMPARE(total, 18); }();
            return done < 3;
        });
        QVERIFY(m.ok());
        QVERIFY(m->cancelled);
        QCOMPARE(calls, 3);
    }
};

QTEST_GUILESS_MAIN(TestFusionMeasurement)
#include "test_fusion_measurement.moc"
