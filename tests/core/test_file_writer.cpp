// SPDX-License-Identifier: GPL-3.0-or-later
// The one writer's rules (core/common/file_writer.h), issue 28 items 3–9: a target that is not a
// regular file is never replaced (a FIFO, a directory, a device node, a link to one), nor is a file
// registered as one of the program's inputs; temporaries are named, locked, reported when a killed
// run left them, and removed when the program is interrupted; a folder has one writer at a time.

#include "common/file_bytes.h"
#include "common/file_writer.h"
#include "common/folder_lock.h"
#include "common/input_files.h"
#include "common/interrupt_cleanup.h"
#include "common/stale_temporaries.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace lse;

namespace {

std::string native(const QString &path) { return QFile::encodeName(path).toStdString(); }

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

mode_t typeOf(const QString &path)
{
    struct stat st {};
    return ::lstat(native(path).c_str(), &st) == 0 ? (st.st_mode & S_IFMT) : 0;
}

QStringList partials(const QString &dir)
{
    return QDir(dir).entryList({QStringLiteral("*.llm-explorer-partial-*")}, QDir::Files | QDir::Hidden | QDir::System);
}

// Every-read mode is process-wide: each test that turns it on turns it off again.
struct EveryReadIsAnInput {
    EveryReadIsAnInput() { setEveryFileReadIsAnInput(true); }
    ~EveryReadIsAnInput() { setEveryFileReadIsAnInput(false); }
};

}  // namespace

class TestFileWriter : public QObject {
    Q_OBJECT

private slots:
    // Issue 28 item 3: `--save-scenario X` with X a FIFO exited 0 and replaced it with a file.
    void nonRegularTargetsAreNeverReplaced_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("says");
        QTest::newRow("fifo") << "fifo" << "a pipe (FIFO)";
        QTest::newRow("directory") << "directory" << "a directory";
        QTest::newRow("link to a fifo") << "link" << "a pipe (FIFO)";
        QTest::newRow("device node") << "device" << "a character device";
    }

    void nonRegularTargetsAreNeverReplaced()
    {
        QFETCH(QString, kind);
        QFETCH(QString, says);
        QTemporaryDir dir;
        const QString target = dir.filePath("out.json");
        const QString fifo = dir.filePath("pipe");
        if (kind == "fifo") {
            QCOMPARE(::mkfifo(native(target).c_str(), 0600), 0);
        } else if (kind == "directory") {
            QVERIFY(QDir().mkdir(target));
        } else if (kind == "link") {
            QCOMPARE(::mkfifo(native(fifo).c_str(), 0600), 0);
            QVERIFY(QFile::link(fifo, target));
        } else if (::mknod(native(target).c_str(), S_IFCHR | 0600, makedev(1, 3)) != 0) {
            // A copy of /dev/null's node in the temporary folder: safe to lose if the rule failed.
            QSKIP("creating a device node needs CAP_MKNOD");
        }
        const mode_t before = typeOf(target);
        const Result<bool> written = writeFileReplacing(native(target), "{}");
        QVERIFY(!written.ok());
        QCOMPARE(written.problems().front().rule, std::string("not_a_file"));
        QVERIFY2(written.problems().front().message.find(says.toStdString()) != std::string::npos,
                 written.problems().front().message.c_str());
        QCOMPARE(typeOf(target), before);
        QVERIFY(partials(dir.path()).isEmpty());
        QVERIFY(outputPathProblem(native(target)).has_value());
    }

    // Issue 28 item 4: the GUI wrote its screenshot over the scenario it had opened.
    void aRegisteredInputIsNotReplaced()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("mine.json");
        QVERIFY(writeAll(path, "{\"the\": \"input\"}"));
        {
            const InputFileRegistration input(native(path), "the scenario open in a window");
            const Result<bool> written = writeFileReplacing(native(path), "PNG");
            QVERIFY(!written.ok());
            QCOMPARE(written.problems().front().rule, std::string("same_file"));
            QVERIFY(written.problems().front().message.find("the scenario open in a window") != std::string::npos);
            // Through a symbolic link as well.
            const QString link = dir.filePath("link.json");
            QVERIFY(QFile::link(path, link));
            QVERIFY(!writeFileReplacing(native(link), "PNG").ok());
            QCOMPARE(readAll(path), QByteArray("{\"the\": \"input\"}"));
            // The file's own writer (the document saved over itself) may.
            QVERIFY(writeFileReplacing(native(path), "saved", InputReplacement::AllowedForOwnFile).ok());
        }
        // Once let go of, it is an ordinary file again.
        QVERIFY(writeFileReplacing(native(path), "free").ok());
        QCOMPARE(readAll(path), QByteArray("free"));
    }

    // Issue 28 item 9: only the files actually read are inputs, not their folder's other files.
    void everyFileReadIsAnInputOnlyForFilesRead()
    {
        QTemporaryDir dir;
        const QString vocab = dir.filePath("vocab.json"), ids = dir.filePath("ids.bin");
        QVERIFY(writeAll(vocab, "{}"));
        QVERIFY(writeAll(ids, "old ids"));
        const EveryReadIsAnInput mode;
        QVERIFY(readFileBytes(native(vocab), FileKind::Tokenizer).ok());
        QVERIFY(writeFileReplacing(native(ids), "new ids").ok());
        QVERIFY(writeFileReplacing(native(ids), "again").ok());
        const Result<bool> overInput = writeFileReplacing(native(vocab), "ids");
        QVERIFY(!overInput.ok());
        QCOMPARE(overInput.problems().front().rule, std::string("same_file"));
        QCOMPARE(readAll(vocab), QByteArray("{}"));
    }

    void readsAreNotInputsUnlessAsked()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("cache.json");
        QVERIFY(writeAll(path, "{}"));
        QVERIFY(readFileBytes(native(path), FileKind::Config).ok());
        QVERIFY(writeFileReplacing(native(path), "{\"new\": 1}").ok());
    }

    // Issue 28 item 8: temporaries carry the program's mark and a lock while written.
    void temporariesAreMarkedAndLockedWhileWritten()
    {
        QTemporaryDir dir;
        const QString target = dir.filePath("ids.bin");
        FileWriter file(native(target));
        QVERIFY(file.open());
        QVERIFY(isPartialFileName(QFileInfo(QString::fromStdString(file.temporaryPath())).fileName().toStdString()));
        QVERIFY(file.write("abc", 3));
        // Held by a live writer: not stale, and not removable.
        QVERIFY(staleTemporariesIn(native(dir.path())).empty());
        std::string why;
        QVERIFY(!removeStaleTemporary(file.temporaryPath(), &why));
        QVERIFY(file.replace());
        QVERIFY(partials(dir.path()).isEmpty());
        QCOMPARE(readAll(target), QByteArray("abc"));
    }

    // What a killed run leaves is reported once, never removed by the writer; removal is asked for.
    void staleTemporariesAreReportedNotDeleted()
    {
        QTemporaryDir dir;
        const QString stale = dir.filePath("ids.bin.llm-explorer-partial-Ab12Cd");
        const QString user = dir.filePath("ids.bin.backup");  // the user's own file: never touched
        QVERIFY(writeAll(stale, QByteArray(1000, 'x')));
        QVERIFY(writeAll(user, "mine"));
        std::vector<StaleTemporary> heard;
        setStaleTemporaryReporter([&heard](const StaleTemporary &s) { heard.push_back(s); });
        QVERIFY(writeFileReplacing(native(dir.filePath("ids.bin")), "new").ok());
        QVERIFY(writeFileReplacing(native(dir.filePath("ids.bin")), "newer").ok());
        setStaleTemporaryReporter(nullptr);
        QCOMPARE(heard.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(heard.front().path), stale);
        QCOMPARE(heard.front().bytes, std::int64_t(1000));
        QVERIFY(QFileInfo::exists(stale));
        std::string why;
        QVERIFY(!removeStaleTemporary(native(user), &why));
        QVERIFY(QFileInfo::exists(user));
        QVERIFY2(removeStaleTemporary(native(stale), &why), why.c_str());
        QVERIFY(!QFileInfo::exists(stale));
    }

    // SIGTERM mid-write: the temporary goes, and the process still ends by the signal.
    void interruptionRemovesTemporaries_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGTERM") << SIGTERM;
        QTest::newRow("SIGINT") << SIGINT;
    }

    void interruptionRemovesTemporaries()
    {
        QFETCH(int, signal);
        QTemporaryDir dir;
        const std::string target = native(dir.filePath("step_000002.safetensors"));
        std::fflush(nullptr);
        const pid_t child = ::fork();
        if (child == 0) {
            installInterruptCleanup();
            FileWriter file(target);
            if (!file.open() || !file.write("partial", 7))
                ::_exit(20);
            ::raise(signal);
            ::_exit(21);  // not reached: the handler ends the process with the signal
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFSIGNALED(status));
        QCOMPARE(WTERMSIG(status), signal);
        QVERIFY2(partials(dir.path()).isEmpty(), qPrintable(partials(dir.path()).join(',')));
        QVERIFY(!QFileInfo::exists(dir.filePath("step_000002.safetensors")));
    }

    // The first interrupt inside an InterruptRequest only asks; the second one cleans up and ends.
    void aRequestScopeAsksFirstThenEnds()
    {
        QTemporaryDir dir;
        const std::string target = native(dir.filePath("vocab.json"));
        std::fflush(nullptr);
        const pid_t child = ::fork();
        if (child == 0) {
            installInterruptCleanup();
            FileWriter file(target);
            if (!file.open())
                ::_exit(20);
            const InterruptRequest scope;
            ::raise(SIGINT);
            if (!InterruptRequest::requested())
                ::_exit(22);
            ::raise(SIGINT);
            ::_exit(21);
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY2(WIFSIGNALED(status), qPrintable(QString::number(WEXITSTATUS(status))));
        QCOMPARE(WTERMSIG(status), SIGINT);
        QVERIFY(partials(dir.path()).isEmpty());
    }

    // Issue 28 item 7: two writers of one folder; the second is refused and told who holds it.
    void aFolderHasOneWriterAtATime()
    {
        QTemporaryDir dir;
        const std::string folder = native(dir.path());
        Result<FolderLock> first = FolderLock::acquire(folder, "--out", "llm-explorer-cli train-bpe");
        QVERIFY(first.ok());
        const Result<FolderLock> second = FolderLock::acquire(folder, "--out", "llm-explorer-cli train-bpe");
        QVERIFY(!second.ok());
        QCOMPARE(second.problems().front().rule, std::string("busy"));
        QVERIFY2(second.problems().front().message.find("process " + std::to_string(::getpid())) != std::string::npos,
                 second.problems().front().message.c_str());
        first.value().release();
        QVERIFY(!QFileInfo::exists(dir.filePath(kFolderLockFileName)));
        QVERIFY(FolderLock::acquire(folder, "--out", "again").ok());
        QVERIFY(!QFileInfo::exists(dir.filePath(kFolderLockFileName)));
    }

    // A holder killed outright (kill -9) leaves no lock behind: the kernel drops flock's lock.
    void aKilledHolderLeavesNoLock()
    {
        QTemporaryDir dir;
        const std::string folder = native(dir.path());
        int ready[2];
        QCOMPARE(::pipe(ready), 0);
        std::fflush(nullptr);
        const pid_t child = ::fork();
        if (child == 0) {
            Result<FolderLock> lock = FolderLock::acquire(folder, "--checkpoint-dir", "child");
            const char byte = lock.ok() ? '1' : '0';
            (void)!::write(ready[1], &byte, 1);
            ::pause();
            ::_exit(0);
        }
        char byte = 0;
        QCOMPARE(::read(ready[0], &byte, 1), ssize_t(1));
        QCOMPARE(byte, '1');
        QVERIFY(!FolderLock::acquire(folder, "--checkpoint-dir", "parent").ok());
        ::kill(child, SIGKILL);
        ::waitpid(child, nullptr, 0);
        ::close(ready[0]);
        ::close(ready[1]);
        QVERIFY(FolderLock::acquire(folder, "--checkpoint-dir", "parent").ok());
    }
};

QTEST_GUILESS_MAIN(TestFileWriter)
#include "test_file_writer.moc"
