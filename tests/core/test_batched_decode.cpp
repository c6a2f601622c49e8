// SPDX-License-Identifier: GPL-3.0-or-later
// Batched generation of the reference transformer (issue 30, "Measured on this CPU"): one prefill
// of every prompt fills the KV cache, then each decode step feeds one token of every sequence. The
// batched path must give what each sequence gives alone through the single-sequence path
// (decodeStep token by token): the same logits within float tolerance and the same tokens, whether
// the batch holds copies of one prompt or different prompts of different lengths; the KV cache of
// B × context is sized and checked against memory before anything is allocated.

#include <QTest>

#include "reference/batch_generation.h"
#include "reference/model.h"
#include "reference/size_limits.h"

#include <cmath>
#include <random>
#include <vector>

using namespace lse;
using namespace lse::reference;

namespace {

ModelConfig tinyConfig()
{
    ModelConfig c;
    c.name = "tiny";
    c.n_layers = 2;
    c.d_model = 16;
    c.n_heads = 4;
    c.n_kv_heads = 2;
    c.head_dim = 4;
    c.d_ff = 24;
    c.vocab_size = 23;
    c.max_seq_len = 12;
    return c;  // RMSNorm, pre-norm, SwiGLU, RoPE, untied
}

std::unique_ptr<Model> makeModel(const ModelConfig &c, int batch, int context = 0, int cacheContext = 0, bool inferenceOnly = false)
{
    ReferenceOptions o;
    o.inference_only = inferenceOnly;
    o.seed = 5;
    o.max_batch = batch;
    o.context = context;
    o.cache_batch = batch;
    o.cache_context = cacheContext;
    Result<std::unique_ptr<Model>> r = Model::create(c, o);
    if (!r) {
        qWarning("%s", formatProblems(r.problems()).c_str());
        return nullptr;
    }
    return std::move(r.value());
}

std::vector<std::int32_t> prompt(int length, std::uint64_t seed, std::int64_t vocab)
{
    std::mt19937_64 rng(seed);
    std::vector<std::int32_t> ids(std::size_t(length), 0);
    for (std::int32_t &id : ids)
        id = std::int32_t(rng() % std::uint64_t(vocab));
    return ids;
}

bool close(const float *a, const float *b, std::int64_t n, float tolerance = 2e-5f)
{
    for (std::int64_t i = 0; i < n; ++i)
        if (!(std::abs(a[i] - b[i]) <= tolerance * (1 + std::abs(b[i]))))
            return false;
    return true;
}

// The single-sequence path: the prompt token by token, then `steps` greedy tokens; the logits after
// the prompt and after each fed token.
std::vector<std::vector<float>> singleLogits(Model &model, const std::vector<std::int32_t> &ids, int steps)
{
    const std::int64_t V = model.config().vocab_size;
    std::vector<std::vector<float>> out;
    const float *logits = nullptr;
    int position = 0;
    for (std::int32_t id : ids)
        logits = *model.decodeStep(id, position++);
    out.emplace_back(logits, logits + V);
    for (int s = 0; s < steps; ++s) {
        const auto next = std::int32_t(std::max_element(logits, logits + V) - logits);
        logits = *model.decodeStep(next, position++);
        out.emplace_back(logits, logits + V);
    }
    return out;
}

}  // namespace

class TestBatchedDecode : public QObject {
    Q_OBJECT

private slots:
    // Three prompts of 5, 3 and 7 tokens prefilled together (padded to 7) and decoded together, each
    // at its own positions, against each alone through decodeStep.
    void prefillAndDecodeMatchEachSequenceAlone_data()
    {
        QTest::addColumn<NormType>("norm");
        QTest::addColumn<PositionalEncoding>("position");
        QTest::addColumn<int>("kvHeads");
        QTest::addColumn<bool>("parallel");
        QTest::addColumn<bool>("inferenceOnly");
        QTest::addColumn<NormPlacement>("placement");
        QTest::newRow("rmsnorm rope gqa") << NormType::RMSNorm << PositionalEncoding::RoPE << 2 << false << false << NormPlacement::Pre;
        QTest::newRow("layernorm learned mha") << NormType::LayerNorm << PositionalEncoding::Learned << 4 << false << false << NormPlacement::Pre;
        QTest::newRow("sinusoidal parallel") << NormType::RMSNorm << PositionalEncoding::Sinusoidal << 1 << true << false << NormPlacement::Pre;
        // The batched model inference-only (shared layer buffers, alternating outputs): the same
        // logits as the training model's, for pre-norm, post-norm and a parallel block.
        QTest::newRow("inference-only rope gqa") << NormType::RMSNorm << PositionalEncoding::RoPE << 2 << false << true << NormPlacement::Pre;
        QTest::newRow("inference-only post-norm") << NormType::LayerNorm << PositionalEncoding::Learned << 4 << false << true << NormPlacement::Post;
        QTest::newRow("inference-only parallel") << NormType::RMSNorm << PositionalEncoding::Sinusoidal << 1 << true << true << NormPlacement::Pre;
    }
    void prefillAndDecodeMatchEachSequenceAlone()
    {
        QFETCH(NormType, norm);
        QFETCH(PositionalEncoding, position);
        QFETCH(int, kvHeads);
        QFETCH(bool, parallel);
        QFETCH(bool, inferenceOnly);
        QFETCH(NormPlacement, placement);
        ModelConfig c = tinyConfig();
        c.norm = norm;
        c.norm_placement = placement;
        c.positional_encoding = position;
        c.n_kv_heads = kvHeads;
        c.parallel_block = parallel;
        const std::int64_t V = c.vocab_size;
        const std::vector<std::vector<std::int32_t>> prompts = {prompt(5, 1, V), prompt(3, 2, V), prompt(7, 3, V)};
        const int steps = 4;
        auto single = makeModel(c, 1);
        auto batched = makeModel(c, 3, 7, 12, inferenceOnly);
        QVERIFY(single && batched);
        if (inferenceOnly) {  // no gradient arena, and the training calls refuse
            QCOMPARE(batched->memory().gradients, 0.0);
            QVERIFY(batched->parameters().front().grad == nullptr);
            const std::vector<std::int32_t> ids(7, 1);
            const Result<float> trained = batched->forwardBackward(ids.data(), ids.data(), 1, 7);
            QVERIFY(!trained.ok());
            QCOMPARE(QString::fromStdString(trained.problems().front().rule), QString(kInferenceOnlyRule));
            QVERIFY(!batched->forward(ids.data(), 1, 7).ok());
        }
        std::vector<std::vector<std::vector<float>>> alone;
        for (const auto &ids : prompts)
            alone.push_back(singleLogits(*single, ids, steps));

        std::vector<std::int32_t> padded(3 * 7, 0);
        std::vector<int> lengths;
        for (std::size_t i = 0; i < prompts.size(); ++i) {
            std::copy(prompts[i].begin(), prompts[i].end(), padded.begin() + std::ptrdiff_t(i * 7));
            lengths.push_back(int(prompts[i].size()));
        }
        Result<const float *> logits = batched->prefill(padded.data(), lengths.data(), 3, 7);
        QVERIFY(logits.ok());
        for (int i = 0; i < 3; ++i)
            QVERIFY2(close(*logits + i * V, alone[std::size_t(i)][0].data(), V), qPrintable(QString("sequence %1").arg(i)));
        std::vector<int> positions(lengths);
        for (int s = 0; s < steps; ++s) {
            std::vector<std::int32_t> fed;
            for (int i = 0; i < 3; ++i) {
                const float *row = alone[std::size_t(i)][std::size_t(s)].data();
                fed.push_back(std::int32_t(std::max_element(row, row + V) - row));
            }
            logits = batched->decodeBatch(fed.data(), positions.data(), 3);
            QVERIFY(logits.ok());
            for (int i = 0; i < 3; ++i)
                QVERIFY2(close(*logits + i * V, alone[std::size_t(i)][std::size_t(s + 1)].data(), V),
                         qPrintable(QString("step %1 sequence %2").arg(s).arg(i)));
            for (int &p : positions)
                ++p;
        }
    }

    // B copies of one prompt: every sequence gives the single-sequence tokens (greedy), and with
    // sampling sequence 0 gives generate()'s tokens for the same seed.
    void copiesOfOnePromptGiveTheSingleSequenceTokens()
    {
        const ModelConfig c = tinyConfig();
        const std::vector<std::int32_t> ids = prompt(4, 9, c.vocab_size);
        GenerateOptions options;
        options.max_new_tokens = 6;
        options.temperature = 0;
        auto single = makeModel(c, 1);
        auto batched = makeModel(c, 4, 4, 10);
        QVERIFY(single && batched);
        const std::vector<std::int32_t> expected = *generate(*single, ids, options);
        QCOMPARE(int(expected.size()), 6);
        Result<BatchGeneration> run = generateBatch(*batched, {ids, ids, ids, ids}, options);
        QVERIFY(run.ok());
        for (const std::vector<std::int32_t> &tokens : run->tokens)
            QCOMPARE(tokens, expected);
        QCOMPARE(run->decode_steps, 5);  // the first token comes from the prefill

        options.temperature = 0.9;
        options.seed = 17;
        const std::vector<std::int32_t> sampled = *generate(*single, ids, options);
        run = generateBatch(*batched, {ids, ids, ids, ids}, options);
        QVERIFY(run.ok());
        QCOMPARE(run->tokens.front(), sampled);
    }

    // Different prompts of different lengths give what each gives alone; the longer one reaches the
    // cache's end first and stops, its slot recomputed while the others go on.
    void differentPromptsGiveWhatEachGivesAlone()
    {
        const ModelConfig c = tinyConfig();  // context 12
        const std::vector<std::vector<std::int32_t>> prompts = {prompt(3, 4, c.vocab_size), prompt(9, 5, c.vocab_size),
                                                                prompt(1, 6, c.vocab_size)};
        GenerateOptions options;
        options.max_new_tokens = 8;
        options.temperature = 0;
        auto single = makeModel(c, 1);
        auto batched = makeModel(c, 3, 9, 12);
        QVERIFY(single && batched);
        Result<BatchGeneration> run = generateBatch(*batched, prompts, options);
        QVERIFY(run.ok());
        for (std::size_t i = 0; i < prompts.size(); ++i)
            QCOMPARE(run->tokens[i], *generate(*single, prompts[i], options));
        QCOMPARE(int(run->tokens[1].size()), 4);  // the prefill's, then positions 9, 10, 11 fill the context
        QCOMPARE(int(run->tokens[0].size()), 8);
    }

    // Generation pauses the profiler unless asked to profile, so a trainer's records stay as they were.
    void generationLeavesTheProfilerAlone()
    {
        const ModelConfig c = tinyConfig();
        auto model = makeModel(c, 2);
        QVERIFY(model);
        model->profiler().setEnabled(true);
        const std::vector<std::int32_t> ids = prompt(3, 1, c.vocab_size);
        QVERIFY(model->forward(ids.data(), 1, 3).ok());
        const std::vector<OpRecord> before = model->profiler().records();
        GenerateOptions options;
        options.max_new_tokens = 3;
        QVERIFY(generate(*model, ids, options).ok());
        QCOMPARE(model->profiler().records().size(), before.size());
        for (std::size_t i = 0; i < before.size(); ++i)
            QCOMPARE(model->profiler().records()[i].calls, before[i].calls);
        QVERIFY(model->profiler().enabled());

        options.profile = true;
        Result<BatchGeneration> run = generateBatch(*model, {ids, ids}, options);
        QVERIFY(run.ok());
        const auto has = [](const std::vector<OpRecord> &records, const char *name) {
            return std::any_of(records.begin(), records.end(), [&](const OpRecord &r) { return std::string(r.name) == name; });
        };
        QVERIFY(has(run->prefill_operators, "qkv_projection") && has(run->prefill_operators, "kv_cache_write"));
        QVERIFY(has(run->decode_operators, "decode_attention") && has(run->decode_operators, "lm_head"));
        QVERIFY(!has(run->prefill_operators, "decode_attention"));
    }

    // The KV cache of cache_batch × cache_context is part of the memory estimate (byte for byte) and
    // of the check before allocation; a decode step outside the cache is refused.
    void cacheIsSizedAndChecked()
    {
        const ModelConfig c = tinyConfig();
        ReferenceOptions o;
        o.max_batch = 2;
        o.context = 4;
        o.cache_batch = 3;
        o.cache_context = 10;
        Result<std::unique_ptr<Model>> r = Model::create(c, o);
        QVERIFY(r.ok());
        QCOMPARE(r.value()->memory().kv_cache, referenceMemoryEstimate(c, o).kv_cache);
        QCOMPARE(r.value()->cacheBatch(), 3);
        QCOMPARE(r.value()->cacheContext(), 10);
        const std::int32_t tokens[4] = {1, 2, 3, 4};
        const int lengths[3] = {2, 2, 2};
        QVERIFY(!r.value()->prefill(tokens, lengths, 3, 2).ok());   // above max_batch (the workspace)
        QVERIFY(!r.value()->prefill(tokens, lengths, 1, 5).ok());   // above the workspace's context
        QVERIFY(r.value()->prefill(tokens, lengths, 2, 2).ok());
        int positions[3] = {2, 2, 0};
        QVERIFY(r.value()->decodeBatch(tokens, positions, 3).ok());
        positions[1] = 4;  // the cache holds positions 0..2 of sequence 1
        QVERIFY(!r.value()->decodeBatch(tokens, positions, 3).ok());
        QVERIFY(!r.value()->decodeBatch(tokens, positions, 4).ok());  // beyond the cache's batch

        ModelConfig large = c;
        large.d_model = 4096;
        large.n_heads = 32;
        large.n_kv_heads = 32;
        large.head_dim = 128;
        large.max_seq_len = 131072;
        o.cache_batch = 64;
        o.cache_context = 131072;
        r = Model::create(large, o);
        QVERIFY(!r.ok());
        QCOMPARE(r.problems().front().rule, std::string("memory"));
        QVERIFY2(r.problems().front().message.find("KV cache of 64 × 131072 positions") != std::string::npos,
                 r.problems().front().message.c_str());
        o.cache_batch = 0;
        QVERIFY(!Model::create(c, o).ok());
    }
};

QTEST_APPLESS_MAIN(TestBatchedDecode)
#include "test_batched_decode.moc"
