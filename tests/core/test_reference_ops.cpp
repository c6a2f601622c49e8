// SPDX-License-Identifier: GPL-3.0-or-later
// Kernels of the reference transformer (core/reference/ops/): every backward pass against central
// finite differences in double precision, and the forward passes against the CS336 reference
// tensors (model-2024/: RMSNorm, feed-forward, scaled dot-product and multi-head attention;
// nn-utils/: softmax, cross-entropy, SiLU) within the course's tolerances.
//
// Gradient check: for an op y = f(x₁, x₂, …) and a fixed random cotangent c, L = Σ c ⊙ y. The
// analytic ∂L/∂x from the op's backward (fed dy = c) is compared with (L(x + h·e) − L(x − h·e)) / 2h,
// h = 1e-5, for every element of every input. Central differences err by O(h²·f''') ≈ 1e-10 plus a
// rounding error of ≈ ε·|L|/h ≈ 1e-10 in double, so we require
//     |fd − analytic| / max(1, |fd|, |analytic|) < 1e-6
// (relative above 1, absolute below), four orders of magnitude above the expected error and far
// below any real mistake (a wrong term is off by O(1)).
#include "reference/npz.h"
#include "reference/ops/activations.h"
#include "reference/ops/attention.h"
#include "reference/ops/cross_entropy.h"
#include "reference/ops/embedding.h"
#include "reference/ops/linear.h"
#include "reference/ops/norms.h"
#include "reference/ops/residual.h"
#include "reference/ops/rope.h"

#include "../fixture_paths.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <cmath>
#include <functional>
#include <random>

using namespace lse;
using namespace lse::reference;

Q_DECLARE_METATYPE(lse::Activation)

namespace {

using Vec = std::vector<double>;
using Tensors = std::vector<Vec>;

constexpr double kStep = 1e-5;
constexpr double kTolerance = 1e-6;

Vec randomVec(std::size_t n, std::mt19937_64 &rng, double scale = 1.0)
{
    std::uniform_real_distribution<double> u(-scale, scale);
    Vec v(n);
    for (double &x : v)
        x = u(rng);
    return v;
}

// forward(inputs) → output; backward(inputs, dy) → one gradient per input (same sizes).
using Forward = std::function<Vec(const Tensors &)>;
using Backward = std::function<Tensors(const Tensors &, const Vec &)>;

// Largest scaled error over all elements of all inputs (see the file comment).
double gradientError(const Forward &forward, const Backward &backward, Tensors inputs, std::uint64_t seed = 7)
{
    std::mt19937_64 rng(seed);
    const Vec y = forward(inputs);
    const Vec c = randomVec(y.size(), rng);
    auto lossAt = [&](const Tensors &x) {
        const Vec out = forward(x);
        double l = 0;
        for (std::size_t i = 0; i < out.size(); ++i)
            l += c[i] * out[i];
        return l;
    };
    const Tensors analytic = backward(inputs, c);
    double worst = 0;
    for (std::size_t t = 0; t < inputs.size(); ++t) {
        if (analytic[t].size() != inputs[t].size())
            return 1e30;
        for (std::size_t i = 0; i < inputs[t].size(); ++i) {
            const double saved = inputs[t][i];
            inputs[t][i] = saved + kStep;
            const double up = lossAt(inputs);
            inputs[t][i] = saved - kStep;
            const double down = lossAt(inputs);
            inputs[t][i] = saved;
            const double fd = (up - down) / (2 * kStep);
            const double a = analytic[t][i];
            worst = std::max(worst, std::abs(fd - a) / std::max({1.0, std::abs(fd), std::abs(a)}));
        }
    }
    return worst;
}

// Fails (naming the file) when one of the fixtures model-2024/<name>.npz is absent.
#define REQUIRE_NPZ(...)                                       \
    for (const QString &name_ : QStringList{__VA_ARGS__})      \
    LSE_REQUIRE_FIXTURE(lse::test::fixturePath("model-2024/" + name_ + ".npz"))
#define REQUIRE_NN_UTILS() LSE_REQUIRE_FIXTURE(lse::test::fixturePath("nn-utils/nn_utils_expected.json"))

// Member `member` of model-2024/<file>.npz as floats, with its shape.
std::vector<float> fixture(const QString &file, const std::string &member = "array",
                           std::vector<std::int64_t> *shape = nullptr)
{
    const auto npz = readNpz(lse::test::fixturePath("model-2024/" + file + ".npz").toStdString());
    if (!npz.ok()) {
        qWarning("%s", formatProblems(npz.problems()).c_str());
        return {};
    }
    const auto it = npz->find(member);
    if (it == npz->end())
        return {};
    if (shape)
        *shape = it->second.shape;
    return it->second.toFloat();
}

double maxAbsDiff(const std::vector<float> &a, const std::vector<float> &b)
{
    if (a.size() != b.size())
        return 1e30;
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        worst = std::max(worst, std::abs(double(a[i]) - double(b[i])));
    return worst;
}

QJsonObject nnUtilsCase(const char *name)
{
    QFile f(lse::test::fixturePath("nn-utils/nn_utils_expected.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object().value(name).toObject();
}

std::vector<float> flatten(const QJsonArray &rows, Index &n_rows, Index &n_cols)
{
    std::vector<float> out;
    n_rows = rows.size();
    n_cols = rows.isEmpty() ? 0 : rows[0].toArray().size();
    for (const QJsonValue &row : rows)
        for (const QJsonValue &v : row.toArray())
            out.push_back(float(v.toDouble()));
    return out;
}

}  // namespace

class TestReferenceOps : public QObject {
    Q_OBJECT

private slots:
    void linearGradient()
    {
        const Index n = 5, din = 4, dout = 3;
        std::mt19937_64 rng(1);
        auto fwd = [=](const Tensors &in) {
            Vec y(std::size_t(n * dout));
            linearForward(in[0].data(), din, in[1].data(), y.data(), dout, n, din, dout);
            return y;
        };
        auto bwd = [=](const Tensors &in, const Vec &dy) {
            Tensors g{Vec(in[0].size()), Vec(in[1].size(), 0.0)};
            linearBackward(in[0].data(), din, in[1].data(), dy.data(), dout, g[0].data(), g[1].data(), n, din, dout);
            return g;
        };
        QVERIFY(gradientError(fwd, bwd, {randomVec(n * din, rng), randomVec(dout * din, rng)}) < kTolerance);
    }

    void embeddingAndPositionsGradient()
    {
        const Index b = 2, t = 3, d = 4, v = 5, p = 6;
        const std::vector<std::int32_t> ids{0, 3, 3, 4, 1, 3};  // repeated ids must add their gradients
        std::mt19937_64 rng(2);
        auto fwd = [&](const Tensors &in) {
            Vec y(std::size_t(b * t * d));
            embeddingForward(ids.data(), in[0].data(), y.data(), b * t, d);
            addLearnedPositions(y.data(), in[1].data(), b, t, d, 1);
            return y;
        };
        auto bwd = [&](const Tensors &in, const Vec &dy) {
            Tensors g{Vec(in[0].size(), 0.0), Vec(in[1].size(), 0.0)};
            embeddingBackward(ids.data(), dy.data(), g[0].data(), b * t, d);
            addLearnedPositionsBackward(dy.data(), g[1].data(), b, t, d, 1);
            return g;
        };
        QVERIFY(gradientError(fwd, bwd, {randomVec(v * d, rng), randomVec(p * d, rng)}) < kTolerance);
    }

    void sinusoidalPositions()
    {
        // PE(pos, 2i) = sin(pos/10000^(2i/D)), PE(pos, 2i+1) = cos(·) (Vaswani et al. 2017, §3.5).
        const Index d = 6;
        Vec x(std::size_t(2 * d), 0.0);
        addSinusoidalPositions(x.data(), 1, 2, d, 3);  // positions 3 and 4
        QCOMPARE(x[0], std::sin(3.0));
        QCOMPARE(x[1], std::cos(3.0));
        QVERIFY(std::abs(x[std::size_t(d + 2)] - std::sin(4.0 / std::pow(10000.0, 2.0 / 6.0))) < 1e-15);
        QVERIFY(std::abs(x[std::size_t(d + 5)] - std::cos(4.0 / std::pow(10000.0, 4.0 / 6.0))) < 1e-15);
    }

    void normGradient_data()
    {
        QTest::addColumn<bool>("layerNorm");
        QTest::addRow("rmsnorm") << false;
        QTest::addRow("layernorm") << true;
    }
    void normGradient()
    {
        QFETCH(bool, layerNorm);
        const Index n = 4, d = 6;
        std::mt19937_64 rng(3);
        auto fwd = [=](const Tensors &in) {
            Vec y(std::size_t(n * d)), stats(std::size_t(2 * n));
            if (layerNorm)
                layerNormForward(in[0].data(), in[1].data(), in[2].data(), y.data(), stats.data(), n, d, 1e-5);
            else
                rmsNormForward(in[0].data(), in[1].data(), y.data(), stats.data(), n, d, 1e-5);
            return y;
        };
        auto bwd = [=](const Tensors &in, const Vec &dy) {
            Vec y(std::size_t(n * d)), stats(std::size_t(2 * n));
            Tensors g{Vec(in[0].size()), Vec(in[1].size(), 0.0), Vec(in[2].size(), 0.0)};
            if (layerNorm) {
                layerNormForward(in[0].data(), in[1].data(), in[2].data(), y.data(), stats.data(), n, d, 1e-5);
                layerNormBackward(in[0].data(), in[1].data(), stats.data(), dy.data(), g[0].data(), g[1].data(),
                                  g[2].data(), n, d);
            } else {
                rmsNormForward(in[0].data(), in[1].data(), y.data(), stats.data(), n, d, 1e-5);
                rmsNormBackward(in[0].data(), in[1].data(), stats.data(), dy.data(), g[0].data(), g[1].data(), n, d);
                g[2].assign(in[2].size(), 0.0);  // RMSNorm has no bias: its "gradient" is zero
            }
            return g;
        };
        QVERIFY(gradientError(fwd, bwd, {randomVec(n * d, rng), randomVec(d, rng), randomVec(d, rng)}) < kTolerance);
    }

    void ropeGradientAndRotation()
    {
        const Index b = 2, t = 3, heads = 3, dh = 4, ld = heads * dh + 2;  // 2 untouched columns per row
        RopeTable<double> table;
        table.build(8, dh, 10000.0);
        std::mt19937_64 rng(4);
        auto fwd = [&](const Tensors &in) {
            Vec y = in[0];
            ropeForward(y.data(), ld, b, t, heads, dh, table, 2);
            return y;
        };
        auto bwd = [&](const Tensors &, const Vec &dy) {
            Vec g = dy;
            ropeBackward(g.data(), ld, b, t, heads, dh, table, 2);
            return Tensors{g};
        };
        QVERIFY(gradientError(fwd, bwd, {randomVec(b * t * ld, rng)}) < kTolerance);

        // Pair k of a token at position p turns by p·theta^(−2k/Dh) (Su et al. 2021, Eq. 34).
        Vec x(std::size_t(dh), 0.0);
        x[0] = 1;
        x[2] = 1;
        ropeForward(x.data(), dh, 1, 1, 1, dh, table, 5);
        QVERIFY(std::abs(x[0] - std::cos(5.0)) < 1e-15 && std::abs(x[1] - std::sin(5.0)) < 1e-15);
        const double theta1 = 5.0 * std::pow(10000.0, -2.0 / 4.0);
        QVERIFY(std::abs(x[2] - std::cos(theta1)) < 1e-15 && std::abs(x[3] - std::sin(theta1)) < 1e-15);
    }

    void attentionGradient_data()
    {
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("kvHeads");
        QTest::addRow("mha") << 2 << 2;
        QTest::addRow("gqa") << 4 << 2;
        QTest::addRow("mqa") << 3 << 1;
    }
    void attentionGradient()
    {
        QFETCH(int, heads);
        QFETCH(int, kvHeads);
        const Index b = 2, t = 5, dh = 3;
        const Index q = heads * dh, kv = kvHeads * dh, w = q + 2 * kv;
        const AttentionDims dims{b, t, heads, kvHeads, dh, w, w, w, q};
        std::mt19937_64 rng(5);
        // Input: the fused (B, T, W) Q|K|V rows, as the model feeds it.
        auto fwd = [&](const Tensors &in) {
            Vec probs(std::size_t(b * heads * t * t)), out(std::size_t(b * t * q));
            causalAttentionForward(in[0].data(), in[0].data() + q, in[0].data() + q + kv, probs.data(), out.data(), dims);
            return out;
        };
        auto bwd = [&](const Tensors &in, const Vec &dy) {
            Vec probs(std::size_t(b * heads * t * t)), out(std::size_t(b * t * q)), dprobs(probs.size());
            causalAttentionForward(in[0].data(), in[0].data() + q, in[0].data() + q + kv, probs.data(), out.data(), dims);
            Vec g(in[0].size(), 0.0);
            causalAttentionBackward(in[0].data(), in[0].data() + q, in[0].data() + q + kv, probs.data(), dy.data(),
                                    g.data(), g.data() + q, g.data() + q + kv, dprobs.data(), dims);
            return Tensors{g};
        };
        QVERIFY(gradientError(fwd, bwd, {randomVec(b * t * w, rng, 2.0)}) < kTolerance);
    }

    void causalMaskHidesTheFuture()
    {
        // Changing a later token's key/value must not change an earlier output.
        const Index t = 4, dh = 2, w = 3 * dh;
        const AttentionDims dims{1, t, 1, 1, dh, w, w, w, dh};
        std::mt19937_64 rng(6);
        Vec qkv = randomVec(t * w, rng), probs(std::size_t(t * t)), a(std::size_t(t * dh)), bOut(a.size());
        causalAttentionForward(qkv.data(), qkv.data() + dh, qkv.data() + 2 * dh, probs.data(), a.data(), dims);
        for (Index j = dh; j < w; ++j)
            qkv[std::size_t(3 * w + j)] += 10.0;  // last token's K and V
        causalAttentionForward(qkv.data(), qkv.data() + dh, qkv.data() + 2 * dh, probs.data(), bOut.data(), dims);
        for (Index i = 0; i < 3 * dh; ++i)
            QCOMPARE(a[std::size_t(i)], bOut[std::size_t(i)]);
        QVERIFY(a[std::size_t(3 * dh)] != bOut[std::size_t(3 * dh)]);
    }

    void activationGradient_data()
    {
        QTest::addColumn<lse::Activation>("kind");
        QTest::addRow("relu") << Activation::ReLU;
        QTest::addRow("gelu") << Activation::GeLU;
        QTest::addRow("silu") << Activation::SiLU;
        QTest::addRow("swiglu") << Activation::SwiGLU;
    }
    void activationGradient()
    {
        QFETCH(lse::Activation, kind);
        const Index n = 3, f = 5;
        std::mt19937_64 rng(8);
        auto fwd = [=](const Tensors &in) {
            Vec y(std::size_t(n * f));
            activationForward(kind, in[0].data(), y.data(), n, f);
            return y;
        };
        auto bwd = [=](const Tensors &in, const Vec &dy) {
            Vec g(in[0].size());
            activationBackward(kind, in[0].data(), dy.data(), g.data(), n, f);
            return Tensors{g};
        };
        QVERIFY(gradientError(fwd, bwd, {randomVec(n * upWidth(kind, f), rng, 3.0)}) < kTolerance);
    }

    void geluIsExactErf()
    {
        // x·Φ(x) with Φ from erf, not the tanh approximation (which differs by ~1e-4 near |x| = 2).
        const double x = 2.0;
        double y = 0;
        activationForward(Activation::GeLU, &x, &y, 1, 1);
        QVERIFY(std::abs(y - 1.9544997361036416) < 1e-15);
    }

    void crossEntropyGradient()
    {
        const Index n = 4, v = 6;
        const std::vector<std::int32_t> targets{0, 5, 2, 2};
        std::mt19937_64 rng(9);
        auto fwd = [&](const Tensors &in) {
            Vec rows(static_cast<std::size_t>(n));
            return Vec{crossEntropyLoss(in[0].data(), targets.data(), rows.data(), n, v)};
        };
        auto bwd = [&](const Tensors &in, const Vec &dy) {
            Vec g(in[0].size()), rows(static_cast<std::size_t>(n));
            crossEntropyForwardBackward(in[0].data(), targets.data(), g.data(), rows.data(), n, v);
            for (double &x : g)
                x *= dy[0];
            return Tensors{g};
        };
        QVERIFY(gradientError(fwd, bwd, {randomVec(n * v, rng, 4.0)}) < kTolerance);
    }

    void residualAdds()
    {
        const Vec a{1, 2, 3}, b{10, 20, 30};
        Vec out(3);
        residualAdd(a.data(), b.data(), out.data(), 3);
        QCOMPARE(out, (Vec{11, 22, 33}));
        addInto(out.data(), a.data(), 3);
        QCOMPARE(out, (Vec{12, 24, 36}));
    }

    void cs336RmsNorm()
    {
        REQUIRE_NPZ("in_features", "rmsnorm_weights", "rmsnorm_expected_output");
        std::vector<std::int64_t> shape;
        const auto x = fixture("in_features", "array", &shape);
        const auto gain = fixture("rmsnorm_weights", "weight");
        const auto expected = fixture("rmsnorm_expected_output");
        QCOMPARE(shape.size(), std::size_t(3));
        const Index d = shape[2], n = shape[0] * shape[1];
        std::vector<float> y(x.size()), stats(static_cast<std::size_t>(n));
        rmsNormForward(x.data(), gain.data(), y.data(), stats.data(), n, d, 1e-5f);
        QVERIFY2(maxAbsDiff(y, expected) < 1e-6, qPrintable(QString::number(maxAbsDiff(y, expected))));
    }

    void cs336FeedForward()
    {
        REQUIRE_NPZ("in_features", "positionwise_feedforward_weights", "positionwise_feedforward_expected_output");
        // model-2024's FFN: W2·GELU(W1·x), exact-erf GeLU.
        std::vector<std::int64_t> shape, w1Shape;
        const auto x = fixture("in_features", "array", &shape);
        const auto w1 = fixture("positionwise_feedforward_weights", "w1.weight", &w1Shape);
        const auto w2 = fixture("positionwise_feedforward_weights", "w2.weight");
        const auto expected = fixture("positionwise_feedforward_expected_output");
        const Index d = shape[2], n = shape[0] * shape[1], f = w1Shape[0];
        std::vector<float> up(std::size_t(n * f)), act(up.size()), y(std::size_t(n * d));
        linearForward(x.data(), d, w1.data(), up.data(), f, n, d, f);
        activationForward(Activation::GeLU, up.data(), act.data(), n, f);
        linearForward(act.data(), f, w2.data(), y.data(), d, n, f, d);
        QVERIFY2(maxAbsDiff(y, expected) < 1e-6, qPrintable(QString::number(maxAbsDiff(y, expected))));
    }

    void cs336ScaledDotProductAttention()
    {
        REQUIRE_NPZ("scaled_dot_product_attention_Q", "scaled_dot_product_attention_K", "scaled_dot_product_attention_V",
                    "scaled_dot_product_attention_mask", "scaled_dot_product_attention_expected_output");
        std::vector<std::int64_t> shape, maskShape;
        const auto q = fixture("scaled_dot_product_attention_Q", "array", &shape);  // (2, 16, 32, 64): the course's first 2 of 8 batch items
        const auto k = fixture("scaled_dot_product_attention_K");
        const auto v = fixture("scaled_dot_product_attention_V");
        const auto mask = fixture("scaled_dot_product_attention_mask", "array", &maskShape);  // True = masked
        const auto expected = fixture("scaled_dot_product_attention_expected_output");
        QCOMPARE(shape.size(), std::size_t(4));
        const Index batch = shape[0] * shape[1], t = shape[2], dh = shape[3];
        // The kernel only implements the causal mask: the fixture's mask must be exactly that.
        QCOMPARE(maskShape, (std::vector<std::int64_t>{t, t}));
        for (Index i = 0; i < t; ++i)
            for (Index j = 0; j < t; ++j)
                QCOMPARE(mask[std::size_t(i * t + j)] != 0.0f, j > i);
        // Each (batch, head) slice is its own sequence of one head: Q, K, V are (B·H, T, Dh).
        const AttentionDims dims{batch, t, 1, 1, dh, dh, dh, dh, dh};
        std::vector<float> probs(std::size_t(batch * t * t)), out(q.size());
        causalAttentionForward(q.data(), k.data(), v.data(), probs.data(), out.data(), dims);
        QVERIFY2(maxAbsDiff(out, expected) < 1e-6, qPrintable(QString::number(maxAbsDiff(out, expected))));
    }

    void cs336MultiheadSelfAttention()
    {
        REQUIRE_NPZ("in_features", "unbatched_multihead_self_attention_weights",
                    "unbatched_multihead_self_attention_expected_output");
        std::vector<std::int64_t> shape, headShape;
        const auto x = fixture("in_features", "array", &shape);
        const QString w = "unbatched_multihead_self_attention_weights";
        const auto expected = fixture("unbatched_multihead_self_attention_expected_output");
        const auto wo = fixture(w, "output_proj.weight");
        const Index d = shape[2], n = shape[0] * shape[1];
        fixture(w, "q_heads.0.weight", &headShape);
        const Index dh = headShape[0], heads = d / dh, width = 3 * heads * dh;
        // Stack per-head (Dh, D) matrices into one (3·H·Dh, D) q|k|v projection, as the model stores it.
        std::vector<float> wqkv;
        for (const char *part : {"q", "k", "v"})
            for (Index h = 0; h < heads; ++h) {
                const auto m = fixture(w, std::string(part) + "_heads." + std::to_string(h) + ".weight");
                wqkv.insert(wqkv.end(), m.begin(), m.end());
            }
        QCOMPARE(Index(wqkv.size()), width * d);
        std::vector<float> qkv(std::size_t(n * width)), probs(std::size_t(shape[0] * heads * shape[1] * shape[1]));
        std::vector<float> att(std::size_t(n * heads * dh)), y(std::size_t(n * d));
        linearForward(x.data(), d, wqkv.data(), qkv.data(), width, n, d, width);
        const Index q = heads * dh;
        const AttentionDims dims{shape[0], shape[1], heads, heads, dh, width, width, width, q};
        causalAttentionForward(qkv.data(), qkv.data() + q, qkv.data() + 2 * q, probs.data(), att.data(), dims);
        linearForward(att.data(), q, wo.data(), y.data(), d, n, q, d);
        QVERIFY2(maxAbsDiff(y, expected) < 1e-6, qPrintable(QString::number(maxAbsDiff(y, expected))));
    }

    void nnUtilsSoftmax()
    {
        REQUIRE_NN_UTILS();
        const QJsonObject c = nnUtilsCase("test_softmax_matches_pytorch");
        Index n = 0, v = 0, en = 0, ev = 0;
        const auto x = flatten(c["input_f32"].toArray(), n, v);
        const auto expected = flatten(c["expected"].toArray(), en, ev);
        QVERIFY(n > 0 && n == en && v == ev);
        std::vector<float> y(x.size()), shifted(x);
        softmaxRows(x.data(), y.data(), n, v);
        QVERIFY(maxAbsDiff(y, expected) < 1e-6);
        for (float &s : shifted)
            s += 100.0f;  // softmax is shift-invariant; the row maximum keeps exp from overflowing
        softmaxRows(shifted.data(), y.data(), n, v);
        QVERIFY(maxAbsDiff(y, expected) < 1e-6);
    }

    void nnUtilsCrossEntropy()
    {
        REQUIRE_NN_UTILS();
        const QJsonObject c = nnUtilsCase("test_cross_entropy");
        Index n = 0, v = 0;
        auto logits = flatten(c["inputs_f32_flat_8x5"].toArray(), n, v);
        std::vector<std::int32_t> targets;
        for (const QJsonValue &t : c["targets"].toArray())
            targets.push_back(std::int32_t(t.toInt()));
        QCOMPARE(Index(targets.size()), n);
        std::vector<float> rows(static_cast<std::size_t>(n));
        const float loss = crossEntropyLoss(logits.data(), targets.data(), rows.data(), n, v);
        QVERIFY(std::abs(loss - c["expected_mean"].toDouble()) < 1e-4);
        for (float &z : logits)
            z *= 1000.0f;  // exp(1000) overflows float: only the log-sum-exp form stays finite
        const float large = crossEntropyLoss(logits.data(), targets.data(), rows.data(), n, v);
        QVERIFY2(std::abs(large - c["expected_mean_inputs_x1000"].toDouble()) < 1e-4,
                 qPrintable(QString::number(large)));
    }

    void nnUtilsSilu()
    {
        REQUIRE_NN_UTILS();
        const QJsonObject c = nnUtilsCase("test_silu_matches_pytorch");
        Index n = 0, v = 0, en = 0, ev = 0;
        const auto x = flatten(c["input_f32"].toArray(), n, v);
        const auto expected = flatten(c["expected"].toArray(), en, ev);
        QVERIFY(n > 0 && n == en && v == ev);
        std::vector<float> y(x.size());
        activationForward(Activation::SiLU, x.data(), y.data(), n, v);
        QVERIFY(maxAbsDiff(y, expected) < 1e-6);
    }
};

QTEST_GUILESS_MAIN(TestReferenceOps)
#include "test_reference_ops.moc"
