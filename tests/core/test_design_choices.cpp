// SPDX-License-Identifier: GPL-3.0-or-later
// The "Choice by choice" comparisons (core/architecture/design_choices.h), the positional
// encodings drawn on the Architecture page, and the LayerNorm vs RMSNorm timing.
#include "architecture/design_choices.h"
#include "architecture/norm_timing.h"
#include "architecture/positional_encodings.h"
#include "cost/parameters.h"
#include "ops/operator_list.h"
#include "scenario/presets.h"
#include "test_models.h"

#include <QtTest>

#include <cmath>

using namespace lse;

namespace {

Scenario llamaScenario()
{
    const ModelPreset *preset = findModelPreset("llama-2-7b");
    return test::scenarioFor(preset->model, 8);
}

Scenario gptScenario()
{
    return test::scenarioFor(test::gptModel(12, 768, 12, 50257, 1024), 8);
}

const DesignVariant *find(const DesignComparison &comparison, auto predicate)
{
    for (const DesignVariant &variant : comparison.variants)
        if (predicate(variant.model))
            return &variant;
    return nullptr;
}

DesignComparison compare(const Scenario &scenario, DesignAxis axis)
{
    Result<DesignComparison> result = compareDesignChoice(scenario, axis);
    if (!result)
        qFatal("compareDesignChoice failed: %s", formatProblems(result.problems()).c_str());
    return result.value();
}

int normCount(const std::vector<Operator> &ops)
{
    return int(std::count_if(ops.begin(), ops.end(), [](const Operator &op) { return op.kind == OpKind::Norm; }));
}

}  // namespace

class TestDesignChoices : public QObject {
    Q_OBJECT
private slots:
    void rmsNormHasFewerParametersAndBytes()
    {
        const DesignComparison c = compare(gptScenario(), DesignAxis::NormType);
        const DesignVariant *layer = find(c, [](const ModelConfig &m) { return m.norm == NormType::LayerNorm; });
        const DesignVariant *rms = find(c, [](const ModelConfig &m) { return m.norm == NormType::RMSNorm; });
        QVERIFY(layer && rms);
        QVERIFY(layer->is_scenario);
        QVERIFY(rms->problems.empty());
        // One bias vector of d_model per norm: 2 norms per layer plus the final norm.
        QCOMPARE(layer->figures.parameters - rms->figures.parameters, double((2 * 12 + 1) * 768));
        QVERIFY(rms->figures.forward_bytes_per_token < layer->figures.forward_bytes_per_token);
        QVERIFY(rms->figures.forward_flops_per_token < layer->figures.forward_flops_per_token);
        QVERIFY(rms->change.parameters < 0);
        // Norms are element-wise: the matmul (MFU) count does not move.
        QCOMPARE(rms->figures.matmul_train_flops_per_token, layer->figures.matmul_train_flops_per_token);
    }

    void gluWidthKeepsParametersWithinOnePercent_data()
    {
        QTest::addColumn<qint64>("d_model");
        for (qint64 d : {768, 1024, 2048, 4096, 5120, 8192, 12288})
            QTest::addRow("d=%lld", d) << d;
    }
    void gluWidthKeepsParametersWithinOnePercent()
    {
        QFETCH(qint64, d_model);
        const std::int64_t gated = gatedEqualParameterDff(4 * d_model);
        const double mlp_ungated = 2.0 * double(4 * d_model) * double(d_model);
        const double mlp_gated = 3.0 * double(gated) * double(d_model);
        QVERIFY2(mlp_gated >= mlp_ungated && mlp_gated < 1.01 * mlp_ungated,
                 qPrintable(QString("d_ff %1: %2 vs %3").arg(gated).arg(mlp_gated).arg(mlp_ungated)));
        // ≈ 8/3·d.
        QVERIFY(std::abs(double(gated) / double(d_model) - 8.0 / 3.0) < 0.03);
    }
    void gluWidthIsLlamas()
    {
        // Llama 7B: d = 4096 → 11008 (multiple_of 256).
        QCOMPARE(gatedEqualParameterDff(4 * 4096), std::int64_t(11008));
    }
    void activationAxisKeepsModelParametersEqual()
    {
        for (const Scenario &scenario : {gptScenario(), llamaScenario()}) {
            const DesignComparison c = compare(scenario, DesignAxis::Activation);
            QVERIFY(c.variants.size() >= 4);
            for (const DesignVariant &variant : c.variants) {
                QVERIFY2(variant.problems.empty(), formatProblems(variant.problems).c_str());
                QVERIFY2(std::abs(variant.change.parameters) < 0.01,
                         qPrintable(QString("%1: %2").arg(QString::fromUtf8(toString(variant.model.activation)))
                                        .arg(variant.change.parameters)));
            }
            const DesignVariant *swiglu =
                find(c, [](const ModelConfig &m) { return m.activation == Activation::SwiGLU; });
            const DesignVariant *gelu = find(c, [](const ModelConfig &m) { return m.activation == Activation::GeLU; });
            QVERIFY(swiglu && gelu);
            QCOMPARE(3 * swiglu->model.d_ff >= 2 * gelu->model.d_ff, true);
            // A gated MLP keeps both up-projections (2·f_g) and the down input (f_g): 3·f_g ≈ 2·f,
            // so at equal parameters it also keeps about the same activations.
            QVERIFY(std::abs(swiglu->figures.activation_bytes_per_layer / gelu->figures.activation_bytes_per_layer - 1)
                    < 0.01);
        }
    }

    void mqaKvCacheIsOneOverHeadsOfMha()
    {
        const Scenario scenario = gptScenario();
        const DesignComparison c = compare(scenario, DesignAxis::Attention);
        const DesignVariant *mha = find(c, [](const ModelConfig &m) { return m.n_kv_heads == m.n_heads; });
        const DesignVariant *mqa = find(c, [](const ModelConfig &m) { return m.n_kv_heads == 1; });
        const DesignVariant *gqa =
            find(c, [](const ModelConfig &m) { return m.n_kv_heads > 1 && m.n_kv_heads < m.n_heads; });
        QVERIFY(mha && mqa && gqa);
        QCOMPARE(mqa->figures.kv_cache_bytes_per_token * 12, mha->figures.kv_cache_bytes_per_token);
        // 2·L·kv_heads·head_dim·bytes (vLLM §3), bf16.
        QCOMPARE(mha->figures.kv_cache_bytes_per_token, 2.0 * 12 * 12 * 64 * 2);
        QVERIFY(gqa->figures.kv_cache_bytes_per_token < mha->figures.kv_cache_bytes_per_token);
        QVERIFY(mqa->figures.parameters < mha->figures.parameters);
    }
    void decodeCurvesComeFromTheRoofline()
    {
        const Scenario scenario = llamaScenario();  // 32 heads: MHA, GQA 4, MQA
        const std::vector<std::int64_t> contexts{512, 4096, 32768};
        const std::vector<DecodeCurve> curves = attentionDecodeCurves(scenario, 16, contexts);
        QCOMPARE(curves.size(), std::size_t(3));
        for (const DecodeCurve &curve : curves) {
            QVERIFY2(curve.problems.empty(), formatProblems(curve.problems).c_str());
            QCOMPARE(curve.points.size(), contexts.size());
            for (std::size_t i = 1; i < curve.points.size(); ++i)
                QVERIFY(curve.points[i].seconds_per_token > curve.points[i - 1].seconds_per_token);
        }
        // Fewer KV heads read fewer cache bytes per decode step: faster at long context.
        QVERIFY(curves[2].points.back().seconds_per_token < curves[0].points.back().seconds_per_token);
        QCOMPARE(curves[0].points.back().kv_cache_bytes, 32.0 * curves[2].points.back().kv_cache_bytes);
    }

    // GPT-NeoX form (Black et al. 2022 §2.1), as the parameter count and the reference model have
    // it: two norms, both on the block input, which is saved once; one residual add.
    void parallelBlockHasOneNormFewerOnTheCriticalPath()
    {
        ModelConfig model = gptScenario().model;
        OperatorShapes shapes;
        shapes.seq_len = 16;
        const int serial = normCount(forwardOperators(model, shapes).dense_layers.ops);
        model.parallel_block = true;
        const int parallel = normCount(forwardOperators(model, shapes).dense_layers.ops);
        QCOMPARE(serial, 2);
        QCOMPARE(parallel, serial);

        const ParallelBlockSavings savings = parallelBlockSavings(model);
        QCOMPARE(savings.norms_per_layer_parallel, savings.norms_per_layer_serial);
        QCOMPARE(savings.sequential_norms_serial, 2);
        QCOMPARE(savings.sequential_norms_parallel, 1);
        QVERIFY(std::find(savings.removed_ops.begin(), savings.removed_ops.end(), "mlp_residual") != savings.removed_ops.end());
        QVERIFY(std::find(savings.added_ops.begin(), savings.added_ops.end(), "parallel_residual")
                != savings.added_ops.end());
        QVERIFY(savings.sequential_matmuls_parallel < savings.sequential_matmuls_serial);
        QCOMPARE(savings.fused_input_projection_width, double(3 * 768 + 4 * 768));

        const DesignComparison c = compare(gptScenario(), DesignAxis::Block);
        const DesignVariant *par = find(c, [](const ModelConfig &m) { return m.parallel_block; });
        QVERIFY(par);
        // Same weights, one saved copy of the norm input fewer.
        QCOMPARE(par->change.parameters, 0.0);
        QVERIFY(par->figures.activation_bytes_per_layer < c.scenario.activation_bytes_per_layer);
        QVERIFY(par->figures.forward_bytes_per_token < c.scenario.forward_bytes_per_token);
    }

    void everyAxisHasTheScenarioAndAnAlternative()
    {
        for (DesignAxis axis : kDesignAxes) {
            const DesignComparison c = compare(llamaScenario(), axis);
            QVERIFY2(c.variants.size() >= 2, toString(axis).data());
            QCOMPARE(std::count_if(c.variants.begin(), c.variants.end(), [](const DesignVariant &v) { return v.is_scenario; }),
                     std::ptrdiff_t(1));
            for (const DesignVariant &v : c.variants)
                if (v.is_scenario)
                    QCOMPARE(v.change.parameters, 0.0);
        }
        const DesignComparison tied = compare(llamaScenario(), DesignAxis::Embeddings);
        const DesignVariant *t = find(tied, [](const ModelConfig &m) { return m.tied_embeddings; });
        QVERIFY(t);
        QCOMPARE(t->change.parameters * tied.scenario.parameters, -32000.0 * 4096);
    }

    void positionalEncodingsMatchHandValues()
    {
        // PE(1, 0) = sin(1), PE(1, 1) = cos(1); dimension pair i: 10000^(−2i/d).
        QCOMPARE(sinusoidalEncoding(1, 0, 8), std::sin(1.0));
        QCOMPARE(sinusoidalEncoding(1, 1, 8), std::cos(1.0));
        QCOMPARE(sinusoidalEncoding(0, 1, 8), 1.0);
        QCOMPARE(sinusoidalEncoding(3, 2, 8), std::sin(3.0 / 10.0));  // 10000^(2/8) = 10
        const auto table = sinusoidalTable(4, 8);
        QCOMPARE(table.size(), std::size_t(4));
        QCOMPARE(table[3][2], std::sin(0.3));

        const std::vector<double> theta = ropeFrequencies(8, 10000);
        QCOMPARE(theta.size(), std::size_t(4));
        QCOMPARE(theta[0], 1.0);
        QCOMPARE(theta[1], 0.1);
        QCOMPARE(theta[2], 0.01);
        QCOMPARE(theta[3], 0.001);
        QCOMPARE(ropeAngle(5, 1, 8, 10000), 0.5);

        const std::vector<double> slopes = alibiSlopes(8);
        QCOMPARE(slopes.size(), std::size_t(8));
        for (int h = 0; h < 8; ++h)
            QCOMPARE(slopes[std::size_t(h)], 1.0 / double(1 << (h + 1)));
        QCOMPARE(alibiBias(0.5, 7, 3), -2.0);
        QCOMPARE(alibiBias(0.5, 3, 3), 0.0);
        // 12 heads: the 8 slopes of n = 8, then 2^(−0.5), 2^(−1.5), … of 16.
        const std::vector<double> twelve = alibiSlopes(12);
        QCOMPARE(twelve.size(), std::size_t(12));
        QCOMPARE(twelve[8], std::pow(2.0, -0.5));
        QCOMPARE(twelve[9], std::pow(2.0, -1.5));
    }

    void normTimingMeasuresAndUsesTheOperatorList()
    {
        NormTimingRequest request;
        request.rows = 256;
        request.width = 512;
        request.repetitions = 3;
        std::atomic<bool> cancel{false};
        int calls = 0;
        Result<NormTiming> timing = timeNorms(request, cancel, [&](int, int) { ++calls; });
        QVERIFY(timing.ok());
        QVERIFY(!timing->cancelled);
        QCOMPARE(calls, 12);
        QCOMPARE(timing->kernels.size(), std::size_t(4));
        for (const NormKernelTiming &kernel : timing->kernels) {
            QCOMPARE(kernel.seconds.size(), std::size_t(3));
            QVERIFY(kernel.median_seconds > 0);
            QVERIFY(kernel.bytesPerSecond() > 0);
        }
        // Forward bytes: read x and the parameters, write y, fp32 (operator_list.cpp).
        const NormKernelTiming &ln = timing->kernels[0];
        const NormKernelTiming &rms = timing->kernels[2];
        QVERIFY(ln.norm == NormType::LayerNorm);
        QVERIFY(rms.norm == NormType::RMSNorm);
        QCOMPARE(ln.bytes, 4.0 * (2 * 256 * 512 + 2 * 512));
        QCOMPARE(rms.bytes, 4.0 * (2 * 256 * 512 + 512));
        QCOMPARE(ln.flops, 7.0 * 256 * 512);
        QCOMPARE(rms.flops, 4.0 * 256 * 512);
        QVERIFY(timing->kernels[1].backward && timing->kernels[1].bytes > ln.bytes);
    }
    void normTimingCancelsAndRefusesBadSizes()
    {
        NormTimingRequest request;
        request.rows = 64;
        request.width = 64;
        std::atomic<bool> cancel{true};
        Result<NormTiming> cancelled = timeNorms(request, cancel);
        QVERIFY(cancelled.ok());
        QVERIFY(cancelled->cancelled);
        QVERIFY(cancelled->kernels.empty());

        cancel = false;
        request.width = 0;
        Result<NormTiming> bad = timeNorms(request, cancel);
        QVERIFY(!bad.ok());
        QCOMPARE(bad.problems().front().field, std::string("width"));
        request.width = 1 << 20;
        request.rows = 1 << 10;
        QVERIFY(!timeNorms(request, cancel).ok());
    }
    void normTimingRequestFollowsTheScenario()
    {
        const Scenario scenario = gptScenario();  // 1 × 1024 tokens × 768
        const NormTimingRequest request = normTimingRequestFor(scenario);
        QCOMPARE(request.rows, std::int64_t(1024));
        QCOMPARE(request.width, std::int64_t(768));
        QVERIFY(!request.capped);
        const NormTimingRequest big = normTimingRequestFor(llamaScenario());  // 4096 × 4096
        QVERIFY(big.capped);
        QCOMPARE(big.rows * big.width, kMaxNormTimingElements);
    }

    // Ivanov et al. 2021, Table 1: norms are a sliver of a layer's FLOPs and a large share of its
    // time, because they move as many bytes as a matmul's input per FLOP-light pass. The shares come
    // from the operator list: FLOPs share ≪ bytes share, and the roofline time share follows bytes.
    void normsAreFewFlopsButMuchDataMovement()
    {
        const Result<NormShare> share = normShareOfLayer(gptScenario());
        QVERIFY(share.ok());
        QVERIFY2(share->flop_share > 0 && share->flop_share < 0.01, qPrintable(QString::number(share->flop_share)));
        QVERIFY2(share->byte_share > 10 * share->flop_share, qPrintable(QString::number(share->byte_share)));
        QVERIFY2(share->roofline_time_share > 5 * share->flop_share, qPrintable(QString::number(share->roofline_time_share)));
        QVERIFY(!share->accelerator.empty());
        qInfo("GPT-2 small layer: norms are %.3f%% of FLOPs, %.1f%% of bytes, %.1f%% of roofline time on %s",
              100 * share->flop_share, 100 * share->byte_share, 100 * share->roofline_time_share,
              share->accelerator.c_str());
        Scenario rms = gptScenario();
        rms.model.norm = NormType::RMSNorm;
        QVERIFY(normShareOfLayer(rms)->flop_share < share->flop_share);
        Scenario broken = gptScenario();
        broken.model.d_model = 0;
        QVERIFY(!normShareOfLayer(broken).ok());
    }
};

QTEST_GUILESS_MAIN(TestDesignChoices)
#include "test_design_choices.moc"
