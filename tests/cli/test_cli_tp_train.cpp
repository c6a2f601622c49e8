// SPDX-License-Identifier: GPL-3.0-or-later
// `mpirun -np 2 llm-explorer-cli train --tp 2` and `dist-train --np 2 --tp 2` (issue 33): two
// processes over Open MPI split the tiny model's heads, d_ff and vocabulary and end with one
// process's losses (relative 1e-5 after 10 steps), with and without `--sp on`; every step lists its
// collectives by purpose (tp_forward, tp_backward, the embedding's, LM head's and loss's) with the
// engine's bytes beside each, which they equal, as the per-step totals do; bad
// --tp values exit 2 naming --tp and the rule. Skipped, saying what to install, without MPI.
#include "cli_fixtures.h"
#include "cli_run.h"

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

// 1 layer, d_model 32, 2 heads, d_ff 64: splits over 2 ranks, not over 3.
const QByteArray kConfig = lse::test::tinyTrainConfig(QStringLiteral("tp-tiny"), {8, 10, 1000});

}  // namespace

class TestCliTpTrain : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString path(const char *name) const { return dir_.filePath(QString::fromLatin1(name)); }
    double single_final_loss_ = 0, single_validation_loss_ = 0;

    void checkRun(const Run &run, int ranks, bool sp = false)
    {
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject out = QJsonDocument::fromJson(run.out).object();  // rank 0 alone prints
        QCOMPARE(out.value("tp").toInt(), ranks);
        QCOMPARE(out.value("sequence_parallel").toBool(), sp);
        const QJsonArray steps = out.value("steps").toArray();
        QCOMPARE(steps.size(), 10);
        const double final_loss = out.value("final_loss").toDouble();
        QVERIFY2(std::abs(final_loss - single_final_loss_) <= 1e-5 * single_final_loss_,
                 qPrintable(QStringLiteral("%1 vs %2").arg(final_loss, 0, 'g', 9).arg(single_final_loss_, 0, 'g', 9)));
        const double validation = out.value("validation_loss").toDouble();
        QVERIFY2(std::abs(validation - single_validation_loss_) <= 1e-5 * single_validation_loss_,
                 qPrintable(QStringLiteral("%1 vs %2").arg(validation, 0, 'g', 9).arg(single_validation_loss_, 0, 'g', 9)));
        for (const QJsonValue &value : steps) {
            const QJsonObject step = value.toObject();
            QVERIFY(step.value("measured_bytes_per_rank").toDouble() > 0);
            QCOMPARE(step.value("measured_bytes_per_rank").toDouble(), step.value("predicted_bytes_per_rank").toDouble());
            int forward = 0, backward = 0, outside = 0;
            for (const QJsonValue &entry : step.value("communication").toArray()) {
                const QJsonObject e = entry.toObject();
                const QString purpose = e.value("purpose").toString();
                if (purpose == QLatin1String("grad_norm")) {
                    QVERIFY(e.value("predicted_bytes_per_rank").isNull());  // not an engine event
                    continue;
                }
                // Every other collective is the engine's event, with its bytes.
                QCOMPARE(e.value("bytes_per_rank").toDouble(), e.value("predicted_bytes_per_rank").toDouble());
                if (purpose != QLatin1String("tp_forward") && purpose != QLatin1String("tp_backward")) {
                    ++outside;  // the vocabulary-parallel embedding, head and loss; SP's norm gradients
                    continue;
                }
                if (sp)
                    QVERIFY(e.value("collective").toString() != QLatin1String("all_reduce"));
                else
                    QCOMPARE(e.value("collective").toString(), QStringLiteral("all_reduce"));
                (purpose == QLatin1String("tp_forward") ? forward : backward) += 1;
            }
            // One layer: after out-proj and after down-proj; with SP also the gathers before QKV and up-proj.
            QCOMPARE(forward, sp ? 4 : 2);
            QCOMPARE(backward, sp ? 4 : 2);
            // Embedding, head, 3 in the loss; SP splits the first two into gather and scatter, and sums the norms' gradients.
            QCOMPARE(outside, sp ? 8 : 5);
            QVERIFY(step.value("memory_bytes").toObject().value("params").toDouble() > 0);
        }
    }

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
        const QJsonObject out = QJsonDocument::fromJson(single.out).object();
        single_final_loss_ = out.value("final_loss").toDouble();
        single_validation_loss_ = out.value("validation_loss").toDouble();
        QVERIFY(single_final_loss_ > 0 && single_validation_loss_ > 0);
    }

    void matchesOneProcessUnderMpirun()
    {
#ifndef LSE_MPIEXEC
        QSKIP("Open MPI not installed: apt-get install libopenmpi-dev openmpi-bin");
#else
        checkRun(runMpi(2, {"train", "--config", path("config.json"), "--data", path("ids.bin"), "--tp", "2", "--json"}), 2);
#endif
    }

    void sequenceParallelUnderMpirun()
    {
#ifndef LSE_MPIEXEC
        QSKIP("Open MPI not installed: apt-get install libopenmpi-dev openmpi-bin");
#else
        checkRun(runMpi(2, {"train", "--config", path("config.json"), "--data", path("ids.bin"), "--tp", "2", "--sp", "on",
                            "--json"}),
                 2, true);
#endif
    }

    void distTrainStartsMpiItself()
    {
#ifndef LSE_MPIEXEC
        QSKIP("Open MPI not installed: apt-get install libopenmpi-dev openmpi-bin");
#else
        qputenv("OMP_NUM_THREADS", "1");
        checkRun(runCli({"dist-train", "--np", "2", "--tp", "2", "--config", path("config.json"), "--data", path("ids.bin"),
                         "--json"}),
                 2);
#endif
    }

    // dp x tp = 2 x 2 on 4 processes (the Layout page's mesh): one process's losses; TP bytes the
    // engine's event by event, one gradient all-reduce over the dp group per step equal to the
    // engine's DP bytes for what one GPU holds.
    void dpTimesTpUnderMpirun()
    {
#ifndef LSE_MPIEXEC
        QSKIP("Open MPI not installed: apt-get install libopenmpi-dev openmpi-bin");
#else
        const Run run = runMpi(4, {"train", "--config", path("config.json"), "--data", path("ids.bin"), "--dp", "2", "--tp",
                                   "2", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject out = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(out.value("dp").toInt(), 2);
        QCOMPARE(out.value("tp").toInt(), 2);
        QCOMPARE(out.value("ranks").toInt(), 4);
        const double final_loss = out.value("final_loss").toDouble();
        QVERIFY2(std::abs(final_loss - single_final_loss_) <= 1e-5 * single_final_loss_,
                 qPrintable(QStringLiteral("%1 vs %2").arg(final_loss, 0, 'g', 9).arg(single_final_loss_, 0, 'g', 9)));
        const double validation = out.value("validation_loss").toDouble();
        QVERIFY2(std::abs(validation - single_validation_loss_) <= 1e-5 * single_validation_loss_,
                 qPrintable(QStringLiteral("%1 vs %2").arg(validation, 0, 'g', 9).arg(single_validation_loss_, 0, 'g', 9)));
        const QJsonArray steps = out.value("steps").toArray();
        QCOMPARE(steps.size(), 10);
        for (const QJsonValue &value : steps) {
            const QJsonObject step = value.toObject();
            QCOMPARE(step.value("measured_bytes_per_rank").toDouble(), step.value("predicted_bytes_per_rank").toDouble());
            int gradients = 0;
            for (const QJsonValue &entry : step.value("communication").toArray()) {
                const QJsonObject e = entry.toObject();
                if (e.value("purpose").toString() == QLatin1String("dp_gradients")) {
                    ++gradients;
                    QVERIFY(e.value("predicted_bytes_per_rank").toDouble() > 0);
                    QCOMPARE(e.value("bytes_per_rank").toDouble(), step.value("dp_measured_bytes_per_rank").toDouble());
                }
            }
            QCOMPARE(gradients, 1);
            // The engine's DP bytes of what one GPU holds (the vocabulary split over tp too), exactly.
            QVERIFY(step.value("dp_measured_bytes_per_rank").toDouble() > 0);
            QCOMPARE(step.value("dp_measured_bytes_per_rank").toDouble(), step.value("dp_predicted_bytes_per_rank").toDouble());
        }
        // The product must be the ranks: the message names both flags and the rule.
        const Run wrong = runMpi(2, {"train", "--config", path("config.json"), "--data", path("ids.bin"), "--dp", "2", "--tp", "2"});
        QCOMPARE(wrong.exit_code, 2);
        QVERIFY2(wrong.err.contains("--dp 2 --tp 2") && wrong.err.contains("dp·tp = 4 must equal the mpirun ranks"),
                 wrong.err.constData());
#endif
    }

    void badTpExitsTwoNamingTheFlag_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("named");
        QTest::newRow("heads not divisible") << QStringList{"--tp", "3"} << "n_heads";
        QTest::newRow("tp 0") << QStringList{"--tp", "0"} << "--tp";
        // dp x tp outside mpirun: one rank, not dp·tp (or no MPI in this build); names --dp.
        QTest::newRow("dp x tp on one process") << QStringList{"--tp", "2", "--dp", "2"} << "--dp";
        QTest::newRow("dp x tp with zero") << QStringList{"--tp", "2", "--dp", "2", "--zero", "1"} << "--zero";
        QTest::newRow("with checkpoints") << QStringList{"--tp", "2", "--checkpoint-dir", "x"} << "--checkpoint-dir";
        QTest::newRow("sp maybe") << QStringList{"--tp", "2", "--sp", "maybe"} << "--sp";
        QTest::newRow("sp without tp") << QStringList{"--sp", "on"} << "--sp";
        QTest::newRow("tiled attention") << QStringList{"--tp", "2", "--attention", "tiled"} << "naive";
    }

    void badTpExitsTwoNamingTheFlag()
    {
        QFETCH(QStringList, flags);
        QFETCH(QString, named);
        const Run run = runCli(QStringList{"train", "--config", path("config.json"), "--data", path("ids.bin")} + flags);
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains(named.toUtf8()), run.err.constData());
        if (flags.at(1) == QLatin1String("3"))
            QVERIFY2(run.err.contains("--tp"), run.err.constData());
    }

    void rankCountMismatchExitsTwo()
    {
#ifndef LSE_MPIEXEC
        QSKIP("Open MPI not installed: apt-get install libopenmpi-dev openmpi-bin");
#else
        const Run run = runMpi(2, {"train", "--config", path("config.json"), "--data", path("ids.bin"), "--tp", "1"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("--tp 1") && run.err.contains("2 process"), run.err.constData());
#endif
    }
};

QTEST_GUILESS_MAIN(TestCliTpTrain)
#include "test_cli_tp_train.moc"
