// SPDX-License-Identifier: GPL-3.0-or-later
// Checkpoints of `mpirun -np N llm-explorer-cli train --dp N` (issue 19, issue 20 item 2): rank 0
// writes the single-process format (ZeRO ranks gather their AdamW moment shards first), so 5 steps
// plus a resumed 5 end with the loss of 10 straight steps; one process or another rank count can
// continue the same file; validation runs on rank 0 as in single-process training. Real mpirun;
// skipped, saying what to install, where the build has no MPI.
#include "cli_fixtures.h"
#include "cli_run.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using lse::test::Run;
using lse::test::runCli;
using lse::test::writeFile;
#ifdef LSE_MPIEXEC
using lse::test::runMpi;
#endif

namespace {

// README §4g's tiny model (35,936 parameters); eval_every 5 puts a validation on steps 5 and 10.
const QByteArray kConfig = lse::test::tinyTrainConfig(QStringLiteral("dp-tiny"), {8, 10, 5});

bool closeRelative(double a, double b, double tolerance) { return std::abs(a - b) <= tolerance * std::abs(b); }

QString lossPair(double a, double b) { return QStringLiteral("%1 vs %2").arg(a, 0, 'g', 10).arg(b, 0, 'g', 10); }

}  // namespace

class TestCliDpCheckpoint : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString path(const QString &name) const { return dir_.filePath(name); }
    QJsonObject single_;  // 10 steps in one process

#ifdef LSE_MPIEXEC
    // `mpirun -np ranks ... train --dp ranks --json` plus `flags`; the JSON rank 0 printed.
    QJsonObject trainDp(int ranks, const QStringList &flags)
    {
        const Run run = runMpi(ranks, QStringList{"train", "--data", path("ids.bin"), "--dp", QString::number(ranks), "--json"}
                                          + flags);
        if (run.exit_code != 0)
            qWarning("%s", run.err.constData());
        return run.exit_code == 0 ? QJsonDocument::fromJson(run.out).object() : QJsonObject{};
    }
#endif

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        qputenv("LSE_CACHE_DIR", path("cache").toUtf8());
        QByteArray text;
        for (int i = 0; i < 60; ++i)
            text += "Once upon a time a little cat sat on a mat. The cat was happy.\n<|endoftext|>\n"
                    "One day a dog ran to the park and played with a red ball.\n<|endoftext|>\n";
        writeFile(path("text.txt"), text);
        writeFile(path("config.json"), kConfig);
        const Run bpe = runCli({"train-bpe", "--input", path("text.txt"), "--vocab-size", "300", "--special", "<|endoftext|>",
                                "--out", path("bpe")});
        QVERIFY2(bpe.exit_code == 0, bpe.err.constData());
        const Run prep = runCli({"prepare-data", "--tokenizer", path("bpe"), "--input", path("text.txt"), "--out",
                                 path("ids.bin"), "--special", "<|endoftext|>"});
        QVERIFY2(prep.exit_code == 0, prep.err.constData());
        const Run single = runCli({"train", "--config", path("config.json"), "--data", path("ids.bin"), "--json"});
        QVERIFY2(single.exit_code == 0, single.err.constData());
        single_ = QJsonDocument::fromJson(single.out).object();
        QVERIFY(single_.value("final_loss").toDouble() > 0);
    }

    void resumeMatchesStraightRun_data()
    {
        QTest::addColumn<QStringList>("mode");
        QTest::newRow("naive") << QStringList{"--bucket-mb", "0"};
        QTest::newRow("zero1") << QStringList{"--zero", "1"};
        QTest::newRow("zero2") << QStringList{"--zero", "2"};
        QTest::newRow("zero3") << QStringList{"--zero", "3"};
    }

    // 10 straight steps vs 5 steps + resume for 5: the same final loss within 1e-6 relative.
    void resumeMatchesStraightRun()
    {
#ifndef LSE_MPIEXEC
        QSKIP("Open MPI not installed: apt-get install libopenmpi-dev openmpi-bin");
#else
        QFETCH(QStringList, mode);
        const QString tag = QString::fromLatin1(QTest::currentDataTag());
        const QString dir = path("ckpt-" + tag);
        // One 10-step run: its final loss, and its step-5 checkpoint (what a run stopped after 5 of
        // the same 10-step schedule writes).
        const QJsonObject straight = trainDp(2, QStringList{"--config", path("config.json"), "--checkpoint-dir", dir,
                                                            "--checkpoint-every", "5"} + mode);
        QVERIFY(!straight.isEmpty());
        QCOMPARE(straight.value("steps").toArray().size(), 10);
        QVERIFY(QFile::exists(dir + "/step_000010.safetensors"));
        const QString half = dir + "/step_000005.safetensors";
        QVERIFY(QFile::exists(half));
        // Resume from step 5 and run the remaining 5.
        const QJsonObject resumed = trainDp(2, QStringList{"--resume", half} + mode);
        QVERIFY(!resumed.isEmpty());
        const QJsonArray steps = resumed.value("steps").toArray();
        QCOMPARE(steps.size(), 5);
        QCOMPARE(steps.first().toObject().value("step").toInt(), 6);
        const double straight_loss = straight.value("final_loss").toDouble();
        const double resumed_loss = resumed.value("final_loss").toDouble();
        QVERIFY(straight_loss > 0);
        QVERIFY2(closeRelative(resumed_loss, straight_loss, 1e-6), qPrintable(lossPair(resumed_loss, straight_loss)));
        // Validation on rank 0 at the eval steps, as one process evaluates.
        QVERIFY(resumed.value("validation_loss").isDouble());
        QVERIFY2(closeRelative(resumed.value("validation_loss").toDouble(), single_.value("validation_loss").toDouble(), 1e-4),
                 qPrintable(lossPair(resumed.value("validation_loss").toDouble(), single_.value("validation_loss").toDouble())));
#endif
    }

    // A ZeRO-1 checkpoint holds the whole optimizer state: one process continues it with the loss
    // of one process trained straight through (float rounding of the data-parallel half aside).
    void singleProcessResumesDpCheckpoint()
    {
#ifndef LSE_MPIEXEC
        QSKIP("Open MPI not installed: apt-get install libopenmpi-dev openmpi-bin");
#else
        const QString dir = path("for-single");
        QVERIFY(!trainDp(2, {"--config", path("config.json"), "--zero", "1", "--checkpoint-dir", dir, "--checkpoint-every", "5"})
                     .isEmpty());
        const Run single = runCli({"train", "--data", path("ids.bin"), "--resume", dir + "/step_000005.safetensors", "--json"});
        QVERIFY2(single.exit_code == 0, single.err.constData());
        const QJsonObject out = QJsonDocument::fromJson(single.out).object();
        QCOMPARE(out.value("steps_this_run").toInt(), 5);
        const double loss = out.value("final_loss").toDouble(), expected = single_.value("final_loss").toDouble();
        QVERIFY2(closeRelative(loss, expected, 1e-5), qPrintable(lossPair(loss, expected)));
#endif
    }

    // Any N: a single-process checkpoint resumed by 2 ranks, and a 2-rank ZeRO-1 one by 4 ZeRO-2 ranks.
    void otherRankCountsResume()
    {
#ifndef LSE_MPIEXEC
        QSKIP("Open MPI not installed: apt-get install libopenmpi-dev openmpi-bin");
#else
        const QString single_dir = path("single-ckpt");
        const Run single = runCli({"train", "--config", path("config.json"), "--data", path("ids.bin"), "--checkpoint-dir",
                                   single_dir, "--checkpoint-every", "5"});
        QVERIFY2(single.exit_code == 0, single.err.constData());
        const double expected = single_.value("final_loss").toDouble();
        const QJsonObject from_single = trainDp(2, {"--resume", single_dir + "/step_000005.safetensors", "--zero", "1"});
        QVERIFY(!from_single.isEmpty());
        QVERIFY2(closeRelative(from_single.value("final_loss").toDouble(), expected, 1e-5),
                 qPrintable(lossPair(from_single.value("final_loss").toDouble(), expected)));

        const QString dp_dir = path("np2-ckpt");
        QVERIFY(!trainDp(2, {"--config", path("config.json"), "--zero", "1", "--checkpoint-dir", dp_dir, "--checkpoint-every", "5"})
                     .isEmpty());
        const QJsonObject four = trainDp(4, {"--resume", dp_dir + "/step_000005.safetensors", "--zero", "2"});
        QVERIFY(!four.isEmpty());
        QCOMPARE(four.value("ranks").toInt(), 4);
        QVERIFY2(closeRelative(four.value("final_loss").toDouble(), expected, 1e-5),
                 qPrintable(lossPair(four.value("final_loss").toDouble(), expected)));
#endif
    }

    void badCheckpointFlagsExitTwo()
    {
#ifndef LSE_MPIEXEC
        QSKIP("Open MPI not installed: apt-get install libopenmpi-dev openmpi-bin");
#else
        // A file where the folder should be, and a checkpoint that is not one.
        writeFile(path("not-a-dir"), "x");
        const Run unwritable = runMpi(2, {"train", "--config", path("config.json"), "--data", path("ids.bin"), "--dp", "2",
                                          "--checkpoint-dir", path("not-a-dir")});
        QCOMPARE(unwritable.exit_code, 2);
        QVERIFY2(unwritable.err.contains("--checkpoint-dir"), unwritable.err.constData());
        const Run broken = runMpi(2, {"train", "--data", path("ids.bin"), "--dp", "2", "--resume", path("text.txt")});
        QCOMPARE(broken.exit_code, 2);
        QVERIFY2(broken.err.contains("--resume"), broken.err.constData());
#endif
    }
};

QTEST_GUILESS_MAIN(TestCliDpCheckpoint)
#include "test_cli_dp_checkpoint.moc"
