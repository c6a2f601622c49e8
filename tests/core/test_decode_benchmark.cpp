// SPDX-License-Identifier: GPL-3.0-or-later
// One measured-and-predicted batched generation of an untrained reference model
// (core/reference/decode_benchmark.h), as `generate --config PRESET --prompt-tokens N --batch B` and
// the Serving page's "This CPU" section run it: the made-up prompts, the sizes of the workspace and
// KV cache, the tokens a sequence can get, the decode throughput by hand, a run with the prediction
// beside it, bad sizes named, and a cancel.

#include <QTest>

#include "../cpu_kernel_fixture.h"
#include "reference/decode_benchmark.h"

using namespace lse;
using namespace lse::reference;

namespace {

TrainConfig smallConfig()
{
    TrainConfig c;
    c.model.name = "bench";
    c.model.n_layers = 2;
    c.model.d_model = 32;
    c.model.n_heads = 4;
    c.model.n_kv_heads = 4;
    c.model.head_dim = 8;
    c.model.d_ff = 64;
    c.model.vocab_size = 97;
    c.model.max_seq_len = 32;
    return c;
}

}  // namespace

class TestDecodeBenchmark : public QObject {
    Q_OBJECT
private slots:
    void syntheticPromptIsDeterministicBelowTheVocabulary()
    {
        const std::vector<std::int32_t> a = syntheticPrompt(5, 0, 97);
        QCOMPARE(a.size(), std::size_t(5));
        QCOMPARE(a, syntheticPrompt(5, 0, 97));
        QVERIFY(a != syntheticPrompt(5, 1, 97));
        for (std::int32_t id : a)
            QVERIFY(id >= 0 && id < 97);
        QCOMPARE(a[0], 1);                  // (1 + 0 + 0) % 97
        QCOMPARE(a[1], (1 + 7919) % 97);    // the second position
        QVERIFY(syntheticPrompt(0, 0, 97).empty());
    }

    void sizesAreClampedToTheContext()
    {
        const GenerationSize size = generationSizeFor(8, 20, 30, 32);
        QCOMPARE(size.batch, 8);
        QCOMPARE(size.prompt_tokens, 20);
        QCOMPARE(size.cache_context, 32);  // 20 + 30 clamped to max_seq_len
        QCOMPARE(generationSizeFor(1, 4, 3, 32).cache_context, 7);
        // The first token from the prefill, then one per position left in the cache.
        QCOMPARE(reachableOutputTokens(30, 32, 20), 13);
        QCOMPARE(reachableOutputTokens(3, 7, 4), 3);
    }

    void decodeThroughputCountsEverySequence()
    {
        BatchGeneration g;
        g.decode_steps = 10;
        g.decode_seconds = 0.5;
        QCOMPARE(measuredDecodeTokensPerSecond(g, 4), 80.0);  // 4 · 10 / 0.5
        g.decode_steps = 0;
        QCOMPARE(measuredDecodeTokensPerSecond(g, 4), 0.0);
    }

    void runIsMeasuredAndPredicted()
    {
        const CpuKernelFactors kernels = test::givenCpuKernelFactors(1, 50e9, 4e9, 2e9, "2026-12-01T10:00:00Z");
        const Result<DecodeBenchmark> run = benchmarkUntrainedDecode(smallConfig(), 3, 6, 5, &kernels);
        QVERIFY2(run.ok(), formatProblems(run.problems()).c_str());
        const DecodeBenchmark &b = run.value();
        QCOMPARE(b.batch, 3);
        QCOMPARE(b.prompt_tokens, 6);
        QCOMPARE(b.output_tokens, 5);
        QCOMPARE(b.generation.tokens.size(), std::size_t(3));
        QCOMPARE(b.generation.decode_steps, 4);  // the first token comes from the prefill
        QVERIFY(b.measured_prefill_seconds > 0);
        QVERIFY(b.measured_decode_tokens_per_second > 0);
        QVERIFY(b.prediction.has_value());
        QVERIFY(b.prediction->prefill_seconds > 0);
        QVERIFY(b.prediction->decode_tokens_per_second > 0);

        const Result<DecodeBenchmark> unpredicted = benchmarkUntrainedDecode(smallConfig(), 1, 4, 2, nullptr);
        QVERIFY(unpredicted.ok());
        QVERIFY(!unpredicted.value().prediction);
        QVERIFY(!unpredicted.value().no_prediction.empty());
    }

    void badSizesAreNamed()
    {
        const Result<DecodeBenchmark> noBatch = benchmarkUntrainedDecode(smallConfig(), 0, 4, 2, nullptr);
        QVERIFY(!noBatch.ok());
        QCOMPARE(noBatch.problems().front().field, std::string("batch"));
        const Result<DecodeBenchmark> tooLong = benchmarkUntrainedDecode(smallConfig(), 1, 33, 2, nullptr);
        QVERIFY(!tooLong.ok());
        QCOMPARE(tooLong.problems().front().field, std::string("prompt_tokens"));
    }

    void cancelStopsTheRun()
    {
        std::atomic<bool> cancel{true};
        const Result<DecodeBenchmark> run = benchmarkUntrainedDecode(smallConfig(), 2, 4, 8, nullptr, &cancel);
        QVERIFY(!run.ok());
        QCOMPARE(run.problems().front().rule, std::string("cancelled"));
    }
};

QTEST_GUILESS_MAIN(TestDecodeBenchmark)
#include "test_decode_benchmark.moc"
