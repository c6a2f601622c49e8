// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli trace` measured beside predicted: the JSON `prediction` object on the real H100
// trace of Qwen1.5-0.5B with its scenario (the model's products found with the predicted FLOPs, the
// parts of the measured step adding up to it), the per-GEMM predictions of an HTA A100 rank with
// --gpu, nothing added to a CPU-only trace, and exit 2 naming the flag or field for bad input.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "cli_run.h"

#include <cmath>

using lse::test::Run;
using lse::test::runCli;

namespace {

QString tracePath(const char *relative)
{
    return QStringLiteral(LSE_TEST_DATA_DIR "/traces/") + QString::fromUtf8(relative);
}

const char *kQwen = "tracelens-h100/qwen1.5-0.5b_h100_forward.json.gz";
const char *kQwenScenario = "tracelens-h100/qwen1.5-0.5b_h100_forward.scenario.json";

QJsonObject parseJson(const Run &run)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(run.out, &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("not JSON: %s\n%s", qPrintable(error.errorString()), run.err.constData());
    return document.object();
}

QJsonObject operatorNamed(const QJsonArray &rows, const QString &name)
{
    for (const QJsonValue &row : rows)
        if (row.toObject().value("name").toString() == name)
            return row.toObject();
    return {};
}

}  // namespace

class TestCliTracePrediction : public QObject {
    Q_OBJECT

private slots:
    void qwenWithItsScenario()
    {
        const Run run = runCli({"trace", tracePath(kQwen), "--scenario", tracePath(kQwenScenario), "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject prediction = parseJson(run).value("prediction").toObject();
        // The trace's own device picks the GEMM predictions' accelerator.
        const QJsonObject gemms = prediction.value("gemm_calls").toObject();
        QCOMPARE(gemms.value("accelerator").toString(), QStringLiteral("h100-sxm"));
        QCOMPARE(gemms.value("calls").toInt(), 24 * 7 + 1);
        const QJsonObject step = prediction.value("step").toObject();
        QCOMPARE(step.value("pass").toString(), QStringLiteral("forward"));
        QCOMPARE(step.value("steps").toInt(), 1);
        const QJsonArray operators = step.value("operators").toArray();
        // q, k and v (three 1024×1024 products per layer) against the fused 1024→3072 QKV product.
        const QJsonObject qkv = operatorNamed(operators, "qkv_projection");
        QVERIFY(qkv.value("split").toBool());
        QCOMPARE(qkv.value("measured_flops").toDouble(), 24 * 2.0 * 16 * 559 * 1024 * 3072);
        QCOMPARE(qkv.value("predicted_flops").toDouble(), qkv.value("measured_flops").toDouble());
        QVERIFY(!operatorNamed(step.value("missing_in_trace").toArray(), "lm_head").isEmpty());
        const QJsonObject time = step.value("missing_time").toObject();
        double parts = 0;
        for (const char *key : {"predicted_kernel_seconds", "slower_kernel_seconds", "unpredicted_kernel_seconds",
                                "earlier_kernel_seconds", "concurrent_kernel_seconds", "exposed_communication_seconds",
                                "memcpy_seconds", "idle_host_bound_seconds", "idle_waiting_seconds"})
            parts += time.value(key).toDouble();
        const double measured = time.value("measured_step_seconds").toDouble();
        QVERIFY(measured > 0);
        QVERIFY(std::abs(parts - measured) <= 1e-9 * measured);
        const QJsonObject mfu = step.value("mfu").toObject();
        QVERIFY(mfu.value("measured").toDouble() > 0 && mfu.value("measured").toDouble() < 1);
    }

    void htaRankWithGpu()
    {
        const Run run = runCli({"trace", tracePath("hta/sampled_rank-0.json.gz"), "--gpu", "a100-sxm-40gb", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject prediction = parseJson(run).value("prediction").toObject();
        QVERIFY(!prediction.contains("step"));
        const QJsonObject gemms = prediction.value("gemm_calls").toObject();
        QCOMPARE(gemms.value("accelerator").toString(), QStringLiteral("a100-sxm-40gb"));
        QVERIFY(gemms.value("calls").toInt() > 100);
        const QJsonObject ratio = gemms.value("ratio").toObject();
        QVERIFY(ratio.value("p10").toDouble() <= ratio.value("median").toDouble());
        QVERIFY(ratio.value("median").toDouble() <= ratio.value("p90").toDouble());
    }

    void noPredictionUnlessAsked()
    {
        const Run run = runCli({"trace", tracePath(kQwen), "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QVERIFY(!parseJson(run).contains("prediction"));
    }

    void traceDeviceByDefault()
    {
        const Run run = runCli({"trace", tracePath(kQwen), "--predict-gemms", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject gemms = parseJson(run).value("prediction").toObject().value("gemm_calls").toObject();
        QCOMPARE(gemms.value("accelerator").toString(), QStringLiteral("h100-sxm"));
    }

    void unknownDeviceGetsANote()
    {
        // HTA's sampled ranks carry no deviceProperties: without --gpu there is no accelerator.
        const Run run = runCli({"trace", tracePath("hta/sampled_rank-0.json.gz"), "--predict-gemms", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject prediction = parseJson(run).value("prediction").toObject();
        QVERIFY(!prediction.contains("gemm_calls"));
        QVERIFY(prediction.value("gemm_calls_note").toString().contains("--gpu"));
    }

    void cpuOnlyTrace()
    {
        const Run plain = runCli({"trace", tracePath("torch-cpu/reference_tiny_cpu.json.gz"), "--predict-gemms", "--json"});
        QVERIFY2(plain.exit_code == 0, plain.err.constData());
        QVERIFY(!parseJson(plain).contains("prediction"));
        const Run with_scenario = runCli({"trace", tracePath("torch-cpu/reference_tiny_cpu.json.gz"), "--model", "gpt2-small"});
        QCOMPARE(with_scenario.exit_code, 2);
        QVERIFY2(with_scenario.err.contains("trace"), with_scenario.err.constData());
        QVERIFY2(with_scenario.err.contains("CPU-only"), with_scenario.err.constData());
    }

    void badFlags_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("named");
        QTest::newRow("--pass bogus") << QStringList{"--scenario", tracePath(kQwenScenario), "--pass", "backward"} << "--pass";
        QTest::newRow("--pass without a scenario") << QStringList{"--pass", "forward"} << "--pass";
        QTest::newRow("--pass with GEMM predictions only") << QStringList{"--predict-gemms", "--pass", "train"} << "--pass";
        QTest::newRow("--gpu unknown") << QStringList{"--gpu", "v100"} << "--gpu";
    }
    void badFlags()
    {
        QFETCH(QStringList, flags);
        QFETCH(QString, named);
        const Run run = runCli(QStringList{"trace", tracePath(kQwen)} + flags);
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains(named.toUtf8()), run.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliTracePrediction)
#include "test_cli_trace_prediction.moc"
