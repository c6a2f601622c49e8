// SPDX-License-Identifier: GPL-3.0-or-later
// The CLI's input and output files (issue 14, items 2, 3 and 10): every loader flag refuses a
// device such as /dev/zero or /dev/urandom (or a FIFO) at once, naming the flag; a full disk (a
// file-size limit, RLIMIT_FSIZE, set in the child before it runs) leaves every old output intact
// and exits 2 with the system's error text; and no command writes its output over one of its
// inputs, by name or through a link. Each case: exit 2, nothing on stdout, the flag on stderr.

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "cli_fixtures.h"
#include "cli_run.h"
#include "common/folder_lock.h"

#include <cerrno>
#include <csignal>
#include <cstring>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

using lse::test::Run;
using lse::test::runCli;
using lse::test::writeFile;


QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

// As runCli, with the child's files limited to `limitBytes` and SIGXFSZ ignored, so a write past
// the limit fails with EFBIG ("File too large"), as one on a full disk fails with ENOSPC.
Run runCliWithFileSizeLimit(const QStringList &arguments, rlim_t limitBytes)
{
    QProcess process;
    process.setChildProcessModifier([limitBytes] {
        ::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{limitBytes, limitBytes};
        ::setrlimit(RLIMIT_FSIZE, &limit);
    });
    process.start(QStringLiteral(LSE_CLI_PATH), arguments);
    if (!process.waitForFinished(120000)) {
        std::fprintf(stderr, "llm-explorer-cli did not finish\n");
        std::abort();
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1, process.readAllStandardOutput(),
            process.readAllStandardError()};
}

const char *const kTrainConfig = R"({
  "format": "llm-explorer-reference-train", "version": 1,
  "model": {"name": "files-tiny", "n_layers": 1, "d_model": 32, "n_heads": 2, "d_ff": 64,
            "vocab_size": 300, "max_seq_len": 16},
  "training": {"batch_size": 2, "steps": 1, "lr_max": 0.005, "lr_min": 0.0005, "warmup_steps": 0,
               "eval_every": 0, "eval_batches": 1, "seed": 3, "threads": 1}
})";

const char *const kHfConfig = R"({"model_type": "llama", "hidden_size": 256, "num_hidden_layers": 2,
  "num_attention_heads": 4, "intermediate_size": 688, "vocab_size": 1000, "max_position_embeddings": 512})";

}  // namespace

class TestCliFiles : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString path(const QString &name) const { return dir_.filePath(name); }

    // Exit 2, nothing on stdout, and stderr naming `flag` (and `text` when given).
    static void expectRefused(const Run &run, const QString &flag, const QString &text = {})
    {
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.out.isEmpty(), run.out.constData());
        const QString err = QString::fromUtf8(run.err);
        QVERIFY2(err.contains(flag), run.err.constData());
        QVERIFY2(text.isEmpty() || err.contains(text), run.err.constData());
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        QVERIFY(QDir().mkpath(path("cache")));
        qputenv("LSE_CACHE_DIR", path("cache").toUtf8());
        QByteArray text;
        for (int i = 0; i < 40; ++i)
            text += "Once upon a time a little cat sat on a mat. The cat was happy.\n"
                    "One day a dog ran to the park and played with a red ball.\n";
        writeFile(path("text.txt"), text);
        writeFile(path("train.json"), kTrainConfig);
        writeFile(path("config.json"), kHfConfig);
        const Run bpe = runCli({"train-bpe", "--input", path("text.txt"), "--vocab-size", "300", "--out", path("bpe")});
        QVERIFY2(bpe.exit_code == 0, bpe.err.constData());
        const Run prep = runCli({"prepare-data", "--tokenizer", path("bpe"), "--input", path("text.txt"), "--out", path("ids.bin")});
        QVERIFY2(prep.exit_code == 0, prep.err.constData());
        const Run train = runCli({"train", "--config", path("train.json"), "--data", path("ids.bin"), "--checkpoint-dir", path("ck")});
        QVERIFY2(train.exit_code == 0, train.err.constData());
        QVERIFY(QFile::exists(path("ck/step_000001.safetensors")));
        const Run saved = runCli({"estimate", "--model", "gpt2-small", "--gpus", "8", "--tp", "1", "--pp", "1",
                                  "--save-scenario", path("scenario.json")});
        QVERIFY2(saved.exit_code == 0, saved.err.constData());
        QCOMPARE(::mkfifo(path("pipe").toLocal8Bit().constData(), 0600), 0);
    }

    // ---- item 2: only regular files of a bounded size ------------------------------------------

    void loaderFlagsRefuseDevices_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("flag");
        for (const char *device : {"/dev/zero", "/dev/urandom", "FIFO"}) {
            const QString d = QString::fromLatin1(device) == "FIFO" ? path("pipe") : QString::fromLatin1(device);
            for (const char *command : {"estimate", "roofline", "search", "mesh"})
                QTest::addRow("%s --scenario %s", command, device) << QStringList{command, "--scenario", d} << "--scenario";
            QTest::addRow("estimate --model %s", device) << QStringList{"estimate", "--model", d} << "--model";
            QTest::addRow("tokenize --tokenizer %s", device) << QStringList{"tokenize", "--tokenizer", d, "hello"} << "--tokenizer";
            QTest::addRow("tokenize --file %s", device)
                << QStringList{"tokenize", "--tokenizer", path("bpe"), "--file", d} << "--file";
            QTest::addRow("prepare-data --tokenizer %s", device)
                << QStringList{"prepare-data", "--tokenizer", d, "--input", path("text.txt"), "--out", path("never.bin")}
                << "--tokenizer";
            QTest::addRow("generate --checkpoint %s", device)
                << QStringList{"generate", "--checkpoint", d, "--tokenizer", path("bpe"), "--prompt", "x"} << "--checkpoint";
            QTest::addRow("generate --tokenizer %s", device)
                << QStringList{"generate", "--checkpoint", path("ck/step_000001.safetensors"), "--tokenizer", d, "--prompt", "x"}
                << "--tokenizer";
            QTest::addRow("train --config %s", device) << QStringList{"train", "--config", d, "--data", path("ids.bin")} << "--config";
            QTest::addRow("train --resume %s", device) << QStringList{"train", "--resume", d, "--data", path("ids.bin")} << "--resume";
            QTest::addRow("train --data %s", device)
                << QStringList{"train", "--config", path("train.json"), "--data", d} << "not a regular file";
        }
    }

    void loaderFlagsRefuseDevices()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, flag);
        const Run run = runCli(arguments);
        expectRefused(run, flag);
        QVERIFY2(run.err.contains("not a regular file") || run.err.contains("neither a preset"), run.err.constData());
        QVERIFY(!QFile::exists(path("never.bin")));
    }

    void oversizedScenarioIsRefusedBySize()
    {
        // A sparse 17 MiB file: refused by its size, not read (its zeros would say "not a text file").
        QFile f(path("huge.json"));
        QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(qint64(17) << 20));
        f.close();
        expectRefused(runCli({"estimate", "--scenario", path("huge.json")}), "--scenario", "too_large");
        expectRefused(runCli({"train", "--config", path("huge.json"), "--data", path("ids.bin")}), "--config", "too_large");
    }

    // ---- item 3: a full disk leaves the old outputs and reports the system's text ---------------

    void fullDiskKeepsTheOldScenario()
    {
        const QString target = path("keep.json");
        const QByteArray old = "the old scenario, which must survive";
        writeFile(target, old);
        const Run run = runCliWithFileSizeLimit({"estimate", "--model", "gpt2-small", "--gpus", "8", "--tp", "1", "--pp", "1",
                                                 "--save-scenario", target},
                                                512);
        expectRefused(run, "--save-scenario", QString::fromLocal8Bit(std::strerror(EFBIG)));
        QCOMPARE(readFile(target), old);
        QCOMPARE(QDir(path("")).entryList({"keep.json*"}, QDir::Files | QDir::Hidden), QStringList{"keep.json"});
    }

    void fullDiskKeepsTheOldTokenizerFolder()
    {
        QVERIFY(QDir().mkpath(path("oldbpe")));
        writeFile(path("oldbpe/vocab.json"), readFile(path("bpe/vocab.json")));
        writeFile(path("oldbpe/merges.txt"), readFile(path("bpe/merges.txt")));
        const QByteArray vocab = readFile(path("oldbpe/vocab.json")), merges = readFile(path("oldbpe/merges.txt"));
        const Run run = runCliWithFileSizeLimit(
            {"train-bpe", "--input", path("text.txt"), "--vocab-size", "290", "--out", path("oldbpe")}, 1024);
        expectRefused(run, "--out", QString::fromLocal8Bit(std::strerror(EFBIG)));
        QCOMPARE(readFile(path("oldbpe/vocab.json")), vocab);
        QCOMPARE(readFile(path("oldbpe/merges.txt")), merges);
        QCOMPARE(QDir(path("oldbpe")).entryList(QDir::Files | QDir::Hidden), (QStringList{"merges.txt", "vocab.json"}));
    }

    void fullDiskKeepsTheOldTokenIds()
    {
        writeFile(path("old.bin"), "old ids");
        const Run run = runCliWithFileSizeLimit(
            {"prepare-data", "--tokenizer", path("bpe"), "--input", path("text.txt"), "--out", path("old.bin")}, 256);
        expectRefused(run, "--out", QString::fromLocal8Bit(std::strerror(EFBIG)));
        QVERIFY(!run.err.contains("Unknown error"));
        QCOMPARE(readFile(path("old.bin")), QByteArray("old ids"));
    }

    void fullDiskStopsTrainingWithExitTwo()
    {
        const Run run = runCliWithFileSizeLimit(
            {"train", "--config", path("train.json"), "--data", path("ids.bin"), "--checkpoint-dir", path("fullck")}, 4096);
        expectRefused(run, "--checkpoint-dir", QString::fromLocal8Bit(std::strerror(EFBIG)));
        QVERIFY(!run.err.contains("Unknown error"));
        QVERIFY(QDir(path("fullck")).entryList(QDir::Files | QDir::Hidden).isEmpty());
    }

    // ---- item 10: no output over an input ------------------------------------------------------

    void outputOverAnInputIsRefused_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("flag");
        QTest::addColumn<QString>("input");  // the file that must stay as it was
        const QString text = path("same/text.txt");
        const QStringList prepare{"prepare-data", "--tokenizer", path("bpe"), "--input", text, "--out"};
        QTest::addRow("prepare-data same name") << prepare + QStringList{text} << "--out" << text;
        QTest::addRow("prepare-data via ./") << prepare + QStringList{path("same/./text.txt")} << "--out" << text;
        QTest::addRow("prepare-data symlink") << prepare + QStringList{path("same/symlink.txt")} << "--out" << text;
        QTest::addRow("prepare-data hard link") << prepare + QStringList{path("same/hardlink.txt")} << "--out" << text;
        QTest::addRow("prepare-data positional input")
            << QStringList{"prepare-data", "--tokenizer", path("bpe"), "--out", text, text} << "--out" << text;
        QTest::addRow("prepare-data over the tokenizer")
            << QStringList{"prepare-data", "--tokenizer", path("same/bpe"), "--input", path("text.txt"), "--out",
                           path("same/bpe/merges.txt")}
            << "--out" << path("same/bpe/merges.txt");
        QTest::addRow("prepare-data over the tokenizer's partner")
            << QStringList{"prepare-data", "--tokenizer", path("same/bpe/vocab.json"), "--input", path("text.txt"), "--out",
                           path("same/bpe/merges.txt")}
            << "--out" << path("same/bpe/merges.txt");
        QTest::addRow("train-bpe over its input")
            << QStringList{"train-bpe", "--input", path("same/bpe/merges.txt"), "--vocab-size", "290", "--out", path("same/bpe")}
            << "--out" << path("same/bpe/merges.txt");
        QTest::addRow("estimate over its scenario")
            << QStringList{"estimate", "--scenario", path("same/scenario.json"), "--save-scenario", path("same/scenario.json")}
            << "--save-scenario" << path("same/scenario.json");
        QTest::addRow("estimate over its config.json via a link")
            << QStringList{"estimate", "--model", path("same/config.json"), "--save-scenario", path("same/config-link.json")}
            << "--save-scenario" << path("same/config.json");
        QTest::addRow("train checkpoints over its data")
            << QStringList{"train", "--config", path("train.json"), "--data", path("same/step_000001.safetensors"),
                           "--checkpoint-dir", path("same")}
            << "--checkpoint-dir" << path("same/step_000001.safetensors");
    }

    void outputOverAnInputIsRefused()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, flag);
        QFETCH(QString, input);
        const QString same = path("same");
        QVERIFY(QDir(same).removeRecursively() || !QFileInfo::exists(same));
        QVERIFY(QDir().mkpath(same + "/bpe"));
        writeFile(same + "/text.txt", readFile(path("text.txt")));
        QVERIFY(QFile::link(same + "/text.txt", same + "/symlink.txt"));
        QCOMPARE(::link((same + "/text.txt").toLocal8Bit().constData(), (same + "/hardlink.txt").toLocal8Bit().constData()), 0);
        writeFile(same + "/bpe/vocab.json", readFile(path("bpe/vocab.json")));
        writeFile(same + "/bpe/merges.txt", readFile(path("bpe/merges.txt")));
        writeFile(same + "/scenario.json", readFile(path("scenario.json")));
        writeFile(same + "/config.json", kHfConfig);
        QVERIFY(QFile::link(same + "/config.json", same + "/config-link.json"));
        writeFile(same + "/step_000001.safetensors", readFile(path("ids.bin")));
        const QByteArray before = readFile(input);

        const Run run = runCli(arguments);
        expectRefused(run, flag, "same_file");
        QCOMPARE(readFile(input), before);
    }

    // ---- issue 28 item 3: an output is a regular file or a new name ----------------------------

    void nonRegularOutputsAreRefused_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("flag");
        const QString fifo = path("pipe");
        QTest::addRow("estimate --save-scenario FIFO")
            << QStringList{"estimate", "--model", "gpt2-small", "--gpus", "8", "--save-scenario", fifo} << "--save-scenario";
        QTest::addRow("prepare-data --out FIFO")
            << QStringList{"prepare-data", "--tokenizer", path("bpe"), "--input", path("text.txt"), "--out", fifo} << "--out";
        QTest::addRow("ablate --out FIFO")
            << QStringList{"ablate", "--study", "norm", "--config", path("train.json"), "--text", path("text.txt"), "--out", fifo}
            << "--out";
        QTest::addRow("estimate --save-scenario link to a FIFO")
            << QStringList{"estimate", "--model", "gpt2-small", "--gpus", "8", "--save-scenario", path("pipe-link")}
            << "--save-scenario";
    }

    void nonRegularOutputsAreRefused()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, flag);
        if (!QFileInfo::exists(path("pipe-link")))
            QVERIFY(QFile::link(path("pipe"), path("pipe-link")));
        const Run run = runCli(arguments);
        expectRefused(run, flag, "not_a_file");
        struct stat st {};
        QCOMPARE(::lstat(path("pipe").toLocal8Bit().constData(), &st), 0);
        QVERIFY(S_ISFIFO(st.st_mode));
    }

    // ---- item 6: standard output's errors are the command's errors ------------------------------

    void aFullStandardOutputFailsTheCommand()
    {
        if (!QFileInfo::exists("/dev/full"))
            QSKIP("no /dev/full");
        QProcess process;
        process.setStandardOutputFile(QStringLiteral("/dev/full"));
        process.start(QStringLiteral(LSE_CLI_PATH), {"estimate", "--json"});
        QVERIFY(process.waitForFinished(120000));
        QCOMPARE(process.exitCode(), 1);
        const QByteArray err = process.readAllStandardError();
        QVERIFY2(err.contains("standard output") && err.contains(std::strerror(ENOSPC)), err.constData());
    }

    void aFullDiskUnderRedirectedOutputFailsTheCommand()
    {
        const QString out = path("search.json");
        QProcess process;
        process.setStandardOutputFile(out);
        process.setChildProcessModifier([] {
            ::signal(SIGXFSZ, SIG_IGN);
            const rlimit limit{4096, 4096};
            ::setrlimit(RLIMIT_FSIZE, &limit);
        });
        process.start(QStringLiteral(LSE_CLI_PATH), {"search", "--json"});
        QVERIFY(process.waitForFinished(120000));
        QCOMPARE(process.exitCode(), 1);
        QVERIFY2(process.readAllStandardError().contains("standard output"), "no message");
        QCOMPARE(QFileInfo(out).size(), qint64(4096));
    }

    // ---- item 7: one writer per output folder ----------------------------------------------------

    void aFolderBeingWrittenIsRefused_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("flag");
        QTest::addRow("train-bpe --out")
            << QStringList{"train-bpe", "--input", path("text.txt"), "--vocab-size", "290", "--out", path("locked-bpe")}
            << "--out";
        QTest::addRow("train --checkpoint-dir")
            << QStringList{"train", "--config", path("train.json"), "--data", path("ids.bin"), "--checkpoint-dir",
                           path("locked-ck")}
            << "--checkpoint-dir";
    }

    void aFolderBeingWrittenIsRefused()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, flag);
        const QString folder = arguments.last();
        QVERIFY(QDir().mkpath(folder));
        // Another run holds the folder: here this test's own process.
        lse::Result<lse::FolderLock> held =
            lse::FolderLock::acquire(folder.toStdString(), "test", "llm-explorer-cli train-bpe, the first run");
        QVERIFY(held.ok());
        const Run run = runCli(arguments);
        expectRefused(run, flag, "busy");
        QVERIFY2(run.err.contains("the first run"), run.err.constData());
        QCOMPARE(QDir(folder).entryList(QDir::Files), QStringList{});
        held.value().release();
        const Run free = runCli(arguments);
        QVERIFY2(free.exit_code == 0, free.err.constData());
        QVERIFY(!QFileInfo::exists(folder + "/.llm-explorer-lock"));
    }

    // ---- item 8: temporaries go on SIGTERM; a killed run's are named by the next run --------------

    void anInterruptedRunLeavesNoTemporary_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGINT") << int(SIGINT);
    }

    void anInterruptedRunLeavesNoTemporary()
    {
        QFETCH(int, signal);
        const QString big = path("big.txt");
        if (!QFileInfo::exists(big)) {
            QByteArray text;
            while (text.size() < 24 * 1000 * 1000)
                text += readFile(path("text.txt"));
            writeFile(big, text);
        }
        const QString folder = path("interrupted");
        QVERIFY(QDir(folder).removeRecursively() || !QFileInfo::exists(folder));
        QVERIFY(QDir().mkpath(folder));
        QProcess process;
        process.start(QStringLiteral(LSE_CLI_PATH),
                      {"prepare-data", "--tokenizer", path("bpe"), "--input", big, "--out", folder + "/ids.bin"});
        QVERIFY(process.waitForStarted());
        // The temporary exists from the start of encoding; stop the run while it does.
        QStringList partial;
        for (int i = 0; i < 3000 && partial.isEmpty() && process.state() == QProcess::Running; ++i) {
            QTest::qWait(2);
            partial = QDir(folder).entryList({"*.llm-explorer-partial-*"}, QDir::Files);
        }
        if (partial.isEmpty())
            QSKIP("the run ended before its temporary was seen");
        ::kill(pid_t(process.processId()), signal);
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitStatus(), QProcess::CrashExit);  // ended by the signal
        QStringList left = QDir(folder).entryList(QDir::Files | QDir::Hidden);
        // On a slow machine the signal can land after the finished file was renamed into place and
        // before the process ended: the complete output may stay, a temporary never.
        if (left == QStringList{"ids.bin"}) {
            qInfo("the signal arrived after the output was complete");
            left.clear();
        }
        QVERIFY2(left.isEmpty(), qPrintable(left.join(", ")));
    }

    void aKilledRunsTemporaryIsNamedNotDeleted()
    {
        const QString folder = path("killed");
        QVERIFY(QDir().mkpath(folder));
        const QString stale = folder + "/ids.bin.llm-explorer-partial-Xy12Zw";
        writeFile(stale, QByteArray(5000, '\0'));
        const QString mine = folder + "/ids.bin.XY12ZW";  // the user's own file with a similar name
        writeFile(mine, "keep");
        const Run run = runCli({"prepare-data", "--tokenizer", path("bpe"), "--input", path("text.txt"), "--out", folder + "/ids.bin"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QVERIFY2(run.err.contains("ids.bin.llm-explorer-partial-Xy12Zw") && run.err.contains("interrupted run"),
                 run.err.constData());
        QVERIFY(!run.err.contains("XY12ZW"));
        QVERIFY(QFileInfo::exists(stale));
        QVERIFY(QFileInfo::exists(mine));
    }

    void aCutCheckpointIsOneProblem()
    {
        QByteArray checkpoint = readFile(path("ck/step_000001.safetensors"));
        QVERIFY(checkpoint.size() > 1000);
        checkpoint.truncate(checkpoint.size() / 2);
        writeFile(path("cut.safetensors"), checkpoint);
        const Run run = runCli({"train", "--config", path("train.json"), "--data", path("ids.bin"), "--resume", path("cut.safetensors")});
        expectRefused(run, "--resume");
        QCOMPARE(run.err.count("truncated"), 1);
        QVERIFY2(run.err.contains("cut short"), run.err.constData());
    }

    // ---- item 9: a tokenizer folder's other files are not inputs --------------------------------

    void idsBesideTheTokenizerCanBeWrittenAgain()
    {
        QVERIFY(QDir().mkpath(path("tk")));
        writeFile(path("tk/vocab.json"), readFile(path("bpe/vocab.json")));
        writeFile(path("tk/merges.txt"), readFile(path("bpe/merges.txt")));
        for (int round = 0; round < 2; ++round) {
            const Run run = runCli({"prepare-data", "--tokenizer", path("tk"), "--input", path("text.txt"), "--out", path("tk/ids.bin")});
            QVERIFY2(run.exit_code == 0, run.err.constData());
        }
        QCOMPARE(readFile(path("tk/ids.bin")), readFile(path("ids.bin")));
    }

    void differentOutputsStillWork()
    {
        // The rule refuses only the same file: an output beside the inputs is written as before.
        const Run run = runCli({"prepare-data", "--tokenizer", path("bpe"), "--input", path("text.txt"), "--out", path("ids2.bin")});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QCOMPARE(readFile(path("ids2.bin")), readFile(path("ids.bin")));
    }
};

QTEST_GUILESS_MAIN(TestCliFiles)
#include "test_cli_files.moc"
