// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli roofline`: JSON fields present and consistent (Σ op seconds = step seconds,
// bound = intensity against the ridge point, attainable = min(peak, I·bw)), decode at batch 1
// memory-bound in every weight matmul, this CPU from the cache, and exit 2 naming a bad flag.
// LSE_CACHE_DIR points at a temporary folder, inherited by the CLI, so the user's cache is untouched.

#include "hardware/machine_roofline.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "cli_run.h"

#include <algorithm>
#include <cmath>

using namespace lse;
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

double relativeError(double value, double expected) { return std::abs(value - expected) / std::abs(expected); }

}  // namespace

class TestCliRoofline : public QObject {
    Q_OBJECT

    QTemporaryDir cacheDir_;

private slots:
    void initTestCase()
    {
        QVERIFY(cacheDir_.isValid());
        qputenv("LSE_CACHE_DIR", cacheDir_.path().toUtf8());
    }

    void help()
    {
        const Run run = runCli({"roofline", "--help"});
        QCOMPARE(run.exit_code, 0);
        for (const char *flag : {"--phase", "--batch", "--context", "--fused", "--machine", "--dtype", "--json", "--model"})
            QVERIFY2(run.out.contains(flag), flag);
        QVERIFY(runCli({"--help"}).out.contains("roofline"));
    }

    void jsonConsistent_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addRow("default") << QStringList{};
        QTest::addRow("prefill-naive") << QStringList{"--phase", "prefill", "--flash-attention", "off"};
        QTest::addRow("decode-fused") << QStringList{"--phase", "decode", "--batch", "64", "--context", "2048", "--fused", "on"};
        QTest::addRow("train-8b-full") << QStringList{"--model", "llama-3-8b", "--recompute", "full", "--fused", "on"};
        QTest::addRow("fp8-peak") << QStringList{"--dtype", "fp8"};
    }
    void jsonConsistent()
    {
        QFETCH(QStringList, flags);
        const Run run = runCli(QStringList{"roofline", "--json"} + flags);
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject object = parseJson(run);
        for (const char *key : {"ridge_point", "step_seconds", "mfu_step_seconds", "implied_mfu"})
            QVERIFY2(object.value(QLatin1String(key)).toDouble(-1) > 0, key);
        QVERIFY(object.contains("decode_crossover_batch"));
        const QJsonObject machine = object.value("machine").toObject();
        const double peak = machine.value("peak_flops_per_s").toDouble();
        const double bandwidth = machine.value("memory_bandwidth_bytes_per_s").toDouble();
        QVERIFY(peak > 0 && bandwidth > 0);
        const double ridge = object.value("ridge_point").toDouble();
        QVERIFY(relativeError(ridge, peak / bandwidth) < 1e-12);

        const QJsonArray ops = object.value("ops").toArray();
        QVERIFY(!ops.isEmpty());
        double seconds = 0;
        for (const QJsonValue &value : ops) {
            const QJsonObject op = value.toObject();
            for (const char *key : {"name", "pass", "count", "flops", "bytes", "intensity", "attainable_flops_per_s",
                                    "bound", "seconds"})
                QVERIFY2(op.contains(QLatin1String(key)), key);
            const double flops = op.value("flops").toDouble(), bytes = op.value("bytes").toDouble();
            const double intensity = op.value("intensity").toDouble();
            QVERIFY(bytes > 0);
            QVERIFY(std::abs(intensity - flops / bytes) <= 1e-12 * std::max(1.0, intensity));
            QCOMPARE(op.value("bound").toString(), intensity >= ridge ? QStringLiteral("compute") : QStringLiteral("memory"));
            if (flops > 0)
                QVERIFY(relativeError(op.value("attainable_flops_per_s").toDouble(),
                                      std::min(peak, intensity * bandwidth)) < 1e-12);
            QVERIFY(relativeError(op.value("seconds").toDouble(), std::max(flops / peak, bytes / bandwidth)) < 1e-12);
            seconds += op.value("seconds").toDouble();
        }
        QVERIFY(relativeError(seconds, object.value("step_seconds").toDouble()) < 1e-12);
    }

    void decodeBatchOneMemoryBound()
    {
        const Run run = runCli({"roofline", "--json", "--phase", "decode", "--batch", "1", "--model", "llama-3-8b"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject object = parseJson(run);
        int weight_matmuls = 0;
        for (const QJsonValue &value : object.value("ops").toArray()) {
            const QJsonObject op = value.toObject();
            QCOMPARE(op.value("pass").toString(), QStringLiteral("forward"));
            if (!op.value("weight_matmul").toBool())
                continue;
            ++weight_matmuls;
            QVERIFY2(op.value("bound").toString() == QStringLiteral("memory"), qPrintable(op.value("name").toString()));
            // One token: 2 FLOPs per weight and about one weight of 2 bytes read each: intensity ≈ 1.
            QVERIFY(op.value("intensity").toDouble() < 1.01);
        }
        QCOMPARE(weight_matmuls, 5);
        // The crossover is about the ridge point for bf16 weights.
        const double crossover = object.value("decode_crossover_batch").toDouble();
        QVERIFY(crossover > object.value("ridge_point").toDouble());
    }

    void table()
    {
        const Run run = runCli({"roofline"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        for (const char *text : {"operator", "FLOP/B", "attainable", "bound", "share", "flash_attention", "optimizer_step",
                                 "ridge point", "step time on the roofline", "MFU-based time", "implied MFU",
                                 "decode crossover batch"})
            QVERIFY2(run.out.contains(text), text);
    }

    void cpuFromCache()
    {
        // Never measured: bad input for --machine cpu (exit 2, a documented status; it was 1).
        QFile::remove(QString::fromStdString(machineRooflineCachePath()));
        Run run = runCli({"roofline", "--machine", "cpu"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains("--machine cpu") && run.err.contains("llm-explorer-cli machine") &&
                     run.err.contains("[not_measured]"),
                 run.err.constData());

        MachineRoofline cpu = currentMachineIdentity();
        cpu.threads_used = 2;
        cpu.peak_flops_per_s_one_core = 50e9;
        cpu.peak_flops_per_s_all_cores = 100e9;
        cpu.bandwidth_bytes_per_s_one_core = 10e9;
        cpu.bandwidth_bytes_per_s_all_cores = 20e9;
        cpu.measured_at = "2026-11-29T20:00:00Z";
        QVERIFY(saveMachineRoofline(cpu).ok());
        run = runCli({"roofline", "--machine", "cpu", "--precision", "fp32", "--model", "cs336-tinystories",
                      "--seq-len", "256", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject object = parseJson(run);
        QCOMPARE(object.value("machine").toObject().value("peak_flops_per_s").toDouble(), 100e9);
        QCOMPARE(object.value("ridge_point").toDouble(), 5.0);
        QCOMPARE(object.value("machine").toObject().value("dtype").toString(), QStringLiteral("fp32"));
        QVERIFY(!run.err.contains("looks wrong"));

        cpu.peak_flops_per_s_all_cores = 40e9;  // below one core: measured under load (issue 13, item 10)
        QVERIFY(saveMachineRoofline(cpu).ok());
        run = runCli({"roofline", "--machine", "cpu", "--precision", "fp32"});
        QCOMPARE(run.exit_code, 0);
        QVERIFY2(run.err.contains("looks wrong") && run.err.contains("--remeasure"), run.err.constData());
    }

    // Issue 28, item 13: a corrupt cache made roofline --machine cpu exit 1 with a line break inside
    // its message. It is a stale cache: exit 2, one problem on one line, saying so and how to measure.
    void corruptCacheIsStale_data()
    {
        QTest::addColumn<QByteArray>("contents");
        QTest::newRow("truncated JSON") << QByteArray("{\"format\": 3");
        QTest::newRow("empty object") << QByteArray("{}");
        QTest::newRow("not JSON") << QByteArray("\x00\x01binary");
    }
    void corruptCacheIsStale()
    {
        QFETCH(QByteArray, contents);
        const QString cache = QString::fromStdString(machineRooflineCachePath());
        QFile file(cache);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(contents) == contents.size());
        file.close();
        const Run run = runCli({"roofline", "--machine", "cpu"});
        QFile::remove(cache);
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        const QList<QByteArray> lines = run.err.trimmed().split('\n');
        QCOMPARE(lines.size(), 2);  // "error: 1 problem with the input:" and the problem, whole
        QVERIFY2(lines[1].startsWith("--machine cpu:") && lines[1].contains("stale cache") &&
                     lines[1].contains(cache.toUtf8()) && lines[1].contains("llm-explorer-cli machine") &&
                     lines[1].endsWith("[stale_cache]"),
                 run.err.constData());
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("named");
        QTest::addRow("phase") << QStringList{"--phase", "inference"} << "--phase";
        QTest::addRow("batch-zero") << QStringList{"--batch", "0"} << "--batch";
        QTest::addRow("batch-text") << QStringList{"--batch", "many"} << "--batch";
        QTest::addRow("batch-huge") << QStringList{"--batch", "1e14"} << "roofline.batch";
        QTest::addRow("context") << QStringList{"--context", "-5"} << "--context";
        QTest::addRow("fused") << QStringList{"--fused", "maybe"} << "--fused";
        QTest::addRow("machine") << QStringList{"--machine", "tpu"} << "--machine";
        QTest::addRow("dtype") << QStringList{"--dtype", "int4"} << "--dtype";
        QTest::addRow("cpu-dtype") << QStringList{"--machine", "cpu", "--dtype", "bf16"} << "--dtype";
        QTest::addRow("scenario-flag") << QStringList{"--gpus", "many"} << "--gpus";
        QTest::addRow("positional") << QStringList{"decode"} << "unexpected";
    }
    void badInput()
    {
        QFETCH(QStringList, flags);
        QFETCH(QString, named);
        const Run run = runCli(QStringList{"roofline"} + flags);
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains(named.toUtf8()), run.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliRoofline)
#include "test_cli_roofline.moc"
