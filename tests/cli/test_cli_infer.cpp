// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli infer` and `validate --serving`: the JSON fields the issue lists, the breakdown
// summing to the latency, the sweep's rows, speculative decoding, and exit 2 naming a bad flag.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "cli_run.h"

#include <cmath>

using lse::test::Run;
using lse::test::runCli;

namespace {

QJsonObject parseJson(const Run &run)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(run.out, &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("not JSON: %s\n%s", qPrintable(error.errorString()), run.err.constData());
    return document.object();
}

}  // namespace

class TestCliInfer : public QObject {
    Q_OBJECT

private slots:
    void help()
    {
        const Run run = runCli({"infer", "--help"});
        QCOMPARE(run.exit_code, 0);
        for (const char *flag : {"--model", "--gpu", "--tp", "--pp", "--batch", "--prompt-tokens", "--output-tokens",
                                 "--weights", "--kv-cache", "--activations", "--draft-model", "--draft-tokens",
                                 "--acceptance", "--sweep", "--json"})
            QVERIFY2(run.out.contains(flag), flag);
        QVERIFY(runCli({"--help"}).out.contains("infer"));
    }

    void jsonHasTheIssuesFields()
    {
        const Run run = runCli({"infer", "--model", "llama-2-70b", "--gpu", "h100-sxm", "--tp", "4", "--batch", "16",
                                "--prompt-tokens", "1024", "--output-tokens", "256", "--weights", "int4",
                                "--kv-cache", "fp8", "--activations", "fp16", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject object = parseJson(run);
        for (const char *key : {"ttft_seconds", "tpot_seconds", "decode_seconds", "end_to_end_seconds",
                                "output_tokens_per_second", "output_tokens_per_second_per_gpu", "mbu", "mfu", "max_batch",
                                "cost_per_million_output_tokens"})
            QVERIFY2(object.value(key).toDouble() > 0, key);
        const QJsonObject memory = object.value("memory_per_gpu").toObject();
        for (const char *key : {"weights", "kv_cache", "activations", "reserve", "total", "capacity"})
            QVERIFY2(memory.value(key).toDouble() > 0, key);
        QVERIFY(memory.value("fits").toBool());
        // int4 + one fp16 scale per 128 weights: about 0.52 bytes per weight, over 4 GPUs.
        QVERIFY(memory.value("weights").toDouble() < 69e9 * 0.52 / 4 * 1.05);
        double sum = 0;
        const QJsonObject breakdown = object.value("breakdown").toObject();
        for (auto it = breakdown.begin(); it != breakdown.end(); ++it)
            sum += it.value().toDouble();
        QVERIFY(std::abs(sum - object.value("end_to_end_seconds").toDouble()) < 1e-9);
        QVERIFY(breakdown.value("tp_all_reduce").toDouble() > 0);
        QVERIFY(!object.value("prefill").toObject().value("operators").toArray().isEmpty());
        QVERIFY(!object.value("decode").toObject().value("operators").toArray().isEmpty());
        QCOMPARE(object.value("output_tokens_per_second_per_gpu").toDouble(),
                 object.value("output_tokens_per_second").toDouble() / 4);
        QVERIFY(!object.contains("speculative"));
    }

    void speculativeDecoding()
    {
        const Run run = runCli({"infer", "--model", "llama-2-70b", "--gpu", "h100-sxm", "--tp", "4", "--draft-model",
                                "llama-2-7b", "--draft-tokens", "4", "--acceptance", "1", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject speculative = parseJson(run).value("speculative").toObject();
        QCOMPARE(speculative.value("expected_tokens_per_step").toDouble(), 5.0);  // γ + 1 at α = 1
        QVERIFY(speculative.value("draft_tpot_seconds").toDouble() > 0);
        const double c = speculative.value("cost_coefficient").toDouble();
        QVERIFY(std::abs(speculative.value("speedup").toDouble() - 5.0 / (4 * c + 1)) < 1e-9);
    }

    void sweepOneRowPerBatch()
    {
        const Run run = runCli({"infer", "--model", "llama-2-7b", "--gpu", "a100-sxm-80gb", "--sweep", "batch", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject object = parseJson(run);
        const QJsonArray rows = object.value("sweep").toArray();
        QVERIFY(rows.size() >= 2);
        QCOMPARE(rows.first().toObject().value("batch").toDouble(), 1.0);
        QCOMPARE(rows.last().toObject().value("batch").toDouble(), object.value("max_batch").toDouble());
        double previous = 0;
        for (const QJsonValue &row : rows) {
            const double throughput = row.toObject().value("output_tokens_per_second").toDouble();
            QVERIFY(throughput > previous);  // batching raises throughput up to the memory's edge
            previous = throughput;
        }
        QVERIFY(object.value("decode_crossover_batch").toDouble() > 1);
    }

    void badFlagExitsTwoNamingIt_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("flag");
        QTest::addRow("batch 0") << QStringList{"--batch", "0"} << "--batch";
        QTest::addRow("prompt not a number") << QStringList{"--prompt-tokens", "many"} << "--prompt-tokens";
        QTest::addRow("output 0") << QStringList{"--output-tokens", "0"} << "--output-tokens";
        QTest::addRow("unknown weight format") << QStringList{"--weights", "int3"} << "--weights";
        QTest::addRow("int4 KV cache") << QStringList{"--kv-cache", "int4"} << "--kv-cache";
        QTest::addRow("int4 activations") << QStringList{"--activations", "int4"} << "--activations";
        QTest::addRow("fp8 activations on an A100") << QStringList{"--gpu", "a100-sxm-80gb", "--activations", "fp8"}
                                                    << "--activations";
        QTest::addRow("tp not dividing the heads") << QStringList{"--model", "llama-2-7b", "--tp", "3"} << "--tp";
        QTest::addRow("acceptance without a draft") << QStringList{"--acceptance", "0.5"} << "--acceptance";
        QTest::addRow("acceptance above 1") << QStringList{"--draft-model", "llama-2-7b", "--acceptance", "1.5"}
                                            << "--acceptance";
        QTest::addRow("unknown draft model") << QStringList{"--draft-model", "no-such-model"} << "--draft-model";
        QTest::addRow("draft tokens 0") << QStringList{"--draft-model", "llama-2-7b", "--draft-tokens", "0"}
                                        << "--draft-tokens";
        QTest::addRow("sweep of something else") << QStringList{"--sweep", "context"} << "--sweep";
        QTest::addRow("gpus not a multiple of tp x pp") << QStringList{"--tp", "2", "--gpus", "3"} << "--gpus";
        QTest::addRow("unknown decode attention") << QStringList{"--decode-attention", "fast"} << "--decode-attention";
    }
    void badFlagExitsTwoNamingIt()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, flag);
        const Run run = runCli(QStringList{"infer"} + arguments);
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains(flag.toUtf8()), run.err.constData());
        QVERIFY(run.out.isEmpty());
    }

    void validateServingJson()
    {
        const Run run = runCli({"validate", "--serving", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject object = parseJson(run);
        QCOMPARE(object.value("rows").toInt(), 76);
        const QJsonArray comparisons = object.value("comparisons").toArray();
        QCOMPARE(comparisons.size(), 82);
        for (const QJsonValue &value : comparisons) {
            const QJsonObject comparison = value.toObject();
            const double published = comparison.value("published").toDouble();
            const double predicted = comparison.value("predicted").toDouble();
            QVERIFY(std::abs(comparison.value("error").toDouble() - (predicted - published) / published) < 1e-12);
        }
        QVERIFY(object.value("mean_absolute_error").toDouble() <= 0.10);
        QVERIFY(object.value("accelerators").toArray().size() == 5);
        const Run text = runCli({"validate", "--serving"});
        QCOMPARE(text.exit_code, 0);
        QVERIFY(text.out.contains("mean |error|"));
        const Run bad = runCli({"validate", "--serving", "--max-evaluations", "10"});
        QCOMPARE(bad.exit_code, 2);
        QVERIFY(bad.err.contains("--max-evaluations"));
    }
};

QTEST_GUILESS_MAIN(TestCliInfer)
#include "test_cli_infer.moc"
