// SPDX-License-Identifier: GPL-3.0-or-later
// Exact parameter counts: every preset against its publisher's count, and the closed forms of
// the Megatron papers.

#include "cost/parameters.h"
#include "scenario/presets.h"
#include "test_models.h"

#include <QTest>

using namespace lse;

class TestParameters : public QObject {
    Q_OBJECT
private slots:
    void presetMatchesOfficialCount_data()
    {
        QTest::addColumn<QString>("id");
        for (const ModelPreset &preset : builtinModelPresets())
            QTest::addRow("%s (%s)", preset.id.c_str(), preset.source.c_str()) << QString::fromStdString(preset.id);
    }
    void presetMatchesOfficialCount()
    {
        QFETCH(QString, id);
        const ModelPreset *preset = findModelPreset(id.toStdString());
        QVERIFY(preset);
        QCOMPARE(countParameters(preset->model).total, preset->official_parameters);
    }

    void everyRequiredPresetExists_data()
    {
        QTest::addColumn<QString>("id");
        for (const char *id : {"gpt2-small", "gpt2-medium", "gpt2-large", "gpt2-xl", "gpt3-175b", "llama-2-7b",
                               "llama-2-13b", "llama-2-70b", "llama-3-8b", "llama-3-70b", "llama-3.1-405b",
                               "mistral-7b", "mixtral-8x7b", "qwen2.5-7b", "qwen2.5-72b", "gemma-2-9b",
                               "cs336-tinystories"})
            QTest::addRow("%s", id) << QString(id);
    }
    void everyRequiredPresetExists()
    {
        QFETCH(QString, id);
        QVERIFY2(findModelPreset(id.toStdString()), qPrintable(id));
    }

    // Narayanan et al. 2021, Eq. 2: P = 12·L·h²·(1 + 13/(12h) + (V+s)/(12·L·h)) for a GPT model
    // with biases, LayerNorm, learned positions and tied embeddings.
    void megatronClosedForm_data()
    {
        QTest::addColumn<int>("layers");
        QTest::addColumn<qint64>("hidden");
        QTest::addColumn<int>("heads");
        QTest::addRow("Narayanan 2021 Table 1: 1.7B (24 x 2304)") << 24 << qint64(2304) << 24;
        QTest::addRow("Narayanan 2021 Table 1: 18.4B (40 x 6144)") << 40 << qint64(6144) << 48;
        QTest::addRow("Narayanan 2021 Table 1: 145.6B (80 x 12288)") << 80 << qint64(12288) << 96;
        QTest::addRow("Narayanan 2021 Table 1: 1008B (128 x 25600)") << 128 << qint64(25600) << 160;
    }
    void megatronClosedForm()
    {
        QFETCH(int, layers);
        QFETCH(qint64, hidden);
        QFETCH(int, heads);
        const std::int64_t V = 51200, s = 2048, L = layers, h = hidden;
        const std::int64_t expected = 12 * L * h * h + 13 * L * h + (V + s) * h + 2 * h;  // + final LayerNorm
        QCOMPARE(countParameters(test::gptModel(layers, hidden, heads, V, s)).total, expected);
    }

    void mixtureOfExpertsActiveParameters()
    {
        // Mixtral of Experts (Jiang et al. 2024) §2: 47B parameters, 13B active per token.
        const ModelPreset *preset = findModelPreset("mixtral-8x7b");
        QVERIFY(preset);
        const ParameterCounts counts = countParameters(preset->model);
        QCOMPARE(counts.total, qint64(46'702'792'704));
        // 46.70B - 6/8 of the 45.10B routed-expert weights = 12.88B.
        QCOMPARE(counts.active, qint64(12'879'925'248));
        QVERIFY(counts.experts > 0 && counts.router == 32 * 8 * 4096);
    }

    void bucketsSumToTotal()
    {
        for (const ModelPreset &preset : builtinModelPresets()) {
            const ParameterCounts c = countParameters(preset.model);
            QCOMPARE(c.embedding + c.attention + c.mlp + c.router + c.experts + c.shared_experts + c.norms + c.biases
                         + c.head,
                     c.total);
            QVERIFY(c.active <= c.total);
        }
    }

    void gpt2BucketsByHand()
    {
        // GPT-2 small: wte 50257·768 + wpe 1024·768; biases 12·(3·768 + 768 + 3072 + 768).
        const ParameterCounts c = countParameters(findModelPreset("gpt2-small")->model);
        QCOMPARE(c.embedding, qint64(50257 * 768 + 1024 * 768));
        QCOMPARE(c.biases, qint64(12 * (3 * 768 + 768 + 3072 + 768)));
        QCOMPARE(c.norms, qint64(25 * 2 * 768));
        QCOMPARE(c.head, qint64(0));
    }

    // The course's ablations: no normalisation drops every gain (2 per layer + the final one);
    // an ungated SiLU feed-forward has two matrices like GeLU, SwiGLU three.
    void ablationVariants()
    {
        ModelConfig model = findModelPreset("gpt2-small")->model;
        model.norm = NormType::RMSNorm;
        const ParameterCounts rms = countParameters(model);
        model.norm = NormType::None;
        const ParameterCounts none = countParameters(model);
        QCOMPARE(none.norms, qint64(0));
        QCOMPARE(rms.total - none.total, qint64(25 * 768));
        model.activation = Activation::GeLU;
        const qint64 gelu = countParameters(model).total;
        model.activation = Activation::SiLU;
        QCOMPARE(countParameters(model).total, gelu);
        model.activation = Activation::SwiGLU;
        // GPT-2 has MLP biases, so the gate matrix brings its bias too.
        QCOMPARE(countParameters(model).total - gelu, qint64(12) * (768 * 3072 + 3072));
    }
};

QTEST_GUILESS_MAIN(TestParameters)
#include "test_parameters.moc"
