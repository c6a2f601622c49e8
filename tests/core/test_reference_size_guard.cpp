// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 14, item 1: a reference configuration is bounded and its memory checked before anything is
// allocated, and a checkpoint's tensors are compared with its config before the model is built.
// The reproducing input is the 256 KB checkpoint whose config says n_heads = 2^20 (built here);
// `generate` and `train --resume` used to build that model (2.1 GB) and abort. "Allocates no more
// than a bounded amount" is measured as the growth of the peak resident set (VmHWM, reset through
// /proc/self/clear_refs): the model's arenas come from Eigen's aligned malloc, which no operator
// new replacement sees, and they are zero-filled, so every byte allocated is touched.
#include "reference/checkpoint_check.h"
#include "reference/model.h"
#include "reference/safetensors.h"
#include "reference/size_limits.h"
#include "reference/trainer.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>

using namespace lse;
using namespace lse::reference;

namespace {

// What a refused load may allocate: the file itself and its parsed copy, the JSON, the problems.
constexpr double kBoundedBytes = 16e6;

bool hasField(const Problems &problems, const std::string &field)
{
    return std::any_of(problems.begin(), problems.end(), [&](const Problem &p) { return p.field == field; });
}

bool hasRule(const Problems &problems, const std::string &rule)
{
    return std::any_of(problems.begin(), problems.end(), [&](const Problem &p) { return p.rule == rule; });
}

// Peak resident set in bytes (VmHWM of /proc/self/status); -1 when unavailable.
double peakResidentBytes()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stod(line.substr(6)) * 1024.0;  // "VmHWM:   12345 kB"
    return -1;
}

// Growth of the peak resident set while `run` runs; -1 when the peak cannot be reset here.
double peakGrowthBytes(const std::function<void()> &run)
{
    {
        std::ofstream clear("/proc/self/clear_refs");
        clear << "5";  // resets VmHWM to the current resident set (Linux >= 4.0)
        clear.close();
        if (!clear)
            return -1;
    }
    const double before = peakResidentBytes();
    run();
    const double after = peakResidentBytes();
    return before < 0 || after < 0 ? -1 : after - before;
}

ModelConfig smallModel()
{
    ModelConfig m;
    m.name = "guard";
    m.n_layers = 2;
    m.d_model = 32;
    m.n_heads = 2;
    m.n_kv_heads = 2;
    m.head_dim = 16;
    m.d_ff = 64;
    m.vocab_size = 2048;
    m.max_seq_len = 32;
    return m;
}

TrainConfig trainConfig(const ModelConfig &model)
{
    TrainConfig c;
    c.model = model;
    c.data_path = "tokens.bin";
    c.batch_size = 2;
    c.steps = 10;
    c.warmup_steps = 1;
    return c;
}

// A checkpoint of `config` holding only `token_embeddings.weight` of `embeddingFloats` values, the
// rest missing: the shape of a fuzzed file whose config was edited.
std::string writeCheckpoint(const QTemporaryDir &dir, const char *name, const TrainConfig &config, std::int64_t embeddingFloats)
{
    const std::vector<float> values(std::size_t(embeddingFloats), 0.5f);
    std::vector<SafeTensor> tensors{makeF32Tensor("token_embeddings.weight", values.data(), {embeddingFloats / 32, 32})};
    std::map<std::string, std::string> metadata{{"format", "llm-explorer-reference-checkpoint"},
                                                {"config", trainConfigToJson(config).toStdString()},
                                                {"step", "1"},
                                                {"optimizer.step", "1"},
                                                {"rng", "1"}};
    const std::string path = dir.filePath(QString::fromLatin1(name)).toStdString();
    const Result<bool> written = writeSafetensors(path, tensors, metadata);
    return written.ok() ? path : std::string();
}

}  // namespace

class TestReferenceSizeGuard : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void boundsNameTheField_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<qint64>("value");
        QTest::newRow("n_layers") << "n_layers" << qint64(kMaxReferenceLayers + 1);
        QTest::newRow("d_model") << "d_model" << qint64(kMaxReferenceDModel * 2);
        QTest::newRow("n_heads 2^20") << "n_heads" << qint64(1 << 20);
        QTest::newRow("head_dim") << "head_dim" << qint64(kMaxReferenceHeadDim + 2);
        QTest::newRow("d_ff") << "d_ff" << qint64(kMaxReferenceDff + 1);
        QTest::newRow("vocab_size") << "vocab_size" << qint64(kMaxReferenceVocab + 1);
        QTest::newRow("max_seq_len") << "max_seq_len" << qint64(kMaxReferenceSeqLen + 1);
    }

    // Each size above its bound is refused by name, by the model and by the train config.
    void boundsNameTheField()
    {
        QFETCH(QString, field);
        QFETCH(qint64, value);
        ModelConfig m = smallModel();
        const std::string name = field.toStdString();
        if (name == "n_layers")
            m.n_layers = int(value);
        else if (name == "d_model")
            m.d_model = value;
        else if (name == "n_heads")
            m.n_heads = m.n_kv_heads = 1 << 20;
        else if (name == "head_dim")
            m.head_dim = int(value);
        else if (name == "d_ff")
            m.d_ff = value;
        else if (name == "vocab_size")
            m.vocab_size = value;
        else
            m.max_seq_len = value;
        const Problems problems = validateForReference(m);
        QVERIFY2(hasField(problems, name), formatProblems(problems).c_str());
        QVERIFY(hasRule(problems, "maximum"));
        QVERIFY(hasField(validateTrainConfig(trainConfig(m)), "model." + name));
        const auto created = Model::create(m, ReferenceOptions{});
        QVERIFY(!created.ok());
        QVERIFY(hasField(created.problems(), name));
    }

    void batchBound()
    {
        TrainConfig c = trainConfig(smallModel());
        c.batch_size = int(kMaxReferenceBatch) + 1;
        QVERIFY(hasField(validateTrainConfig(c), "training.batch_size"));
        ReferenceOptions options;
        options.max_batch = int(kMaxReferenceBatch) + 1;
        QVERIFY(hasField(Model::create(smallModel(), options).problems(), "max_batch"));
        ReferenceOptions blocks;
        blocks.attention_block_rows = -1;
        blocks.attention_block_cols = kMaxTiledAttentionBlock + 1;
        const Problems badBlocks = Model::create(smallModel(), blocks).problems();
        QVERIFY(hasField(badBlocks, "attention_block_rows"));
        QVERIFY(hasField(badBlocks, "attention_block_cols"));
    }

    // The estimate is what the model allocates, byte for byte, across the layout's variants.
    void memoryEstimateMatchesTheModel_data()
    {
        QTest::addColumn<int>("variant");
        for (int v = 0; v < 10; ++v)
            QTest::newRow(qPrintable(QString::number(v))) << v;
    }

    void memoryEstimateMatchesTheModel()
    {
        QFETCH(int, variant);
        ModelConfig m = smallModel();
        m.vocab_size = 37;  // no multiple of 16 floats: the padding shows
        m.max_seq_len = 9;
        ReferenceOptions options;
        options.max_batch = 3;
        if (variant == 1) {
            m.positional_encoding = PositionalEncoding::Learned;
            m.norm = NormType::LayerNorm;
            m.tied_embeddings = true;
        } else if (variant == 2) {
            m.activation = Activation::ReLU;
            m.n_kv_heads = 1;
            options.context = 5;
        } else if (variant == 3) {
            m.norm = NormType::None;
            m.activation = Activation::GeLU;
        } else if (variant == 4) {
            m.n_heads = 4;
            m.n_kv_heads = 2;
            m.head_dim = 6;
            m.d_ff = 50;
        } else if (variant == 5) {  // the tiled kernel: log-sum-exp rows and block scratch, no T x T
            options.attention_kernel = AttentionAlgorithm::Tiled;
        } else if (variant == 6) {
            options.attention_kernel = AttentionAlgorithm::Tiled;
            options.attention_block_rows = 3;
            options.attention_block_cols = 5;
            m.n_kv_heads = 1;
        } else if (variant == 7) {  // inference-only: no gradients, one shared set of layer buffers
            options.inference_only = true;
            options.cache_batch = 2;
        } else if (variant == 8) {
            options.inference_only = true;
            options.attention_kernel = AttentionAlgorithm::Tiled;
            m.norm = NormType::LayerNorm;
            m.norm_placement = NormPlacement::Post;
        } else if (variant == 9) {
            options.inference_only = true;
            m.norm = NormType::None;
        }
        const auto created = Model::create(m, options);
        QVERIFY2(created.ok(), formatProblems(created.problems()).c_str());
        const ReferenceMemory actual = created.value()->memory();
        const ReferenceMemory estimate = referenceMemoryEstimate(m, options);
        QCOMPARE(estimate.parameters, actual.parameters);
        QCOMPARE(estimate.gradients, actual.gradients);
        QCOMPARE(estimate.activations, actual.activations);
        QCOMPARE(estimate.workspace, actual.workspace);
        QCOMPARE(estimate.kv_cache, actual.kv_cache);
        // And the shapes a checkpoint is checked against are the model's own.
        const std::vector<ParameterShape> shapes = referenceParameterShapes(m);
        const auto &parameters = created.value()->parameters();
        QCOMPARE(shapes.size(), parameters.size());
        for (std::size_t i = 0; i < shapes.size(); ++i) {
            QCOMPARE(shapes[i].name, parameters[i].name);
            QVERIFY(shapes[i].shape == parameters[i].shape);
        }
    }

    void memoryRuleAgainstAvailableBytes()
    {
        const TrainConfig c = trainConfig(smallModel());
        ReferenceOptions options = c.options;
        options.max_batch = c.batch_size;
        const ReferenceMemory model = referenceMemoryEstimate(c.model, options);
        const double needed = totalBytes(model) + 2 * model.parameters + 2.0 * c.batch_size * double(c.model.max_seq_len) * 4;
        const auto physical = [](double bytes) { return MemoryAvailable{bytes, MemoryLimitKind::Physical, "this machine has it"}; };
        QVERIFY(checkTrainingMemory(c, physical(needed)).empty());
        const Problems tooSmall = checkTrainingMemory(c, physical(needed - 1));
        QCOMPARE(tooSmall.size(), std::size_t(1));
        QCOMPARE(tooSmall.front().field, std::string("training.batch_size"));
        QCOMPARE(tooSmall.front().rule, std::string("memory"));
        QVERIFY(checkMemoryFits(1e30, MemoryAvailable{}, "x", "").empty());  // unknown memory: no claim
    }

    // Within every bound, but the attention probabilities of batch 64 × context 131072 alone are
    // terabytes: refused by the memory rule on every path, with nothing of that size allocated.
    void oversizedConfigurationAllocatesNothing()
    {
        ModelConfig m = smallModel();
        m.max_seq_len = kMaxReferenceSeqLen;
        TrainConfig c = trainConfig(m);
        c.batch_size = 64;
        Problems train, model;
        const double growth = peakGrowthBytes([&] {
            train = validateTrainConfig(c);
            ReferenceOptions options;
            options.max_batch = 64;
            model = Model::create(m, options).problems();
        });
        if (growth < 0)
            qWarning("/proc/self/clear_refs is not writable here: the allocation bound is not measured");
        else
            QVERIFY2(growth < kBoundedBytes, qPrintable(QStringLiteral("peak resident set grew by %1 bytes").arg(growth)));
        QVERIFY(hasField(train, "training.batch_size"));
        QVERIFY(hasRule(train, "memory"));
        QVERIFY(hasField(model, "model"));
        QVERIFY(hasRule(model, "memory"));
    }

    // The reproducing input of item 1: 256 KB, config n_heads = 2^20.
    void hugeHeadsCheckpointIsRefusedBeforeAllocating()
    {
        TrainConfig c = trainConfig(smallModel());
        c.model.n_heads = c.model.n_kv_heads = 1 << 20;
        const std::string path = writeCheckpoint(dir_, "heads.safetensors", c, 65536);
        QVERIFY(!path.empty());
        QVERIFY(QFile(QString::fromStdString(path)).size() >= 256 * 1024);
        Problems generate, resume;
        const double growth = peakGrowthBytes([&] {
            generate = loadCheckpointModel(path).problems();
            resume = Trainer::resume(path).problems();
        });
        if (growth < 0)
            qWarning("/proc/self/clear_refs is not writable here: the allocation bound is not measured");
        else
            QVERIFY2(growth < kBoundedBytes, qPrintable(QStringLiteral("peak resident set grew by %1 bytes").arg(growth)));
        QVERIFY2(hasField(generate, "model.n_heads"), formatProblems(generate).c_str());
        QVERIFY2(hasField(resume, "model.n_heads"), formatProblems(resume).c_str());
    }

    // A config within bounds and memory (a 40 MB model) whose tensors do not match it: the header
    // shapes are compared first, so the model is never built.
    void mismatchedShapesAreRefusedBeforeBuilding()
    {
        ModelConfig m = smallModel();
        m.d_model = 512;
        m.head_dim = 256;
        m.d_ff = 2048;
        m.vocab_size = 8192;
        const TrainConfig c = trainConfig(m);
        const std::string path = writeCheckpoint(dir_, "mismatch.safetensors", c, 4096);
        QVERIFY(!path.empty());
        Problems generate, resume;
        const double growth = peakGrowthBytes([&] {
            generate = loadCheckpointModel(path).problems();
            resume = Trainer::resume(path).problems();
        });
        if (growth < 0)
            qWarning("/proc/self/clear_refs is not writable here: the allocation bound is not measured");
        else
            QVERIFY2(growth < kBoundedBytes, qPrintable(QStringLiteral("peak resident set grew by %1 bytes").arg(growth)));
        QVERIFY2(hasRule(generate, "shape"), formatProblems(generate).c_str());  // token_embeddings (128, 32)
        QVERIFY(hasRule(generate, "missing"));
        QVERIFY(hasField(generate, path));
        QVERIFY2(hasRule(resume, "shape") || hasRule(resume, "missing"), formatProblems(resume).c_str());
        QVERIFY(generate.size() <= 9);  // listed up to 8, then a count
    }
};

QTEST_GUILESS_MAIN(TestReferenceSizeGuard)
#include "test_reference_size_guard.moc"
