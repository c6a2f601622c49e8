// SPDX-License-Identifier: GPL-3.0-or-later
// The reference transformer as a whole (core/reference/model.h): finite-difference gradient checks
// of every parameter tensor over the architecture variants, in the double build of the same code;
// the CS336 2024 transformer block and language model (learned positions, GeLU FFN) against their
// reference logits; KV-cache decoding and last-position logits against the full forward pass; FLOP
// counting; no allocation after construction; validation of unsupported configurations.
//
// Gradient tolerance (as in test_reference_ops.cpp): central differences with h = 1e-5 on the mean
// cross-entropy, |fd − analytic| / max(1, |fd|, |analytic|) < 1e-6. Up to 8 entries per tensor are
// probed, spread over the tensor, to keep the run short (every tensor and variant is covered).
#include "ops/operator_list.h"
#include "reference/model.h"
#include "reference/npz.h"

#include "../fixture_paths.h"

#include <QFileInfo>
#include <QtTest>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <new>
#include <random>

// Counts every operator new of the process, so a test can assert that the training step allocates
// nothing (Eigen's GEMM packing buffers come from malloc, not operator new, and are not counted).
namespace {
std::atomic<long long> g_allocations{0};
}
void *operator new(std::size_t n)
{
    ++g_allocations;
    if (void *p = std::malloc(n ? n : 1))
        return p;
    throw std::bad_alloc();
}
void *operator new[](std::size_t n)
{
    ++g_allocations;
    if (void *p = std::malloc(n ? n : 1))
        return p;
    throw std::bad_alloc();
}
void operator delete(void *p) noexcept { std::free(p); }
void operator delete[](void *p) noexcept { std::free(p); }
void operator delete(void *p, std::size_t) noexcept { std::free(p); }
void operator delete[](void *p, std::size_t) noexcept { std::free(p); }
// The nothrow forms too: a replaced delete must free what the matching new allocated, or
// AddressSanitizer reports an alloc-dealloc mismatch.
void *operator new(std::size_t n, const std::nothrow_t &) noexcept
{
    try {
        return operator new(n);
    } catch (...) {
        return nullptr;
    }
}
void *operator new[](std::size_t n, const std::nothrow_t &tag) noexcept { return operator new(n, tag); }
void operator delete(void *p, const std::nothrow_t &) noexcept { std::free(p); }
void operator delete[](void *p, const std::nothrow_t &) noexcept { std::free(p); }

using namespace lse;
using namespace lse::reference;

Q_DECLARE_METATYPE(lse::NormType)
Q_DECLARE_METATYPE(lse::NormPlacement)
Q_DECLARE_METATYPE(lse::Activation)
Q_DECLARE_METATYPE(lse::PositionalEncoding)

namespace {

ModelConfig smallConfig()
{
    ModelConfig c;
    c.name = "tiny";
    c.n_layers = 2;
    c.d_model = 8;
    c.n_heads = 2;
    c.n_kv_heads = 2;
    c.head_dim = 4;
    c.d_ff = 12;
    c.vocab_size = 11;
    c.max_seq_len = 6;
    return c;  // defaults: RMSNorm, pre-norm, SwiGLU, RoPE, untied
}

std::vector<std::int32_t> randomTokens(std::size_t n, std::int64_t vocab, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::int32_t> u(0, std::int32_t(vocab - 1));
    std::vector<std::int32_t> out(n);
    for (auto &t : out)
        t = u(rng);
    return out;
}

template <typename S>
std::unique_ptr<BasicModel<S>> makeModel(const ModelConfig &c, int maxBatch, std::uint64_t seed = 1)
{
    ReferenceOptions o;
    o.max_batch = maxBatch;
    o.seed = seed;
    auto r = BasicModel<S>::create(c, o);
    if (!r.ok()) {
        qWarning("%s", formatProblems(r.problems()).c_str());
        return nullptr;
    }
    return std::move(r.value());
}

// Fails (naming the file) when the fixture model-2024/<name>.npz is absent.
#define REQUIRE_NPZ(name) LSE_REQUIRE_FIXTURE(lse::test::fixturePath("model-2024/" + QString(name) + ".npz"))

// model-2024/<name>.npz of tests/data (the course's first 2 batch items, tests/data/README.md).
std::map<std::string, NpyArray> loadNpz(const QString &name)
{
    auto r = readNpz(lse::test::fixturePath("model-2024/" + name + ".npz").toStdString());
    if (!r.ok()) {
        qWarning("%s", formatProblems(r.problems()).c_str());
        return {};
    }
    return std::move(r.value());
}

// Copies every array of `weights` into the model tensor `prefix + name`; false on a missing name
// or a shape mismatch. Every model tensor must be covered.
bool loadWeights(Model &model, const std::map<std::string, NpyArray> &weights, const std::string &prefix = "")
{
    std::size_t loaded = 0;
    for (const auto &[name, array] : weights) {
        NamedTensor<float> *t = model.find(prefix + name);
        if (!t || t->shape != array.shape) {
            qWarning("weight %s: %s", name.c_str(), t ? "shape differs" : "no such tensor");
            return false;
        }
        const std::vector<float> v = array.toFloat();
        std::copy(v.begin(), v.end(), t->data);
        ++loaded;
    }
    if (prefix.empty() && loaded != model.parameters().size()) {
        qWarning("%zu of %zu model tensors loaded", loaded, model.parameters().size());
        return false;
    }
    return true;
}

double maxAbsDiff(const float *a, const std::vector<float> &b)
{
    double worst = 0;
    for (std::size_t i = 0; i < b.size(); ++i)
        worst = std::max(worst, std::abs(double(a[i]) - double(b[i])));
    return worst;
}

}  // namespace

class TestReferenceModel : public QObject {
    Q_OBJECT

private slots:
    void gradientCheck_data()
    {
        QTest::addColumn<lse::NormType>("norm");
        QTest::addColumn<lse::NormPlacement>("placement");
        QTest::addColumn<lse::Activation>("activation");
        QTest::addColumn<lse::PositionalEncoding>("position");
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("kvHeads");
        QTest::addColumn<bool>("tied");
        QTest::addColumn<bool>("parallel");
        using N = NormType;
        using P = NormPlacement;
        using A = Activation;
        using E = PositionalEncoding;
        QTest::addRow("rms-pre-swiglu-rope") << N::RMSNorm << P::Pre << A::SwiGLU << E::RoPE << 2 << 2 << false << false;
        QTest::addRow("layernorm-pre-gelu-learned") << N::LayerNorm << P::Pre << A::GeLU << E::Learned << 2 << 2 << false << false;
        QTest::addRow("none-relu-sinusoidal") << N::None << P::Pre << A::ReLU << E::Sinusoidal << 2 << 2 << false << false;
        QTest::addRow("rms-post-silu-rope") << N::RMSNorm << P::Post << A::SiLU << E::RoPE << 2 << 2 << false << false;
        QTest::addRow("layernorm-post-swiglu-nopos") << N::LayerNorm << P::Post << A::SwiGLU << E::None << 2 << 2 << false << false;
        QTest::addRow("gqa-4-2-rope") << N::RMSNorm << P::Pre << A::SwiGLU << E::RoPE << 4 << 2 << false << false;
        QTest::addRow("mqa-learned-tied") << N::RMSNorm << P::Pre << A::GeLU << E::Learned << 4 << 1 << true << false;
        QTest::addRow("tied-rope-swiglu") << N::RMSNorm << P::Pre << A::SwiGLU << E::RoPE << 2 << 2 << true << false;
        QTest::addRow("parallel-rms-swiglu-rope") << N::RMSNorm << P::Pre << A::SwiGLU << E::RoPE << 4 << 2 << false << true;
        QTest::addRow("parallel-layernorm-gelu-learned") << N::LayerNorm << P::Pre << A::GeLU << E::Learned << 2 << 2 << true << true;
        QTest::addRow("parallel-none-relu-sinusoidal") << N::None << P::Pre << A::ReLU << E::Sinusoidal << 2 << 2 << false << true;
    }
    void gradientCheck()
    {
        QFETCH(lse::NormType, norm);
        QFETCH(lse::NormPlacement, placement);
        QFETCH(lse::Activation, activation);
        QFETCH(lse::PositionalEncoding, position);
        QFETCH(int, heads);
        QFETCH(int, kvHeads);
        QFETCH(bool, tied);
        QFETCH(bool, parallel);
        ModelConfig c = smallConfig();
        c.parallel_block = parallel;
        c.norm = norm;
        c.norm_placement = placement;
        c.activation = activation;
        c.positional_encoding = position;
        c.n_heads = heads;
        c.n_kv_heads = kvHeads;
        c.tied_embeddings = tied;
        const int b = 2, t = 5;
        auto model = makeModel<double>(c, b, 3);
        QVERIFY(model);
        // Perturb gains/biases away from 1/0 so their gradients are generic.
        std::mt19937_64 rng(11);
        std::uniform_real_distribution<double> u(-0.3, 0.3);
        for (auto &p : model->parameters())
            if (p.shape.size() == 1)
                for (std::int64_t i = 0; i < p.size(); ++i)
                    p.data[i] += u(rng);
        const auto tokens = randomTokens(std::size_t(b * t), c.vocab_size, 5);
        const auto targets = randomTokens(std::size_t(b * t), c.vocab_size, 6);
        auto loss = model->forwardBackward(tokens.data(), targets.data(), b, t);
        QVERIFY(loss.ok());
        std::vector<double> analytic(model->gradientData(), model->gradientData() + model->parameterCount());
        QCOMPARE(tied, model->find("lm_head.weight") == nullptr);

        const double h = 1e-5;
        double worst = 0;
        std::string worstName;
        for (auto &p : model->parameters()) {
            const std::int64_t n = p.size(), probes = std::min<std::int64_t>(n, 8);
            for (std::int64_t k = 0; k < probes; ++k) {
                const std::int64_t i = (k * n) / probes + (k * 7) % std::max<std::int64_t>(1, n / probes);
                double &w = p.data[i];
                const double saved = w;
                w = saved + h;
                const double up = *model->loss(tokens.data(), targets.data(), b, t);
                w = saved - h;
                const double down = *model->loss(tokens.data(), targets.data(), b, t);
                w = saved;
                const double fd = (up - down) / (2 * h);
                const double a = analytic[std::size_t(&w - model->parameterData())];
                const double err = std::abs(fd - a) / std::max({1.0, std::abs(fd), std::abs(a)});
                if (err > worst) {
                    worst = err;
                    worstName = p.name + "[" + std::to_string(i) + "] fd " + std::to_string(fd) + " analytic "
                        + std::to_string(a);
                }
            }
        }
        qInfo("worst scaled gradient error %.3g (%s)", worst, worstName.c_str());
        QVERIFY2(worst < 1e-6, qPrintable(QString::fromStdString(worstName) + " error " + QString::number(worst)));
    }

    void decodeAndLastLogitsMatchForward_data()
    {
        QTest::addColumn<lse::NormType>("norm");
        QTest::addColumn<lse::NormPlacement>("placement");
        QTest::addColumn<lse::PositionalEncoding>("position");
        QTest::addColumn<int>("kvHeads");
        QTest::addColumn<bool>("parallel");
        QTest::addRow("rms-pre-rope") << NormType::RMSNorm << NormPlacement::Pre << PositionalEncoding::RoPE << 2
                                      << false;
        QTest::addRow("layernorm-post-learned") << NormType::LayerNorm << NormPlacement::Post
                                                << PositionalEncoding::Learned << 2 << false;
        QTest::addRow("gqa-sinusoidal") << NormType::RMSNorm << NormPlacement::Pre << PositionalEncoding::Sinusoidal
                                        << 1 << false;
        QTest::addRow("parallel-rms-rope") << NormType::RMSNorm << NormPlacement::Pre << PositionalEncoding::RoPE << 2
                                           << true;
        QTest::addRow("parallel-layernorm-learned") << NormType::LayerNorm << NormPlacement::Pre
                                                    << PositionalEncoding::Learned << 1 << true;
    }
    void decodeAndLastLogitsMatchForward()
    {
        QFETCH(lse::NormType, norm);
        QFETCH(lse::NormPlacement, placement);
        QFETCH(lse::PositionalEncoding, position);
        QFETCH(int, kvHeads);
        QFETCH(bool, parallel);
        ModelConfig c = smallConfig();
        c.norm = norm;
        c.norm_placement = placement;
        c.positional_encoding = position;
        c.n_kv_heads = kvHeads;
        c.parallel_block = parallel;
        const int b = 2, t = 6;
        auto model = makeModel<float>(c, b);
        QVERIFY(model);
        const auto tokens = randomTokens(std::size_t(b * t), c.vocab_size, 9);
        const float *logits = *model->forward(tokens.data(), b, t);
        const std::vector<float> full(logits, logits + b * t * c.vocab_size);
        const Index V = c.vocab_size;
        // Sequence 1 decoded token by token must give the forward pass's logits at every position.
        for (int pos = 0; pos < t; ++pos) {
            auto step = model->decodeStep(tokens[std::size_t(t + pos)], pos);
            QVERIFY(step.ok());
            for (Index v = 0; v < V; ++v)
                QVERIFY(std::abs((*step)[v] - full[std::size_t((t + pos) * V + v)]) < 1e-5f);
        }
        QVERIFY(!model->decodeStep(0, t).ok());  // beyond the context
        QVERIFY(model->decodeStep(0, 3).ok());  // rewinding to an earlier position is allowed
        const float *last = *model->forwardLogitsLast(tokens.data(), b, t);
        for (int s = 0; s < b; ++s)
            for (Index v = 0; v < V; ++v)
                QVERIFY(std::abs(last[s * V + v] - full[std::size_t(((s + 1) * t - 1) * V + v)]) < 1e-5f);
    }

    // A parallel block (GPT-NeoX form) keeps ln1, ln2 and every matrix of the serial block, as the
    // cost engine counts it, so checkpoints of both read and write the same tensor names.
    void parallelBlockHasTheSerialTensors()
    {
        ModelConfig serial = smallConfig();
        serial.norm = NormType::LayerNorm;
        ModelConfig parallel = serial;
        parallel.parallel_block = true;
        const std::vector<ParameterShape> a = referenceParameterShapes(serial), b = referenceParameterShapes(parallel);
        QCOMPARE(a.size(), b.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i].name, b[i].name);
            QVERIFY(a[i].shape == b[i].shape);
        }
        auto model = makeModel<float>(parallel, 1);
        QVERIFY(model);
        QCOMPARE(model->parameters().size(), b.size());
        QVERIFY(model->find("layers.1.ln2.weight"));
        // Same weights, different wiring: the logits differ from the serial model's.
        auto serialModel = makeModel<float>(serial, 1);
        const auto tokens = randomTokens(6, serial.vocab_size, 4);
        const float *p = *model->forward(tokens.data(), 1, 6);
        const std::vector<float> parallelLogits(p, p + 6 * serial.vocab_size);
        const float *q = *serialModel->forward(tokens.data(), 1, 6);
        QVERIFY(maxAbsDiff(q, parallelLogits) > 1e-4);
    }

    void parameterLayoutAndInit()
    {
        ModelConfig c = smallConfig();
        c.d_model = 64;
        c.head_dim = 16;
        c.n_heads = 4;
        c.n_kv_heads = 2;
        c.d_ff = 96;
        c.vocab_size = 200;
        c.norm = NormType::LayerNorm;
        auto model = makeModel<float>(c, 1, 42);
        QVERIFY(model);
        auto *q = model->find("layers.1.attn.q_proj.weight");
        auto *k = model->find("layers.1.attn.k_proj.weight");
        auto *v = model->find("layers.1.attn.v_proj.weight");
        auto *w1 = model->find("layers.1.ffn.w1.weight");
        auto *w3 = model->find("layers.1.ffn.w3.weight");
        QVERIFY(q && k && v && w1 && w3 && model->find("ln_final.bias") && model->find("lm_head.weight"));
        QCOMPARE(q->shape, (std::vector<std::int64_t>{64, 64}));
        QCOMPARE(k->shape, (std::vector<std::int64_t>{32, 64}));
        // Q|K|V and W1|W3 are consecutive, so each pair is one GEMM.
        QCOMPARE(k->data, q->data + q->size());
        QCOMPARE(v->data, k->data + k->size());
        QCOMPARE(w3->data, w1->data + w1->size());
        std::int64_t total = 0;
        for (const auto &p : model->parameters()) {
            QCOMPARE(p.grad - model->gradientData(), p.data - model->parameterData());
            total += p.size();
        }
        QCOMPARE(total, model->parameterCount());
        // Truncated normal: std √(2/(d_in+d_out)) (w1: 2/(64+96)), nothing beyond 3σ; gains 1, biases 0.
        const double sigma = std::sqrt(2.0 / (64 + 96));
        double sum_sq = 0, worst = 0;
        for (std::int64_t i = 0; i < w1->size(); ++i) {
            sum_sq += double(w1->data[i]) * w1->data[i];
            worst = std::max(worst, std::abs(double(w1->data[i])));
        }
        const double std_w1 = std::sqrt(sum_sq / double(w1->size()));
        QVERIFY(std::abs(std_w1 / sigma - 0.986) < 0.03);  // a ±3σ truncation shrinks σ by 1.3%
        QVERIFY(worst <= 3 * sigma + 1e-6);
        QCOMPARE(model->find("layers.0.ln1.weight")->data[5], 1.0f);
        QCOMPARE(model->find("layers.0.ln1.bias")->data[5], 0.0f);
        auto *emb = model->find("token_embeddings.weight");
        double emax = 0;
        for (std::int64_t i = 0; i < emb->size(); ++i)
            emax = std::max(emax, std::abs(double(emb->data[i])));
        QVERIFY(emax <= 3.0 && emax > 2.0);
        // Same seed, same weights.
        auto again = makeModel<float>(c, 1, 42);
        QVERIFY(std::equal(again->parameterData(), again->parameterData() + again->parameterCount(),
                           model->parameterData()));
    }

    void flopCounting()
    {
        ModelConfig c = smallConfig();
        c.n_heads = 4;
        c.n_kv_heads = 2;
        const int b = 2, t = 6;
        auto model = makeModel<float>(c, b);
        QVERIFY(model);
        const auto tokens = randomTokens(std::size_t(b * t), c.vocab_size, 1);
        model->profiler().setEnabled(true);
        QVERIFY(model->forwardBackward(tokens.data(), tokens.data(), b, t).ok());
        double fwd = 0, bwd = 0;
        for (const OpRecord &r : model->profiler().records())
            if (r.matmul)
                (r.phase == OpPhase::Forward ? fwd : bwd) += r.flops;
        const double N = b * t, D = 8, Q = 16, W = 16 + 2 * 8, F = 12, V = 11;
        const double perLayer = 2 * N * (D * W + Q * D + D * 2 * F + F * D) + 2 * 2.0 * b * 4 * t * t * 4;
        QCOMPARE(fwd, 2 * perLayer + 2 * N * V * D);
        QCOMPARE(bwd, 2 * fwd);  // input and weight gradient per forward product
        QVERIFY(model->profiler().totalFlops() > fwd + bwd);
        QVERIFY(model->profiler().table().find("qkv_projection") != std::string::npos);
    }

    void matmulFlopsMatchCostEngine_data()
    {
        QTest::addColumn<lse::Activation>("activation");
        QTest::addColumn<lse::PositionalEncoding>("position");
        QTest::addColumn<int>("kvHeads");
        QTest::addRow("swiglu-rope-gqa") << Activation::SwiGLU << PositionalEncoding::RoPE << 1;
        QTest::addRow("gelu-learned") << Activation::GeLU << PositionalEncoding::Learned << 2;
    }
    void matmulFlopsMatchCostEngine()
    {
        // The engine's forward operator list (non-flash path, full s² attention products) against what
        // the reference model counts for the same model and micro-batch: matmuls must agree exactly,
        // per operator name. Element-wise differences are printed for the engine's maintainers.
        QFETCH(lse::Activation, activation);
        QFETCH(lse::PositionalEncoding, position);
        QFETCH(int, kvHeads);
        ModelConfig c = smallConfig();
        c.activation = activation;
        c.positional_encoding = position;
        c.n_kv_heads = kvHeads;
        const int b = 2, t = 6;
        auto model = makeModel<float>(c, b);
        QVERIFY(model);
        const auto tokens = randomTokens(std::size_t(b * t), c.vocab_size, 4);
        model->profiler().setEnabled(true);
        QVERIFY(model->loss(tokens.data(), tokens.data(), b, t).ok());
        OperatorShapes shapes;
        shapes.seq_len = t;
        shapes.micro_batch = b;
        shapes.flash_attention = false;
        const ForwardOperators engine = forwardOperators(c, shapes);
        std::map<std::string, double> predicted;
        for (const Operator &op : engine.embedding)
            predicted[std::string(op.name)] += op.flops;
        for (const Operator &op : engine.dense_layers.ops)
            predicted[std::string(op.name)] += op.flops * engine.dense_layers.layer_count;
        for (const Operator &op : engine.head)
            predicted[std::string(op.name)] += op.flops;
        for (const OpRecord &r : model->profiler().records()) {
            QVERIFY2(predicted.count(r.name), r.name);
            if (r.matmul)
                QCOMPARE(r.flops, predicted[r.name]);
            else if (r.flops != predicted[r.name])
                qInfo("element-wise %s: engine %g, reference %g", r.name, predicted[r.name], r.flops);
        }
        QCOMPARE(model->profiler().records().size(), predicted.size());
    }

    void noAllocationAfterConstruction_data()
    {
        QTest::addColumn<bool>("parallel");
        QTest::addRow("serial") << false;
        QTest::addRow("parallel-block") << true;
    }
    void noAllocationAfterConstruction()
    {
        QFETCH(bool, parallel);
        ModelConfig c = smallConfig();
        c.parallel_block = parallel;
        c.positional_encoding = PositionalEncoding::Learned;
        c.vocab_size = 64;
        c.d_model = 64;
        c.n_heads = 4;
        c.head_dim = 16;
        c.d_ff = 128;
        const int b = 2, t = 6;
        auto model = makeModel<float>(c, b);
        QVERIFY(model);
        model->profiler().setEnabled(true);
        const auto tokens = randomTokens(std::size_t(b * t), c.vocab_size, 2);
        QVERIFY(model->forwardBackward(tokens.data(), tokens.data(), b, t).ok());  // warm-up (OpenMP team, profiler rows)
        const std::size_t capacity = model->bufferCapacityChecksum();
        const long long before = g_allocations.load();
        for (int rep = 0; rep < 2; ++rep) {
            const bool ok = model->forwardBackward(tokens.data(), tokens.data(), b, t).ok()
                && model->forward(tokens.data(), b, t).ok() && model->forwardLogitsLast(tokens.data(), b, t).ok()
                && model->loss(tokens.data(), tokens.data(), b, t).ok() && model->decodeStep(tokens[0], 0).ok()
                && model->decodeStep(tokens[1], 1).ok();
            if (!ok)
                QFAIL("a model call failed");
        }
        const long long after = g_allocations.load();
        QCOMPARE(after - before, 0LL);
        QCOMPARE(model->bufferCapacityChecksum(), capacity);
    }

    void rejectsUnsupportedConfigurations_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addRow("biases.qkv") << "biases.qkv";
        QTest::addRow("moe") << "moe.n_experts";
        QTest::addRow("geglu") << "activation";
        QTest::addRow("alibi") << "positional_encoding";
        QTest::addRow("double") << "norm_placement";
        QTest::addRow("parallel-post-norm") << "parallel_block";
        QTest::addRow("kv-heads") << "n_kv_heads";
        QTest::addRow("odd-head-dim") << "head_dim";
    }
    void rejectsUnsupportedConfigurations()
    {
        QFETCH(QString, field);
        ModelConfig c = smallConfig();
        if (field == "biases.qkv")
            c.biases.qkv = true;
        else if (field == "moe.n_experts")
            c.moe.n_experts = 4;
        else if (field == "activation")
            c.activation = Activation::GeGLU;
        else if (field == "positional_encoding")
            c.positional_encoding = PositionalEncoding::ALiBi;
        else if (field == "norm_placement")
            c.norm_placement = NormPlacement::Double;
        else if (field == "parallel_block") {
            c.parallel_block = true;  // parallel blocks are implemented with pre-norm only
            c.norm_placement = NormPlacement::Post;
        }
        else if (field == "n_kv_heads")
            c.n_kv_heads = 3;
        else if (field == "head_dim")
            c.head_dim = 5;
        const Problems problems = validateForReference(c);
        QCOMPARE(problems.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(problems[0].field), field);
        QVERIFY(!Model::create(c, ReferenceOptions{}).ok());
    }

    void rejectsBadCalls()
    {
        auto model = makeModel<float>(smallConfig(), 2);
        QVERIFY(model);
        const std::vector<std::int32_t> bad{0, 1, 11, 2};
        auto r = model->forward(bad.data(), 1, 4);
        QVERIFY(!r.ok());
        QCOMPARE(r.problems()[0].field, std::string("tokens"));
        QVERIFY(!model->forward(bad.data(), 3, 1).ok());  // batch above max_batch
        QVERIFY(!model->forward(bad.data(), 1, 7).ok());  // longer than the context
        QVERIFY(!model->decodeStep(0, 1).ok());           // position 1 before position 0
        ReferenceOptions o;
        o.context = 7;
        QVERIFY(!Model::create(smallConfig(), o).ok());
    }

    void learnsARepeatedSequence()
    {
        // Plain SGD on one batch: the loss must fall well below log V (uniform guessing).
        ModelConfig c = smallConfig();
        c.d_model = 32;
        c.head_dim = 16;
        c.d_ff = 64;
        auto model = makeModel<float>(c, 2);
        QVERIFY(model);
        const std::vector<std::int32_t> tokens{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2};
        const std::vector<std::int32_t> targets{2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2, 3};
        float first = 0, last = 0;
        for (int step = 0; step < 60; ++step) {
            last = *model->forwardBackward(tokens.data(), targets.data(), 2, 6);
            if (step == 0)
                first = last;
            for (std::int64_t i = 0; i < model->parameterCount(); ++i)
                model->parameterData()[i] -= 0.1f * model->gradientData()[i];
        }
        QVERIFY2(last < 0.3f * first, qPrintable(QString("%1 -> %2").arg(first).arg(last)));
    }

    void cs336TransformerBlock()
    {
        for (const char *name : {"in_features", "transformer_block_weights", "transformer_block_expected_output"})
            REQUIRE_NPZ(name);
        const auto input = loadNpz("in_features").at("array");
        const auto weights = loadNpz("transformer_block_weights");
        const auto expected = loadNpz("transformer_block_expected_output").at("array").toFloat();
        QCOMPARE(input.shape.size(), std::size_t(3));
        ModelConfig c;
        c.n_layers = 1;
        c.d_model = input.shape[2];
        c.n_heads = 2;
        c.n_kv_heads = 2;
        c.head_dim = int(c.d_model / 2);
        c.d_ff = 256;
        c.vocab_size = 1;
        c.max_seq_len = input.shape[1];
        c.activation = Activation::GeLU;
        c.positional_encoding = PositionalEncoding::None;
        auto model = makeModel<float>(c, int(input.shape[0]));
        QVERIFY(model);
        QVERIFY(loadWeights(*model, weights, "layers.0."));
        auto out = model->blockForward(0, input.toFloat().data(), int(input.shape[0]), int(input.shape[1]));
        QVERIFY(out.ok());
        const double diff = maxAbsDiff(*out, expected);
        QVERIFY2(diff < 1e-6, qPrintable(QString::number(diff)));
    }

    void cs336TransformerLm_data()
    {
        QTest::addColumn<QString>("indices");
        QTest::addColumn<QString>("expected");
        QTest::addRow("full") << "in_indices" << "transformer_lm_expected_output";
        QTest::addRow("truncated") << "in_indices_truncated" << "transformer_lm_truncated_expected_output";
    }
    void cs336TransformerLm()
    {
        QFETCH(QString, indices);
        QFETCH(QString, expected);
        for (const QString &name : {indices, expected, QStringLiteral("transformer_lm_weights")})
            REQUIRE_NPZ(name);
        // model-2024: learned absolute positions, RMSNorm pre-norm, W2·GELU(W1·x), untied head.
        ModelConfig c;
        c.n_layers = 2;
        c.d_model = 128;
        c.n_heads = 2;
        c.n_kv_heads = 2;
        c.head_dim = 64;
        c.d_ff = 512;
        c.vocab_size = 100;
        c.max_seq_len = 64;
        c.activation = Activation::GeLU;
        c.positional_encoding = PositionalEncoding::Learned;
        const auto ids = loadNpz(indices).at("array");
        const auto want = loadNpz(expected).at("array").toFloat();
        const int b = int(ids.shape[0]), t = int(ids.shape[1]);
        auto model = makeModel<float>(c, b);
        QVERIFY(model);
        QVERIFY(loadWeights(*model, loadNpz("transformer_lm_weights")));
        std::vector<std::int32_t> tokens;
        for (std::int64_t id : ids.toInt64())
            tokens.push_back(std::int32_t(id));
        auto logits = model->forward(tokens.data(), b, t);
        QVERIFY(logits.ok());
        QCOMPARE(want.size(), std::size_t(b * t * 100));
        const double diff = maxAbsDiff(*logits, want);
        QVERIFY2(diff < 1e-4, qPrintable(QString::number(diff)));
    }
};

QTEST_GUILESS_MAIN(TestReferenceModel)
#include "test_reference_model.moc"
