// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli trace`: the JSON per rank equals core/traces' analysis (fields of issue 31),
// several files give ranks[], the text report names the breakdown, and bad files or flags exit 2
// naming the file or flag.
#include "cli_run.h"

#include "reference/chrome_trace_writer.h"
#include "reference/op_trace.h"
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

// One rank's process as `train --dp N --trace` writes it (core/reference/chrome_trace_writer.h):
// step 1 with one matrix product on the operators row and one all-reduce of 1000·(r+1) bytes,
// lasting 10·(r+1) µs, on the communication row.
std::string rankProcess(int r)
{
    using namespace lse::reference;
    using std::chrono::microseconds;
    OpTraceLog log(16);
    const OpTraceLog::Clock::time_point t0 = log.origin();
    log.setStep(1);
    log.addSpan(TraceEventKind::Step, "step", t0, t0 + microseconds(100));
    log.addOperator("qkv", OpPhase::Forward, 2.0 * 4 * 8 * 16, OpShape::matmul(1, 4, 8, 16, true), t0 + microseconds(1),
                    t0 + microseconds(11));
    log.addSpan(TraceEventKind::Communication, "all_reduce", t0 + microseconds(20), t0 + microseconds(20 + 10 * (r + 1)),
                0, 1000.0 * (r + 1), OpShape::elementwise(OpClass::Communication, 250 * (r + 1), 1));
    return chromeTraceProcessEvents(log, r, "rank " + std::to_string(r));
}

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

    // One file with a process per rank (`train --dp 2 --trace`): ranks[] of two, each with its
    // collective and bytes; the text names both ranks and their communication.
    void oneFileOfTwoRanks()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("dp.json");
        QVERIFY(lse::reference::writeChromeTrace(path.toStdString(),
                                                 lse::reference::chromeTraceDocument({rankProcess(0), rankProcess(1)}, {}))
                    .ok());
        const Run run = runCli({"trace", "--json", path});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonArray ranks = parse(run.out).value("ranks").toArray();
        QCOMPARE(ranks.size(), 2);
        for (int r = 0; r < 2; ++r) {
            const QJsonObject rank = ranks.at(r).toObject();
            QCOMPARE(rank.value("rank").toInt(), r);
            QCOMPARE(rank.value("steps").toArray().size(), 1);
            QCOMPARE(rank.value("matmul_flops").toDouble(), 2.0 * 4 * 8 * 16);
            const QJsonObject communication = rank.value("cpu_communication").toObject();
            QCOMPARE(communication.value("count").toInt(), 1);
            QCOMPARE(communication.value("bytes").toDouble(), 1000.0 * (r + 1));
            QCOMPARE(communication.value("seconds").toDouble(), 10e-6 * (r + 1));
            QCOMPARE(rank.value("breakdown").toObject().value("communication_seconds").toDouble(), 0.0);
            bool communication_row = false;
            for (const QJsonValue &op : rank.value("operators").toArray()) {
                QVERIFY(op.toObject().value("class").toString() != "unknown");
                communication_row = communication_row || (op.toObject().value("name").toString() == "all_reduce" &&
                                                          op.toObject().value("class").toString() == "communication");
            }
            QVERIFY(communication_row);
        }
        const Run text = runCli({"trace", path});
        QCOMPARE(text.exit_code, 0);
        for (const char *part : {"rank 0", "rank 1", "communication on the CPU: 1 calls", "Ranks side by side"})
            QVERIFY2(text.out.contains(part), part);
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

    // Debian's torch 1.13 without Kineto: a bare array of events without "cat". Two steps, the
    // matrix multiplies counted, their FLOPs unknown and said so (record_shapes false, a note).
    void legacyExportWithoutCategories()
    {
        const QString legacy = QStringLiteral(LSE_TEST_DATA_DIR "/traces/torch-cpu/reference_tiny_cpu.legacy.json.gz");
        const Run run = runCli({"trace", "--json", legacy});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject rank = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(rank.value("steps").toArray().size(), 2);
        QCOMPARE(rank.value("record_shapes").toBool(true), false);
        QCOMPARE(rank.value("matmul_count").toInt(), 78);
        QCOMPARE(rank.value("matmul_flops").toDouble(), 0.0);
        QVERIFY(rank.value("operators").toArray().size() > 10);
        QCOMPARE(rank.value("notes").toArray().size(), 2);
        const Run text = runCli({"trace", legacy});
        QVERIFY(text.out.contains("steps: 2"));
        QVERIFY(text.out.contains("FLOPs unknown (traced without record_shapes)"));
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
