// SPDX-License-Identifier: GPL-3.0-or-later
// Input files that crashed the CLI or gave silent garbage (issue 28, items 10, 11, 12 and 14):
// - /proc/self/mem fails every read with EIO: train-bpe aborted (std::__ios_failure, rc 134) and
//   tokenize / bench-tokenizer printed "0 tokens". Every reader says so, naming the flag: exit 2.
// - A 5 GB file under a 4 GB address-space limit (RLIMIT_AS set in the child): tokenize --file and
//   bench-tokenizer --input read it whole and aborted with bad_alloc; they refuse it by size.
// - train --batch 2048 needs 10.8 GB: physical memory has it, ulimit -v 4000000 does not; refused
//   naming RLIMIT_AS instead of aborting.
// - prepare-data and train-bpe report the bytes they read, not the size a /proc file states (0).
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include "../fixture_paths.h"
#include "cli_fixtures.h"
#include "cli_run.h"

#include <cstdio>
#include <cstdlib>

#include <sys/resource.h>
#include <unistd.h>

namespace {

using lse::test::Run;
using lse::test::runCli;

QString gpt2Dir() { return lse::test::gpt2TokenizerDir(); }

// As runCli, with the child's address space limited to `limitBytes` (`ulimit -v`).
Run runCliWithAddressSpaceLimit(const QStringList &arguments, rlim_t limitBytes)
{
    QProcess process;
    process.setChildProcessModifier([limitBytes] {
        const rlimit limit{limitBytes, limitBytes};
        ::setrlimit(RLIMIT_AS, &limit);
    });
    process.start(QStringLiteral(LSE_CLI_PATH), arguments);
    if (!process.waitForFinished(120000)) {
        std::fprintf(stderr, "llm-explorer-cli did not finish\n");
        std::abort();
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1, process.readAllStandardOutput(),
            process.readAllStandardError()};
}

// AddressSanitizer reserves terabytes of address space at start: a child under ulimit -v cannot run.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

constexpr rlim_t kFourGB = rlim_t{4000000} * 1024;  // ulimit -v 4000000

QByteArray procVersion()
{
    QFile f(QStringLiteral("/proc/version"));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class TestCliInputFiles : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString path(const QString &name) const { return dir_.filePath(name); }

    // Exit 2, nothing on stdout, and stderr naming `flag` and every one of `texts`.
    static void expectRefused(const Run &run, const QString &flag, const QStringList &texts)
    {
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.out.isEmpty(), run.out.left(300).constData());
        QVERIFY2(run.err.contains(flag.toUtf8()), run.err.constData());
        for (const QString &text : texts)
            QVERIFY2(run.err.contains(text.toUtf8()), qPrintable(text + QStringLiteral(" not in: ") + run.err));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        LSE_REQUIRE_FIXTURE(lse::test::gpt2VocabPath());
        qputenv("LSE_CACHE_DIR", path("cache").toUtf8());
    }

    // Item 10.
    void readErrorsNameTheFlag_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("flag");
        const QString mem = QStringLiteral("/proc/self/mem");
        QTest::addRow("train-bpe --input") << QStringList{"train-bpe", "--input", mem, "--vocab-size", "300", "--out", "OUT"}
                                           << "--input";
        QTest::addRow("tokenize --file") << QStringList{"tokenize", "--tokenizer", gpt2Dir(), "--file", mem} << "--file";
        QTest::addRow("bench-tokenizer --input")
            << QStringList{"bench-tokenizer", "--tokenizer", gpt2Dir(), "--input", mem, "--repeat", "1"} << "--input";
        QTest::addRow("prepare-data --input")
            << QStringList{"prepare-data", "--tokenizer", gpt2Dir(), "--input", mem, "--out", "OUT"} << "--input";
    }
    void readErrorsNameTheFlag()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, flag);
        const QString out = path(QStringLiteral("out-%1").arg(QString::fromLatin1(QTest::currentDataTag()).section(' ', 0, 0)));
        arguments.replaceInStrings(QStringLiteral("OUT"), out);
        const Run run = runCli(arguments);
        expectRefused(run, flag, {"/proc/self/mem", "cannot read (Input/output error)"});
        QVERIFY2(!run.err.contains("0 tokens"), run.err.constData());
        QVERIFY2(!QFileInfo::exists(out), qPrintable(out));  // nothing written, no folder left
    }

    // Item 11: a sparse 5 GB file (no disk used) under a 4 GB address-space limit.
    void largeTextRefusedBySize()
    {
        if (kAddressSanitizer)
            QSKIP("AddressSanitizer reserves more address space than the 4 GB limit this test sets");
        const QString big = path("big.txt");
        QVERIFY(QFile(big).open(QIODevice::WriteOnly));
        QVERIFY(::truncate(QFile::encodeName(big).constData(), off_t{5} << 30) == 0);
        for (const QStringList &arguments :
             {QStringList{"tokenize", "--tokenizer", gpt2Dir(), "--file", big},
              QStringList{"tokenize", "--tokenizer", gpt2Dir(), "--file", big, "--json"},
              QStringList{"bench-tokenizer", "--tokenizer", gpt2Dir(), "--input", big, "--repeat", "1"}}) {
            const Run run = runCliWithAddressSpaceLimit(arguments, kFourGB);
            expectRefused(run, arguments.contains("--file") ? "--file" : "--input", {"5368709120 bytes", "256 MiB", "[too_large]"});
        }
        QFile::remove(big);
    }

    // Item 11's siblings: a file of NUL bytes is one pre-token (a run of one class). Its merge,
    // unsliced, needed ~20 bytes a byte, and tokenize held its listing whole (~100 bytes a token):
    // 48 MiB for prepare-data under 400 MB and 3 MiB for tokenize under 250 MB aborted with
    // bad_alloc (rc 134). Both now take about 150 MB and 95 MB of address space (one thread).
    void longRunEncodedInBoundedMemory()
    {
        if (kAddressSanitizer)
            QSKIP("AddressSanitizer reserves more address space than the limit this test sets");
        const QString zeros = path("zeros.bin");
        QVERIFY(QFile(zeros).open(QIODevice::WriteOnly));
        QVERIFY(::truncate(QFile::encodeName(zeros).constData(), off_t{48} << 20) == 0);
        Run run = runCliWithAddressSpaceLimit({"prepare-data", "--tokenizer", gpt2Dir(), "--input", zeros, "--out", path("zeros.ids")},
                                              rlim_t{400} << 20);
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QVERIFY2(run.out.contains("bytes in          50331648 "), run.out.constData());
        QFile::remove(path("zeros.ids"));
        QVERIFY(::truncate(QFile::encodeName(zeros).constData(), off_t{3} << 20) == 0);
        run = runCliWithAddressSpaceLimit({"tokenize", "--tokenizer", gpt2Dir(), "--file", zeros}, rlim_t{250} << 20);
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QVERIFY2(run.out.endsWith(" bytes/token\n") && run.out.contains(", 3145728 bytes, "), run.out.right(200).constData());
        QFile::remove(zeros);
    }

    // Item 12.
    void trainBatchRefusedUnderAddressSpaceLimit()
    {
        if (kAddressSanitizer)
            QSKIP("AddressSanitizer reserves more address space than the 4 GB limit this test sets");
        const QString ids = path("ids.bin");
        QByteArray tokens;
        for (int i = 0; i < 4000; ++i)
            tokens.append(char(i % 251)).append('\0');
        lse::test::writeFile(ids, tokens);
        // The tiny preset at batch 2048 needs 10.8 GB: more than 4 GB, less than any machine the
        // suite runs on would need to be to refuse it for physical memory alone.
        const Run run = runCliWithAddressSpaceLimit({"train", "--config", "tiny", "--data", ids, "--steps", "1", "--batch", "2048"},
                                                    kFourGB);
        expectRefused(run, "--batch", {"RLIMIT_AS", "ulimit -v", "[memory]"});
    }

    // Item 14: /proc/version states 0 bytes; the bytes read are reported.
    void bytesReadAreReported()
    {
        const QByteArray text = procVersion();
        QVERIFY(!text.isEmpty());
        Run run = runCli({"prepare-data", "--tokenizer", gpt2Dir(), "--input", "/proc/version", "--out", path("version.ids")});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QVERIFY2(run.out.contains(QStringLiteral("bytes in          %1 from 1 file(s)").arg(text.size()).toUtf8()), run.out.constData());
        const QRegularExpression written(QStringLiteral("tokens written +(\\d+) "));
        const QRegularExpressionMatch match = written.match(QString::fromUtf8(run.out));
        QVERIFY(match.hasMatch() && match.captured(1).toLongLong() > 0);

        run = runCli({"train-bpe", "--input", "/proc/version", "--vocab-size", "270", "--out", path("version-bpe")});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QRegularExpression input(QStringLiteral("input +1 file\\(s\\), ([0-9.]+) B\n"));
        const QRegularExpressionMatch read = input.match(QString::fromUtf8(run.out));
        QVERIFY2(read.hasMatch(), run.out.constData());
        QCOMPARE(read.captured(1).toDouble(), double(text.size()));
    }
};

QTEST_MAIN(TestCliInputFiles)
#include "test_cli_input_files.moc"
