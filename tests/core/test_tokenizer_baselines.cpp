// SPDX-License-Identifier: GPL-3.0-or-later
// Character, byte and whitespace-word baseline tokenizers: vocabulary sizes, ids with an unknown id
// for unseen symbols, offsets, and the statistics (tokens, bytes per token, unknown rate), on small
// English and Chinese texts; BPE statistics for comparison.
#include "tokenizer/baselines.h"
#include "tokenizer/bpe_trainer.h"

#include <QtTest>

using namespace lse;

Q_DECLARE_METATYPE(std::string)
Q_DECLARE_METATYPE(lse::BaselineKind)

namespace {

const std::string kEnglish = "the cat sat on the mat\nthe dog sat";
const std::string kChinese = "我爱语言模型。语言模型爱我。";  // 14 characters, 42 bytes

}  // namespace

class TestTokenizerBaselines : public QObject {
    Q_OBJECT
private slots:
    void names()
    {
        QCOMPARE(QString(baselineKindName(BaselineKind::Character)), QString("character"));
        QCOMPARE(QString(baselineKindName(BaselineKind::Byte)), QString("byte"));
        QCOMPARE(QString(baselineKindName(BaselineKind::Word)), QString("word"));
    }

    void byteTokenizer()
    {
        const auto t = BaselineTokenizer::train(BaselineKind::Byte, "anything");
        QCOMPARE(t.vocabSize(), std::size_t(256));
        QVERIFY(!t.hasUnknown());
        const std::string text = "a中\xFF";
        QCOMPARE(t.encode(text), (std::vector<std::uint32_t>{'a', 0xE4, 0xB8, 0xAD, 0xFF}));
        const auto s = t.stats(text);
        QCOMPARE(s.tokens, std::size_t(5));
        QCOMPARE(s.bytesPerToken, 1.0);
        QCOMPARE(s.unknownTokens, std::size_t(0));
        QCOMPARE(s.unknownRate, 0.0);
        QCOMPARE(t.tokenText(0xE4), std::string("\xE4"));
    }

    void characterTokenizer()
    {
        const auto t = BaselineTokenizer::train(BaselineKind::Character, kChinese);
        // 我 爱 语 言 模 型 。 = 7 distinct, + <unk>.
        QCOMPARE(t.vocabSize(), std::size_t(8));
        QVERIFY(t.hasUnknown());
        QCOMPARE(t.tokenText(BaselineTokenizer::kUnknownId), std::string("<unk>"));
        // Most frequent first (all appear twice; ties in byte order).
        QCOMPARE(t.encode(kChinese).size(), std::size_t(14));
        const auto s = t.stats(kChinese);
        QCOMPARE(s.bytes, std::size_t(42));
        QCOMPARE(s.tokens, std::size_t(14));
        QCOMPARE(s.bytesPerToken, 3.0);
        QCOMPARE(s.unknownRate, 0.0);
        // Unseen characters are unknown: 你 好 unknown, 我 known.
        const std::string test = "你好我";
        const auto ids = t.encode(test);
        QCOMPARE(ids.size(), std::size_t(3));
        QCOMPARE(ids[0], BaselineTokenizer::kUnknownId);
        QCOMPARE(ids[1], BaselineTokenizer::kUnknownId);
        QVERIFY(ids[2] != BaselineTokenizer::kUnknownId);
        QCOMPARE(t.tokenText(ids[2]), std::string("我"));
        const auto ts = t.stats(test);
        QCOMPARE(ts.unknownTokens, std::size_t(2));
        QCOMPARE(ts.unknownBytes, std::size_t(6));
        QCOMPARE(ts.unknownRate, 2.0 / 3.0);
        // Offsets are code point boundaries; emoji and invalid bytes are single symbols.
        const std::string mixed = "a😀\xFFz";
        const auto toks = t.encodeWithOffsets(mixed);
        QCOMPARE(toks.size(), std::size_t(4));
        QCOMPARE(toks[1].begin, std::size_t(1));
        QCOMPARE(toks[1].end, std::size_t(5));
        QCOMPARE(toks[2].end, std::size_t(6));
    }

    void characterFrequencyOrderAndLimit()
    {
        const auto t = BaselineTokenizer::train(BaselineKind::Character, "aaabbc");
        QCOMPARE(t.vocabSize(), std::size_t(4));
        QCOMPARE(t.encode("abcd"), (std::vector<std::uint32_t>{1, 2, 3, 0}));
        const auto small = BaselineTokenizer::train(BaselineKind::Character, "aaabbc", 3);
        QCOMPARE(small.vocabSize(), std::size_t(3));
        QCOMPARE(small.encode("abc"), (std::vector<std::uint32_t>{1, 2, 0}));
    }

    void wordTokenizer()
    {
        const auto t = BaselineTokenizer::train(BaselineKind::Word, kEnglish);
        // the cat sat on mat dog = 6 words + <unk>.
        QCOMPARE(t.vocabSize(), std::size_t(7));
        QCOMPARE(t.tokenText(1), std::string("the"));  // 3 times
        QCOMPARE(t.tokenText(2), std::string("sat"));  // twice
        const auto ids = t.encode("the bird sat\t on\u3000the mat.");
        // Words: the bird sat on the mat. → bird and "mat." are unknown. U+3000 separates words.
        QCOMPARE(ids.size(), std::size_t(6));
        QCOMPARE(ids[1], BaselineTokenizer::kUnknownId);
        QCOMPARE(ids[5], BaselineTokenizer::kUnknownId);
        QCOMPARE(ids[3], t.encode("on")[0]);
        const auto s = t.stats("the cat  sat");
        QCOMPARE(s.tokens, std::size_t(3));
        QCOMPARE(s.bytesPerToken, 12.0 / 3.0);
        QCOMPARE(s.unknownRate, 0.0);
        QVERIFY(t.encode("").empty());
        QVERIFY(t.encode(" \n\t ").empty());
        QCOMPARE(t.stats("").bytesPerToken, 0.0);
    }

    // Chinese has no spaces: a word tokenizer sees whole sentences and rarely meets them again.
    void wordTokenizerOnChinese()
    {
        const auto t = BaselineTokenizer::train(BaselineKind::Word, "我爱语言模型。 语言模型爱我。");
        QCOMPARE(t.vocabSize(), std::size_t(3));
        const auto s = t.stats("我爱语言模型。 我爱你。");
        QCOMPARE(s.tokens, std::size_t(2));
        QCOMPARE(s.unknownTokens, std::size_t(1));
        QCOMPARE(s.unknownRate, 0.5);
        QCOMPARE(s.unknownBytes, std::string("我爱你。").size());
    }

    void compressionOrdering_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::newRow("english") << std::string("the quick brown fox jumps over the lazy dog; the dog sleeps.");
        QTest::newRow("chinese") << std::string("语言模型通过预测下一个词来学习语言的结构。");
        QTest::newRow("mixed") << std::string("GPT-2 的词表有 50257 个 token，模型很大。");
    }

    // On its own training text: bytes per token byte ≤ character ≤ word, and BPE beats bytes.
    void compressionOrdering()
    {
        QFETCH(std::string, text);
        const auto byte = BaselineTokenizer::train(BaselineKind::Byte, text).stats(text);
        const auto chr = BaselineTokenizer::train(BaselineKind::Character, text).stats(text);
        const auto word = BaselineTokenizer::train(BaselineKind::Word, text).stats(text);
        QCOMPARE(byte.bytesPerToken, 1.0);
        QVERIFY(chr.bytesPerToken >= byte.bytesPerToken);
        QVERIFY(word.bytesPerToken > chr.bytesPerToken);
        QCOMPARE(chr.unknownTokens + word.unknownTokens, std::size_t(0));
        BpeTrainOptions o;
        o.vocabSize = 300;
        const auto trained = trainBpe(text, o);
        QVERIFY(trained.ok());
        auto bpe = BpeTokenizer::fromTraining(*trained);
        QVERIFY(bpe.ok());
        const auto b = bpeStats(bpe.value(), text);
        QCOMPARE(b.bytes, text.size());
        QVERIFY(b.bytesPerToken > 1.0);
        QCOMPARE(b.unknownRate, 0.0);
    }
};

QTEST_GUILESS_MAIN(TestTokenizerBaselines)
#include "test_tokenizer_baselines.moc"
