// SPDX-License-Identifier: GPL-3.0-or-later
// Tokenizer formats: the CS336 GPT-2 vocab.json + merges.txt rewritten as a Hugging Face
// tokenizer.json (string and array merges) and as a tiktoken rank file must give identical ids on
// every reference sample (CS336's and the extra tiktoken-generated ones in tests/data/tokenizer);
// the merges recovered from ranks are GPT-2's merges; bad or truncated files give problems naming
// file and line or JSON path, never a crash.
#include "tokenizer/bpe_tokenizer.h"
#include "tokenizer/byte_unicode.h"
#include "tokenizer/hf_cache.h"
#include "tokenizer/tokenizer_formats.h"

#include "../fixture_paths.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <optional>
#include <random>
#include <sstream>

using namespace lse;

Q_DECLARE_METATYPE(std::string)
Q_DECLARE_METATYPE(std::vector<std::string>)
Q_DECLARE_METATYPE(std::vector<std::uint32_t>)

namespace {

// The course's sample texts and expected ids (tests/data); the GPT-2 files are the bundled ones.
QString tokDir() { return lse::test::fixturePath(QStringLiteral("tokenizer")); }
QString extraIdsPath() { return QString(LSE_SOURCE_DIR) + "/tests/data/tokenizer/extra_expected_ids_gpt2.json"; }

const std::string kEot = "<|endoftext|>";

std::string readAll(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray d = f.readAll();
    return std::string(d.constData(), static_cast<std::size_t>(d.size()));
}

bool writeFile(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

QByteArray bytes(std::string_view s) { return QByteArray(s.data(), static_cast<qsizetype>(s.size())); }

// The GPT-2 files in the other formats, written once per test run.
struct Fixture {
    QTemporaryDir dir;
    std::optional<BpeTokenizer> reference;  // loadGpt2 of the CS336 files
    std::map<QString, BpeTokenizer> loaded;  // loader name → tokenizer
    std::vector<std::pair<std::string, std::string>> merges;  // GPT-2 merges as bytes
    std::string error;
};

Fixture &fixture()
{
    static Fixture fx;
    static bool done = false;
    if (done)
        return fx;
    done = true;
    const QString vocabPath = lse::test::gpt2VocabPath(), mergesPath = lse::test::gpt2MergesPath();
    auto ref = BpeTokenizer::loadGpt2(vocabPath.toStdString(), mergesPath.toStdString(), {kEot});
    if (!ref.ok()) {
        fx.error = formatProblems(ref.problems());
        return fx;
    }
    fx.reference = std::move(ref.value());
    const BpeTokenizer &t = *fx.reference;

    // GPT-2 files in a folder of their own.
    QDir root(fx.dir.path());
    root.mkpath("gpt2");
    QFile::copy(vocabPath, root.filePath("gpt2/vocab.json"));
    QFile::copy(mergesPath, root.filePath("gpt2/merges.txt"));

    // tokenizer.json (merges as "a b" strings, and as [a, b] arrays).
    const QJsonObject vocab = QJsonDocument::fromJson(QByteArray::fromStdString(readAll(vocabPath))).object();
    QJsonArray mergeStrings, mergeArrays;
    const std::string mergesText = readAll(mergesPath);
    std::size_t pos = 0;
    while (pos < mergesText.size()) {
        std::size_t eol = mergesText.find('\n', pos);
        if (eol == std::string::npos)
            eol = mergesText.size();
        const std::string line = mergesText.substr(pos, eol - pos);
        pos = eol + 1;
        if (line.empty() || line.rfind("#version", 0) == 0)
            continue;
        const std::size_t sp = line.find(' ');
        mergeStrings.append(QString::fromStdString(line));
        mergeArrays.append(QJsonArray{QString::fromStdString(line.substr(0, sp)), QString::fromStdString(line.substr(sp + 1))});
        fx.merges.emplace_back(*alphabetToBytes(line.substr(0, sp)), *alphabetToBytes(line.substr(sp + 1)));
    }
    const auto tokenizerJson = [&](const QJsonArray &merges) {
        QJsonObject model{{"type", "BPE"}, {"dropout", QJsonValue()}, {"unk_token", QJsonValue()},
                          {"continuing_subword_prefix", ""}, {"end_of_word_suffix", ""}, {"fuse_unk", false},
                          {"byte_fallback", false}, {"vocab", vocab}, {"merges", merges}};
        QJsonObject added{{"id", 50256}, {"content", QString::fromStdString(kEot)}, {"single_word", false}, {"lstrip", false},
                          {"rstrip", false}, {"normalized", true}, {"special", true}};
        QJsonObject byteLevel{{"type", "ByteLevel"}, {"add_prefix_space", false}, {"trim_offsets", true}, {"use_regex", true}};
        QJsonObject rootObj{{"version", "1.0"}, {"truncation", QJsonValue()}, {"padding", QJsonValue()},
                            {"added_tokens", QJsonArray{added}}, {"normalizer", QJsonValue()},
                            {"pre_tokenizer", byteLevel}, {"post_processor", byteLevel}, {"decoder", byteLevel},
                            {"model", model}};
        return QJsonDocument(rootObj).toJson(QJsonDocument::Indented);
    };
    root.mkpath("hf");
    writeFile(root.filePath("hf/tokenizer.json"), tokenizerJson(mergeStrings));
    writeFile(root.filePath("tokenizer_arrays.json"), tokenizerJson(mergeArrays));

    // gpt2.tiktoken: ranks 0..50255 are the ids of the ordinary tokens.
    QByteArray tk;
    for (std::uint32_t id = 0; id < 50256; ++id)
        tk += bytes(t.tokenBytes(id)).toBase64() + " " + QByteArray::number(id) + "\n";
    writeFile(root.filePath("gpt2.tiktoken"), tk);
    root.mkpath("tk");
    writeFile(root.filePath("tk/r50k_base.tiktoken"), tk);

    const std::vector<std::pair<QString, QString>> loaders{
        {"dir_vocab_merges", root.filePath("gpt2")},
        {"vocab_json_file", root.filePath("gpt2/vocab.json")},
        {"dir_tokenizer_json", root.filePath("hf")},
        {"tokenizer_json_file", root.filePath("hf/tokenizer.json")},
        {"tokenizer_json_arrays", root.filePath("tokenizer_arrays.json")},
        {"tiktoken_file", root.filePath("gpt2.tiktoken")},
        {"dir_tiktoken", root.filePath("tk")},
    };
    for (const auto &[name, path] : loaders) {
        auto r = loadTokenizer(path.toStdString());
        if (!r.ok()) {
            fx.error += name.toStdString() + ": " + formatProblems(r.problems());
            continue;
        }
        fx.loaded.emplace(name, std::move(r.value()));
    }
    return fx;
}

struct Case {
    QString name;
    std::string text;
    std::vector<std::string> allowed;
    std::vector<std::uint32_t> ids;
};

std::vector<Case> referenceCases()
{
    std::vector<Case> out;
    QFile f(tokDir() + "/expected_ids_gpt2.json");
    if (f.open(QIODevice::ReadOnly)) {
        for (const auto &c : QJsonDocument::fromJson(f.readAll()).object().value("cases").toArray()) {
            const QJsonObject o = c.toObject();
            const QJsonObject input = o.value("input").toObject();
            Case k;
            k.name = "cs336/" + o.value("test").toString();
            if (input.contains("file")) {
                const QString name = input.value("file").toString();
                QString path = tokDir() + "/" + name;
                if (!QFile::exists(path))
                    path = lse::test::fixturePath("bpe/" + name);
                k.text = readAll(path);
            } else {
                k.text = input.value("text").toString().toStdString();
            }
            for (const auto &a : o.value("allowed_special").toArray())
                k.allowed.push_back(a.toString().toStdString());
            for (const auto &v : o.value("ids").toArray())
                k.ids.push_back(static_cast<std::uint32_t>(v.toInteger()));
            out.push_back(std::move(k));
        }
    }
    QFile g(extraIdsPath());
    if (g.open(QIODevice::ReadOnly)) {
        for (const auto &c : QJsonDocument::fromJson(g.readAll()).object().value("cases").toArray()) {
            const QJsonObject o = c.toObject();
            Case k;
            k.name = "extra/" + o.value("name").toString();
            k.text = o.value("text").toString().toStdString();
            for (const auto &v : o.value("ids").toArray())
                k.ids.push_back(static_cast<std::uint32_t>(v.toInteger()));
            out.push_back(std::move(k));
        }
    }
    return out;
}

QString firstDifference(const std::vector<std::uint32_t> &got, const std::vector<std::uint32_t> &want)
{
    std::size_t i = 0;
    while (i < got.size() && i < want.size() && got[i] == want[i])
        ++i;
    return QString("ids differ at %1 (got %2 ids, expected %3)").arg(i).arg(got.size()).arg(want.size());
}

// A small valid byte-level tokenizer.json: 256 byte tokens, merges "Ġ t" and "Ġt h", <|endoftext|>.
QJsonObject smallTokenizerJson()
{
    QJsonObject vocab;
    for (int b = 0; b < 256; ++b)
        vocab.insert(QString::fromStdString(bytesToAlphabet(std::string(1, static_cast<char>(b)))), b);
    vocab.insert(QString::fromUtf8("Ġt"), 256);
    vocab.insert(QString::fromUtf8("Ġth"), 257);
    QJsonObject model{{"type", "BPE"}, {"vocab", vocab}, {"merges", QJsonArray{QString::fromUtf8("Ġ t"), QString::fromUtf8("Ġt h")}}};
    QJsonObject added{{"id", 258}, {"content", QString::fromStdString(kEot)}, {"special", true}};
    QJsonObject byteLevel{{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", true}};
    return QJsonObject{{"added_tokens", QJsonArray{added}}, {"normalizer", QJsonValue()}, {"pre_tokenizer", byteLevel},
                       {"decoder", byteLevel}, {"model", model}};
}

QByteArray smallTiktoken()
{
    QByteArray out;
    for (int b = 0; b < 256; ++b)
        out += QByteArray(1, static_cast<char>(b)).toBase64() + " " + QByteArray::number(b) + "\n";
    out += QByteArray(" t").toBase64() + " 256\n" + QByteArray(" th").toBase64() + " 257\n";
    return out;
}

}  // namespace

// Fails (naming the file) when the bundled GPT-2 files or the course's expected ids are absent.
#define REQUIRE_CS336()                                                                                \
    for (const QString &path_ : {lse::test::gpt2VocabPath(), lse::test::gpt2MergesPath(),           \
                                 tokDir() + QStringLiteral("/expected_ids_gpt2.json")})                \
    LSE_REQUIRE_FIXTURE(path_)

class TestTokenizerFormats : public QObject {
    Q_OBJECT
private slots:
    void gpt2FilesLoadInEveryFormat()
    {
        REQUIRE_CS336();
        Fixture &fx = fixture();
        QVERIFY2(fx.error.empty(), fx.error.c_str());
        QCOMPARE(fx.loaded.size(), std::size_t(7));
        for (auto &[name, t] : fx.loaded) {
            QVERIFY2(t.vocabSize() == 50257, qPrintable(name));
            QVERIFY2(t.mergeCount() == 50000, qPrintable(name));
            QVERIFY2(t.specialTokens() == std::vector<std::string>{kEot}, qPrintable(name));
            QVERIFY2(t.encode(kEot, {kEot}) == std::vector<std::uint32_t>{50256}, qPrintable(name));
            for (std::uint32_t id = 0; id < 50257; ++id)
                if (t.tokenBytes(id) != fx.reference->tokenBytes(id))
                    QFAIL(qPrintable(QString("%1: token %2 differs").arg(name).arg(id)));
        }
    }

    void allLoadersGiveReferenceIds_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<std::vector<std::string>>("allowed");
        QTest::addColumn<std::vector<std::uint32_t>>("ids");
        REQUIRE_CS336();
        const auto cases = referenceCases();
        QVERIFY(cases.size() >= 12 + 30);
        for (const auto &c : cases)
            QTest::newRow(qPrintable(c.name)) << c.text << c.allowed << c.ids;
    }

    void allLoadersGiveReferenceIds()
    {
        QFETCH(std::string, text);
        QFETCH(std::vector<std::string>, allowed);
        QFETCH(std::vector<std::uint32_t>, ids);
        Fixture &fx = fixture();
        QVERIFY2(fx.reference && fx.loaded.size() == 7, fx.error.c_str());
        const auto ref = fx.reference->encode(text, allowed);
        QVERIFY2(ref == ids, qPrintable("vocab/merges (reference): " + firstDifference(ref, ids)));
        QCOMPARE(fx.reference->decode(ref), text);
        for (auto &[name, t] : fx.loaded) {
            const auto got = t.encode(text, allowed);
            QVERIFY2(got == ids, qPrintable(name + ": " + firstDifference(got, ids)));
        }
    }

    void mergesRecoveredFromRanksAreGpt2Merges()
    {
        REQUIRE_CS336();
        Fixture &fx = fixture();
        QVERIFY2(fx.reference.has_value(), fx.error.c_str());
        std::vector<std::string> tokens;
        for (std::uint32_t id = 0; id < 50256; ++id)
            tokens.emplace_back(fx.reference->tokenBytes(id));
        std::size_t unreachable = 99;
        const auto merges = mergesFromRanks(tokens, &unreachable);
        QCOMPARE(unreachable, std::size_t(0));
        QCOMPARE(merges.size(), fx.merges.size());
        for (std::size_t i = 0; i < merges.size(); ++i)
            if (merges[i] != fx.merges[i])
                QFAIL(qPrintable(QString("merge %1 differs").arg(i)));
        TiktokenInfo info;
        QVERIFY(loadTiktoken(QDir(fx.dir.path()).filePath("gpt2.tiktoken").toStdString(), {kEot}, &info).ok());
        QCOMPARE(info.ranks, std::size_t(50256));
        QCOMPARE(info.unreachableTokens, std::size_t(0));
    }

    void extraSpecialTokens()
    {
        REQUIRE_CS336();
        Fixture &fx = fixture();
        QVERIFY2(fx.reference.has_value(), fx.error.c_str());
        const QDir root(fx.dir.path());
        for (const QString &p : {root.filePath("gpt2"), root.filePath("hf"), root.filePath("gpt2.tiktoken")}) {
            auto r = loadTokenizer(p.toStdString(), {"<|im_start|>"});
            QVERIFY2(r.ok(), qPrintable(p));
            QCOMPARE(r->vocabSize(), std::size_t(50258));
            QCOMPARE(r.value().encode("<|im_start|>hi<|endoftext|>", {"<|im_start|>", kEot}),
                     (std::vector<std::uint32_t>{50257, 5303, 50256}));
        }
    }

    // tests/data/tokenizer/extra_expected_ids_gpt2.json (tiktoken ids for Chinese, emoji, odd
    // whitespace, long numbers, ...): exact ids, round trip, streaming and offsets.
    void extraReferenceIds_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<std::vector<std::uint32_t>>("ids");
        QFile f(extraIdsPath());
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(extraIdsPath()));
        const QJsonArray cases = QJsonDocument::fromJson(f.readAll()).object().value("cases").toArray();
        QVERIFY(cases.size() >= 30);
        REQUIRE_CS336();
        for (const auto &c : cases) {
            const QJsonObject o = c.toObject();
            std::vector<std::uint32_t> ids;
            for (const auto &v : o.value("ids").toArray())
                ids.push_back(static_cast<std::uint32_t>(v.toInteger()));
            QTest::newRow(qPrintable(o.value("name").toString())) << o.value("text").toString().toStdString() << ids;
        }
    }

    void extraReferenceIds()
    {
        QFETCH(std::string, text);
        QFETCH(std::vector<std::uint32_t>, ids);
        Fixture &fx = fixture();
        QVERIFY2(fx.reference.has_value(), fx.error.c_str());
        BpeTokenizer &t = *fx.reference;
        const auto got = t.encode(text);
        QVERIFY2(got == ids, qPrintable(firstDifference(got, ids)));
        QCOMPARE(t.decodeBytes(got), text);
        QCOMPARE(t.decode(got), text);
        for (const std::size_t chunk : {1u, 3u, 64u}) {
            std::istringstream in(text);
            std::vector<std::uint32_t> streamed;
            QVERIFY(t.encodeStream(in, {}, [&](const std::uint32_t *p, std::size_t n) { streamed.insert(streamed.end(), p, p + n); },
                                   chunk).ok());
            QVERIFY2(streamed == ids, qPrintable(QString("chunk %1").arg(chunk)));
        }
        const auto toks = t.encodeWithOffsets(text);
        QCOMPARE(toks.size(), ids.size());
        std::size_t at = 0;
        for (const auto &tok : toks) {
            QCOMPARE(tok.begin, at);
            at = tok.end;
        }
        QCOMPARE(at, text.size());
    }

    void hfCacheDiscovery()
    {
        QTemporaryDir home;
        QVERIFY(home.isValid());
        const QByteArray oldHome = qgetenv("HF_HOME"), oldHub = qgetenv("HF_HUB_CACHE"), oldLegacy = qgetenv("HUGGINGFACE_HUB_CACHE");
        const bool hadHome = qEnvironmentVariableIsSet("HF_HOME"), hadHub = qEnvironmentVariableIsSet("HF_HUB_CACHE"),
                   hadLegacy = qEnvironmentVariableIsSet("HUGGINGFACE_HUB_CACHE");
        qputenv("HF_HOME", home.path().toLocal8Bit());
        qunsetenv("HF_HUB_CACHE");
        qunsetenv("HUGGINGFACE_HUB_CACHE");
        const auto restore = qScopeGuard([&] {
            hadHome ? qputenv("HF_HOME", oldHome) : qunsetenv("HF_HOME");
            hadHub ? qputenv("HF_HUB_CACHE", oldHub) : qunsetenv("HF_HUB_CACHE");
            hadLegacy ? qputenv("HUGGINGFACE_HUB_CACHE", oldLegacy) : qunsetenv("HUGGINGFACE_HUB_CACHE");
        });
        const QString hub = home.path() + "/hub";
        QCOMPARE(QString::fromStdString(hfHubCacheDir()), QDir::cleanPath(hub));
        QVERIFY(discoverHfTokenizers().empty());  // no hub folder yet

        QDir d(home.path());
        const QByteArray json = QJsonDocument(smallTokenizerJson()).toJson();
        const auto put = [&](const QString &rel, const QByteArray &data) {
            QVERIFY(d.mkpath(QFileInfo(d.filePath(rel)).path()));
            QVERIFY(writeFile(d.filePath(rel), data));
        };
        // tokenizer.json in the main snapshot, as a link into blobs/ like huggingface_hub does.
        put("hub/models--openai-community--gpt2/blobs/b1", json);
        QVERIFY(d.mkpath("hub/models--openai-community--gpt2/snapshots/aaa111"));
        QVERIFY(QFile::link(d.filePath("hub/models--openai-community--gpt2/blobs/b1"),
                            d.filePath("hub/models--openai-community--gpt2/snapshots/aaa111/tokenizer.json")));
        put("hub/models--openai-community--gpt2/refs/main", "aaa111");
        put("hub/models--openai-community--gpt2/snapshots/000old/vocab.json", "{}");
        put("hub/models--openai-community--gpt2/snapshots/000old/merges.txt", "");
        put("hub/models--gpt2/snapshots/r1/vocab.json", "{}");
        put("hub/models--gpt2/snapshots/r1/merges.txt", "");
        put("hub/models--someone--tk-model/snapshots/r2/cl100k.tiktoken", smallTiktoken());
        put("hub/models--someone--no-tokenizer/snapshots/r3/config.json", "{}");
        put("hub/models--someone--only-vocab/snapshots/r4/vocab.json", "{}");
        put("hub/datasets--someone--data/snapshots/r5/tokenizer.json", json);
        // An interrupted download: the link's blob is missing.
        QVERIFY(d.mkpath("hub/models--someone--broken/snapshots/r6"));
        QVERIFY(QFile::link(d.filePath("hub/models--someone--broken/blobs/missing"),
                            d.filePath("hub/models--someone--broken/snapshots/r6/tokenizer.json")));

        const auto found = discoverHfTokenizers();
        QStringList got;
        for (const auto &t : found)
            got << QString::fromStdString(t.name + " " + t.revision + " " + t.format + (t.isMain ? " main" : ""));
        QCOMPARE(got, (QStringList{"gpt2 r1 vocab.json+merges.txt", "openai-community/gpt2 aaa111 tokenizer.json main",
                                   "openai-community/gpt2 000old vocab.json+merges.txt", "someone/tk-model r2 tiktoken"}));
        QCOMPARE(QString::fromStdString(found[1].path), QDir::cleanPath(hub + "/models--openai-community--gpt2/snapshots/aaa111"));
        // The discovered folders load.
        auto tok = loadTokenizer(found[1].path);
        QVERIFY2(tok.ok(), tok.ok() ? "" : formatProblems(tok.problems()).c_str());
        QCOMPARE(tok->vocabSize(), std::size_t(259));
        QVERIFY(loadTokenizer(found[3].path).ok());
        // An explicit folder and HF_HUB_CACHE override HF_HOME.
        QCOMPARE(discoverHfTokenizers(hub.toStdString()).size(), found.size());
        qputenv("HF_HUB_CACHE", d.filePath("elsewhere").toLocal8Bit());
        QCOMPARE(QString::fromStdString(hfHubCacheDir()), d.filePath("elsewhere"));
        QVERIFY(discoverHfTokenizers().empty());
    }

    void smallFilesLoad()
    {
        QTemporaryDir dir;
        const QString j = dir.filePath("small.json"), k = dir.filePath("small.tiktoken");
        QVERIFY(writeFile(j, QJsonDocument(smallTokenizerJson()).toJson()));
        QVERIFY(writeFile(k, smallTiktoken()));
        for (const QString &p : {j, k}) {
            auto r = loadTokenizer(p.toStdString());
            QVERIFY2(r.ok(), r.ok() ? "" : formatProblems(r.problems()).c_str());
            QCOMPARE(r->vocabSize(), std::size_t(259));
            QCOMPARE(r.value().encode(" the<|endoftext|>", {kEot}), (std::vector<std::uint32_t>{257, 'e', 258}));
        }
    }

    void badFilesGiveProblems_data()
    {
        QTest::addColumn<QString>("file");     // name inside the temporary folder
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");  // substring of the first problem's message

        const QJsonObject good = smallTokenizerJson();
        const QByteArray goodJson = QJsonDocument(good).toJson(QJsonDocument::Indented);
        const auto edited = [&](const std::function<void(QJsonObject &)> &edit) {
            QJsonObject o = good;
            edit(o);
            return QJsonDocument(o).toJson(QJsonDocument::Indented);
        };
        const auto editModel = [&](const std::function<void(QJsonObject &)> &edit) {
            return edited([&](QJsonObject &o) {
                QJsonObject m = o.value("model").toObject();
                edit(m);
                o.insert("model", m);
            });
        };
        const int lines = static_cast<int>(goodJson.count('\n'));
        QTest::newRow("json_truncated_half") << "tokenizer.json" << goodJson.left(goodJson.size() / 2)
                                             << QString("tokenizer.json:");
        QTest::newRow("json_truncated_end") << "tokenizer.json" << goodJson.left(goodJson.size() - 3)
                                            << QString("tokenizer.json:%1").arg(lines - 1);
        QTest::newRow("json_garbage") << "tokenizer.json" << QByteArray("\x00\xff\xfe garbage", 12)
                                      << QString("tokenizer.json:1: invalid JSON");
        QTest::newRow("json_empty") << "tokenizer.json" << QByteArray() << QString("tokenizer.json:1");
        QTest::newRow("json_array") << "tokenizer.json" << QByteArray("[1, 2]") << QString("expected a JSON object");
        QTest::newRow("json_no_model") << "tokenizer.json" << QByteArray("{\"version\": \"1.0\"}")
                                       << QString("tokenizer.json:model:");
        QTest::newRow("json_wordpiece") << "tokenizer.json" << editModel([](QJsonObject &m) { m.insert("type", "WordPiece"); })
                                        << QString("model.type");
        QTest::newRow("json_metaspace") << "tokenizer.json"
                                        << edited([](QJsonObject &o) { o.insert("pre_tokenizer", QJsonObject{{"type", "Metaspace"}}); })
                                        << QString("pre_tokenizer: only a ByteLevel");
        QTest::newRow("json_prefix_space")
            << "tokenizer.json"
            << edited([](QJsonObject &o) { o.insert("pre_tokenizer", QJsonObject{{"type", "ByteLevel"}, {"add_prefix_space", true}}); })
            << QString("pre_tokenizer.add_prefix_space");
        QTest::newRow("json_normalizer") << "tokenizer.json"
                                         << edited([](QJsonObject &o) { o.insert("normalizer", QJsonObject{{"type", "NFC"}}); })
                                         << QString("normalizer");
        QTest::newRow("json_bad_merge_string")
            << "tokenizer.json" << editModel([](QJsonObject &m) { m.insert("merges", QJsonArray{QString::fromUtf8("Ġ t"), "th"}); })
            << QString("model.merges[1]");
        QTest::newRow("json_bad_merge_array")
            << "tokenizer.json" << editModel([](QJsonObject &m) { m.insert("merges", QJsonArray{QJsonArray{"a"}}); })
            << QString("model.merges[0]");
        QTest::newRow("json_unknown_merge")
            << "tokenizer.json" << editModel([](QJsonObject &m) { m.insert("merges", QJsonArray{"a b"}); })
            << QString("model.merges[0]");
        QTest::newRow("json_vocab_not_alphabet")
            << "tokenizer.json" << editModel([](QJsonObject &m) {
                   QJsonObject v = m.value("vocab").toObject();
                   v.remove(QString::fromUtf8("Ġth"));
                   v.insert("a b", 257);
                   m.insert("vocab", v);
               })
            << QString("model.vocab[\"a b\"]");
        QTest::newRow("json_vocab_bad_id")
            << "tokenizer.json" << editModel([](QJsonObject &m) {
                   QJsonObject v = m.value("vocab").toObject();
                   v.insert(QString::fromUtf8("Ġth"), "x");
                   m.insert("vocab", v);
               })
            << QString("model.vocab[\"Ġth\"]");
        // Ids too large for any integer type (found by fuzz_tokenizer_json: they were cast to an
        // integer before the range check, undefined behaviour that clang's UBSan reports).
        QTest::newRow("json_vocab_id_1e120")
            << "tokenizer.json" << editModel([](QJsonObject &m) {
                   QJsonObject v = m.value("vocab").toObject();
                   v.insert(QString::fromUtf8("Ġth"), 1e120);
                   m.insert("vocab", v);
               })
            << QString("model.vocab[\"Ġth\"]: the id is not an unused integer");
        QTest::newRow("json_added_id_1e120")
            << "tokenizer.json" << edited([](QJsonObject &o) {
                   o.insert("added_tokens", QJsonArray{QJsonObject{{"id", -1e120}, {"content", "<|x|>"}, {"special", true}}});
               })
            << QString("added_tokens[0].id: expected an integer id");
        QTest::newRow("json_vocab_hole")
            << "tokenizer.json" << editModel([](QJsonObject &m) {
                   QJsonObject v = m.value("vocab").toObject();
                   v.remove(QString::fromUtf8("Ġth"));
                   m.insert("vocab", v);
                   m.insert("merges", QJsonArray{QString::fromUtf8("Ġ t")});
               })
            << QString("added_tokens[0].id: expected an integer id in 0..257 (model.vocab and added_tokens hold 258");
        QTest::newRow("json_added_huge_id")
            << "tokenizer.json" << edited([](QJsonObject &o) {
                   o.insert("added_tokens", QJsonArray{QJsonObject{{"id", 999999999}, {"content", "<|x|>"}, {"special", true}}});
               })
            << QString("added_tokens[0].id: expected an integer id in 0..258");
        QTest::newRow("json_added_conflict")
            << "tokenizer.json" << edited([](QJsonObject &o) {
                   o.insert("added_tokens", QJsonArray{QJsonObject{{"id", 5}, {"content", "<|x|>"}, {"special", true}}});
               })
            << QString("added_tokens[0]");
        QTest::newRow("json_missing_byte")
            << "tokenizer.json" << editModel([](QJsonObject &m) {
                   QJsonObject v = m.value("vocab").toObject();
                   v.remove("A");
                   v.insert("AA", 65);
                   m.insert("vocab", v);
               })
            << QString("byte 65");

        const QByteArray goodTk = smallTiktoken();
        QTest::newRow("tiktoken_truncated_line") << "x.tiktoken" << goodTk.left(goodTk.size() - 3) << QString("x.tiktoken:258");
        QTest::newRow("tiktoken_no_rank") << "x.tiktoken" << goodTk + "IHRoZQ==\n" << QString("x.tiktoken:259");
        QTest::newRow("tiktoken_bad_base64") << "x.tiktoken" << "!!!! 0\n" + goodTk << QString("x.tiktoken:1: '!!!!' is not valid base64");
        QTest::newRow("tiktoken_unpadded_base64") << "x.tiktoken" << "IHRoZQ 258\n" + goodTk << QString("x.tiktoken:1");
        QTest::newRow("tiktoken_bad_rank") << "x.tiktoken" << goodTk + "IHRoZQ== -1\n" << QString("x.tiktoken:259: rank '-1'");
        QTest::newRow("tiktoken_huge_rank") << "x.tiktoken" << goodTk + "IHRoZQ== 99999999999\n" << QString("x.tiktoken:259: rank 99999999999 is out of range");
        QTest::newRow("tiktoken_duplicate_rank") << "x.tiktoken" << goodTk + "IHRoZQ== 257\n"
                                                 << QString("x.tiktoken:259: rank 257 was already given on line 258");
        QTest::newRow("tiktoken_duplicate_token") << "x.tiktoken" << goodTk + QByteArray(" th").toBase64() + " 258\n"
                                                  << QString("x.tiktoken:259: the token was already given on line 258");
        QTest::newRow("tiktoken_missing_rank") << "x.tiktoken" << goodTk + "IHRoZQ== 259\n" << QString("rank 258 is missing");
        QTest::newRow("tiktoken_missing_byte") << "x.tiktoken" << goodTk.mid(goodTk.indexOf('\n') + 1) + "AAA= 0\n"
                                               << QString("x.tiktoken: The vocabulary has no token for the byte 0");
        QTest::newRow("tiktoken_empty") << "x.tiktoken" << QByteArray("\n\n") << QString("x.tiktoken: the file holds no ranks");
        QTest::newRow("tiktoken_binary") << "x.tiktoken" << QByteArray("\x89PNG\r\n\x1a\n\x00\x00", 10) << QString("x.tiktoken:1");
        QTest::newRow("unknown_ext_text") << "tok.model" << QByteArray("hello world\n") << QString("tok.model:1");
        QTest::newRow("vocab_json_alone") << "vocab.json" << QByteArray("{}") << QString("need both vocab.json and merges.txt");
    }

    void badFilesGiveProblems()
    {
        QFETCH(QString, file);
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath(file);
        QVERIFY(writeFile(path, content));
        const auto r = loadTokenizer(path.toStdString());
        QVERIFY(!r.ok());
        const QString message = QString::fromStdString(r.problems().front().message);
        QVERIFY2(message.contains(expected), qPrintable(message));
        QVERIFY2(message.contains(file), qPrintable(message));
        // Loading the folder reports the same file.
        if (file == "tokenizer.json") {
            const auto d = loadTokenizer(dir.path().toStdString());
            QVERIFY(!d.ok());
            QVERIFY(QString::fromStdString(d.problems().front().message).contains(expected));
        }
    }

    void missingAndEmptyPaths()
    {
        QTemporaryDir dir;
        auto r = loadTokenizer(dir.filePath("nope").toStdString());
        QVERIFY(!r.ok());
        QVERIFY(QString::fromStdString(r.problems().front().message).contains("nope"));
        r = loadTokenizer(dir.path().toStdString());
        QVERIFY(!r.ok());
        QVERIFY(QString::fromStdString(r.problems().front().message).contains("no tokenizer.json"));
        QVERIFY(writeFile(dir.filePath("a.tiktoken"), smallTiktoken()));
        QVERIFY(writeFile(dir.filePath("b.tiktoken"), smallTiktoken()));
        r = loadTokenizer(dir.path().toStdString());
        QVERIFY(!r.ok());
        QVERIFY(QString::fromStdString(r.problems().front().message).contains("several"));
    }

    // Every prefix of a valid file loads or gives a problem naming the file; nothing crashes.
    void everyTruncationIsHandled()
    {
        QTemporaryDir dir;
        const QByteArray json = QJsonDocument(smallTokenizerJson()).toJson(QJsonDocument::Indented);
        const QByteArray tk = smallTiktoken();
        for (const auto &[name, data] : {std::make_pair(QString("t.json"), json), std::make_pair(QString("t.tiktoken"), tk)}) {
            const QString path = dir.filePath(name);
            const qsizetype step = std::max<qsizetype>(1, data.size() / 400);
            for (qsizetype n = 0; n < data.size(); n += step) {
                QVERIFY(writeFile(path, data.left(n)));
                const auto r = loadTokenizer(path.toStdString());
                if (!r.ok())
                    QVERIFY2(QString::fromStdString(r.problems().front().message).contains(name),
                             r.problems().front().message.c_str());
            }
        }
    }

    // Random byte changes (fixed seed): a problem naming the file or a tokenizer, never a crash.
    void corruptedBytesAreHandled()
    {
        QTemporaryDir dir;
        const QByteArray json = QJsonDocument(smallTokenizerJson()).toJson(QJsonDocument::Indented);
        const QByteArray tk = smallTiktoken();
        std::mt19937 rng(12345);
        for (const auto &[name, data] : {std::make_pair(QString("c.json"), json), std::make_pair(QString("c.tiktoken"), tk)}) {
            const QString path = dir.filePath(name);
            for (int round = 0; round < 300; ++round) {
                QByteArray bad = data;
                const int flips = 1 + static_cast<int>(rng() % 4);
                for (int k = 0; k < flips; ++k)
                    bad[static_cast<qsizetype>(rng() % static_cast<std::uint32_t>(bad.size()))] = static_cast<char>(rng() & 0xFF);
                QVERIFY(writeFile(path, bad));
                const auto r = loadTokenizer(path.toStdString());
                if (!r.ok())
                    QVERIFY2(QString::fromStdString(r.problems().front().message).contains(name),
                             r.problems().front().message.c_str());
                else
                    QVERIFY(r->vocabSize() >= 256);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestTokenizerFormats)
#include "test_tokenizer_formats.moc"
