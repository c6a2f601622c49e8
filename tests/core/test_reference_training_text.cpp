// SPDX-License-Identifier: GPL-3.0-or-later
// Training text for the reference run (core/reference/training_text.h): <|endoftext|> between
// stories becomes its one special id, so the model can learn where a story ends and generation
// stops there (issue 13, item 18); and generation does stop at that id.
#include "reference/training_text.h"
#include "reference/trainer.h"
#include "tokenizer/bpe_trainer.h"

#include <QtTest>

#include <algorithm>

using namespace lse;
using namespace lse::reference;

namespace {

BpeTokenizer storyTokenizer(bool with_special)
{
    BpeTrainOptions options;
    options.vocabSize = 300;
    if (with_special)
        options.specialTokens = {std::string(kEndOfText)};
    Result<BpeTrainResult> trained = trainBpe("Once upon a time a cat sat. The end. Once upon a time a dog ran.", options);
    if (!trained)
        qFatal("%s", formatProblems(trained.problems()).c_str());
    Result<BpeTokenizer> tokenizer = BpeTokenizer::fromTraining(trained.value());
    if (!tokenizer)
        qFatal("%s", formatProblems(tokenizer.problems()).c_str());
    return std::move(tokenizer.value());
}

}  // namespace

class TestReferenceTrainingText : public QObject {
    Q_OBJECT
private slots:
    void endOfTextIsOneId()
    {
        BpeTokenizer tokenizer = storyTokenizer(true);
        const std::optional<std::uint32_t> eot = endOfTextId(tokenizer);
        QVERIFY(eot);
        QCOMPARE(tokenizer.tokenBytes(*eot), kEndOfText);
        const std::string text = "Once upon a time a cat sat.<|endoftext|>Once upon a time a dog ran.";
        const std::vector<std::uint32_t> ids = encodeTrainingText(tokenizer, text);
        QCOMPARE(std::count(ids.begin(), ids.end(), *eot), std::ptrdiff_t(1));
        QCOMPARE(tokenizer.decode(ids), text);
        // Encoded as ordinary text (what the Reference run page did) it is a dozen byte tokens.
        const std::vector<std::uint32_t> plain = tokenizer.encode(text);
        QCOMPARE(std::count(plain.begin(), plain.end(), *eot), std::ptrdiff_t(0));
        QVERIFY(plain.size() > ids.size());
    }

    void withoutTheSpecialTokenTextIsOrdinary()
    {
        BpeTokenizer tokenizer = storyTokenizer(false);
        QVERIFY(!endOfTextId(tokenizer));
        const std::string text = "a cat<|endoftext|>a dog";
        QCOMPARE(encodeTrainingText(tokenizer, text), tokenizer.encode(text));
    }

    // Generation ends when the model produces the stop token: a tiny model's greedy first token is
    // made the stop token, so greedy generation stops before emitting anything.
    void generationStopsAtEndOfText()
    {
        ModelConfig config;
        config.n_layers = 1;
        config.d_model = 16;
        config.n_heads = 2;
        config.n_kv_heads = 2;
        config.head_dim = 8;
        config.d_ff = 32;
        config.vocab_size = 24;
        config.max_seq_len = 16;
        ReferenceOptions options;
        options.max_batch = 1;
        options.context = 16;
        options.seed = 5;
        Result<std::unique_ptr<Model>> model = Model::create(config, options);
        QVERIFY2(model.ok(), formatProblems(model.problems()).c_str());
        GenerateOptions greedy;
        greedy.temperature = 0;
        greedy.max_new_tokens = 6;
        const Result<std::vector<std::int32_t>> free_run = generate(*model.value(), {1, 2}, greedy);
        QVERIFY(free_run.ok());
        QCOMPARE(free_run->size(), std::size_t(6));
        const std::int32_t first = free_run->front();
        greedy.stop_token = first;
        int calls = 0;
        const Result<std::vector<std::int32_t>> stopped =
            generate(*model.value(), {1, 2}, greedy, [&calls](std::int32_t) { return ++calls > 0; });
        QVERIFY(stopped.ok());
        QVERIFY(stopped->empty());
        QCOMPARE(calls, 0);  // the stop token is not emitted
    }
};

QTEST_GUILESS_MAIN(TestReferenceTrainingText)
#include "test_reference_training_text.moc"
