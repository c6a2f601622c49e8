// SPDX-License-Identifier: GPL-3.0-or-later
// The command-line contract: exit codes, stdout/stderr discipline and the documented JSON fields.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "cli_run.h"

namespace {

using lse::test::Run;
using lse::test::runCli;

QJsonObject runJson(const QStringList &arguments)
{
    const Run run = runCli(arguments + QStringList{"--json"});
    if (run.exit_code != 0)
        qFatal("exit %d: %s", run.exit_code, run.err.constData());
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(run.out, &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("not JSON: %s", qPrintable(error.errorString()));
    return document.object();
}

QJsonValue path(const QJsonObject &object, const QString &dotted)
{
    QJsonValue value = object;
    for (const QString &key : dotted.split('.'))
        value = value.toObject().value(key);
    return value;
}

}  // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void documentedJsonFields_data()
    {
        QTest::addColumn<QString>("field");
        for (const char *field :
             {"params.total", "params.active", "params.embedding", "flops.forward_per_token", "flops.train_per_token",
              "flops.total_train", "flops.six_nd", "time.seconds", "time.days", "time.gpu_hours",
              "memory_per_gpu.params", "memory_per_gpu.grads", "memory_per_gpu.optimizer",
              "memory_per_gpu.activations", "memory_per_gpu.total", "memory_per_gpu.capacity",
              "communication_per_step.dp_bytes", "communication_per_step.tp_bytes",
              "communication_per_step.pp_bytes", "inference.kv_cache_bytes_per_token"})
            QTest::addRow("%s", field) << QString(field);
    }
    void documentedJsonFields()
    {
        QFETCH(QString, field);
        static const QJsonObject estimate = runJson({"estimate"});
        const QJsonValue value = path(estimate, field);
        QVERIFY2(value.isDouble(), qPrintable(field));
        QVERIFY(value.toDouble() >= 0);
        QVERIFY(path(estimate, "memory_per_gpu.fits").isBool());
    }

    void courseExampleFromTheCommandLine()
    {
        // CS336: 70B model (Llama-3-70B here), 1024 H100 at 2 PFLOP/s, 30% MFU, 15T tokens, 6ND.
        const QJsonObject e = runJson({"estimate", "--model", "llama-3-70b", "--gpu", "h100-sxm", "--gpus", "1024",
                                       "--peak-tflops", "2000", "--mfu", "0.3", "--tokens", "15T", "--flops-model", "6nd"});
        const double days = path(e, "time.days").toDouble();
        QVERIFY2(std::abs(days - 119) < 1.5, qPrintable(QString::number(days)));
        QCOMPARE(path(e, "params.total").toInteger(), qint64(70'553'706'496));
    }

    void gpt2SmallExactParameters()
    {
        const QJsonObject e = runJson({"estimate", "--model", "gpt2-small", "--gpus", "8", "--tp", "1", "--pp", "1",
                                       "--seq-len", "1024", "--global-batch", "64"});
        QCOMPARE(path(e, "params.total").toInteger(), qint64(124'439'808));
        QCOMPARE(path(e, "params.embedding").toInteger(), qint64(50257 * 768 + 1024 * 768));
        QVERIFY(path(e, "memory_per_gpu.fits").toBool());
    }

    void badInputExitsTwoWithProblemsOnStderr_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::addRow("tp does not divide heads") << QStringList{"estimate", "--tp", "3", "--gpus", "96", "--pp", "1"}
                                                  << "model.n_heads 64 is not divisible by training.tp 3";
        QTest::addRow("product differs from gpus") << QStringList{"estimate", "--dp", "3"} << "≠ cluster.gpus 1024";
        QTest::addRow("not a number") << QStringList{"estimate", "--tokens", "lots"} << "--tokens 'lots' is not a whole number";
        QTest::addRow("unknown preset") << QStringList{"estimate", "--model", "gpt-5"} << "--model 'gpt-5' is neither";
        QTest::addRow("unknown gpu") << QStringList{"estimate", "--gpu", "h900"} << "--gpu 'h900' is not in the catalog";
        QTest::addRow("unknown recompute") << QStringList{"estimate", "--recompute", "some"} << "'some' is not one of";
        QTest::addRow("unknown option") << QStringList{"estimate", "--frobnicate"} << "Unknown option 'frobnicate'";
        QTest::addRow("unknown command") << QStringList{"fly"} << "unknown command 'fly'";
        QTest::addRow("missing scenario file") << QStringList{"estimate", "--scenario", "/nonexistent/x.json"} << "file";
        QTest::addRow("mfu above one") << QStringList{"estimate", "--mfu", "3"} << "training.mfu is 3";
    }
    void badInputExitsTwoWithProblemsOnStderr()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const Run run = runCli(arguments + QStringList{"--json"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.out.isEmpty(), run.out.constData());
        QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
    }

    void allProblemsReportedTogether()
    {
        const Run run = runCli({"estimate", "--mfu", "0", "--zero", "9", "--price", "-1"});
        QCOMPARE(run.exit_code, 2);
        const QString err = QString::fromUtf8(run.err);
        QVERIFY(err.contains("training.mfu") && err.contains("training.zero_stage")
                && err.contains("cluster.price_per_gpu_hour"));
    }

    void scenarioFileRoundTrip()
    {
        // A scenario saved from flags and read back gives the same estimate, field for field.
        QTemporaryDir dir;
        const QString file = dir.filePath("scenario.json");
        const QStringList flags{"--model", "mixtral-8x7b", "--gpus", "64", "--tp", "2", "--pp", "4", "--ep", "8",
                                "--zero", "2", "--recompute", "full", "--seq-len", "4096", "--global-batch", "512"};
        const QJsonObject direct = runJson(QStringList{"estimate", "--save-scenario", file} + flags);
        QVERIFY(QFile::exists(file));
        const QJsonObject loaded = runJson({"estimate", "--scenario", file});
        QCOMPARE(loaded, direct);
    }

    void emptyScenarioFileNamesMissingFields()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("empty.json");
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(R"({"format": "llm-explorer-scenario", "version": 1})");
        out.close();
        const Run run = runCli({"estimate", "--scenario", file});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.err.contains("model.n_layers is 0; it must be at least 1"));
    }

    void textOutputAndHelp()
    {
        const Run text = runCli({"estimate"});
        QCOMPARE(text.exit_code, 0);
        QVERIFY(text.out.contains("Memory per GPU") && text.out.contains("fits"));
        for (const char *command : {"estimate", "presets", "hardware"}) {
            const Run help = runCli({command, "--help"});
            QCOMPARE(help.exit_code, 0);
            QVERIFY(help.out.contains("Usage: llm-explorer-cli"));
        }
        QCOMPARE(runCli({"--help"}).exit_code, 0);
    }

    void listsAsJson()
    {
        const QJsonArray presets = runJson({"presets"}).value("presets").toArray();
        QVERIFY(presets.size() >= 17);
        for (const QJsonValue &preset : presets)
            QCOMPARE(preset["parameters"].toInteger(), preset["official_parameters"].toInteger());
        const QJsonArray hardware = runJson({"hardware"}).value("accelerators").toArray();
        QVERIFY(hardware.size() >= 9);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
