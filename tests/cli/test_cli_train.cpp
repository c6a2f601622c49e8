// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli train` and `generate` end to end on a tiny model: a BPE trained by the CLI on a
// small text, the text prepared into token ids, a few training steps writing a checkpoint and a
// JSON summary, resuming from it, generating text from it; and exit 2 with nothing on stdout for
// bad configs and options. LSE_CACHE_DIR points at an empty folder, so no machine peak is cached
// and the run must say how to get one; tests that need a cached roofline write a made-up one to a
// second folder for their runs. No speed is asserted.

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "../cpu_kernel_fixture.h"
#include "cli_fixtures.h"
#include "cli_run.h"

#include "hardware/machine_kernel_factors.h"
#include "hardware/machine_roofline.h"
#include "reference/checkpoint_check.h"
#include "reference/safetensors.h"
#include "reference/step_time_comparison.h"

#include <cmath>
#include <cstring>
#include <vector>

namespace {

using lse::test::Run;
using lse::test::runCli;
using lse::test::writeFile;

const QByteArray kConfig = lse::test::tinyTrainConfig(QStringLiteral("cli-tiny"), {2, 4, 2});

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

    // --attention tiled (the FlashAttention kernel) trains to the naive kernel's loss within
    // float32 round-off, and the generate prefill takes the flag too.
    void tiledAttentionFlag()
    {
        const QStringList base{"train", "--config", path("config.json"), "--data", path("ids.bin"), "--steps", "2", "--json"};
        const Run naive = runCli(base);
        const Run tiled = runCli(base + QStringList{"--attention", "tiled"});
        QVERIFY2(naive.exit_code == 0 && tiled.exit_code == 0, tiled.err.constData());
        const double a = QJsonDocument::fromJson(naive.out).object().value("final_loss").toDouble();
        const double b = QJsonDocument::fromJson(tiled.out).object().value("final_loss").toDouble();
        QVERIFY2(std::abs(a - b) <= 1e-5 * std::abs(a), qPrintable(QStringLiteral("naive %1, tiled %2").arg(a).arg(b)));
        QVERIFY(QJsonDocument::fromJson(tiled.out).toJson().contains("\"flash_attention\""));
        QVERIFY(!QJsonDocument::fromJson(tiled.out).toJson().contains("\"attention_scores\""));
        const Run generated = runCli({"generate", "--checkpoint", path("ck/step_000004.safetensors"), "--tokenizer", path("bpe"),
                                      "--prompt", "Once upon a time", "--max-tokens", "4", "--temperature", "0", "--attention", "tiled"});
        QVERIFY2(generated.exit_code == 0, generated.err.constData());
        QVERIFY(generated.out.startsWith("Once upon a time"));
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

        for (const QStringList &command : {QStringList{"train", "--data", path("ids.bin")},
                                           QStringList{"generate", "--tokenizer", path("bpe"), "--prompt", "x"}}) {
            run = runCli(command + QStringList{"--config", path("config.json"), "--attention", "flash"});
            QCOMPARE(run.exit_code, 2);
            QVERIFY2(run.err.contains("--attention"), run.err.constData());
        }
    }

    // Issue 14, item 1: the 256 KB checkpoint whose config says n_heads = 2^20 used to make
    // `generate` and `train --resume` build a 2.1 GB model and abort; both now exit 2 naming the
    // field before allocating. --batch 1e9 and a batch x context beyond this machine's memory are
    // refused the same way, naming the flag beside the field.
    void oversizedInputsExitTwo()
    {
        QByteArray config = kConfig;
        config.replace("\"n_heads\": 2,", "\"n_heads\": 1048576, \"n_kv_heads\": 1048576, \"head_dim\": 16,");
        config.replace("\"vocab_size\": 400", "\"vocab_size\": 2048");
        QVERIFY(config.contains("1048576"));
        const std::vector<float> embeddings(2048 * 32, 0.25f);
        const std::string heads = path("heads.safetensors").toStdString();
        QVERIFY(lse::writeSafetensors(heads, {lse::makeF32Tensor("token_embeddings.weight", embeddings.data(), {2048, 32})},
                                      {{"format", "llm-explorer-reference-checkpoint"},
                                       {"config", config.toStdString()},
                                       {"step", "1"},
                                       {"optimizer.step", "1"},
                                       {"rng", "1"}})
                    .ok());
        QVERIFY(QFile(path("heads.safetensors")).size() >= 256 * 1024);

        Run run = runCli({"generate", "--checkpoint", path("heads.safetensors"), "--tokenizer", path("bpe"), "--prompt", "x"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains("model.n_heads"), run.err.constData());

        run = runCli({"train", "--resume", path("heads.safetensors"), "--data", path("ids.bin"), "--steps", "2"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains("model.n_heads"), run.err.constData());

        run = runCli({"train", "--config", path("config.json"), "--data", path("ids.bin"), "--batch", "1000000000"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains("--batch (training.batch_size)"), run.err.constData());

        QByteArray longContext = kConfig;
        longContext.replace("\"max_seq_len\": 32", "\"max_seq_len\": 131072");
        writeFile(path("long-context.json"), longContext);
        run = runCli({"train", "--config", path("long-context.json"), "--data", path("ids.bin"), "--batch", "64"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains("--batch (training.batch_size)") && run.err.contains("[memory]"), run.err.constData());
    }

    // Issue 14, item 6: `train --lr 100` used to print loss NaN, exit 0 with final_loss null and
    // write a NaN checkpoint. Now it stops with exit 3 and a message, and every checkpoint it wrote
    // before diverging holds finite values only; a checkpoint with NaN is refused (exit 2).
    void divergedTrainingExitsThree()
    {
        const Run run = runCli({"train", "--config", path("config.json"), "--data", path("ids.bin"), "--lr", "100", "--steps", "40",
                                "--checkpoint-every", "1", "--checkpoint-dir", path("ck-diverged"), "--json"});
        QCOMPARE(run.exit_code, 3);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains("training diverged at step") && run.err.contains("[diverged]"), run.err.constData());
        const QStringList written = QDir(path("ck-diverged")).entryList({"*.safetensors"}, QDir::Files);
        QVERIFY(written.size() < 40);
        for (const QString &name : written) {
            const lse::Result<lse::SafetensorsFile> file = lse::readSafetensors(path("ck-diverged").toStdString() + "/" + name.toStdString());
            QVERIFY(file.ok());
            for (const lse::SafeTensor &t : file->tensors)
                QVERIFY2(lse::reference::allFinite(t), qPrintable(name + QLatin1Char(' ') + QString::fromStdString(t.name)));
        }

        // A NaN copy of a good checkpoint.
        const lse::Result<lse::SafetensorsFile> good = lse::readSafetensors(path("ck/step_000004.safetensors").toStdString());
        QVERIFY(good.ok());
        lse::SafetensorsFile copy = good.value();
        const float nan = std::nanf("");
        for (lse::SafeTensor &t : copy.tensors)
            if (t.name == "token_embeddings.weight")
                std::memcpy(t.bytes.data(), &nan, sizeof nan);
        QVERIFY(lse::writeSafetensors(path("nan.safetensors").toStdString(), copy.tensors, copy.metadata).ok());
        Run refused = runCli({"generate", "--checkpoint", path("nan.safetensors"), "--tokenizer", path("bpe"), "--prompt", "x"});
        QCOMPARE(refused.exit_code, 2);
        QVERIFY(refused.out.isEmpty());
        QVERIFY2(refused.err.contains("[non-finite]"), refused.err.constData());
        refused = runCli({"train", "--resume", path("nan.safetensors"), "--data", path("ids.bin"), "--steps", "6"});
        QCOMPARE(refused.exit_code, 2);
        QVERIFY(refused.out.isEmpty());
        QVERIFY2(refused.err.contains("[non-finite]"), refused.err.constData());
    }

    // Issue 13, items 6, 10, 11; issue 29, section 3: with a cached roofline and kernel factors
    // (fresh, plausible, at the run's thread count: used, not measured again) the step time is
    // predicted by the operator-level predictor from the factors alone (not from the run) and
    // compared with the measured one, operator by operator in step_time.operators[]; an MFU above
    // 100% (a peak made up far too low) is never printed as a result; the thread count is printed.
    void predictionFromCachedKernelFactors()
    {
        QVERIFY(QDir().mkpath(path("cache-slow")));
        const QByteArray previous = qgetenv("LSE_CACHE_DIR");
        qputenv("LSE_CACHE_DIR", path("cache-slow").toUtf8());
        const std::string now = QDateTime::currentDateTimeUtc().addSecs(1).toString(Qt::ISODate).toStdString();
        lse::MachineRoofline slow = lse::currentMachineIdentity();
        slow.threads_used = 2;
        slow.peak_flops_per_s_one_core = 2e6;  // 2 MFLOP/s: any real run exceeds it
        slow.peak_flops_per_s_all_cores = 3e6;
        slow.bandwidth_bytes_per_s_one_core = 1e9;
        slow.bandwidth_bytes_per_s_all_cores = 1e9;
        slow.measured_at = now;
        QVERIFY(lse::saveMachineRoofline(slow).ok());
        lse::CpuKernelFactors kernels = lse::test::givenCpuKernelFactors(1, 20e9, 20e9, 2e9, now);
        kernels.cpu_share = 0.8;
        QVERIFY(lse::saveCpuKernelFactors(kernels).ok());
        const Run run = runCli({"train", "--config", path("config.json"), "--data", path("ids.bin"), "--steps", "3", "--json"});
        qputenv("LSE_CACHE_DIR", previous);
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QVERIFY2(!run.err.contains("measured this CPU's roofline and kernel factors again"), run.err.constData());
        QVERIFY(run.err.contains("1 thread (requested)"));  // the config asks for one
        QVERIFY(run.err.contains("MFU exceeds the measured peak - re-measure"));
        QVERIFY2(!run.err.contains("MFU 1") && !run.err.contains("MFU 2") && !run.err.contains("MFU 3"), run.err.constData());
        QVERIFY(run.err.contains("step time: predicted"));
        const QJsonObject summary = QJsonDocument::fromJson(run.out).object();
        QVERIFY(summary.value("mfu").isNull());
        QCOMPARE(summary.value("mfu_exceeds_peak").toBool(), true);
        QCOMPARE(summary.value("threads").toInt(), 1);
        const QJsonObject stepTime = summary.value("step_time").toObject();
        const double predicted = stepTime.value("predicted_seconds").toDouble();
        const double measured = stepTime.value("measured_seconds").toDouble();
        QVERIFY(predicted > 0 && measured > 0);
        QCOMPARE(stepTime.value("threads").toInt(), 1);
        QCOMPARE(stepTime.value("kernels_measured_at").toString().toStdString(), now);
        QVERIFY(std::abs(stepTime.value("difference").toDouble() - (measured - predicted) / predicted) <= 1e-9 * std::abs(measured / predicted));
        // The prediction is the core's, from the cached factors alone.
        const lse::Result<lse::reference::TrainConfig> config = lse::reference::trainConfigFromJson(kConfig, "config");
        QVERIFY(config.ok());
        const lse::Result<lse::reference::ReferenceStepPrediction> expected = lse::reference::predictReferenceStep(config.value(), kernels);
        QVERIFY(expected.ok());
        QVERIFY2(std::abs(predicted - expected->seconds) <= 1e-9 * predicted,
                 qPrintable(QStringLiteral("%1 vs %2").arg(predicted).arg(expected->seconds)));
        QVERIFY(std::abs(stepTime.value("predicted_idle_seconds").toDouble() - expected->idle_seconds) <= 1e-9 * predicted);
        QCOMPARE(stepTime.value("cpu_share").toDouble(), 0.8);
        // step_time.operators[]: name, pass, predicted and measured seconds, difference fraction;
        // largest differences first; the predicted rows add up to the predicted step.
        const QJsonArray operators = stepTime.value("operators").toArray();
        QVERIFY(operators.size() > 10);
        double sum = 0, previousGap = 1e300;
        bool rest = false;
        for (const QJsonValue &value : operators) {
            const QJsonObject op = value.toObject();
            QVERIFY(op.value("name").isString() && op.value("pass").isString());
            QVERIFY(op.value("predicted_seconds").isDouble() && op.value("measured_seconds").isDouble());
            const double p = op.value("predicted_seconds").toDouble(), m = op.value("measured_seconds").toDouble();
            QVERIFY(p >= 0 && m >= 0);
            if (p > 0)
                QVERIFY(std::abs(op.value("difference_fraction").toDouble() - (m - p) / p) <= 1e-9 * std::max(1.0, std::abs((m - p) / p)));
            else
                QVERIFY(op.value("difference_fraction").isNull());
            QVERIFY(std::abs(m - p) <= previousGap * (1 + 1e-12));
            previousGap = std::abs(m - p);
            sum += p;
            rest = rest || op.value("name").toString() == QStringLiteral("optimizer_and_rest");
        }
        QVERIFY(rest);
        QVERIFY2(std::abs(sum - predicted) <= 1e-9 * predicted, qPrintable(QStringLiteral("%1 vs %2").arg(sum).arg(predicted)));
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
