// SPDX-License-Identifier: GPL-3.0-or-later
// The shared file rules of core/common: every loader reads only a regular file of a bounded size
// (devices such as /dev/zero, FIFOs and oversized files are refused before anything is read), and
// every saver checks each write and flush before its file replaces an old one, so a full disk
// (here a file-size limit, RLIMIT_FSIZE, in a forked child) never leaves a short file behind.
// Issue 14, items 2 and 3.

#include "common/file_bytes.h"
#include "common/file_writer.h"
#include "reference/npz.h"
#include "reference/safetensors.h"
#include "reference/token_data.h"
#include "scenario/hf_import.h"
#include "scenario/scenario_json.h"
#include "tokenizer/bpe_tokenizer.h"
#include "tokenizer/tokenizer_formats.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <functional>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace lse;

namespace {

bool writeAll(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

// A sparse file of `bytes` bytes: its size is real, its blocks are not, so a loader that read it
// whole would show up as a "binary"/parse problem (NUL bytes) rather than as "too_large".
bool sparseFile(const QString &path, qint64 bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.resize(bytes);
}

std::string rules(const Problems &problems)
{
    std::string out;
    for (const Problem &p : problems)
        out += p.rule + " ";
    return out;
}

// Runs `body` in a forked child whose files may not grow past `limitBytes` (SIGXFSZ ignored, so a
// write past the limit fails with EFBIG instead of killing the process); returns the child's exit
// status, or -1 when it did not exit normally.
int inChildWithFileSizeLimit(rlim_t limitBytes, const std::function<int()> &body)
{
    std::fflush(nullptr);
    const pid_t child = ::fork();
    if (child == 0) {
        ::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{limitBytes, limitBytes};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        ::_exit(body());
    }
    int status = 0;
    if (child < 0 || ::waitpid(child, &status, 0) != child || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

// Exit statuses of the children: 0 when the save failed with the system's text for EFBIG.
int refusedWithSystemText(bool ok, const std::string &message)
{
    if (ok)
        return 10;
    return message.find(std::strerror(EFBIG)) != std::string::npos ? 0 : 11;
}

QStringList entries(const QString &dir)
{
    return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::System | QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
}

}  // namespace

class TestFileIo : public QObject {
    Q_OBJECT

private slots:
    // ---- reading: one rule for every loader ---------------------------------------------------

    void devicesAreRefusedBeforeReading_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addRow("/dev/zero") << "/dev/zero";
        QTest::addRow("/dev/urandom") << "/dev/urandom";
        QTest::addRow("directory") << QDir::tempPath();
    }

    void devicesAreRefusedBeforeReading()
    {
        QFETCH(QString, path);
        const std::string p = path.toStdString();
        for (const FileKind kind : {FileKind::Config, FileKind::Tokenizer, FileKind::Checkpoint, FileKind::Data,
                                    FileKind::Text}) {
            const Result<QByteArray> read = readFileBytes(p, kind);
            QVERIFY(!read.ok());
            QCOMPARE(read.problems().front().rule, std::string("not_a_file"));
            QVERIFY(read.problems().front().message.find(p) != std::string::npos);
            QVERIFY(!mapFileBytes(p, kind).ok());
            QVERIFY(regularFileProblem(p, kind).has_value());
        }
        // Every loader that reads a whole file, by its own entry point.
        const std::vector<std::pair<const char *, Problems>> loaders = {
            {"loadScenarioFile", loadScenarioFile(p).problems()},
            {"loadHuggingFaceConfigFile", loadHuggingFaceConfigFile(p).problems()},
            {"loadTokenizer", loadTokenizer(p).problems()},
            {"loadTiktoken", loadTiktoken(p).problems()},
            {"loadHfTokenizerJson", loadHfTokenizerJson(p).problems()},
            {"BpeTokenizer::loadGpt2", BpeTokenizer::loadGpt2(p, p).problems()},
            {"readSafetensors", readSafetensors(p).problems()},
            {"readNpz", readNpz(p).problems()},
            {"TokenFile::open", TokenFile::open(p, TokenDtype::U16).problems()},
        };
        for (const auto &[name, problems] : loaders) {
            QVERIFY2(!problems.empty(), name);
            // A directory given to loadTokenizer is looked into, not read.
            if (std::string(name) == "loadTokenizer" && QFileInfo(path).isDir())
                continue;
            QVERIFY2(problems.front().rule == "not_a_file", (std::string(name) + ": " + rules(problems)).c_str());
        }
    }

    void fifoIsRefusedWithoutWaitingForAWriter()
    {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath("pipe").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        // Without O_NONBLOCK the open would wait for a writer forever.
        QCOMPARE(readFileBytes(fifo, FileKind::Config).problems().front().rule, std::string("not_a_file"));
        QCOMPARE(loadTokenizer(fifo).problems().front().rule, std::string("not_a_file"));
        QCOMPARE(loadScenarioFile(fifo).problems().front().rule, std::string("not_a_file"));
    }

    void oversizedFilesAreRefusedBySize()
    {
        QTemporaryDir dir;
        const QString config = dir.filePath("scenario.json");
        QVERIFY(sparseFile(config, maxFileBytes(FileKind::Config) + 1));
        for (const Problems &problems : {loadScenarioFile(config.toStdString()).problems(),
                                         loadHuggingFaceConfigFile(config.toStdString()).problems(),
                                         readFileBytes(config.toStdString(), FileKind::Config).problems()})
            QVERIFY2(!problems.empty() && problems.front().rule == "too_large", rules(problems).c_str());
        const QString tokenizer = dir.filePath("tokenizer.json");
        QVERIFY(sparseFile(tokenizer, maxFileBytes(FileKind::Tokenizer) + 1));
        QCOMPARE(loadTokenizer(tokenizer.toStdString()).problems().front().rule, std::string("too_large"));
        QCOMPARE(mapFileBytes(tokenizer.toStdString(), FileKind::Tokenizer).problems().front().rule, std::string("too_large"));
        const QString checkpoint = dir.filePath("model.safetensors");
        QVERIFY(sparseFile(checkpoint, maxFileBytes(FileKind::Checkpoint) + 1));
        QCOMPARE(readSafetensors(checkpoint.toStdString()).problems().front().rule, std::string("too_large"));
        // At the cap a file is read (here it is zeros, so a configuration's text check refuses it).
        QVERIFY(sparseFile(config, maxFileBytes(FileKind::Config)));
        QCOMPARE(loadScenarioFile(config.toStdString()).problems().front().rule, std::string("binary"));
    }

    void regularFilesReadWhole()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("f.txt");
        QVERIFY(writeAll(path, "hello"));
        QCOMPARE(*readFileBytes(path.toStdString(), FileKind::Config), QByteArray("hello"));
        QCOMPARE(mapFileBytes(path.toStdString(), FileKind::Config)->view(), std::string_view("hello"));
        QVERIFY(!regularFileProblem(path.toStdString(), FileKind::Config));
        const Result<QByteArray> missing = readFileBytes(dir.filePath("no").toStdString(), FileKind::Config);
        QCOMPARE(missing.problems().front().rule, std::string("unreadable"));
        QVERIFY(missing.problems().front().message.find(std::strerror(ENOENT)) != std::string::npos);
    }

    // Issue 28 item 1: "Start" with the default text failed: a Qt resource path reached POSIX open().
    void resourcePathsAreReadThroughQt()
    {
        const std::string sample = ":/samples/tiny_stories_generated.txt";
        const Result<QByteArray> read = readFileBytes(sample, FileKind::Text);
        QVERIFY2(read.ok(), read.ok() ? "" : read.problems().front().message.c_str());
        QVERIFY(read->size() > 1000);
        QVERIFY(mapFileBytes(sample, FileKind::Text).ok());
        QCOMPARE(mapFileBytes(sample, FileKind::Text)->view().size(), std::size_t(read->size()));
        QVERIFY(!regularFileProblem(sample, FileKind::Text));
        const Result<QByteArray> missing = readFileBytes(":/samples/none.txt", FileKind::Text);
        QCOMPARE(missing.problems().front().rule, std::string("unreadable"));
    }

    // Issue 28 item 14: files of /proc say 0 bytes and hold text; they were read as empty (or 1 byte).
    void filesThatSayZeroBytesAreReadToTheirEnd()
    {
        if (!QFileInfo::exists("/proc/cpuinfo"))
            QSKIP("no /proc/cpuinfo");
        QCOMPARE(QFileInfo("/proc/cpuinfo").size(), qint64(0));
        const Result<QByteArray> read = readFileBytes("/proc/cpuinfo", FileKind::Text);
        QVERIFY(read.ok());
        QVERIFY2(read->size() > 100, QByteArray::number(read->size()).constData());
        QVERIFY(read->contains("processor"));
        const Result<FileBytes> mapped = mapFileBytes("/proc/cpuinfo", FileKind::Text);
        QVERIFY(mapped.ok());
        QVERIFY(mapped->view().size() > 100);
    }

    void sameFileSeesLinks()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath("a"), b = dir.filePath("b");
        QVERIFY(writeAll(a, "x"));
        QVERIFY(writeAll(b, "x"));
        QVERIFY(QFile::link(a, dir.filePath("sym")));
        QCOMPARE(::link(a.toLocal8Bit().constData(), dir.filePath("hard").toLocal8Bit().constData()), 0);
        QVERIFY(sameFile(a.toStdString(), a.toStdString()));
        QVERIFY(sameFile(a.toStdString(), dir.filePath("sym").toStdString()));
        QVERIFY(sameFile(a.toStdString(), dir.filePath("hard").toStdString()));
        QVERIFY(sameFile(a.toStdString(), dir.filePath("./a").toStdString()));
        QVERIFY(!sameFile(a.toStdString(), b.toStdString()));
        QVERIFY(!sameFile(a.toStdString(), dir.filePath("missing").toStdString()));
    }

    // ---- writing: checked, flushed, then renamed ------------------------------------------------

    void writerReplacesAndKeepsPermissions()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("out.json");
        QVERIFY(writeAll(path, "old"));
        QCOMPARE(::chmod(path.toLocal8Bit().constData(), 0640), 0);
        QVERIFY(writeFileReplacing(path.toStdString(), "new contents").ok());
        QCOMPARE(readAll(path), QByteArray("new contents"));
        struct stat st {};
        QCOMPARE(::stat(path.toLocal8Bit().constData(), &st), 0);
        QCOMPARE(st.st_mode & 07777, mode_t(0640));  // the replaced file's permissions, not mkstemp's 0600
        QCOMPARE(entries(dir.path()), QStringList{"out.json"});
    }

    void writerReplacesTheFileALinkNames()
    {
        QTemporaryDir dir;
        const QString target = dir.filePath("target.json"), link = dir.filePath("link.json");
        QVERIFY(writeAll(target, "old"));
        QVERIFY(QFile::link(target, link));
        QVERIFY(writeFileReplacing(link.toStdString(), "new").ok());
        QCOMPARE(readAll(target), QByteArray("new"));
        QVERIFY(QFileInfo(link).isSymLink());
    }

    void writerReportsTheSystemsText()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("missing-folder/out.json").toStdString();
        const Result<bool> written = writeFileReplacing(path, "x");
        QVERIFY(!written.ok());
        QCOMPARE(written.problems().front().rule, std::string("unwritable"));
        QVERIFY2(written.problems().front().message.find(std::strerror(ENOENT)) != std::string::npos,
                 written.problems().front().message.c_str());
        QVERIFY(written.problems().front().message.find(path) != std::string::npos);
    }

    void filesTogetherRollBackWhenOneCannotBeReplaced()
    {
        // vocab.json is replaced first; merges.txt cannot be (a non-empty folder of that name), so
        // vocab.json must go back to its old contents: all old, never one new beside one old.
        QTemporaryDir dir;
        const QString vocab = dir.filePath("vocab.json"), merges = dir.filePath("merges.txt");
        QVERIFY(writeAll(vocab, "old vocab"));
        QVERIFY(QDir().mkpath(merges + "/inside"));
        const Result<bool> written =
            writeFilesTogether({{vocab.toStdString(), "new vocab"}, {merges.toStdString(), "new merges"}});
        QVERIFY(!written.ok());
        QCOMPARE(written.problems().front().field, merges.toStdString());
        QCOMPARE(readAll(vocab), QByteArray("old vocab"));
        QCOMPARE(entries(dir.path()), (QStringList{"merges.txt", "vocab.json"}));  // no temporaries or backups left

        // A file that did not exist before is removed again.
        QVERIFY(QFile::remove(vocab));
        QVERIFY(!writeFilesTogether({{vocab.toStdString(), "new vocab"}, {merges.toStdString(), "new merges"}}).ok());
        QVERIFY(!QFile::exists(vocab));

        // And when every rename succeeds, both are new.
        QVERIFY(QDir(merges).removeRecursively());
        QVERIFY(writeAll(vocab, "old vocab"));
        QVERIFY(writeFilesTogether({{vocab.toStdString(), "new vocab"}, {merges.toStdString(), "new merges"}}).ok());
        QCOMPARE(readAll(vocab), QByteArray("new vocab"));
        QCOMPARE(readAll(merges), QByteArray("new merges"));
        QCOMPARE(entries(dir.path()), (QStringList{"merges.txt", "vocab.json"}));
    }

    void fullDiskNeverCommitsAShortFile_data()
    {
        QTest::addColumn<QString>("saver");
        for (const char *saver : {"writeFileReplacing", "saveScenarioFile", "saveGpt2", "writeSafetensors", "writeTokenFile"})
            QTest::addRow("%s", saver) << saver;
    }

    void fullDiskNeverCommitsAShortFile()
    {
        QFETCH(QString, saver);
        QTemporaryDir dir;
        const QString path = dir.filePath("out"), merges = dir.filePath("merges.txt");
        const QByteArray old = "the old file, which must survive";
        QVERIFY(writeAll(path, old));
        QVERIFY(writeAll(merges, old));
        const std::string p = path.toStdString();
        // 4 KiB: bigger than a page, smaller than every file written below.
        const int status = inChildWithFileSizeLimit(4096, [&]() -> int {
            const std::string big(20000, 'x');
            if (saver == "writeFileReplacing") {
                const Result<bool> r = writeFileReplacing(p, big);
                return refusedWithSystemText(r.ok(), r.ok() ? "" : r.problems().front().message);
            }
            if (saver == "saveScenarioFile") {
                Scenario scenario = defaultScenario();
                scenario.model.name = big;  // makes the JSON larger than the limit
                const Problems problems = saveScenarioFile(scenario, p);
                return refusedWithSystemText(problems.empty(), problems.empty() ? "" : problems.front().message);
            }
            if (saver == "saveGpt2") {
                std::vector<std::string> vocab;
                for (int b = 0; b < 256; ++b)
                    vocab.emplace_back(1, static_cast<char>(b));
                vocab.push_back(big);
                Result<BpeTokenizer> tok = BpeTokenizer::create(vocab, {}, {big});
                if (!tok)
                    return 12;
                const Result<bool> r = tok->saveGpt2(p, merges.toStdString());
                return refusedWithSystemText(r.ok(), r.ok() ? "" : r.problems().front().message);
            }
            if (saver == "writeSafetensors") {
                const std::vector<float> values(5000, 1.0f);
                const Result<bool> r = writeSafetensors(p, {makeF32Tensor("w", values.data(), {5000})});
                return refusedWithSystemText(r.ok(), r.ok() ? "" : r.problems().front().message);
            }
            const Result<bool> r = writeTokenFile(p, std::vector<std::uint32_t>(5000, 7), TokenDtype::U32);
            return refusedWithSystemText(r.ok(), r.ok() ? "" : r.problems().front().message);
        });
        QCOMPARE(status, 0);
        QCOMPARE(readAll(path), old);
        QCOMPARE(readAll(merges), old);
        QCOMPARE(entries(dir.path()), (QStringList{"merges.txt", "out"}));
    }
};

QTEST_GUILESS_MAIN(TestFileIo)
#include "test_file_io.moc"
