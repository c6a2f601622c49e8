// SPDX-License-Identifier: GPL-3.0-or-later
// Inputs the tokenizer reads in pieces (issue 28, items 10 and 11): every read error is a problem
// naming the file, never an exception or a silent "0 tokens" (/proc/self/mem says EIO); a /proc
// file that states 0 bytes is read to its end and its bytes counted; a file is pre-tokenized and
// encoded in pieces with exactly the counts and ids of the whole text, in text without a space
// after a word too, and a run of one character class longer than kMaxPretokenBytes is merged in
// the same slices on every path (whole text, stream, trainer), so that no input needs memory in
// proportion to one pre-token.
#include "common/file_bytes.h"
#include "tokenizer/bpe_tokenizer.h"
#include "tokenizer/bpe_trainer.h"
#include "tokenizer/pretokenizer.h"

#include "../fixture_paths.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <optional>
#include <sstream>

using namespace lse;

namespace {

const std::string kEot = "<|endoftext|>";

std::optional<BpeTokenizer> &gpt2()
{
    static std::optional<BpeTokenizer> tok;
    if (!tok) {
        auto r = BpeTokenizer::loadGpt2(lse::test::gpt2VocabPath().toStdString(), lse::test::gpt2MergesPath().toStdString(), {kEot});
        if (r.ok())
            tok = std::move(r.value());
    }
    return tok;
}

std::string repeat(const std::string &unit, std::size_t bytes)
{
    std::string out;
    out.reserve(bytes + unit.size());
    while (out.size() < bytes)
        out += unit;
    return out;
}

std::string sampleText()
{
    QFile f(QStringLiteral(LSE_SOURCE_DIR "/resources/samples/tiny_stories_generated.txt"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray bytes = f.readAll();
    return std::string(bytes.constData(), static_cast<std::size_t>(bytes.size()));
}

// Texts whose pieces are hard to cut: long runs of one class (letters, NUL bytes, spaces, two-byte
// letters), apostrophes before a contraction, text with no space after a word (Chinese),
// special tokens beside long runs.
std::vector<std::pair<const char *, std::string>> hardTexts()
{
    const std::size_t overSlice = kMaxPretokenBytes + kMaxPretokenBytes / 8;
    return {
        {"letters", "hello " + repeat("a", overSlice) + " world"},
        {"nul bytes", repeat(std::string(1, '\0'), overSlice)},
        {"spaces", "x" + repeat(" ", overSlice) + "y  \n"},
        {"two-byte letters", repeat("\xC3\xA9", overSlice / 2) + " caf\xC3\xA9"},
        {"apostrophes", "'s and " + repeat("'", kMaxPretokenBytes + 9) + "ll"},
        {"chinese", repeat("\xE6\x88\x91\xE4\xBB\xAC\xE4\xBB\x8A\xE5\xA4\xA9\xE5\xAD\xA6\xE4\xB9\xA0\xE3\x80\x82", 1 << 20)},
        {"specials", repeat("b", overSlice) + kEot + "c" + kEot + "end"},
    };
}

std::vector<std::uint32_t> streamIds(BpeTokenizer &t, const std::string &text, std::size_t chunk)
{
    std::istringstream in(text);
    std::vector<std::uint32_t> ids;
    const Result<std::size_t> r =
        t.encodeStream(in, {kEot}, [&](const std::uint32_t *p, std::size_t n) { ids.insert(ids.end(), p, p + n); }, chunk);
    return r.ok() ? ids : std::vector<std::uint32_t>{};
}

QString writeTemp(const QTemporaryDir &dir, const char *name, const std::string &text)
{
    const QString path = dir.filePath(QString::fromLatin1(name));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text.data(), qint64(text.size())) != qint64(text.size()))
        return {};
    return path;
}

}  // namespace

class TestTokenizerLongInputs : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        LSE_REQUIRE_FIXTURE(lse::test::gpt2VocabPath());
        QVERIFY(gpt2().has_value());
    }

    // /proc/self/mem states 0 bytes and fails every read at offset 0 with EIO: std::ifstream's
    // streambuf threw std::__ios_failure from train-bpe (abort), and the encoder saw an empty file.
    void readErrorsAreProblemsNamingTheFile()
    {
        const std::string mem = "/proc/self/mem";
        Result<FileReader> reader = FileReader::open(mem, FileKind::Data);
        QVERIFY(reader.ok());
        char buffer[64];
        const Result<std::size_t> got = reader.value().read(buffer, sizeof buffer);
        QVERIFY(!got.ok());
        QCOMPARE(got.problems().front().field, mem);
        QCOMPARE(got.problems().front().rule, std::string("unreadable"));
        QVERIFY2(got.problems().front().message.find("Input/output error") != std::string::npos,
                 got.problems().front().message.c_str());

        BpeTrainOptions options;
        options.vocabSize = 300;
        const Result<BpeTrainResult> trained = trainBpeFiles({mem}, options);
        QVERIFY(!trained.ok());
        QCOMPARE(trained.problems().front().field, mem);

        const Result<FileEncoding> encoded = gpt2()->encodeFile(mem, {}, [](const std::uint32_t *, std::size_t) {});
        QVERIFY(!encoded.ok());
        QCOMPARE(encoded.problems().front().field, mem);
        QCOMPARE(encoded.problems().front().rule, std::string("unreadable"));
    }

    // /proc/version states 0 bytes and holds one line: its bytes are read and counted.
    void procFilesAreReadToTheirEnd()
    {
        QFile version(QStringLiteral("/proc/version"));
        QVERIFY(version.open(QIODevice::ReadOnly));
        const QByteArray expected = version.readAll();
        QVERIFY(!expected.isEmpty());
        std::vector<std::uint32_t> ids;
        const Result<FileEncoding> encoded = gpt2()->encodeFile(
            "/proc/version", {}, [&](const std::uint32_t *p, std::size_t n) { ids.insert(ids.end(), p, p + n); });
        QVERIFY(encoded.ok());
        QCOMPARE(encoded->bytes, std::int64_t(expected.size()));
        QCOMPARE(encoded->tokens, ids.size());
        QCOMPARE(ids, gpt2()->encode(std::string_view(expected.constData(), std::size_t(expected.size()))));

        std::int64_t bytes = 0;
        const Result<PretokenCounts> counted = countFilePretokens("/proc/version", {}, 1, 16, nullptr, &bytes);
        QVERIFY(counted.ok());
        QCOMPARE(bytes, std::int64_t(expected.size()));
    }

    // The slice rule: no slice is longer than kMaxPretokenBytes, slices start on characters.
    void slicesStartOnCharacters()
    {
        const std::string short_run(100, 'a');
        QCOMPARE(pretokenSliceLength(short_run), std::size_t(100));
        const std::string letters(kMaxPretokenBytes + 10, 'a');
        QCOMPARE(pretokenSliceLength(letters), kMaxPretokenBytes);
        // Two-byte characters starting at odd offsets: the cut moves back one byte when it would
        // fall inside one.
        const std::string shifted = "x" + repeat("\xC3\xA9", kMaxPretokenBytes);
        const std::size_t cut = pretokenSliceLength(shifted);
        QVERIFY(cut <= kMaxPretokenBytes && cut + 3 >= kMaxPretokenBytes);
        QVERIFY((static_cast<unsigned char>(shifted[cut]) & 0xC0) != 0x80);
        // Stray continuation bytes have no character to move back to.
        const std::string stray(kMaxPretokenBytes + 10, '\x80');
        QCOMPARE(pretokenSliceLength(stray), kMaxPretokenBytes);
    }

    // The stream encoder (any chunk size) gives the ids of the whole text, and so does the
    // sink form of encodeWithOffsets; decoding gives the text back.
    void streamEqualsWholeTextOnLongRuns()
    {
        BpeTokenizer &t = *gpt2();
        for (const auto &[name, text] : hardTexts()) {
            const std::vector<std::uint32_t> whole = t.encode(text, {kEot});
            QVERIFY2(t.decodeBytes(whole) == text, name);
            QVERIFY2(streamIds(t, text, 100003) == whole, name);
            std::vector<std::uint32_t> listed;
            std::size_t batches = 0;
            t.encodeWithOffsets(text, {kEot}, [&](const EncodedToken *tokens, std::size_t n) {
                ++batches;
                for (std::size_t i = 0; i < n; ++i)
                    listed.push_back(tokens[i].id);
            });
            QVERIFY2(listed == whole, name);
            QVERIFY2(batches >= 1, name);
        }
    }

    // Counting a file in pieces (tiny chunks too) gives the counts of the whole text.
    void filePiecesCountLikeTheWholeText()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::vector<std::pair<const char *, std::string>> texts = hardTexts();
        texts.emplace_back("sample", sampleText() + kEot + sampleText());
        for (const auto &[name, text] : texts) {
            const QString path = writeTemp(dir, "input.txt", text);
            QVERIFY(!path.isEmpty());
            const PretokenCounts whole = countPretokens(text, {kEot}, 2);
            const std::vector<std::size_t> chunks = text.size() < 100000 ? std::vector<std::size_t>{7, 1000, std::size_t{1} << 16}
                                                                          : std::vector<std::size_t>{std::size_t{1} << 16, std::size_t{1} << 20};
            for (const std::size_t chunk : chunks) {
                std::int64_t bytes = 0;
                const Result<PretokenCounts> pieces = countFilePretokens(path.toStdString(), {kEot}, 2, chunk, nullptr, &bytes);
                QVERIFY2(pieces.ok(), name);
                QCOMPARE(bytes, std::int64_t(text.size()));
                QVERIFY2(pieces->entries == whole.entries, qPrintable(QStringLiteral("%1, chunk %2").arg(name).arg(chunk)));
            }
            // No counted pre-token is longer than a slice.
            for (const auto &[pretoken, count] : whole.entries)
                QVERIFY2(pretoken.size() <= kMaxPretokenBytes, name);
        }
    }

    // A mapped file on several threads: pieces cut where the encodings concatenate, so the ids are
    // those of one thread, in order, whatever the thread count: prose with special tokens placed
    // right at the cut points' targets, a text with no place to cut (left to one thread), Chinese
    // with a line break now and then. And no cut falls inside a special token.
    void filesOnSeveralThreadsGiveTheSameIds()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::size_t piece = BpeTokenizer::kParallelPieceBytes;
        // A special token with a space in it, where a cut would otherwise be allowed: it starts 3
        // bytes before the first piece's end, so its space is the first candidate cut.
        const std::string docBreak = "<|doc break|>";
        Result<BpeTokenizer> withBreak = BpeTokenizer::loadGpt2(lse::test::gpt2VocabPath().toStdString(),
                                                                lse::test::gpt2MergesPath().toStdString(), {kEot, docBreak});
        QVERIFY(withBreak.ok());
        const std::vector<std::string> specials = {kEot, docBreak};
        std::string prose = repeat(sampleText() + kEot + "\n", 3 * piece);
        for (std::size_t at = piece - 3; at + 16 < prose.size(); at += piece)
            prose.replace(at, docBreak.size(), docBreak);
        const std::vector<std::pair<const char *, std::string>> texts = {
            {"prose", prose},
            {"no place to cut", repeat("x", 2 * piece + 17)},
            {"chinese", repeat("\xE6\x88\x91\xE4\xBB\xAC\xE4\xBB\x8A\xE5\xA4\xA9\xE3\x80\x82 \n", 2 * piece + 1000)},
        };
        for (const auto &[name, text] : texts) {
            const QString path = writeTemp(dir, "input.txt", text);
            QVERIFY(!path.isEmpty());
            std::vector<std::vector<std::uint32_t>> byThreads;
            for (const unsigned threads : {1u, 2u, 3u}) {
                BpeTokenizer t = withBreak.value();
                std::vector<std::uint32_t> ids;
                const Result<FileEncoding> done = t.encodeFile(path.toStdString(), specials, [&](const std::uint32_t *p, std::size_t n) {
                    ids.insert(ids.end(), p, p + n);
                }, std::size_t(1) << 20, threads);
                QVERIFY2(done.ok(), name);
                QCOMPARE(done->tokens, ids.size());
                QCOMPARE(done->bytes, std::int64_t(text.size()));
                byThreads.push_back(std::move(ids));
            }
            QVERIFY2(byThreads[1] == byThreads[0], name);
            QVERIFY2(byThreads[2] == byThreads[0], name);
        }
        // nextSafeCut: after a word, before a space or a line break, never inside a special token.
        const std::string text = "one two" + docBreak + " three";
        QCOMPARE(nextSafeCut(text, 1, specials), std::size_t(3));
        QCOMPARE(nextSafeCut(text, 4, specials), text.find(" three"));  // not the space in <|doc break|>
        QCOMPARE(nextSafeCut(text, 4, {}), text.find(" break"));
        QVERIFY(!specialTokenCrosses(text, 3, specials));
        QVERIFY(specialTokenCrosses(text, text.find(" break"), specials));
        QCOMPARE(nextSafeCut("abc", 1, {}), std::size_t(3));
    }

    // The trainer on a file equals the trainer on its text, and reports the bytes it read.
    void trainingFromAFileEqualsTrainingOnItsText()
    {
        QTemporaryDir dir;
        const std::string text = sampleText() + kEot + repeat("z", kMaxPretokenBytes + 100);
        const QString path = writeTemp(dir, "train.txt", text);
        BpeTrainOptions options;
        options.vocabSize = 400;
        options.specialTokens = {kEot};
        const Result<BpeTrainResult> fromFile = trainBpeFiles({path.toStdString()}, options);
        const Result<BpeTrainResult> fromText = trainBpe(text, options);
        QVERIFY(fromFile.ok() && fromText.ok());
        QCOMPARE(fromFile->merges, fromText->merges);
        QCOMPARE(fromFile->inputBytes, std::int64_t(text.size()));
    }

    // A set cancel flag stops the pre-tokenizer between pieces.
    void cancelStopsBetweenPieces()
    {
        QTemporaryDir dir;
        const QString path = writeTemp(dir, "text.txt", sampleText());
        std::atomic<bool> cancel{true};
        const Result<PretokenCounts> counted = countFilePretokens(path.toStdString(), {}, 1, 1024, &cancel);
        QVERIFY(!counted.ok());
        QCOMPARE(counted.problems().front().rule, std::string("cancelled"));
    }
};

QTEST_MAIN(TestTokenizerLongInputs)
#include "test_tokenizer_long_inputs.moc"
