// SPDX-License-Identifier: GPL-3.0-or-later
// Presets load and carry what the cost engine is checked against. Whether the shapes reproduce
// official_parameters is test_parameters.cpp's job (it needs core/cost).
#include "scenario/presets.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTest>

#include <algorithm>

using namespace lse;

namespace {

// QTest would pick up lse::toString (string_view) by ADL and fail to compile; compare the stable
// names instead, which also makes a failure readable.
template <typename Enum>
QString nameOf(Enum value)
{
    const std::string_view name = toString(value);
    return QString::fromUtf8(name.data(), qsizetype(name.size()));
}

const char *const kPresetIds[] = {
    "gpt2-small",   "gpt2-medium",  "gpt2-large",     "gpt2-xl",     "gpt3-175b",    "llama-2-7b",
    "llama-2-13b",  "llama-2-70b",  "llama-3-8b",     "llama-3-70b", "llama-3.1-405b", "mistral-7b",
    "mixtral-8x7b", "qwen2.5-7b",   "qwen2.5-72b",    "gemma-2-9b",  "cs336-tinystories",
};

bool hasProblem(const Problems &problems, const std::string &field, const std::string &rule)
{
    return std::any_of(problems.begin(), problems.end(),
                       [&](const Problem &p) { return p.field == field && p.rule == rule; });
}

}  // namespace

class TestPresets : public QObject {
    Q_OBJECT

private slots:
    void allPresetsPresent()
    {
        const auto &presets = builtinModelPresets();
        QCOMPARE(presets.size(), std::size(kPresetIds));
        QVERIFY(std::is_sorted(presets.begin(), presets.end(),
                               [](const ModelPreset &a, const ModelPreset &b) { return a.id < b.id; }));
    }

    void presetIsComplete_data()
    {
        QTest::addColumn<QString>("id");
        for (const char *id : kPresetIds)
            QTest::addRow("%s", id) << QString(id);
    }
    void presetIsComplete()
    {
        QFETCH(QString, id);
        const ModelPreset *preset = findModelPreset(id.toStdString());
        QVERIFY2(preset != nullptr, "not among the built-in presets");
        QCOMPARE(QString::fromStdString(preset->id), id);
        QVERIFY(preset->official_parameters > 0);
        QVERIFY2(!preset->source.empty(), "every preset names where its shapes and count come from");
        const ModelConfig &model = preset->model;
        QVERIFY(!model.name.empty());
        QVERIFY(model.n_layers > 0);
        QVERIFY(model.d_model > 0);
        QVERIFY(model.n_heads > 0);
        QVERIFY(model.n_kv_heads > 0 && model.n_heads % model.n_kv_heads == 0);
        QVERIFY(model.head_dim > 0);
        QVERIFY(model.d_ff > 0);
        QVERIFY(model.vocab_size > 0);
        QVERIFY(model.max_seq_len > 0);
    }

    // Each compiled-in file parses cleanly on its own, so a broken file names itself here instead
    // of aborting builtinModelPresets().
    void everyResourceFileParses_data()
    {
        QTest::addColumn<QString>("path");
        const QDir dir(":/presets/models");
        for (const QString &name : dir.entryList({"*.json"}, QDir::Files))
            QTest::addRow("%s", qPrintable(name)) << dir.filePath(name);
    }
    void everyResourceFileParses()
    {
        QFETCH(QString, path);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const Result<ModelPreset> preset = parseModelPreset(file.readAll());
        QVERIFY2(preset.ok(), formatProblems(preset.problems()).c_str());
        QCOMPARE(QString::fromStdString(preset->id) + ".json", QFileInfo(path).fileName());
    }

    // The shapes the brief fixes for the presets that are easiest to get subtly wrong.
    void distinctiveShapes_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<int>("layers");
        QTest::addColumn<qint64>("dModel");
        QTest::addColumn<int>("kvHeads");
        QTest::addColumn<int>("headDim");
        QTest::addColumn<qint64>("vocab");
        QTest::addColumn<bool>("tied");
        QTest::addRow("gpt3-175b (Brown et al. 2020, Table 2.1)") << "gpt3-175b" << 96 << qint64(12288) << 96 << 128
                                                                   << qint64(50257) << true;
        QTest::addRow("llama-2-70b GQA (Touvron et al. 2023)") << "llama-2-70b" << 80 << qint64(8192) << 8 << 128
                                                               << qint64(32000) << false;
        QTest::addRow("gemma-2-9b head_dim 256 (Gemma Team 2024, Table 1)") << "gemma-2-9b" << 42 << qint64(3584) << 8
                                                                             << 256 << qint64(256000) << true;
        QTest::addRow("qwen2.5-7b (Qwen2.5 config.json)") << "qwen2.5-7b" << 28 << qint64(3584) << 4 << 128
                                                          << qint64(152064) << false;
        QTest::addRow("cs336-tinystories (CS336 assignment 1)") << "cs336-tinystories" << 4 << qint64(512) << 16 << 32
                                                                << qint64(10000) << false;
    }
    void distinctiveShapes()
    {
        QFETCH(QString, id);
        QFETCH(int, layers);
        QFETCH(qint64, dModel);
        QFETCH(int, kvHeads);
        QFETCH(int, headDim);
        QFETCH(qint64, vocab);
        QFETCH(bool, tied);
        const ModelPreset *preset = findModelPreset(id.toStdString());
        QVERIFY(preset != nullptr);
        QCOMPARE(preset->model.n_layers, layers);
        QCOMPARE(qint64(preset->model.d_model), dModel);
        QCOMPARE(preset->model.n_kv_heads, kvHeads);
        QCOMPARE(preset->model.head_dim, headDim);
        QCOMPARE(qint64(preset->model.vocab_size), vocab);
        QCOMPARE(preset->model.tied_embeddings, tied);
    }

    void familyFeatures()
    {
        const ModelPreset *gpt2 = findModelPreset("gpt2-small");
        QVERIFY(gpt2 != nullptr);
        QCOMPARE(nameOf(gpt2->model.positional_encoding), nameOf(PositionalEncoding::Learned));
        QCOMPARE(nameOf(gpt2->model.norm), nameOf(NormType::LayerNorm));
        QVERIFY(gpt2->model.biases.qkv && gpt2->model.biases.attn_output && gpt2->model.biases.mlp);
        QVERIFY(!gpt2->model.biases.lm_head);

        const ModelPreset *mixtral = findModelPreset("mixtral-8x7b");
        QVERIFY(mixtral != nullptr);
        QCOMPARE(mixtral->model.moe.n_experts, 8);
        QCOMPARE(mixtral->model.moe.top_k, 2);
        QVERIFY(mixtral->model.moe.isMoeLayer(0) && mixtral->model.moe.isMoeLayer(31));

        const ModelPreset *gemma = findModelPreset("gemma-2-9b");
        QVERIFY(gemma != nullptr);
        QCOMPARE(nameOf(gemma->model.norm_placement), nameOf(NormPlacement::Double));
        QCOMPARE(nameOf(gemma->model.activation), nameOf(Activation::GeGLU));

        const ModelPreset *llama = findModelPreset("llama-3-8b");
        QVERIFY(llama != nullptr);
        QVERIFY(!llama->model.moe.enabled());
    }

    void unknownIdIsNotFound() { QVERIFY(findModelPreset("llama-2-7") == nullptr); }

    void badPresets_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("rule");
        const QByteArray head = R"({"format": "llm-explorer-model-preset", "version": 1, )";
        QTest::addRow("scenario file") << QByteArray(R"({"format": "llm-explorer-scenario", "version": 1})") << "file"
                                       << "format";
        QTest::addRow("no id") << head + R"("official_parameters": 5, "source": "s", "model": {}})" << "id" << "required";
        QTest::addRow("no count") << head + R"("id": "x", "source": "s", "model": {}})" << "official_parameters"
                                  << "required";
        QTest::addRow("count as text") << head + R"("id": "x", "official_parameters": "7B", "source": "s", "model": {}})"
                                       << "official_parameters" << "type";
        QTest::addRow("no source") << head + R"("id": "x", "official_parameters": 5, "model": {}})" << "source"
                                   << "required";
        QTest::addRow("no model") << head + R"("id": "x", "official_parameters": 5, "source": "s"})" << "model"
                                  << "required";
        QTest::addRow("bad model field")
            << head + R"("id": "x", "official_parameters": 5, "source": "s", "model": {"norm": "batchnorm"}})"
            << "model.norm" << "enum";
    }
    void badPresets()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, field);
        QFETCH(QString, rule);
        const Result<ModelPreset> preset = parseModelPreset(json);
        QVERIFY(!preset.ok());
        QVERIFY2(hasProblem(preset.problems(), field.toStdString(), rule.toStdString()),
                 formatProblems(preset.problems()).c_str());
    }
};

QTEST_GUILESS_MAIN(TestPresets)
#include "test_presets.moc"
