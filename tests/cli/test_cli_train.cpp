// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli train` and `generate` end to end on a tiny model: a BPE trained by the CLI on a
// small text, the text prepared into token ids, a few training steps writing a checkpoint and a
// JSON summary, resuming from it, generating text from it; and exit 2 with nothing on stdout for
// bad configs and options. LSE_CACHE_DIR points at an empty folder, so no machine peak is cached
// and the run must say how to get one; tests that need a cached roofline write a made-up one to a
// second folder for their runs. No speed is asserted.

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "cli_run.h"

#include "hardware/machine_roofline.h"

#include <cmath>

namespace {

using lse::test::Run;
using lse::test::runCli;

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

const char *const kConfig = R"({
  "format": "llm-explorer-reference-train", "version": 1,
  "model": {"name": "cli-tiny", "n_layers": 1, "d_model": 32, "n_heads": 2, "d_ff": 64,
            "vocab_size": 400, "max_seq_len": 32},
  "training": {"batch_size": 2, "steps": 4, "lr_max": 0.005, "lr_min": 0.0005, "warmup_steps": 1,
               "eval_every": 2, "eval_batches": 1, "seed": 3, "threads": 1}
})";

}  // namespace

class TestCliTrain : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString path(const char *name) const { return dir_.filePath(QString::fromLatin1(name)); }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        QVERIFY(QDir().mkpath(path("cache")));
        qputenv("LSE_CACHE_DIR", path("cache").toUtf8());
        QByteArray text;
        for (int i = 0; i < 60; ++i)
            text += "Once upon a time a little cat sat on a mat. The cat was happy.\n<|endoftext|>\n"
                    "One day a dog ran to the park and played with a red ball.\n<|endoftext|>\n";
        writeFile(path("text.txt"), text);
        writeFile(path("config.json"), kConfig);
        Run bpe = runCli({"train-bpe", "--input", path("text.txt"), "--vocab-size", "300", "--special", "<|endoftext|>",
                          "--out", path("bpe")});
        QVERIFY2(bpe.exit_code == 0, bpe.err.constData());
        Run prep = runCli({"prepare-data", "--tokenizer", path("bpe"), "--input", path("text.txt"), "--out", path("ids.bin"),
                           "--special", "<|endoftext|>"});
        QVERIFY2(prep.exit_code == 0, prep.err.constData());
    }

    void trainWritesCheckpointAndSummary()
    {
        const Run run = runCli({"train", "--config", path("config.json"), "--data", path("ids.bin"), "--checkpoint-every", "2",
                                "--checkpoint-dir", path("ck"), "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QVERIFY(QFile::exists(path("ck/step_000002.safetensors")));
        QVERIFY(QFile::exists(path("ck/step_000004.safetensors")));
        QVERIFY(run.err.contains("step 4/4"));
        QVERIFY(run.err.contains("llm-explorer-cli machine"));  // no cached peak: says how to get MFU
        const QJsonObject summary = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(summary.value("steps").toInt(), 4);
        QVERIFY(std::isfinite(summary.value("final_loss").toDouble()));
        QVERIFY(summary.value("validation_loss").toDouble() > 0);
        QVERIFY(summary.value("tokens_per_s").toDouble() > 0);
        QVERIFY(summary.value("mfu").isNull());
        QVERIFY(!summary.value("ops").toArray().isEmpty());
    }

    void resumeContinues()
    {
        const Run run = runCli({"train", "--resume", path("ck/step_000002.safetensors"), "--data", path("ids.bin"), "--steps", "4",
                                "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject summary = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(summary.value("steps").toInt(), 4);
        QCOMPARE(summary.value("steps_this_run").toInt(), 2);
    }

    void generateFromCheckpoint()
    {
        const QStringList base{"generate", "--checkpoint", path("ck/step_000004.safetensors"), "--tokenizer", path("bpe"),
                               "--prompt", "Once upon a time", "--max-tokens", "12", "--seed", "1"};
        const Run a = runCli(base + QStringList{"--temperature", "0.8", "--top-k", "20"});
        QVERIFY2(a.exit_code == 0, a.err.constData());
        QVERIFY(a.out.startsWith("Once upon a time"));
        const Run b = runCli(base + QStringList{"--temperature", "0.8", "--top-k", "20"});
        QCOMPARE(b.out, a.out);
        const Run greedy = runCli(base + QStringList{"--temperature", "0"});
        QCOMPARE(greedy.exit_code, 0);
    }

    void badInputExitsTwo()
    {
        writeFile(path("bad.json"), R"({"model": {"n_layers": 1, "d_model": 32, "n_heads": 2, "d_ff": 64,
                                        "vocab_size": 400, "max_seq_len": 32}, "training": {"batch_sise": 2}})");
        Run run = runCli({"train", "--config", path("bad.json"), "--data", path("ids.bin"), "--steps", "2"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY(run.err.contains("training.batch_sise"));

        run = runCli({"train", "--config", path("config.json"), "--data", path("missing.bin")});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());

        run = runCli({"train", "--config", path("config.json"), "--data", path("ids.bin"), "--batch", "0"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY(run.err.contains("--batch"));

        run = runCli({"train", "--data", path("ids.bin")});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.err.contains("--config"));

        run = runCli({"generate", "--checkpoint", path("text.txt"), "--tokenizer", path("bpe"), "--prompt", "x"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());

        run = runCli({"generate", "--checkpoint", path("ck/step_000004.safetensors"), "--tokenizer", path("bpe"), "--prompt",
                      "x", "--top-p", "2"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
    }

    // Issue 13, items 6, 10, 11: with a cached roofline the step time is predicted from it (not
    // from the run) and compared with the measured one; an MFU above 100% (a peak measured under
    // load, here made up far too low) is never printed as a result; the thread count is printed.
    void predictionAgainstCachedRoofline()
    {
        QVERIFY(QDir().mkpath(path("cache-slow")));
        const QByteArray previous = qgetenv("LSE_CACHE_DIR");
        qputenv("LSE_CACHE_DIR", path("cache-slow").toUtf8());
        lse::MachineRoofline slow = lse::currentMachineIdentity();
        slow.threads_used = 2;
        slow.peak_flops_per_s_one_core = 2e6;  // 2 MFLOP/s: any real run exceeds it
        slow.peak_flops_per_s_all_cores = 1e6;  // and below one core: implausible
        slow.bandwidth_bytes_per_s_one_core = 1e9;
        slow.bandwidth_bytes_per_s_all_cores = 1e9;
        slow.measured_at = "2026-12-01T08:00:00Z";
        QVERIFY(lse::saveMachineRoofline(slow).ok());
        const Run run = runCli({"train", "--config", path("config.json"), "--data", path("ids.bin"), "--steps", "3", "--json"});
        qputenv("LSE_CACHE_DIR", previous);
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QVERIFY(run.err.contains("1 thread (requested)"));  // the config asks for one
        QVERIFY(run.err.contains("MFU exceeds the measured peak - re-measure"));
        QVERIFY2(!run.err.contains("MFU 1") && !run.err.contains("MFU 2") && !run.err.contains("MFU 3"), run.err.constData());
        QVERIFY(run.err.contains("warning: the cached machine roofline looks wrong"));
        QVERIFY(run.err.contains("2026-12-01T08:00:00Z"));
        QVERIFY(run.err.contains("step time: predicted"));
        const QJsonObject summary = QJsonDocument::fromJson(run.out).object();
        QVERIFY(summary.value("mfu").isNull());
        QCOMPARE(summary.value("mfu_exceeds_peak").toBool(), true);
        QCOMPARE(summary.value("threads").toInt(), 1);
        const QJsonObject stepTime = summary.value("step_time").toObject();
        const double predicted = stepTime.value("predicted_seconds").toDouble();
        const double measured = stepTime.value("measured_seconds").toDouble();
        QVERIFY(predicted > 0 && measured > 0);
        QCOMPARE(stepTime.value("roofline").toString(), QStringLiteral("one core"));
        QVERIFY(std::abs(stepTime.value("difference").toDouble() - (measured - predicted) / predicted) <= 1e-9 * std::abs(measured / predicted));
        // The prediction does not depend on the run: a second run with another measured time
        // predicts the same step time.
        qputenv("LSE_CACHE_DIR", path("cache-slow").toUtf8());
        const Run again = runCli({"train", "--config", path("config.json"), "--data", path("ids.bin"), "--steps", "2", "--json"});
        qputenv("LSE_CACHE_DIR", previous);
        QVERIFY2(again.exit_code == 0, again.err.constData());
        const QJsonObject second = QJsonDocument::fromJson(again.out).object().value("step_time").toObject();
        QCOMPARE(second.value("predicted_seconds").toDouble(), predicted);
    }

    // Without --threads (and threads 0 in the config) the trainer picks the count from the idle
    // cores and says so.
    void defaultThreadsArePrinted()
    {
        const Run run = runCli({"train", "--config", path("config.json"), "--data", path("ids.bin"), "--steps", "1",
                                "--threads", "0", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QVERIFY2(run.err.contains("busy with other work"), run.err.constData());
        const QJsonObject summary = QJsonDocument::fromJson(run.out).object();
        QVERIFY(summary.value("threads").toInt() >= 1);
        QCOMPARE(summary.value("threads_requested").toBool(), false);
        QVERIFY(summary.value("busy_cores").toDouble() >= 0);
    }

    void helpAndPresets()
    {
        QCOMPARE(runCli({"train", "--help"}).exit_code, 0);
        QVERIFY(runCli({"--help"}).out.contains("generate"));
        // A bundled preset by name; the data's ids must fit its vocabulary (2048).
        const Run run = runCli({"train", "--config", "tiny", "--data", path("ids.bin"), "--steps", "1", "--batch", "1",
                                "--threads", "1"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliTrain)
#include "test_cli_train.moc"
