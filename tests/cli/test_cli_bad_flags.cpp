// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 14, items 4, 7, 8 and 9: flag values that used to pass quietly, print infinities, print
// millions of lines or blame the wrong field. Each row is the reproducing input: exit 2,
// nothing on stdout, and stderr names the flag as the user typed it and the value given.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include "../fixture_paths.h"
#include "cli_run.h"

#include <algorithm>
#include <thread>

using lse::test::Run;
using lse::test::runCli;

namespace {

// The GPT-2 tokenizer the application bundles (vocab.json + merges.txt).
QString gpt2Dir() { return lse::test::gpt2TokenizerDir(); }

// Runs the CLI through /bin/sh so that an argument can carry bytes that are not UTF-8 (QProcess
// encodes its QString arguments, which cannot hold them). `script` sees the CLI path as "$0".
Run runShell(const QString &script)
{
    QProcess process;
    process.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), script, QStringLiteral(LSE_CLI_PATH)});
    if (!process.waitForFinished(120000))
        qFatal("llm-explorer-cli did not finish");
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1, process.readAllStandardOutput(),
            process.readAllStandardError()};
}

}  // namespace

class TestCliBadFlags : public QObject {
    Q_OBJECT
private slots:
    void refusedNamingTheFlag_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QStringList>("named");  // every one must appear on stderr
        const QStringList collective{"collective", "--op", "all-reduce", "--bytes", "1G"};
        const QStringList pipeline{"pipeline", "--stages", "4", "--microbatches", "8"};

        // Item 4: mesh validates like estimate and bounds its listing.
        QTest::addRow("mesh --gpus 1e9") << QStringList{"mesh", "--gpus", "1e9"} << QStringList{"--gpus", "1e9"};
        QTest::addRow("mesh --gpus 1e7") << QStringList{"mesh", "--gpus", "1e7"} << QStringList{"--gpus", "1e7"};
        QTest::addRow("mesh --gpus-per-node 2e7")
            << QStringList{"mesh", "--gpus-per-node", "2e7"} << QStringList{"--gpus-per-node", "2e7"};
        QTest::addRow("mesh valid but too many ranks to list")
            << QStringList{"mesh", "--gpus", "131072", "--tp", "1", "--pp", "1", "--dp", "131072", "--global-batch",
                           "131072", "--micro-batch", "1"}
            << QStringList{"--gpus (cluster.gpus)", "65536"};
        QTest::addRow("mesh invalid scenario, as estimate")
            << QStringList{"mesh", "--mfu", "2"} << QStringList{"--mfu (training.mfu)", "given as --mfu 2"};

        // Item 7: inputs whose results are not finite.
        QTest::addRow("collective --link-gbps 1e-320")
            << collective + QStringList{"--ranks", "8", "--link-gbps", "1e-320"} << QStringList{"--link-gbps", "1e-320"};
        QTest::addRow("collective --latency-us 1e308")
            << collective + QStringList{"--ranks", "8", "--latency-us", "1e308"} << QStringList{"--latency-us", "1e308"};
        QTest::addRow("pipeline --forward-ms 1e30")
            << pipeline + QStringList{"--forward-ms", "1e30"} << QStringList{"--forward-ms", "1e30"};
        QTest::addRow("pipeline --backward-ms 1e30")
            << pipeline + QStringList{"--backward-ms", "1e30"} << QStringList{"--backward-ms", "1e30"};

        // Item 8: the flag as typed, the scenario field beside it, the value given.
        QTest::addRow("estimate --peak-tflops 1e-320")
            << QStringList{"estimate", "--peak-tflops", "1e-320"}
            << QStringList{"--peak-tflops (cluster.peak_flops_per_second_override)", "1e-320"};
        QTest::addRow("estimate --mfu 1e-320")
            << QStringList{"estimate", "--mfu", "1e-320"} << QStringList{"--mfu (training.mfu)", "1e-320"};
        QTest::addRow("estimate --reserve-gb -1e308T")
            << QStringList{"estimate", "--reserve-gb", "-1e308T"} << QStringList{"--reserve-gb", "-1e308T"};
        QTest::addRow("estimate --reserve-gb 1e30")
            << QStringList{"estimate", "--reserve-gb", "1e30"} << QStringList{"--reserve-gb", "1e30"};
        QTest::addRow("estimate --reserve-gb 1e7 (validation's range)")
            << QStringList{"estimate", "--reserve-gb", "1e7"}
            << QStringList{"--reserve-gb (training.framework_reserve_bytes)", "given as --reserve-gb 1e7"};
        QTest::addRow("roofline --context 4.6e18")
            << QStringList{"roofline", "--phase", "decode", "--context", "4.6e18"}
            << QStringList{"--context (roofline.context_tokens)", "4.6e18"};
        QTest::addRow("search --gpus 1e7")
            << QStringList{"search", "--gpus", "1e7"} << QStringList{"--gpus (cluster.gpus)", "no parallel layout"};

        // Item 9: no hexadecimal, inf or nan; no thread counts beyond the machine; bounded listings.
        QTest::addRow("estimate --gpus 0x10") << QStringList{"estimate", "--gpus", "0x10"} << QStringList{"--gpus", "0x10"};
        QTest::addRow("estimate --tokens inf") << QStringList{"estimate", "--tokens", "inf"} << QStringList{"--tokens", "inf"};
        QTest::addRow("estimate --mfu nan") << QStringList{"estimate", "--mfu", "nan"} << QStringList{"--mfu", "nan"};
        QTest::addRow("collective --ranks 0x10")
            << collective + QStringList{"--ranks", "0x10"} << QStringList{"--ranks", "0x10"};
        QTest::addRow("roofline --batch 0x10")
            << QStringList{"roofline", "--batch", "0x10"} << QStringList{"--batch", "0x10"};
        QTest::addRow("train --threads 1e9")
            << QStringList{"train", "--config", "tiny", "--threads", "1e9"} << QStringList{"--threads", "1e9"};
        QTest::addRow("train-bpe --threads 1e9")
            << QStringList{"train-bpe", "--input", LSE_CLI_PATH, "--vocab-size", "300", "--out", "/nonexistent-dir-g",
                           "--threads", "1e9"}
            << QStringList{"--threads", "1e9"};
        QTest::addRow("collective --ranks 1024 --steps --json")
            << collective + QStringList{"--ranks", "1024", "--steps", "--json"} << QStringList{"--steps"};
        QTest::addRow("collective --ranks 1024 --steps")
            << collective + QStringList{"--ranks", "1024", "--steps"} << QStringList{"--steps"};

        // Issue 28, item 14: byte, parameter, token and FLOP counts are whole (and a message at
        // least one byte): these printed "0.000 B" and "6 × 2.5 parameters".
        const QStringList allReduce{"collective", "--op", "all-reduce", "--ranks", "8"};
        for (const char *bytes : {"1e-30", "2.5", "0.5", "0", "2e18"})
            QTest::addRow("collective --bytes %s", bytes) << allReduce + QStringList{"--bytes", bytes}
                                                          << QStringList{"--bytes", bytes};
        QTest::addRow("scaling --params 2.5")
            << QStringList{"scaling", "--params", "2.5", "--tokens", "1e12"} << QStringList{"--params", "'2.5'", "whole"};
        QTest::addRow("scaling --tokens 2.5")
            << QStringList{"scaling", "--params", "70B", "--tokens", "2.5"} << QStringList{"--tokens", "'2.5'", "whole"};
        QTest::addRow("scaling --compute 6.5")
            << QStringList{"scaling", "--compute", "6.5"} << QStringList{"--compute", "'6.5'", "whole"};
    }
    void refusedNamingTheFlag()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QStringList, named);
        const Run run = runCli(arguments);
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.out.isEmpty(), run.out.left(400).constData());
        for (const QString &text : named)
            QVERIFY2(run.err.contains(text.toUtf8()), qPrintable(text + QStringLiteral(" not in: ") + run.err));
    }

    // The limits leave ordinary inputs alone.
    void ordinaryInputsStillRun_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addRow("mesh 16") << QStringList{"mesh", "--gpus", "16", "--gpus-per-node", "8", "--tp", "2", "--pp", "2",
                                                "--dp", "4"};
        QTest::addRow("collective 64 --steps --json")
            << QStringList{"collective", "--op", "all-reduce", "--bytes", "1G", "--ranks", "64", "--steps", "--json"};
        QTest::addRow("collective 1024 times only")
            << QStringList{"collective", "--op", "all-reduce", "--bytes", "1G", "--ranks", "1024", "--json"};
        QTest::addRow("pipeline 1 s passes")
            << QStringList{"pipeline", "--stages", "4", "--microbatches", "8", "--forward-ms", "1000"};
        QTest::addRow("estimate suffixes") << QStringList{"estimate", "--tokens", "15T", "--reserve-gb", "2.5"};
        QTest::addRow("estimate exponent") << QStringList{"estimate", "--tokens", "1.5e13", "--peak-tflops", "989"};
        QTest::addRow("collective --bytes 1.5G")
            << QStringList{"collective", "--op", "all-reduce", "--bytes", "1.5G", "--ranks", "8"};
        QTest::addRow("collective --bytes 1") << QStringList{"collective", "--op", "all-reduce", "--bytes", "1", "--ranks", "2"};
        QTest::addRow("scaling counts with suffixes") << QStringList{"scaling", "--params", "70B", "--tokens", "1.4T"};
        QTest::addRow("scaling budget past 2^63") << QStringList{"scaling", "--compute", "1e30"};
    }
    void ordinaryInputsStillRun()
    {
        QFETCH(QStringList, arguments);
        const Run run = runCli(arguments);
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QVERIFY(!run.out.isEmpty());
    }

    void threadsUpToFourTimesTheCoresAccepted()
    {
        // The bound is relative to this machine, so the test derives it the same way.
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        const Run at = runCli({"train-bpe", "--input", "/nonexistent-g", "--vocab-size", "300", "--out", "/tmp",
                               "--threads", QString::number(4 * cores)});
        QCOMPARE(at.exit_code, 2);  // the missing input, not the thread count
        QVERIFY2(!at.err.contains("--threads"), at.err.constData());
        const Run above = runCli({"train-bpe", "--input", "/nonexistent-g", "--vocab-size", "300", "--out", "/tmp",
                                  "--threads", QString::number(4 * cores + 1)});
        QCOMPARE(above.exit_code, 2);
        QVERIFY2(above.err.contains("--threads"), above.err.constData());
    }

    // Item 7's sibling: a finite but enormous time or cost prints in e-notation, not as hundreds of
    // digits (estimate --mfu 1e-200 printed 200-digit days, GPU-hours and cost).
    void enormousTimesPrintShort_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addRow("estimate --mfu 1e-200") << QStringList{"estimate", "--mfu", "1e-200"};
        QTest::addRow("pipeline one-day passes")
            << QStringList{"pipeline", "--stages", "64", "--microbatches", "4096", "--forward-ms", "86400e3"};
        QTest::addRow("collective --link-gbps 1e-280")
            << QStringList{"collective", "--op", "all-reduce", "--bytes", "1G", "--ranks", "8", "--link-gbps", "1e-280"};
    }
    void enormousTimesPrintShort()
    {
        QFETCH(QStringList, arguments);
        const Run run = runCli(arguments);
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QVERIFY2(!QString::fromUtf8(run.out).contains(QRegularExpression(QStringLiteral("[0-9]{16}"))),
                 run.out.constData());
    }

    // Item 9: text given as an argument keeps its bytes, as --file does (invalid UTF-8 included).
    void argumentTextKeepsBytesLikeFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("bytes.txt"));
        const QByteArray bytes("a\xff\xfe" "b \xc3(", 7);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size());
        file.close();
        const QString tokenizer = gpt2Dir();
        const Run fromFile = runCli({"tokenize", "--json", "--tokenizer", tokenizer, "--file", path});
        QCOMPARE(fromFile.exit_code, 0);
        const Run fromArgument = runShell(QStringLiteral("exec \"$0\" tokenize --json --tokenizer '%1' \"$(printf 'a\\377\\376b \\303(')\"")
                                              .arg(tokenizer));
        QVERIFY2(fromArgument.exit_code == 0, fromArgument.err.constData());
        const QJsonObject a = QJsonDocument::fromJson(fromFile.out).object();
        const QJsonObject b = QJsonDocument::fromJson(fromArgument.out).object();
        QVERIFY(!a.value("tokens").toArray().isEmpty());
        QCOMPARE(b.value("tokens"), a.value("tokens"));
    }
};

QTEST_GUILESS_MAIN(TestCliBadFlags)
#include "test_cli_bad_flags.moc"
