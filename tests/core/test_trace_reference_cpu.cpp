// SPDX-License-Identifier: GPL-3.0-or-later
// The importer on a trace no one here wrote by hand: the reference transformer's architecture
// (tiny preset) trained for two steps under Debian's PyTorch 1.13 profiler with record_shapes
// (tests/data/traces/torch-cpu/, tools/make_reference_torch_trace.py). Every matrix product the
// model's dimensions imply (reference_tiny_cpu.matmuls.json: 39 per step, derived by the script
// from the dimensions, not read from the trace) is found in each ProfilerStep with its shape and
// 2·m·n·k FLOPs, and nothing else is counted; the profiler's own legacy export (a bare array
// without categories or shapes) loads.

#include "traces/trace_analysis.h"
#include "traces/trace_loader.h"
#include "traces/op_shape_flops.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <map>

using namespace lse;
using namespace lse::traces;

namespace {

QString dataPath(const char *name)
{
    return QStringLiteral(LSE_TEST_DATA_DIR "/traces/torch-cpu/") + QString::fromUtf8(name);
}

// "[[2048,128],[128,384]]" from the expected list's input_dims, as the importer writes shapes.
std::string shapeOf(const QJsonArray &dims)
{
    std::vector<std::vector<std::int64_t>> out;
    for (const QJsonValue &tensor : dims) {
        std::vector<std::int64_t> sizes;
        for (const QJsonValue &d : tensor.toArray())
            sizes.push_back(d.toInteger());
        out.push_back(sizes);
    }
    return shapeText(out);
}

}  // namespace

class TestTraceReferenceCpu : public QObject {
    Q_OBJECT

private slots:
    void everyMatmulWithItsShapeAndFlops()
    {
        QFile file(dataPath("reference_tiny_cpu.matmuls.json"));
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
        const QJsonObject expected = QJsonDocument::fromJson(file.readAll()).object();
        const QJsonArray matmuls = expected.value("matmuls").toArray();
        QCOMPARE(matmuls.size(), 39);

        const Result<TraceRank> loaded = loadTrace(dataPath("reference_tiny_cpu.json.gz").toStdString());
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.problems().front().message.c_str());
        const TraceRank &rank = *loaded;
        QVERIFY(!rank.hasGpu());
        QVERIFY(rank.record_shapes);
        QCOMPARE(rank.steps.size(), std::size_t(2));

        // Per step: the (operator, shape) multiset and the FLOPs of each.
        std::map<std::pair<std::string, std::string>, int> want;
        std::map<std::pair<std::string, std::string>, double> flops;
        double flops_per_step = 0;
        for (const QJsonValue &value : matmuls) {
            const QJsonObject m = value.toObject();
            const auto key = std::make_pair(m.value("op").toString().toStdString(), shapeOf(m.value("input_dims").toArray()));
            ++want[key];
            flops[key] = m.value("flops").toDouble();
            flops_per_step += m.value("flops").toDouble();
        }
        QCOMPARE(flops_per_step, expected.value("matmul_flops_per_step").toDouble());
        // By hand (tests/data/traces/README.md): 2 layers × 3.020 GFLOP + the head's 3.221 GFLOP.
        QCOMPARE(flops_per_step, 9'261'023'232.0);
        for (const TraceStep &step : rank.steps) {
            std::map<std::pair<std::string, std::string>, int> found;
            for (const TraceCpuOp &op : rank.cpu_ops) {
                if (op.start_us < step.start_us || op.start_us > step.endUs() || !isMatmulOperator(rank.text(op.name)))
                    continue;
                const auto key = std::make_pair(rank.text(op.name), rank.text(op.shape));
                ++found[key];
                QVERIFY2(flops.count(key), (key.first + " " + key.second).c_str());
                QCOMPARE(op.flops, flops[key]);
            }
            QCOMPARE(found, want);
        }

        const TraceRankAnalysis analysis = analyseRank(rank);
        QCOMPARE(analysis.matmul_count, std::int64_t(2 * 39));
        QCOMPARE(analysis.matmul_flops, 2 * flops_per_step);
    }

    void legacyExportLoads()
    {
        const Result<TraceRank> loaded = loadTrace(dataPath("reference_tiny_cpu.legacy.json.gz").toStdString());
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.problems().front().message.c_str());
        // Every element read; its events have no "cat" (the legacy writer's), so the importer
        // keeps none of them as operators, and there are no shapes to count FLOPs from anyway.
        QCOMPARE(loaded->counts.events, std::int64_t(17591));  // python3: len(json.load(...))
        QVERIFY(!loaded->record_shapes);
        QCOMPARE(analyseRank(*loaded).matmul_flops, 0.0);
    }
};

QTEST_GUILESS_MAIN(TestTraceReferenceCpu)
#include "test_trace_reference_cpu.moc"
