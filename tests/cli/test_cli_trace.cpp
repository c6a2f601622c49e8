// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli trace`: the JSON per rank equals core/traces' analysis (fields of issue 31),
// several files give ranks[], the text report names the breakdown, and bad files or flags exit 2
// naming the file or flag.
#include "cli_run.h"

#include "traces/trace_analysis.h"
#include "traces/trace_json.h"
#include "traces/trace_loader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using lse::Result;
using lse::test::Run;
using lse::test::runCli;
namespace traces = lse::traces;

namespace {

QString tracePath(const char *name) { return QStringLiteral(LSE_TEST_DATA_DIR "/traces/hta/") + QLatin1String(name); }

QJsonObject parse(const QByteArray &text)
{
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("not JSON: %s", qPrintable(error.errorString()));
    return document.object();
}

}  // namespace

class TestCliTrace : public QObject {
    Q_OBJECT
private slots:
    void oneFileJsonEqualsCore()
    {
        const Run run = runCli({"trace", "--json", tracePath("sampled_rank-0.json.gz")});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject object = parse(run.out);
        for (const char *field : {"steps", "kernels", "breakdown", "overlap_percent", "matmul_flops", "operators",
                                  "classification", "top_kernels"})
            QVERIFY2(object.contains(QLatin1String(field)), field);
        for (const char *field : {"compute_seconds", "communication_seconds", "memcpy_seconds", "idle_seconds",
                                  "idle_host_bound_seconds", "idle_waiting_seconds"})
            QVERIFY2(object.value("breakdown").toObject().contains(QLatin1String(field)), field);
        const QJsonObject op = object.value("operators").toArray().at(0).toObject();
        for (const char *field : {"name", "class", "shape", "count", "seconds", "flops", "bytes"})
            QVERIFY2(op.contains(QLatin1String(field)), field);
        QCOMPARE(object.value("top_kernels").toArray().size(), 10);
        QCOMPARE(object.value("kernels").toObject().value("count").toDouble(), 1154.0);
        QCOMPARE(object.value("matmul_flops").toDouble(), 1652839505920.0);
        QCOMPARE(object.value("steps").toArray().size(), 2);

        Result<traces::TraceRank> rank = traces::loadTrace(tracePath("sampled_rank-0.json.gz").toStdString());
        QVERIFY(rank.ok());
        const QJsonObject expected = traces::traceAnalysisToJson(traces::analyseRank(rank.value()));
        QCOMPARE(object, expected);
    }

    void severalFilesGiveRanks()
    {
        const Run run = runCli({"trace", "--json", "--top", "3", tracePath("sampled_rank-0.json.gz"),
                                tracePath("sampled_rank-1.json.gz"), tracePath("cpu_only_rank-34.json.gz")});
        QCOMPARE(run.exit_code, 0);
        const QJsonArray ranks = parse(run.out).value("ranks").toArray();
        QCOMPARE(ranks.size(), 3);
        QCOMPARE(ranks.at(0).toObject().value("rank").toInt(), 0);
        QCOMPARE(ranks.at(1).toObject().value("rank").toInt(), 1);
        QCOMPARE(ranks.at(0).toObject().value("top_kernels").toArray().size(), 3);
        const QJsonObject cpu = ranks.at(2).toObject();
        QCOMPARE(cpu.value("kernels").toObject().value("count").toDouble(), 0.0);
        QCOMPARE(cpu.value("has_gpu").toBool(), false);
    }

    void textReport()
    {
        const Run run = runCli({"trace", tracePath("nccl_data_a100.json.gz")});
        QCOMPARE(run.exit_code, 0);
        const QString text = QString::fromUtf8(run.out);
        for (const char *part : {"NVIDIA A100", "compute", "communication (exposed)", "host-bound", "waiting",
                                 "overlapped with compute", "top kernels", "ncclKernel_AllReduce"})
            QVERIFY2(text.contains(QLatin1String(part)), part);
    }

    void badInputExitsTwo()
    {
        const Run none = runCli({"trace"});
        QCOMPARE(none.exit_code, 2);
        QVERIFY(none.out.isEmpty());
        const Run missing = runCli({"trace", "/nonexistent/trace.json.gz"});
        QCOMPARE(missing.exit_code, 2);
        QVERIFY(missing.err.contains("/nonexistent/trace.json.gz"));
        const Run top = runCli({"trace", "--top", "-1", tracePath("alexnet_a100.json.gz")});
        QCOMPARE(top.exit_code, 2);
        QVERIFY(top.err.contains("--top"));
        QTemporaryDir dir;
        const QString bad = dir.filePath("bad.json");
        {
            std::ofstream out(bad.toStdString());
            out << R"({"traceEvents":[{"ph":"X","cat":"kernel","name":"k","ts":1,"dur":-4}]})";
        }
        const Run negative = runCli({"trace", bad});
        QCOMPARE(negative.exit_code, 2);
        QVERIFY2(negative.err.contains("traceEvents[0].dur"), negative.err.constData());
        QVERIFY(negative.out.isEmpty());
    }

    void help()
    {
        const Run run = runCli({"trace", "--help"});
        QCOMPARE(run.exit_code, 0);
        QVERIFY(run.out.startsWith("Usage: llm-explorer-cli trace"));
        QVERIFY(run.out.contains("--json"));
    }
};

QTEST_GUILESS_MAIN(TestCliTrace)
#include "test_cli_trace.moc"
