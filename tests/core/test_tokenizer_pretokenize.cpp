// SPDX-License-Identifier: GPL-3.0-or-later
// The GPT-2 pre-tokenization scanner, case by case against the pattern
// '(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+, plus the Unicode
// classes, UTF-8 handling, the byte-to-unicode alphabet and special-token splitting.
#include "tokenizer/byte_unicode.h"
#include "tokenizer/pretokenizer.h"
#include "tokenizer/unicode.h"

#include <QtTest>

#include <random>

using namespace lse;

Q_DECLARE_METATYPE(std::string)
Q_DECLARE_METATYPE(std::vector<std::string>)

class TestTokenizerPretokenize : public QObject {
    Q_OBJECT
private slots:
    void pattern_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<std::vector<std::string>>("expected");
        using V = std::vector<std::string>;
        QTest::newRow("empty") << std::string() << V{};
        QTest::newRow("words") << std::string("Hello world") << V{"Hello", " world"};
        QTest::newRow("contractions") << std::string("I'm they'll we've you're it's 'd 't")
                                      << V{"I", "'m", " they", "'ll", " we", "'ve", " you", "'re", " it", "'s", " '", "d", " '", "t"};
        QTest::newRow("uppercase contraction is other") << std::string("IT'S") << V{"IT", "'", "S"};
        QTest::newRow("numbers") << std::string("abc123 456") << V{"abc", "123", " 456"};
        QTest::newRow("punctuation run") << std::string("a?!'s b") << V{"a", "?!'", "s", " b"};
        QTest::newRow("space before punct") << std::string("x ...") << V{"x", " ..."};
        QTest::newRow("whitespace backs off") << std::string("a   b") << V{"a", "  ", " b"};
        QTest::newRow("newline before word") << std::string("a\n\nb") << V{"a", "\n", "\n", "b"};
        QTest::newRow("single newline") << std::string("a\nb") << V{"a", "\n", "b"};
        QTest::newRow("trailing spaces") << std::string("a  ") << V{"a", "  "};
        QTest::newRow("tab then word") << std::string("a \tb") << V{"a", " ", "\t", "b"};
        QTest::newRow("spaces then newline") << std::string("a  \n  b") << V{"a", "  \n ", " b"};
        QTest::newRow("cjk letters") << std::string("中文 字符") << V{"中文", " 字符"};
        QTest::newRow("combining mark is other") << std::string("e\xCC\x81x") << V{"e", "\xCC\x81", "x"};
        QTest::newRow("emoji is other") << std::string("hi 🙃🙃!") << V{"hi", " 🙃🙃!"};
        QTest::newRow("nbsp is whitespace") << std::string("a\xC2\xA0" "b") << V{"a", "\xC2\xA0", "b"};
        QTest::newRow("roman numeral is number") << std::string("x\xE2\x85\xA0") << V{"x", "\xE2\x85\xA0"};
        QTest::newRow("superscript two is number") << std::string("m\xC2\xB2") << V{"m", "\xC2\xB2"};
        QTest::newRow("control char is other") << std::string("a\x01" "b") << V{"a", "\x01", "b"};
        QTest::newRow("invalid bytes are other") << std::string("a\xFF\xFE b\xC3") << V{"a", "\xFF\xFE", " b", "\xC3"};
        QTest::newRow("space before invalid") << std::string(" \x80") << V{" \x80"};
        QTest::newRow("lone space") << std::string(" ") << V{" "};
        QTest::newRow("apostrophe at end") << std::string("x'") << V{"x", "'"};
        QTest::newRow("apostrophe l at end") << std::string("x'l") << V{"x", "'", "l"};
        // Runs of ASCII letters are crossed 16 bytes at a time (detail::asciiLetterRun): runs that
        // end inside and after a block, the bytes next to the letters' ranges, and a non-ASCII
        // letter continuing a long ASCII run.
        QTest::newRow("run of 16") << std::string(" abcdefghijklmnop.") << V{" abcdefghijklmnop", "."};
        QTest::newRow("run of 33") << std::string("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefg1") << V{"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefg", "1"};
        QTest::newRow("bytes beside the letters") << std::string("abcdefghijklmnopq@[`{") << V{"abcdefghijklmnopq", "@[`{"};
        QTest::newRow("long run then non-ASCII letter") << std::string("abcdefghijklmnopqrst\xC3\xA9" "uvwxyzabcdefghij k")
                                                        << V{"abcdefghijklmnopqrst\xC3\xA9" "uvwxyzabcdefghij", " k"};
        QTest::newRow("long run then invalid byte") << std::string("abcdefghijklmnopqrst\xFF" "x") << V{"abcdefghijklmnopqrst", "\xFF", "x"};
    }

    // The 16-byte letter scan against the byte-by-byte class table, at every length and for every
    // byte that may end a run (all 256), the run starting at every offset of a block.
    void letterRunMatchesTheClassTable()
    {
        for (int stop = 0; stop < 256; ++stop)
            for (std::size_t length = 0; length < 40; ++length) {
                std::string text(length, 'q');
                for (std::size_t i = 0; i < length; ++i)
                    text[i] = static_cast<char>((i % 2 ? 'a' : 'A') + i % 26);
                text.push_back(static_cast<char>(stop));
                text += "zzzzzzzzzzzzzzzzzzzz";  // letters after the stop byte must not be counted
                const bool stopIsLetter = stop < 128 && kAsciiClass[std::size_t(stop)] == std::uint8_t(CharClass::Letter);
                const std::size_t expected = stopIsLetter ? text.size() : length;
                const std::size_t got = detail::asciiLetterRun(reinterpret_cast<const unsigned char *>(text.data()), text.size());
                if (got != expected)
                    QFAIL(qPrintable(QString("length %1, stop byte %2: %3 letters, expected %4").arg(length).arg(stop).arg(got).arg(expected)));
            }
    }

    // The 64-byte class masks against the class table, every byte value at every position.
    void blockMasksMatchTheClassTable()
    {
        for (int b = 0; b < 256; ++b)
            for (int k = 0; k < 64; ++k) {
                std::string block(64, 'x');
                block[std::size_t(k)] = static_cast<char>(b);
                const detail::AsciiBlockMasks m = detail::asciiBlockMasks(reinterpret_cast<const unsigned char *>(block.data()));
                const std::uint64_t bit = std::uint64_t(1) << k;
                const auto cls = b < 128 ? static_cast<CharClass>(kAsciiClass[std::size_t(b)]) : CharClass::Other;
                const bool ok = bool(m.nonAscii & bit) == (b >= 128) && bool(m.letter & bit) == (b < 128 && cls == CharClass::Letter) &&
                                bool(m.digit & bit) == (b < 128 && cls == CharClass::Number) &&
                                bool(m.space & bit) == (b < 128 && cls == CharClass::Space) && bool(m.blank & bit) == (b == ' ') &&
                                bool(m.apostrophe & bit) == (b == '\'') && (m.letter & ~bit) == (~bit & ~std::uint64_t(0));
                if (!ok)
                    QFAIL(qPrintable(QString("byte %1 at %2").arg(b).arg(k)));
            }
    }

    // forEachPretoken takes the starts of most pre-tokens from 64-byte bit masks; it must cut
    // exactly where the character-by-character scanner cuts. Random texts of pieces chosen to hit
    // the rules' edges (contractions and near misses, whitespace runs before words and at the end,
    // other scripts, whitespace beyond ASCII, 4-byte characters, invalid and cut-off UTF-8), at
    // lengths that put every rule at every offset of a window and across its end.
    void windowsCutLikeTheCharacterScanner()
    {
        const std::vector<std::string> pieces = {
            "a", "Z", "q", "0", "7", " ", " ", " ", "  ", "\n", "\n\n", "\t", "\r\n", "\x0b", "\x0c", "'", "''", "'s", "'t", "'d",
            "'m", "'ll", "'ve", "'re", "'l", "'v", "'r", "'S", "'LL", "!", ".", ",", "-", "\x7f", std::string(1, '\0'), "\x1f",
            "word", " the", "don't", "it's", "we've", "\xC3\xA9", "\xD0\xB4", "\xE4\xB8\xAD", "\xF0\x9F\x99\x83", "\xC2\xA0",
            "\xE3\x80\x80", "\xC2\x85", "\xE2\x80\x83", "\xD9\xA3", "\xC2\xB2", "\xFF", "\x80", "\xE4\xB8", "\xC3", "\xED\xA0\x80",
            "\xE0\x80\xAF"};
        std::mt19937 rng(64);
        std::size_t compared = 0;
        for (int round = 0; round < 6000; ++round) {
            std::string text;
            const std::size_t target = rng() % 300;
            // Some texts mostly ASCII words, some dense in the rare pieces.
            const bool dense = round % 3 == 0;
            while (text.size() < target)
                text += dense || rng() % 4 == 0 ? pieces[rng() % pieces.size()] : std::string(pieces[rng() % 6]);
            std::vector<ByteSpan> byWindows, byCharacter;
            forEachPretoken(text, [&](std::size_t b, std::size_t e) { byWindows.push_back({b, e}); });
            detail::scanPretokens<false>(text, [&](std::size_t b, std::size_t e) { byCharacter.push_back({b, e}); });
            if (byWindows != byCharacter) {
                QByteArray hex = QByteArray::fromStdString(text).toHex(' ');
                QFAIL(qPrintable(QString("round %1: windows cut differently in %2").arg(round).arg(QString::fromLatin1(hex))));
            }
            compared += byWindows.size();
        }
        QVERIFY(compared > 100000);
    }

    void pattern()
    {
        QFETCH(std::string, text);
        QFETCH(std::vector<std::string>, expected);
        const auto got = pretokenizeToStrings(text);
        if (got != expected) {
            QStringList g;
            for (const auto &s : got)
                g << ("[" + QString::fromStdString(s) + "]");
            QFAIL(qPrintable("got " + g.join(' ')));
        }
    }

    void spansTileEveryByte()
    {
        std::string all;
        for (int b = 0; b < 256; ++b)
            all.push_back(static_cast<char>(b));
        all += "中文🙃 x  y\n";
        const auto spans = pretokenize(all);
        std::size_t at = 0;
        for (const auto &s : spans) {
            QCOMPARE(s.begin, at);
            QVERIFY(s.end > s.begin);
            at = s.end;
        }
        QCOMPARE(at, all.size());
    }

    void unicodeClasses()
    {
        QCOMPARE(unicodeClass(U'a'), CharClass::Letter);
        QCOMPARE(unicodeClass(0x4E2D), CharClass::Letter);   // 中
        QCOMPARE(unicodeClass(0x0663), CharClass::Number);   // Arabic-Indic three
        QCOMPARE(unicodeClass(0x3000), CharClass::Space);    // ideographic space
        QCOMPARE(unicodeClass(0x200B), CharClass::Other);    // zero-width space is not White_Space
        QCOMPARE(unicodeClass(0x1F643), CharClass::Other);   // emoji
        QCOMPARE(unicodeClass(0x20000), CharClass::Letter);  // CJK extension B
        QCOMPARE(unicodeClass(0x1D7CE), CharClass::Number);  // mathematical bold digit zero
        QVERIFY(QString(unicodeTablesVersion()).startsWith("1"));
    }

    void utf8()
    {
        QCOMPARE(decodeUtf8At("\xC0\x80", 0).codepoint, kInvalidCodepoint);      // overlong
        QCOMPARE(decodeUtf8At("\xED\xA0\x80", 0).codepoint, kInvalidCodepoint);  // surrogate
        QCOMPARE(decodeUtf8At("\xF4\x90\x80\x80", 0).codepoint, kInvalidCodepoint);
        QCOMPARE(decodeUtf8At("\xF0\x9F\x99\x83", 0).codepoint, 0x1F643u);
        QCOMPARE(incompleteUtf8Tail("ab\xF0\x9F\x99"), std::size_t(3));
        QCOMPARE(incompleteUtf8Tail("ab\xE4"), std::size_t(1));
        QCOMPARE(incompleteUtf8Tail("ab\xE0\x80"), std::size_t(0));  // can never complete
        QCOMPARE(incompleteUtf8Tail("ab\xC3\xA9"), std::size_t(0));
        QCOMPARE(repairUtf8("a\xF0\x9F\x99" "b"), std::string("a\xEF\xBF\xBD" "b"));
        QCOMPARE(repairUtf8("\xFF\xFE"), std::string("\xEF\xBF\xBD\xEF\xBF\xBD"));
    }

    void byteAlphabet()
    {
        QCOMPARE(byteToUnicode(' '), 0x120u);
        QCOMPARE(byteToUnicode('!'), std::uint32_t('!'));
        QCOMPARE(byteToUnicode('\n'), 0x10Au);
        std::string all;
        for (int b = 0; b < 256; ++b)
            all.push_back(static_cast<char>(b));
        QCOMPARE(*alphabetToBytes(bytesToAlphabet(all)), all);
        QVERIFY(!alphabetToBytes(" "));
    }

    void specialSplitLongestWins()
    {
        const SpecialTokenMatcher m({"<|endoftext|>", "<|endoftext|><|endoftext|>"});
        const std::string text = "a<|endoftext|><|endoftext|><|endoftext|>b<|endoftext";
        std::vector<std::string> parts;
        m.split(
            text, [&](std::size_t b, std::size_t e) { parts.push_back("T:" + text.substr(b, e - b)); },
            [&](std::size_t b, std::size_t e, std::size_t) { parts.push_back("S:" + text.substr(b, e - b)); });
        const std::vector<std::string> expected{"T:a", "S:<|endoftext|><|endoftext|>", "S:<|endoftext|>", "T:b<|endoftext"};
        QVERIFY(parts == expected);
    }
};

QTEST_GUILESS_MAIN(TestTokenizerPretokenize)
#include "test_tokenizer_pretokenize.moc"
