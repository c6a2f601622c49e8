// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli generate --batch B --json` (issue 30, "Measured on this CPU"): an untrained
// tiny model of a config on made-up prompts, its prefill time and decode tokens/s measured and
// predicted from cached kernel factors (given, not measured: nothing is timed or asserted about
// speed), the operators of both phases; and exit 2 naming the flag for a bad --batch and for a KV
// cache beyond this machine's memory.

#include <QDateTime>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "../cpu_kernel_fixture.h"
#include "cli_fixtures.h"
#include "cli_run.h"

#include "hardware/machine_kernel_factors.h"

namespace {

using lse::test::Run;
using lse::test::runCli;
using lse::test::writeFile;

}  // namespace

class TestCliGenerate : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString path(const QString &name) const { return dir_.filePath(name); }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        QVERIFY(QDir().mkpath(path("cache")));
        qputenv("LSE_CACHE_DIR", path("cache").toUtf8());
        writeFile(path("config.json"), lse::test::tinyTrainConfig(QStringLiteral("cli-generate")));
        // Kernel factors at one thread, measured (so the cache says) after the program was built.
        const std::string now = QDateTime::currentDateTimeUtc().addSecs(1).toString(Qt::ISODate).toStdString();
        QVERIFY(lse::saveCpuKernelFactors(lse::test::givenCpuKernelFactors(1, 20e9, 20e9, 2e9, now)).ok());
    }

    void batchJsonReportsMeasuredAndPredicted()
    {
        const Run run = runCli({"generate", "--config", path("config.json"), "--prompt-tokens", "5", "--max-tokens", "4",
                                "--batch", "3", "--threads", "1", "--temperature", "0", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QVERIFY2(!run.err.contains("measured this CPU's kernel factors again"), run.err.constData());
        const QJsonObject out = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(out.value("batch").toInt(), 3);
        QCOMPARE(out.value("prompt_tokens").toInt(), 5);
        QCOMPARE(out.value("output_tokens").toInt(), 4);
        QCOMPARE(out.value("threads").toInt(), 1);
        const QJsonArray sequences = out.value("sequences").toArray();
        QCOMPARE(sequences.size(), 3);
        for (const QJsonValue &s : sequences)
            QCOMPARE(s.toObject().value("token_ids").toArray().size(), 4);  // no tokenizer: no stop token
        const QJsonObject prefill = out.value("prefill").toObject();
        QVERIFY(prefill.value("measured_seconds").toDouble() > 0);
        QVERIFY(prefill.value("predicted_seconds").toDouble() > 0);
        const QJsonObject decode = out.value("decode").toObject();
        QCOMPARE(decode.value("steps").toInt(), 3);
        QCOMPARE(decode.value("predicted_steps").toInt(), 3);
        QVERIFY(decode.value("measured_tokens_per_second").toDouble() > 0);
        QVERIFY(decode.value("predicted_tokens_per_second").toDouble() > 0);
        QVERIFY(decode.value("predicted_seconds").toDouble() > 0);
        const QJsonArray operators = out.value("operators").toArray();
        bool decodeAttention = false, prefillProjection = false;
        for (const QJsonValue &v : operators) {
            const QJsonObject op = v.toObject();
            QVERIFY(op.contains("predicted_seconds") && op.contains("measured_seconds"));
            decodeAttention = decodeAttention || (op.value("name").toString() == "decode_attention" && op.value("phase").toString() == "decode"
                                                  && op.value("measured_seconds").toDouble() > 0);
            prefillProjection = prefillProjection || (op.value("name").toString() == "qkv_projection" && op.value("phase").toString() == "prefill");
        }
        QVERIFY(decodeAttention && prefillProjection);

        // Copies of one prompt (greedy) give the same tokens; two sequences of the same run differ
        // only because their made-up prompts do.
        const Run copies = runCli({"generate", "--config", path("config.json"), "--prompt-tokens", "5", "--max-tokens", "4",
                                   "--threads", "1", "--temperature", "0"});
        QVERIFY2(copies.exit_code == 0, copies.err.constData());
        QStringList ids;
        for (const QJsonValue &id : sequences.at(0).toObject().value("token_ids").toArray())
            ids << QString::number(id.toInt());
        QCOMPARE(QString::fromUtf8(copies.out).trimmed(), ids.join(' '));
    }

    void badBatchExitsTwo()
    {
        for (const char *bad : {"0", "65", "x", "2.5"}) {
            const Run run = runCli({"generate", "--config", path("config.json"), "--prompt-tokens", "3", "--batch", bad});
            QCOMPARE(run.exit_code, 2);
            QVERIFY(run.out.isEmpty());
            QVERIFY2(run.err.contains("--batch"), run.err.constData());
        }
        Run run = runCli({"generate", "--prompt-tokens", "3"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.err.contains("--checkpoint"));
        run = runCli({"generate", "--config", path("config.json")});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.err.contains("--prompt-tokens"));
        run = runCli({"generate", "--config", path("config.json"), "--prompt-tokens", "64"});  // context 32
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("--prompt-tokens"), run.err.constData());

        // 64 sequences of 131072 positions of a 4096-wide model: terabytes of KV cache, refused
        // before anything is allocated, naming --batch.
        QByteArray config = lse::test::tinyTrainConfig(QStringLiteral("huge-cache"));
        config.replace("\"d_model\": 32, \"n_heads\": 2", "\"d_model\": 4096, \"n_heads\": 32");
        config.replace("\"max_seq_len\": 32", "\"max_seq_len\": 131072");
        QVERIFY(config.contains("131072") && config.contains("4096"));
        writeFile(path("huge.json"), config);
        run = runCli({"generate", "--config", path("huge.json"), "--prompt-tokens", "4", "--max-tokens", "131000", "--batch", "64",
                      "--threads", "1"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains("--batch") && run.err.contains("[memory]") && run.err.contains("KV cache of 64"), run.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliGenerate)
#include "test_cli_generate.moc"
