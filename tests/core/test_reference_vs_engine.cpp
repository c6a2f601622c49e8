// SPDX-License-Identifier: GPL-3.0-or-later
// The cost engine's prediction against the reference transformer's measurement for the same
// model, batch and context (issue: "the engine's FLOPs per step must equal the counted FLOPs
// exactly, and its memory prediction must match the allocated bytes within 5% per category").
#include "cost/estimate.h"
#include "ops/operator_list.h"
#include "reference/engine_scenario.h"
#include "reference/model.h"

#include <QtTest>

#include <map>
#include <random>
#include <string>

using namespace lse;
using namespace lse::reference;

Q_DECLARE_METATYPE(lse::ModelConfig)

namespace {

ModelConfig baseModel()
{
    ModelConfig m;
    m.name = "probe";
    m.n_layers = 2;
    m.d_model = 64;
    m.n_heads = 4;
    m.n_kv_heads = 4;
    m.head_dim = 16;
    m.d_ff = 176;
    m.vocab_size = 512;
    m.max_seq_len = 48;
    m.norm = NormType::RMSNorm;
    m.norm_placement = NormPlacement::Pre;
    m.activation = Activation::SwiGLU;
    m.positional_encoding = PositionalEncoding::RoPE;
    m.tied_embeddings = false;
    return m;
}

struct Measured {
    double matmul_flops = 0;
    double all_flops = 0;
    std::map<std::string, double> flops_by_name;  // forward + backward of each named op
    ReferenceMemory memory;
};

Measured measureStep(const ModelConfig &model, int batch, AttentionAlgorithm kernel)
{
    ReferenceOptions options;
    options.attention_kernel = kernel;
    options.max_batch = batch;
    options.context = int(model.max_seq_len);
    auto created = Model::create(model, options);
    if (!created)
        qFatal("%s", formatProblems(created.problems()).c_str());
    Model &m = **created;
    const int seq = int(model.max_seq_len);
    std::vector<std::int32_t> tokens(std::size_t(batch) * seq), targets(tokens.size());
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> pick(0, int(model.vocab_size) - 1);
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        tokens[i] = pick(rng);
        targets[i] = pick(rng);
    }
    m.profiler().setEnabled(true);
    m.profiler().reset();
    const auto loss = m.forwardBackward(tokens.data(), targets.data(), batch, seq);
    if (!loss)
        qFatal("%s", formatProblems(loss.problems()).c_str());
    Measured measured;
    measured.matmul_flops = m.profiler().matmulFlops();
    measured.all_flops = m.profiler().totalFlops();
    measured.memory = m.memory();
    for (const OpRecord &record : m.profiler().records())
        measured.flops_by_name[record.name] += record.flops;
    return measured;
}

}  // namespace

class TestReferenceVsEngine : public QObject {
    Q_OBJECT
private slots:
    void sameStep_data();
    void sameStep();
};

void TestReferenceVsEngine::sameStep_data()
{
    QTest::addColumn<ModelConfig>("model");
    QTest::addColumn<int>("batch");
    QTest::addColumn<bool>("tiled");
    const ModelConfig base = baseModel();
    QTest::addRow("rmsnorm swiglu rope") << base << 3 << false;
    ModelConfig gqa = base;
    gqa.n_kv_heads = 2;
    QTest::addRow("gqa") << gqa << 2 << false;
    // The tiled kernel against the engine's FlashAttention operators (flash_attention,
    // flash_softmax, flash_attention_values) and its smaller activations.
    QTest::addRow("gqa, tiled attention") << gqa << 2 << true;
    ModelConfig gpt2 = base;
    gpt2.norm = NormType::LayerNorm;
    gpt2.activation = Activation::GeLU;
    gpt2.d_ff = 256;
    gpt2.positional_encoding = PositionalEncoding::Learned;
    gpt2.tied_embeddings = true;
    QTest::addRow("layernorm gelu learned tied") << gpt2 << 2 << false;
    ModelConfig post = base;
    post.norm_placement = NormPlacement::Post;
    post.activation = Activation::ReLU;
    post.d_ff = 256;
    post.positional_encoding = PositionalEncoding::Sinusoidal;
    QTest::addRow("post-norm relu sinusoidal") << post << 2 << false;
    ModelConfig bare = base;
    bare.norm = NormType::None;
    bare.activation = Activation::SiLU;
    bare.d_ff = 256;
    bare.positional_encoding = PositionalEncoding::None;
    QTest::addRow("no norm silu nope") << bare << 1 << false;
    ModelConfig parallel = base;
    parallel.parallel_block = true;
    parallel.n_kv_heads = 2;
    QTest::addRow("parallel block rmsnorm swiglu rope") << parallel << 2 << false;
    ModelConfig neox = gpt2;
    neox.parallel_block = true;
    neox.tied_embeddings = false;
    QTest::addRow("parallel block layernorm gelu learned") << neox << 1 << false;
}

void TestReferenceVsEngine::sameStep()
{
    QFETCH(ModelConfig, model);
    QFETCH(int, batch);
    QFETCH(bool, tiled);
    TrainConfig config;
    config.model = model;
    config.batch_size = batch;
    config.options.attention_kernel = tiled ? AttentionAlgorithm::Tiled : AttentionAlgorithm::Naive;
    const Scenario scenario = engineScenarioFor(config, 1e11);
    const Result<Estimate> predicted = estimate(scenario);
    QVERIFY2(predicted.ok(), formatProblems(predicted.problems()).c_str());
    const Estimate &e = predicted.value();
    const Measured measured = measureStep(model, batch, config.options.attention_kernel);
    const double tokens = double(batch) * double(model.max_seq_len);

    // Per operator first, so a mismatch names the op: the engine's forward and backward FLOPs of
    // every operator (× layers) against the profiler's records of the same name.
    OperatorShapes shapes;
    shapes.seq_len = model.max_seq_len;
    shapes.micro_batch = batch;
    shapes.flash_attention = tiled;
    const ForwardOperators forward = forwardOperators(model, shapes);
    std::map<std::string, double> engine_by_name;
    const auto add = [&engine_by_name](const std::vector<Operator> &ops, int count) {
        for (const Operator &op : ops)
            engine_by_name[std::string(op.name)] += double(count) * (op.flops + op.backward_flops);
    };
    add(forward.embedding, 1);
    add(forward.dense_layers.ops, forward.dense_layers.layer_count);
    add(forward.head, 1);
    for (const auto &[name, flops] : engine_by_name) {
        if (flops == 0)
            continue;
        const auto found = measured.flops_by_name.find(name);
        QVERIFY2(found != measured.flops_by_name.end(), ("the reference never counted " + name).c_str());
        QVERIFY2(found->second == flops, qPrintable(QStringLiteral("%1: engine %2, reference %3")
                                                        .arg(QString::fromStdString(name)).arg(flops, 0, 'f', 0)
                                                        .arg(found->second, 0, 'f', 0)));
    }
    for (const auto &[name, flops] : measured.flops_by_name)
        QVERIFY2(flops == 0 || engine_by_name.count(name), ("the engine has no operator " + name).c_str());

    // The totals: matmul-only (the MFU convention) and every operator.
    QCOMPARE(measured.matmul_flops, e.flops.train_per_token * tokens);
    QVERIFY(qAbs(measured.all_flops - e.flops.all_ops_train_per_token * tokens) <= 1e-12 * measured.all_flops);

    // Memory per category within 5% (parameters, gradients and AdamW moments come out exact).
    const auto within = [](double engine_bytes, double allocated) {
        return allocated > 0 && std::abs(engine_bytes - allocated) <= 0.05 * allocated;
    };
    QCOMPARE(double(e.memory.params), measured.memory.parameters);
    QCOMPARE(double(e.memory.grads), measured.memory.gradients);
    QCOMPARE(double(e.memory.optimizer), 2.0 * measured.memory.parameters);  // m and v, fp32
    QVERIFY2(within(double(e.memory.activations), measured.memory.activations),
             qPrintable(QStringLiteral("activations: engine %1, reference %2").arg(e.memory.activations)
                            .arg(measured.memory.activations, 0, 'f', 0)));
}

QTEST_MAIN(TestReferenceVsEngine)
#include "test_reference_vs_engine.moc"
