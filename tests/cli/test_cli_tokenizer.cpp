// SPDX-License-Identifier: GPL-3.0-or-later
// The tokenizer subcommands: GPT-2 exact ids, special tokens, training against the course
// reference, prepare-data's binary output, clear exit-2 errors for bad input, and no --out folder
// left behind by a train-bpe that fails or is interrupted.

#include "tokenizer/byte_unicode.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include "../fixture_paths.h"
#include "cli_run.h"
#include <QtEndian>

#include <csignal>

namespace {

using lse::test::Run;
using lse::test::runCli;

// The course's texts and references (tests/data) and the bundled GPT-2 folder (vocab.json + merges.txt).
QString cs336(const QString &relative) { return lse::test::fixturePath(relative); }
QString gpt2Dir() { return lse::test::gpt2TokenizerDir(); }

QByteArray readAll(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

bool writeAll(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

// ids of `tokenize --json`; empty optional-like marker via ok flag.
QList<qint64> tokenizeIds(const QStringList &arguments, bool *ok)
{
    const Run run = runCli(QStringList{"tokenize", "--json"} + arguments);
    *ok = run.exit_code == 0;
    if (!*ok) {
        qWarning("tokenize failed (%d): %s", run.exit_code, run.err.constData());
        return {};
    }
    const QJsonObject root = QJsonDocument::fromJson(run.out).object();
    QList<qint64> ids;
    for (const QJsonValue &t : root.value("tokens").toArray())
        ids.append(t.toObject().value("id").toInteger());
    *ok = root.value("count").toInteger() == ids.size();
    return ids;
}

QList<qint64> readIds(const QString &path, int width)
{
    const QByteArray data = readAll(path);
    QList<qint64> ids;
    for (qsizetype i = 0; i + width <= data.size(); i += width)
        ids.append(width == 2 ? qint64(qFromLittleEndian<quint16>(data.constData() + i))
                              : qint64(qFromLittleEndian<quint32>(data.constData() + i)));
    return ids;
}

QByteArray jsonString(const std::string &s)
{
    QByteArray out = "\"";
    for (const char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "\"";
}

// vocab.json with the 256 bytes followed by `extra` made-up tokens, in GPT-2's alphabet.
QByteArray fakeVocab(int extra)
{
    QByteArray out = "{";
    int id = 0;
    for (int b = 0; b < 256; ++b, ++id)
        out += (id ? ",\n" : "\n") + jsonString(lse::bytesToAlphabet(std::string(1, char(b)))) + ": " + QByteArray::number(id);
    for (int i = 0; i < extra; ++i, ++id)
        out += ",\n\"tok" + QByteArray::number(i) + "\": " + QByteArray::number(id);
    return out + "\n}\n";
}

}  // namespace

class TestCliTokenizer : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        // A missing file fails here, naming it, rather than in the middle of a case.
        LSE_REQUIRE_FIXTURE(lse::test::gpt2VocabPath());
        LSE_REQUIRE_FIXTURE(lse::test::gpt2MergesPath());
        for (const char *name : {"tokenizer/expected_ids_gpt2.json", "tokenizer/tinystories_sample.txt", "tokenizer/german.txt",
                                 "bpe/corpus.en", "bpe/train-bpe-reference-merges.txt", "bpe/train-bpe-reference-vocab.json"})
            LSE_REQUIRE_FIXTURE(cs336(QString::fromLatin1(name)));
    }

    void helpForEachCommand_data()
    {
        QTest::addColumn<QString>("command");
        for (const char *c : {"tokenize", "train-bpe", "prepare-data", "bench-tokenizer"})
            QTest::addRow("%s", c) << QString(c);
    }
    void helpForEachCommand()
    {
        QFETCH(QString, command);
        const Run run = runCli({command, "--help"});
        QCOMPARE(run.exit_code, 0);
        QVERIFY(run.out.contains("Usage: llm-explorer-cli " + command.toUtf8()));
    }

    void gpt2ExpectedIds_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QList<qint64>>("expected");
        const QJsonObject root = QJsonDocument::fromJson(readAll(cs336(QStringLiteral("tokenizer/expected_ids_gpt2.json")))).object();
        for (const QJsonValue &value : root.value("cases").toArray()) {
            const QJsonObject c = value.toObject();
            // Each run loads the GPT-2 files (~0.3 s): a few cases that cover Unicode, special tokens and
            // files; the core tests check all of them.
            static const QStringList kCases{"test_unicode_string_matches_tiktoken",
                                            "test_unicode_string_with_special_tokens_matches_tiktoken",
                                            "test_german_matches_tiktoken", "test_tinystories_matches_tiktoken",
                                            "test_encode_special_token_double_newline_non_whitespace"};
            if (!kCases.contains(c.value("test").toString()))
                continue;
            QStringList arguments{"--tokenizer", gpt2Dir()};
            for (const QJsonValue &s : c.value("allowed_special").toArray())
                arguments << "--special" << s.toString();
            const QJsonObject input = c.value("input").toObject();
            if (input.contains("file")) {
                const QString name = input.value("file").toString();
                const QString path = cs336((name == "corpus.en" ? "bpe/" : "tokenizer/") + name);
                arguments << "--file" << path;
            } else {
                arguments << input.value("text").toString();
            }
            QList<qint64> expected;
            for (const QJsonValue &id : c.value("ids").toArray())
                expected.append(id.toInteger());
            QTest::addRow("%s", qPrintable(c.value("test").toString())) << arguments << expected;
        }
    }
    void gpt2ExpectedIds()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QList<qint64>, expected);
        bool ok = false;
        const QList<qint64> ids = tokenizeIds(arguments, &ok);
        QVERIFY(ok);
        QCOMPARE(ids, expected);
    }

    void tokenizeTextOutput()
    {
        const Run run = runCli({"tokenize", "--tokenizer", gpt2Dir(), "Hi \xe4\xbd\xa0\n"});
        QCOMPARE(run.exit_code, 0);
        QVERIFY(run.err.isEmpty());
        const QList<QByteArray> lines = run.out.split('\n');
        QVERIFY(lines.size() >= 4);
        QCOMPARE(lines[0], QByteArray("0\t17250\t[0,2)\tHi"));
        QVERIFY2(run.out.contains("<e4 bd>"), run.out.constData());  // partial UTF-8 shown as hex
        QVERIFY2(run.out.contains("\\n"), run.out.constData());       // newline escaped
    }

    void specialTokens()
    {
        const QString text = "Hello<|endoftext|><|endoftext|>x";
        bool ok = false;
        // Not allowed: encoded as ordinary text.
        QList<qint64> ids = tokenizeIds({"--tokenizer", gpt2Dir(), text}, &ok);
        QVERIFY(ok);
        QVERIFY(!ids.contains(50256));
        // Allowed, one special token: see the expected-ids cases with allowed_special.
        // Overlapping special tokens: the longest match wins (the double token is new, id 50257).
        const Run run = runCli({"tokenize", "--json", "--tokenizer", gpt2Dir(), "--special", "<|endoftext|>", "--special",
                                "<|endoftext|><|endoftext|>", text});
        QCOMPARE(run.exit_code, 0);
        const QJsonArray tokens = QJsonDocument::fromJson(run.out).object().value("tokens").toArray();
        QCOMPARE(tokens.size(), 3);
        QCOMPARE(tokens[1].toObject().value("id").toInteger(), 50257);
        QCOMPARE(tokens[1].toObject().value("start").toInteger(), 5);
        QCOMPARE(tokens[1].toObject().value("end").toInteger(), 31);
    }

    void otherFormatsLoad()
    {
        // A tiny byte-level tokenizer as Hugging Face tokenizer.json and as a tiktoken rank file.
        QTemporaryDir dir;
        QJsonObject vocab;
        for (int b = 0; b < 256; ++b)
            vocab.insert(QString::fromStdString(lse::bytesToAlphabet(std::string(1, char(b)))), b);
        vocab.insert(QString::fromUtf8("\xc4\xa0t"), 256);
        vocab.insert(QString::fromUtf8("\xc4\xa0th"), 257);
        const QJsonObject model{{"type", "BPE"}, {"vocab", vocab},
                                {"merges", QJsonArray{QString::fromUtf8("\xc4\xa0 t"), QString::fromUtf8("\xc4\xa0t h")}}};
        const QJsonObject byteLevel{{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", true}};
        const QJsonObject root{{"normalizer", QJsonValue()}, {"pre_tokenizer", byteLevel}, {"decoder", byteLevel},
                               {"model", model}};
        QVERIFY(writeAll(dir.filePath("tokenizer.json"), QJsonDocument(root).toJson()));
        QByteArray ranks;
        for (int b = 0; b < 256; ++b)
            ranks += QByteArray(1, char(b)).toBase64() + " " + QByteArray::number(b) + "\n";
        ranks += QByteArray(" t").toBase64() + " 256\n" + QByteArray(" th").toBase64() + " 257\n";
        QVERIFY(writeAll(dir.filePath("small.tiktoken"), ranks));
        for (const QString &path : {dir.filePath("tokenizer.json"), dir.path(), dir.filePath("small.tiktoken")}) {
            bool ok = false;
            QCOMPARE(tokenizeIds({"--tokenizer", path, " the"}, &ok), (QList<qint64>{257, 101}));
            QVERIFY2(ok, qPrintable(path));
        }
    }

    void trainBpeReproducesReference()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString out = dir.filePath("trained/sub");
        const Run run = runCli({"train-bpe", "--input", cs336("bpe/corpus.en"), "--vocab-size", "500", "--special",
                                "<|endoftext|>", "--out", out, "--threads", "2"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QVERIFY(run.out.contains("243 merges"));
        QList<QByteArray> ours = readAll(out + "/merges.txt").split('\n');
        if (!ours.isEmpty() && ours.front().startsWith("#version"))
            ours.removeFirst();
        QList<QByteArray> reference = readAll(cs336("bpe/train-bpe-reference-merges.txt")).split('\n');
        while (!ours.isEmpty() && ours.back().isEmpty())
            ours.removeLast();
        while (!reference.isEmpty() && reference.back().isEmpty())
            reference.removeLast();
        QCOMPARE(ours.size(), 243);
        QCOMPARE(ours, reference);
        // Same vocabulary as sets of tokens (ids may differ).
        const QStringList ourVocab = QJsonDocument::fromJson(readAll(out + "/vocab.json")).object().keys();
        const QStringList refVocab =
            QJsonDocument::fromJson(readAll(cs336("bpe/train-bpe-reference-vocab.json"))).object().keys();
        QCOMPARE(QSet<QString>(ourVocab.begin(), ourVocab.end()), QSet<QString>(refVocab.begin(), refVocab.end()));
        // The trained files load back as a tokenizer.
        bool ok = false;
        const QList<qint64> ids = tokenizeIds({"--tokenizer", out, "--special", "<|endoftext|>", "the<|endoftext|>"}, &ok);
        QVERIFY(ok);
        QCOMPARE(ids.back(), 0);
    }

    void prepareDataMatchesTokenize_data()
    {
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<int>("width");
        QTest::addRow("uint16") << "uint16" << 2;
        QTest::addRow("uint32") << "uint32" << 4;
    }
    void prepareDataMatchesTokenize()
    {
        QFETCH(QString, dtype);
        QFETCH(int, width);
        QTemporaryDir dir;
        const QString a = cs336("tokenizer/tinystories_sample.txt"), b = cs336("tokenizer/german.txt");
        static bool ok = false;  // tokenize once for both dtypes
        static const QList<qint64> idsA = tokenizeIds({"--tokenizer", gpt2Dir(), "--special", "<|endoftext|>", "--file", a}, &ok);
        QVERIFY(ok);
        static const QList<qint64> idsB = tokenizeIds({"--tokenizer", gpt2Dir(), "--special", "<|endoftext|>", "--file", b}, &ok);
        QVERIFY(ok);

        const QString one = dir.filePath("one.bin");
        Run run = runCli({"prepare-data", "--tokenizer", gpt2Dir(), "--input", a, "--out", one, "--dtype", dtype,
                          "--special", "<|endoftext|>"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QCOMPARE(QFileInfo(one).size(), idsA.size() * width);
        QCOMPARE(readIds(one, width), idsA);

        // Two documents: the first special token goes between them.
        const QString two = dir.filePath("two.bin");
        run = runCli({"prepare-data", "--tokenizer", gpt2Dir(), "--input", a, "--input", b, "--out", two, "--dtype",
                      dtype, "--special", "<|endoftext|>"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QCOMPARE(readIds(two, width), idsA + QList<qint64>{50256} + idsB);

        // The output is written beside its name and renamed over it: no temporary stays behind, a
        // replaced file keeps its permissions, a new one gets the usual read-write ones.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), (QStringList{"one.bin", "two.bin"}));
        QVERIFY(QFile::permissions(one).testFlags(QFile::ReadOwner | QFile::WriteOwner));
        QVERIFY(!QFile::permissions(one).testFlag(QFile::ExeOwner));
        QVERIFY(QFile::setPermissions(two, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup));
        run = runCli({"prepare-data", "--tokenizer", gpt2Dir(), "--input", a, "--out", two, "--dtype", dtype,
                      "--special", "<|endoftext|>"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QCOMPARE(readIds(two, width), idsA);
        QCOMPARE(QFile::permissions(two) & (QFile::ReadGroup | QFile::ReadOther | QFile::WriteGroup), QFile::ReadGroup);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), (QStringList{"one.bin", "two.bin"}));

        // A folder that does not exist: a clear error, nothing written.
        run = runCli({"prepare-data", "--tokenizer", gpt2Dir(), "--input", a, "--out", dir.filePath("no/such/ids.bin")});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains("--out") || run.err.contains("no/such/ids.bin"), run.err.constData());
    }

    // A file of several pieces on 1, 2 and 3 threads: the same ids (the pieces are cut where the
    // encodings concatenate), with the special token between the two input files.
    void prepareDataGivesTheSameIdsOnAnyThreadCount()
    {
        QTemporaryDir dir;
        QFile sample(cs336("tokenizer/tinystories_sample.txt"));
        QVERIFY(sample.open(QIODevice::ReadOnly));
        const QByteArray unit = sample.readAll() + "<|endoftext|>\n";
        QByteArray big;
        while (big.size() < 10 * 1024 * 1024)
            big += unit;
        const QString input = dir.filePath("big.txt");
        QFile file(input);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QCOMPARE(file.write(big), big.size());
        file.close();
        QByteArray first;
        for (const char *threads : {"1", "2", "3"}) {
            const QString out = dir.filePath(QStringLiteral("ids%1.bin").arg(threads));
            const Run run = runCli({"prepare-data", "--tokenizer", gpt2Dir(), "--input", input, "--input",
                                    cs336("tokenizer/german.txt"), "--out", out, "--special", "<|endoftext|>", "--threads",
                                    threads});
            QVERIFY2(run.exit_code == 0, run.err.constData());
            QVERIFY2(run.out.contains(QByteArray("up to ") + threads + " thread(s)"), run.out.constData());
            QFile ids(out);
            QVERIFY(ids.open(QIODevice::ReadOnly));
            const QByteArray bytes = ids.readAll();
            if (first.isEmpty())
                first = bytes;
            QVERIFY2(bytes == first, threads);
        }
        QVERIFY(first.size() > 4 * 1024 * 1024);
    }

    void prepareDataRefusesUint16ForLargeVocab()
    {
        QTemporaryDir dir;
        QVERIFY(writeAll(dir.filePath("vocab.json"), fakeVocab(65537 - 256 + 10)));  // ids up to 65546
        QVERIFY(writeAll(dir.filePath("merges.txt"), "#version: 0.2\n"));
        QVERIFY(writeAll(dir.filePath("in.txt"), "hello"));
        const QString out = dir.filePath("ids.bin");
        Run run = runCli({"prepare-data", "--tokenizer", dir.path(), "--input", dir.filePath("in.txt"), "--out", out});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains("uint16") && run.err.contains("65,536"), run.err.constData());
        QVERIFY(!QFileInfo::exists(out));
        run = runCli({"prepare-data", "--tokenizer", dir.path(), "--input", dir.filePath("in.txt"), "--out", out,
                      "--dtype", "uint32"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QCOMPARE(readIds(out, 4), (QList<qint64>{'h', 'e', 'l', 'l', 'o'}));  // bytes are ids 0..255 here
    }

    void malformedMergesNamesFileAndLine()
    {
        QTemporaryDir dir;
        QVERIFY(writeAll(dir.filePath("vocab.json"), fakeVocab(0)));
        // Line 2 is blank (skipped); line 3 lacks the separating space.
        QVERIFY(writeAll(dir.filePath("merges.txt"), "#version: 0.2\n\nab\n"));
        const Run run = runCli({"tokenize", "--tokenizer", dir.path(), "abc"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains("merges.txt:3"), run.err.constData());
    }

    void truncatedVocabNamesFile()
    {
        QTemporaryDir dir;
        QByteArray vocab = fakeVocab(0);
        vocab.chop(vocab.size() / 2);
        QVERIFY(writeAll(dir.filePath("vocab.json"), vocab));
        QVERIFY(writeAll(dir.filePath("merges.txt"), ""));
        const Run run = runCli({"tokenize", "--tokenizer", dir.filePath("vocab.json"), "abc"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains("vocab.json:"), run.err.constData());
    }

    void badInputExitsTwo_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("mentions");
        const QString missing = QStringLiteral("/nonexistent/input.txt");
        QTest::addRow("tokenize missing file") << QStringList{"tokenize", "--tokenizer", gpt2Dir(), "--file", missing} << missing;
        QTest::addRow("tokenize missing tokenizer") << QStringList{"tokenize", "--tokenizer", "/nonexistent/tok", "x"}
                                                    << QString("/nonexistent/tok");
        QTest::addRow("tokenize no text") << QStringList{"tokenize", "--tokenizer", gpt2Dir()} << QString("TEXT");
        QTest::addRow("train missing input") << QStringList{"train-bpe", "--input", missing, "--vocab-size", "300", "--out",
                                                            "/tmp/lse-never-written"}
                                             << missing;
        QTest::addRow("train vocab too small")
            << QStringList{"train-bpe", "--input", cs336("bpe/corpus.en"), "--vocab-size", "257", "--special",
                           "<|endoftext|>", "--out", "/tmp/lse-never-written"}
            << QString("--vocab-size");
        QTest::addRow("prepare missing input") << QStringList{"prepare-data", "--tokenizer", gpt2Dir(), "--input", missing,
                                                              "--out", "/tmp/lse-never-written.bin"}
                                               << missing;
        QTest::addRow("prepare bad dtype") << QStringList{"prepare-data", "--tokenizer", gpt2Dir(), "--input",
                                                          cs336("tokenizer/german.txt"), "--out",
                                                          "/tmp/lse-never-written.bin", "--dtype", "int8"}
                                           << QString("--dtype");
        QTest::addRow("bench missing input") << QStringList{"bench-tokenizer", "--tokenizer", gpt2Dir(), "--input", missing}
                                             << missing;
        QTest::addRow("prepare zero threads") << QStringList{"prepare-data", "--tokenizer", gpt2Dir(), "--input",
                                                             cs336("tokenizer/german.txt"), "--out",
                                                             "/tmp/lse-never-written.bin", "--threads", "0"}
                                              << QString("--threads");
    }
    void badInputExitsTwo()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, mentions);
        const Run run = runCli(arguments);
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains(mentions.toUtf8()), run.err.constData());
        QVERIFY(!QFileInfo::exists("/tmp/lse-never-written") && !QFileInfo::exists("/tmp/lse-never-written.bin"));
    }

    void trainFailureLeavesNoFolder_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addRow("missing input") << QStringLiteral("/nonexistent/input.txt");
        QTest::addRow("input is a folder") << QDir::tempPath();
    }
    void trainFailureLeavesNoFolder()
    {
        QFETCH(QString, input);
        QTemporaryDir dir;
        const Run run = runCli({"train-bpe", "--input", input, "--vocab-size", "300", "--out", dir.filePath("new/nested")});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains(input.toUtf8()), run.err.constData());
        QVERIFY(!QFileInfo::exists(dir.filePath("new")));
    }

    void trainWriteFailureKeepsExistingFolder()
    {
        // vocab.json is a folder, so writing it fails; --out existed before and keeps its contents.
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("out/vocab.json"));
        QVERIFY(writeAll(dir.filePath("out/notes.txt"), "mine"));
        const Run run = runCli({"train-bpe", "--input", cs336("bpe/corpus.en"), "--vocab-size", "300", "--out",
                                dir.filePath("out")});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("vocab.json"), run.err.constData());
        QVERIFY(QFileInfo(dir.filePath("out/vocab.json")).isDir());
        QCOMPARE(readAll(dir.filePath("out/notes.txt")), QByteArray("mine"));
    }

    void trainInterruptRemovesCreatedFolder()
    {
        // Many distinct words and a large vocabulary: the merge loop runs for seconds, so SIGINT
        // arrives while it runs (the handler is in place before the first progress line).
        QTemporaryDir dir;
        QByteArray text;
        quint32 state = 7;
        while (text.size() < 3'000'000) {
            state = state * 1664525u + 1013904223u;
            const int length = 3 + int(state >> 28) % 8;
            for (int i = 0; i < length; ++i) {
                state = state * 1664525u + 1013904223u;
                text += char('a' + (state >> 24) % 26);
            }
            text += ' ';
        }
        QVERIFY(writeAll(dir.filePath("words.txt"), text));
        QProcess process;
        process.start(QStringLiteral(LSE_CLI_PATH), {"train-bpe", "--input", dir.filePath("words.txt"), "--vocab-size",
                                                     "60000", "--out", dir.filePath("out/sub")});
        QVERIFY(process.waitForStarted());
        QByteArray err;
        while (!err.contains("pre-tokenizing") && process.state() == QProcess::Running) {
            process.waitForReadyRead(1000);
            err += process.readAllStandardError();
        }
        QVERIFY2(err.contains("pre-tokenizing"), err.constData());
        QVERIFY(QFileInfo(dir.filePath("out/sub")).isDir());
        ::kill(static_cast<pid_t>(process.processId()), SIGINT);
        QVERIFY(process.waitForFinished(60000));
        err += process.readAllStandardError();
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 130);
        QVERIFY2(err.contains("interrupted"), err.constData());
        QVERIFY(!QFileInfo::exists(dir.filePath("out")));
    }

    void benchRunsAndAgrees()
    {
        const Run run = runCli({"bench-tokenizer", "--tokenizer", gpt2Dir(), "--input",
                                cs336("tokenizer/tinystories_sample.txt"), "--threads", "2", "--repeat", "1"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QVERIFY(run.out.contains("MB/s"));
        QVERIFY(run.out.contains("scaling"));
        // The control (independent copies on every thread) and the merges a cold cache costs,
        // which explain the split's scaling.
        QVERIFY(run.out.contains("independent       "));
        QVERIFY(run.out.contains("merged (cold)     "));
        QVERIFY(run.out.contains("ids identical     yes"));
    }
};

QTEST_GUILESS_MAIN(TestCliTokenizer)
#include "test_cli_tokenizer.moc"
