// SPDX-License-Identifier: GPL-3.0-or-later
// GPT-2 encoder/decoder against reference ids produced by tiktoken (CS336 fixtures): exact ids for
// every case, decode(encode(x)) == x, streaming encode == encode at many chunk sizes, overlapping
// special tokens, offsets, save/load round trip and error messages naming file and line.
#include "tokenizer/bpe_tokenizer.h"
#include "tokenizer/bpe_trainer.h"
#include "tokenizer/byte_unicode.h"
#include "tokenizer/pretokenizer.h"

#include "../fixture_paths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <sstream>

using namespace lse;

Q_DECLARE_METATYPE(std::string)
Q_DECLARE_METATYPE(std::vector<std::string>)
Q_DECLARE_METATYPE(std::vector<std::uint32_t>)

namespace {

// The course's sample texts and expected ids (tests/data); the GPT-2 files are the bundled ones.
QString tokDir() { return lse::test::fixturePath(QStringLiteral("tokenizer")); }

std::string readAll(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray d = f.readAll();
    return std::string(d.constData(), static_cast<std::size_t>(d.size()));
}

const std::string kEot = "<|endoftext|>";

std::optional<BpeTokenizer> &gpt2()
{
    static std::optional<BpeTokenizer> tok;
    if (!tok && QFile::exists(lse::test::gpt2VocabPath())) {
        auto r = BpeTokenizer::loadGpt2(lse::test::gpt2VocabPath().toStdString(),
                                        lse::test::gpt2MergesPath().toStdString(), {kEot});
        if (r.ok())
            tok = std::move(r.value());
        else
            qWarning("%s", formatProblems(r.problems()).c_str());
    }
    return tok;
}

std::vector<std::uint32_t> streamEncode(BpeTokenizer &t, const std::string &text, const std::vector<std::string> &allowed,
                                        std::size_t chunk)
{
    std::istringstream in(text);
    std::vector<std::uint32_t> ids;
    const auto r = t.encodeStream(in, allowed, [&](const std::uint32_t *p, std::size_t n) { ids.insert(ids.end(), p, p + n); }, chunk);
    if (!r.ok())
        return {};
    return ids;
}


// Byte-level BPE as its definition states it, on strings: merge the adjacent pair of lowest rank
// (the leftmost of equal ranks) until no pair has one. Slow and plain: the oracle for the encoder's
// three merge paths (scalar up to 16 bytes, vectorised up to 96, heap beyond).
struct PlainBpe {
    std::map<std::pair<std::string, std::string>, std::size_t> rank;
    std::map<std::string, std::uint32_t> idOf;

    static std::optional<PlainBpe> load(const BpeTokenizer &t)
    {
        PlainBpe bpe;
        QFile f(lse::test::gpt2MergesPath());
        if (!f.open(QIODevice::ReadOnly))
            return std::nullopt;
        std::string left, right;
        for (const QByteArray &line : f.readAll().split('\n')) {
            if (line.isEmpty() || line.startsWith("#version"))
                continue;
            const QList<QByteArray> parts = line.trimmed().split(' ');
            if (parts.size() != 2 || !alphabetToBytesInto(parts[0].toStdString(), left) ||
                !alphabetToBytesInto(parts[1].toStdString(), right))
                return std::nullopt;
            bpe.rank.emplace(std::make_pair(left, right), bpe.rank.size());
        }
        for (std::uint32_t id = 0; id < t.vocabSize(); ++id)
            bpe.idOf.emplace(std::string(t.tokenBytes(id)), id);
        return bpe;
    }

    std::vector<std::uint32_t> encode(std::string_view piece) const
    {
        std::vector<std::string> parts;
        for (const char c : piece)
            parts.emplace_back(1, c);
        for (;;) {
            std::size_t best = parts.size(), bestRank = 0;
            for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
                const auto it = rank.find({parts[i], parts[i + 1]});
                if (it != rank.end() && (best == parts.size() || it->second < bestRank)) {
                    best = i;
                    bestRank = it->second;
                }
            }
            if (best == parts.size())
                break;
            parts[best] += parts[best + 1];
            parts.erase(parts.begin() + static_cast<std::ptrdiff_t>(best) + 1);
        }
        std::vector<std::uint32_t> ids;
        for (const std::string &part : parts)
            ids.push_back(idOf.at(part));
        return ids;
    }
};

// Pre-tokens of every length from 1 to 100 bytes, and of 128, 200, 255, 256 and 300, in several scripts (ASCII letters, Latin with
// accents, Cyrillic, CJK, digits, punctuation runs), joined into one text: seeded, so the same on
// every run.
std::string mixedLengthText()
{
    const std::vector<std::string> alphabets[] = {
        {"a", "b", "e", "n", "r", "s", "t", "th", "in", "er"},
        {"\xC3\xA9", "\xC3\xBC", "e", "r", "s", "t"},
        {"\xD0\xB0", "\xD0\xBE", "\xD1\x82", "\xD0\xBD", "\xD1\x80", "\xD0\xBA"},
        {"\xE4\xB8\xAD", "\xE6\x96\x87", "\xE5\xAD\x97", "\xE7\xAC\xA6", "\xE7\x9A\x84", "\xE6\x98\xAF"},
        {"0", "1", "2", "5", "9"},
        {"!", "?", "-", "=", "*", "/"},
    };
    std::mt19937 rng(35);
    std::string text;
    std::vector<std::size_t> lengths(100);
    std::iota(lengths.begin(), lengths.end(), std::size_t(1));
    lengths.insert(lengths.end(), {128, 200, 255, 256, 300});
    for (const std::size_t length : lengths) {
        for (const auto &alphabet : alphabets) {
            std::string word;
            while (word.size() < length)
                word += alphabet[rng() % alphabet.size()];
            text += word;
            text += ' ';
        }
    }
    return text;
}
}  // namespace

class TestTokenizerGpt2 : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        for (const QString &path : {lse::test::gpt2VocabPath(), lse::test::gpt2MergesPath(), tokDir() + "/expected_ids_gpt2.json"})
            LSE_REQUIRE_FIXTURE(path);
        QVERIFY(gpt2().has_value());
        QCOMPARE(gpt2()->vocabSize(), std::size_t(50257));
        QCOMPARE(gpt2()->mergeCount(), std::size_t(50000));
    }

    void referenceIds_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<std::vector<std::string>>("allowed");
        QTest::addColumn<std::vector<std::uint32_t>>("ids");
        QFile f(tokDir() + "/expected_ids_gpt2.json");
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray cases = QJsonDocument::fromJson(f.readAll()).object().value("cases").toArray();
        QVERIFY(cases.size() >= 12);
        for (const auto &c : cases) {
            const QJsonObject o = c.toObject();
            const QJsonObject input = o.value("input").toObject();
            std::string text;
            if (input.contains("file")) {
                const QString name = input.value("file").toString();
                QString path = tokDir() + "/" + name;
                if (!QFile::exists(path))
                    path = lse::test::fixturePath("bpe/" + name);
                QVERIFY2(QFile::exists(path), qPrintable(path));
                text = readAll(path);
            } else {
                text = input.value("text").toString().toStdString();
            }
            std::vector<std::string> allowed;
            for (const auto &a : o.value("allowed_special").toArray())
                allowed.push_back(a.toString().toStdString());
            std::vector<std::uint32_t> ids;
            for (const auto &v : o.value("ids").toArray())
                ids.push_back(static_cast<std::uint32_t>(v.toInteger()));
            QTest::newRow(qPrintable(o.value("test").toString())) << text << allowed << ids;
        }
    }

    void referenceIds()
    {
        QFETCH(std::string, text);
        QFETCH(std::vector<std::string>, allowed);
        QFETCH(std::vector<std::uint32_t>, ids);
        BpeTokenizer &t = *gpt2();
        const auto got = t.encode(text, allowed);
        if (got != ids) {
            std::size_t i = 0;
            while (i < got.size() && i < ids.size() && got[i] == ids[i])
                ++i;
            QFAIL(qPrintable(QString("ids differ at %1 (got %2 ids, expected %3)").arg(i).arg(got.size()).arg(ids.size())));
        }
        QCOMPARE(t.decode(got), text);
        QCOMPARE(t.decodeBytes(got), text);
        for (const std::size_t chunk : {1u, 2u, 3u, 7u, 64u, 4096u})
            QVERIFY2(streamEncode(t, text, allowed, chunk) == ids, qPrintable(QString("chunk %1").arg(chunk)));
        // Offsets tile the text.
        const auto toks = t.encodeWithOffsets(text, allowed);
        QCOMPARE(toks.size(), ids.size());
        std::size_t at = 0;
        for (std::size_t i = 0; i < toks.size(); ++i) {
            QCOMPARE(toks[i].id, ids[i]);
            QCOMPARE(toks[i].begin, at);
            at = toks[i].end;
        }
        QCOMPARE(at, text.size());
    }

    void overlappingSpecialTokensLongestWins()
    {
        auto r = BpeTokenizer::loadGpt2(lse::test::gpt2VocabPath().toStdString(), lse::test::gpt2MergesPath().toStdString(),
                                        {kEot, kEot + kEot});
        QVERIFY(r.ok());
        BpeTokenizer &t = r.value();
        const std::string text = "Hello, how <|endoftext|><|endoftext|> are you?<|endoftext|>";
        const std::vector<std::string> allowed{kEot, kEot + kEot};
        const auto ids = t.encode(text, allowed);
        int doubles = 0, singles = 0;
        for (const auto id : ids) {
            if (t.tokenBytes(id) == kEot + kEot)
                ++doubles;
            else if (t.tokenBytes(id) == kEot)
                ++singles;
        }
        QCOMPARE(doubles, 1);
        QCOMPARE(singles, 1);
        QCOMPARE(t.decode(ids), text);
        for (const std::size_t chunk : {1u, 5u, 13u, 14u, 30u})
            QVERIFY(streamEncode(t, text, allowed, chunk) == ids);
        // Only the single token allowed: the double is two singles.
        const auto ids2 = t.encode(text, {kEot});
        QCOMPARE(std::count(ids2.begin(), ids2.end(), 50256u), std::ptrdiff_t(3));
        // None allowed: encoded as ordinary text.
        const auto ids3 = t.encode(text);
        QCOMPARE(std::count(ids3.begin(), ids3.end(), 50256u), std::ptrdiff_t(0));
        QCOMPARE(t.decode(ids3), text);
    }

    void decodeRepairsInvalidUtf8()
    {
        BpeTokenizer &t = *gpt2();
        const auto ids = t.encode("🙃");
        QCOMPARE(ids.size(), std::size_t(3));
        QCOMPARE(t.decode({ids[0]}), std::string("\xEF\xBF\xBD"));
        QCOMPARE(t.decodeBytes(ids), std::string("🙃"));
        // Raw invalid bytes survive the byte-level round trip.
        const std::string bad = "a\xFF\xC3 b\xE2\x82";
        QCOMPARE(t.decodeBytes(t.encode(bad)), bad);
        QCOMPARE(t.decode(t.encode(bad)), std::string("a\xEF\xBF\xBD\xEF\xBF\xBD b\xEF\xBF\xBD"));
    }

    void streamingStress()
    {
        BpeTokenizer &t = *gpt2();
        std::string text = readAll(tokDir() + "/tinystories_sample.txt") + readAll(tokDir() + "/german.txt") +
                           "  \n\n \t x's 'll  12345 🙃🙃 中文字符   \r\n" + readAll(tokDir() + "/address.txt") + "   ";
        const std::vector<std::string> allowed{kEot};
        const auto ids = t.encode(text, allowed);
        for (std::size_t chunk = 1; chunk < 40; ++chunk)
            QVERIFY2(streamEncode(t, text, allowed, chunk) == ids, qPrintable(QString("chunk %1").arg(chunk)));
        QVERIFY(streamEncode(t, text, {}, 5) == t.encode(text));
    }

    void mergePathsAgreeWithPlainBpe()
    {
        // Every pre-token of every length goes through one of three merge loops; each must give
        // what the definition gives. The whole text (over 20k ids) also checks that ids leave the
        // encoder's output buffer complete and in order, in memory and from a mapped file.
        BpeTokenizer t = *gpt2();
        const std::optional<PlainBpe> plain = PlainBpe::load(t);
        QVERIFY(plain);
        const std::string text = mixedLengthText();
        std::vector<std::uint32_t> expected;
        std::set<std::size_t> lengths;
        forEachPretoken(text, [&](std::size_t b, std::size_t e) {
            const std::vector<std::uint32_t> ids = plain->encode(std::string_view(text).substr(b, e - b));
            expected.insert(expected.end(), ids.begin(), ids.end());
            lengths.insert(e - b);
        });
        // Each merge loop and the cache limit (256 bytes) see pre-tokens at both ends of their range.
        for (const std::size_t length : {1u, 2u, 16u, 17u, 96u, 97u, 256u, 257u})
            QVERIFY2(lengths.count(length), qPrintable(QString("no pre-token of %1 bytes").arg(length)));
        QVERIFY(expected.size() > 5000);
        BpeTokenizer fresh = *gpt2();
        QVERIFY(fresh.encode(text) == expected);
        QVERIFY(fresh.encode(text) == expected);  // again, every pre-token now from the caches
        QTemporaryDir dir;
        const QString path = dir.filePath("mixed.txt");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QCOMPARE(file.write(text.data(), static_cast<qint64>(text.size())), static_cast<qint64>(text.size()));
        file.close();
        std::vector<std::uint32_t> fromFile;
        BpeTokenizer mapped = *gpt2();
        QVERIFY(mapped.encodeFile(path.toStdString(), {}, [&](const std::uint32_t *ids, std::size_t count) {
            fromFile.insert(fromFile.end(), ids, ids + count);
        }).ok());
        QVERIFY(fromFile == expected);
    }

    void cutsOnlyWhereNoMergeJoins()
    {
        // The encoder merges a first-seen pre-token in parts, cut where no merge joins a token
        // ending in the byte before to one starting with the byte after. The table of such joins
        // must come from every merge's outer bytes, not only from merges of two single bytes:
        // here "b" meets "c" only through "ab" + "c", and cutting "abc" at b|c would give ab, c.
        std::vector<std::string> bytes;
        for (int b = 0; b < 256; ++b)
            bytes.emplace_back(1, static_cast<char>(b));
        bytes.insert(bytes.end(), {"ab", "abc", "cd"});
        Result<BpeTokenizer> created = BpeTokenizer::create(bytes, {{"a", "b"}, {"ab", "c"}, {"c", "d"}});
        QVERIFY(created);
        BpeTokenizer tiny = *created;
        const auto idOfBytes = [](const BpeTokenizer &t, std::string_view token) {
            for (std::uint32_t id = 0; id < t.vocabSize(); ++id)
                if (t.tokenBytes(id) == token)
                    return id;
            return std::uint32_t(-1);
        };
        const std::uint32_t ab = idOfBytes(tiny, "ab"), abc = idOfBytes(tiny, "abc"), d = idOfBytes(tiny, "d");
        QCOMPARE(tiny.encode("abc"), (std::vector<std::uint32_t>{abc}));
        // "abcd": ab + c first (rank 1 < rank 2), so c is taken before c + d could be.
        QCOMPARE(tiny.encode("abcd"), (std::vector<std::uint32_t>{abc, d}));
        // Parts cached on their own ("ab" is cut from "ab\xff" and then found for "ab\xfe") and
        // longer pre-tokens (over 16 bytes) merged in parts give the same ids.
        const std::uint32_t ff = idOfBytes(tiny, "\xff"), fe = idOfBytes(tiny, "\xfe");
        QCOMPARE(tiny.encode("\xff" "ab\xff"), (std::vector<std::uint32_t>{ff, ab, ff}));
        QCOMPARE(tiny.encode("\xfe" "ab\xfe"), (std::vector<std::uint32_t>{fe, ab, fe}));
        std::vector<std::uint32_t> longExpected;
        std::string longPiece;
        for (int k = 0; k < 9; ++k) {
            longPiece += "\xff" "abc";
            longExpected.insert(longExpected.end(), {ff, abc});
        }
        QCOMPARE(tiny.encode(longPiece), longExpected);

        // GPT-2 on random bytes (cuts fall anywhere, through invalid UTF-8 too) and on CJK and
        // Cyrillic runs that share characters: the same ids as the definition, cold and warm.
        BpeTokenizer t = *gpt2();
        const std::optional<PlainBpe> plain = PlainBpe::load(t);
        QVERIFY(plain);
        std::mt19937 rng(36);
        std::string text;
        for (int k = 0; k < 3000; ++k)
            text += static_cast<char>(rng() % 4 == 0 ? rng() % 256 : "abc xyz\xe4\xb8\xad"[rng() % 10]);
        text += ' ' + mixedLengthText();
        std::vector<std::uint32_t> expected;
        forEachPretoken(text, [&](std::size_t b, std::size_t e) {
            const std::vector<std::uint32_t> ids = plain->encode(std::string_view(text).substr(b, e - b));
            expected.insert(expected.end(), ids.begin(), ids.end());
        });
        QVERIFY(t.encode(text) == expected);
        QVERIFY(t.encode(text) == expected);
    }

    void saveLoadRoundTrip()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        BpeTrainOptions o;
        o.vocabSize = 300;
        o.specialTokens = {kEot};
        const auto trained = trainBpe("the cat sat on the mat<|endoftext|>the dog ate the cat's hat", o);
        QVERIFY(trained.ok());
        auto tok = BpeTokenizer::fromTraining(*trained);
        QVERIFY(tok.ok());
        const std::string v = dir.filePath("vocab.json").toStdString(), m = dir.filePath("merges.txt").toStdString();
        QVERIFY(tok->saveGpt2(v, m).ok());
        auto loaded = BpeTokenizer::loadGpt2(v, m, {kEot});
        QVERIFY(loaded.ok());
        const std::string text = "the cat<|endoftext|> ate the mat \xFF";
        QVERIFY(loaded.value().encode(text, {kEot}) == tok.value().encode(text, {kEot}));
        QCOMPARE(loaded->vocabSize(), tok->vocabSize());
    }

    void errorsNameFileAndLine()
    {
        QTemporaryDir dir;
        const QString v = dir.filePath("vocab.json"), m = dir.filePath("merges.txt");
        const auto write = [](const QString &p, const QByteArray &d) {
            QFile f(p);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(d);
        };
        // Missing file.
        auto r = BpeTokenizer::loadGpt2((v + ".missing").toStdString(), m.toStdString());
        QVERIFY(!r.ok());
        QVERIFY(QString::fromStdString(r.problems().front().message).contains("vocab.json.missing"));
        // Bad JSON on line 3.
        write(v, "{\n\"a\": 0,\n\"b\" 1\n}");
        write(m, "");
        r = BpeTokenizer::loadGpt2(v.toStdString(), m.toStdString());
        QVERIFY(!r.ok());
        QVERIFY2(QString::fromStdString(r.problems().front().message).contains("vocab.json:3"),
                 r.problems().front().message.c_str());
        // An id far beyond what the file could hold is refused before it sizes anything.
        write(v, "{\"a\": 0, \"b\": 2000000000}");
        r = BpeTokenizer::loadGpt2(v.toStdString(), m.toStdString());
        QVERIFY(!r.ok());
        QVERIFY2(QString::fromStdString(r.problems().front().message).contains("has the id 2000000000"),
                 r.problems().front().message.c_str());
        // Malformed merges line 2 (after a #version line).
        const auto tr = trainBpe("", BpeTrainOptions{256, {}, 1, {}, nullptr});
        QVERIFY(tr.ok());
        auto byteTok = BpeTokenizer::fromTraining(*tr);
        QVERIFY(byteTok.ok());
        QVERIFY(byteTok->saveGpt2(v.toStdString(), m.toStdString()).ok());
        write(m, "#version: 0.2\nabc\n");
        r = BpeTokenizer::loadGpt2(v.toStdString(), m.toStdString());
        QVERIFY(!r.ok());
        QVERIFY2(QString::fromStdString(r.problems().front().message).contains("merges.txt:2"),
                 r.problems().front().message.c_str());
        // Unknown merged token on line 1 (no header).
        write(m, "a b\n");
        r = BpeTokenizer::loadGpt2(v.toStdString(), m.toStdString());
        QVERIFY(!r.ok());
        QVERIFY2(QString::fromStdString(r.problems().front().message).contains("merges.txt:1"),
                 r.problems().front().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestTokenizerGpt2)
#include "test_tokenizer_gpt2.moc"
