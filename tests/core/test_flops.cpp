// SPDX-License-Identifier: GPL-3.0-or-later
// Training FLOPs against the closed forms and published totals.

#include "cost/estimate.h"
#include "scenario/presets.h"
#include "test_models.h"

#include <QTest>

using namespace lse;

namespace {

Estimate estimateOrFail(const Scenario &scenario)
{
    const Result<Estimate> result = estimate(scenario);
    if (!result.ok())
        qFatal("estimate failed: %s", formatProblems(result.problems()).c_str());
    return *result;
}

double relativeError(double value, double expected) { return std::abs(value - expected) / std::abs(expected); }

// PaLM 540B (Chowdhery et al. 2022, Table 1): 118 layers, d 18432, 48 heads of 256, multi-query,
// SwiGLU d_ff 73728, vocabulary 256k, tied embeddings, no biases, parallel block, RoPE.
ModelConfig palm540b()
{
    ModelConfig model;
    model.name = "PaLM 540B";
    model.n_layers = 118;
    model.d_model = 18432;
    model.n_heads = 48;
    model.n_kv_heads = 1;
    model.head_dim = 256;
    model.d_ff = 73728;
    model.vocab_size = 256000;
    model.max_seq_len = 2048;
    model.tied_embeddings = true;
    model.norm = NormType::LayerNorm;
    model.parallel_block = true;
    return model;
}

}  // namespace

class TestFlops : public QObject {
    Q_OBJECT
private slots:
    void gpt3TrainingCompute()
    {
        // Brown et al. 2020, Table D.1: GPT-3 175B trained on 300B tokens: 3.14e23 FLOPs
        // (the paper's count leaves out attention, i.e. it is 6ND).
        const ModelPreset *preset = findModelPreset("gpt3-175b");
        QVERIFY(preset);
        Scenario scenario = test::scenarioFor(preset->model, 1024);
        scenario.training.tokens = 300'000'000'000;
        scenario.training.seq_len = 2048;
        const Estimate e = estimateOrFail(scenario);
        QVERIFY2(relativeError(e.flops.six_nd, 3.14e23) < 0.005, qPrintable(QString::number(e.flops.six_nd)));
        // With the full s x s attention the exact count is a few percent higher.
        QVERIFY(e.flops.total_train > e.flops.six_nd);
        QVERIFY(relativeError(e.flops.total_train, 3.14e23) < 0.05);
    }

    // Korthikanti et al. 2022, App. A (model FLOPs) and Narayanan et al. 2021, Eq. 3 (full
    // recomputation), per iteration of B sequences.
    void megatronClosedForms_data()
    {
        QTest::addColumn<int>("recompute");
        QTest::addColumn<int>("layers");
        QTest::addColumn<qint64>("hidden");
        QTest::addColumn<int>("heads");
        QTest::addRow("Korthikanti App. A model FLOPs 72BsLh^2(1+s/6h+V/12hL), 22B") << 0 << 48 << qint64(6144) << 64;
        // Selective recomputation runs the attention core's forward once more: its term grows by
        // 4/3, as full recomputation's whole-layer term does (72 -> 96, Narayanan Eq. 3).
        QTest::addRow("Korthikanti App. A selective: attention term x4/3, 175B") << 1 << 96 << qint64(12288) << 96;
        QTest::addRow("Narayanan 2021 Eq. 3 full recompute 96BsLh^2(1+s/6h+V/16Lh), 530B")
            << 2 << 105 << qint64(20480) << 128;
    }
    void megatronClosedForms()
    {
        QFETCH(int, recompute);
        QFETCH(int, layers);
        QFETCH(qint64, hidden);
        QFETCH(int, heads);
        const double s = 2048, V = 51200, L = layers, h = double(hidden), B = 1;
        Scenario scenario = test::scenarioFor(test::gptModel(layers, hidden, heads, 51200, 2048), 8);
        scenario.training.recomputation = Recomputation(recompute);
        scenario.training.tokens = 2048;  // one sequence: per-iteration totals with B = 1
        const Estimate e = estimateOrFail(scenario);
        double expected = 0;
        double actual = e.flops.total_hardware;
        switch (Recomputation(recompute)) {
        case Recomputation::None:
            expected = 72 * B * s * L * h * h * (1 + s / (6 * h) + V / (12 * h * L));
            actual = e.flops.total_train;
            break;
        case Recomputation::Selective:
            expected = 72 * B * s * L * h * h * (1 + 4.0 / 3.0 * s / (6 * h) + V / (12 * h * L));
            break;
        case Recomputation::Full:
            expected = 96 * B * s * L * h * h * (1 + s / (6 * h) + V / (16 * L * h));
            break;
        }
        QVERIFY2(relativeError(actual, expected) < 1e-12, qPrintable(QString("%1 vs %2").arg(actual).arg(expected)));
    }

    void palmModelFlopsUtilization()
    {
        // PaLM App. B: 6N + 12·L·H·Q·T per token; Table 3: 540B at 238.3K tokens/s on 6144 TPU v4
        // chips (275 TFLOP/s bf16) is 46.2% MFU.
        Scenario scenario = test::scenarioFor(palm540b(), 6144);
        scenario.training.seq_len = 2048;
        const Estimate e = estimateOrFail(scenario);
        const double n = double(e.params.total);
        QVERIFY2(relativeError(n, 540.35e9) < 1e-4, qPrintable(QString::number(n)));
        const double palm = 6 * n + 12.0 * 118 * 48 * 256 * 2048;
        QVERIFY2(relativeError(e.flops.train_per_token, palm) < 2e-4,
                 qPrintable(QString("%1 vs %2").arg(e.flops.train_per_token).arg(palm)));
        const double mfu = 238.3e3 * e.flops.train_per_token / (6144 * 275e12);
        QVERIFY2(std::abs(mfu - 0.462) < 0.0005, qPrintable(QString::number(mfu)));
    }

    void causalHalvesAttentionScores()
    {
        Scenario scenario = test::scenarioFor(test::gptModel(12, 768, 12, 50257, 1024), 1);
        const Estimate full = estimateOrFail(scenario);
        scenario.training.attention_flops = AttentionFlops::Causal;
        const Estimate causal = estimateOrFail(scenario);
        const auto scores = std::size_t(Component::AttentionScores);
        QCOMPARE(causal.flops.forward_per_token_by_component[scores] * 2,
                 full.flops.forward_per_token_by_component[scores]);
        // 2 products x 2·s·h per token per layer (Kaplan et al. 2020, Table 1: 2·n_layer·n_ctx·d_attn).
        QCOMPARE(full.flops.forward_per_token_by_component[scores], 12 * 2.0 * 2 * 1024 * 768);
    }

    void componentsSumToForward()
    {
        for (const ModelPreset &preset : builtinModelPresets()) {
            Scenario scenario = test::scenarioFor(preset.model, 8);
            scenario.training.seq_len = std::min<std::int64_t>(preset.model.max_seq_len, 4096);
            const Estimate e = estimateOrFail(scenario);
            double sum = 0;
            for (double value : e.flops.forward_per_token_by_component)
                sum += value;
            QVERIFY(relativeError(sum, e.flops.forward_per_token) < 1e-12);
            QCOMPARE(e.flops.backward_per_token, 2 * e.flops.forward_per_token);
            // Embedding lookups are free; the 2N rule counts them, so exact stays near 2·N.
            QVERIFY(e.flops.forward_per_token > 0);
        }
    }

    void mixtureOfExpertsUsesActiveExperts()
    {
        // Mixtral: each token visits 2 of 8 experts: MLP FLOPs are 2 experts' worth.
        const ModelPreset *preset = findModelPreset("mixtral-8x7b");
        Scenario scenario = test::scenarioFor(preset->model, 8);
        scenario.training.seq_len = 4096;
        const Estimate e = estimateOrFail(scenario);
        const double experts = e.flops.forward_per_token_by_component[std::size_t(Component::Experts)];
        QCOMPARE(experts, 32 * 2 * (2.0 * 3 * 4096 * 14336));
        QVERIFY(relativeError(e.flops.six_nd, 6.0 * double(e.params.active) * double(scenario.training.tokens)) < 1e-12);
    }

    void hardwareUtilizationIncludesRecomputation()
    {
        Scenario scenario = test::scenarioFor(test::gptModel(24, 2048, 16, 50257, 2048), 8);
        scenario.training.recomputation = Recomputation::Full;
        scenario.training.mfu = 0.45;
        const Estimate e = estimateOrFail(scenario);
        QVERIFY(e.time.hfu > 0.45 * 1.25 && e.time.hfu < 0.45 * 4.0 / 3.0 + 1e-9);
    }
};

QTEST_GUILESS_MAIN(TestFlops)
#include "test_flops.moc"
