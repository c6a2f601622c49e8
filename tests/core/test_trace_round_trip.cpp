// SPDX-License-Identifier: GPL-3.0-or-later
// Export → import (issue 31): the reference transformer's traced training steps
// (core/reference/chrome_trace_writer.h), read back by the trace importer (core/traces), give the
// same steps, the same operator calls, the recorded shapes, and - through the importer's own FLOP
// rules for aten::mm / aten::bmm applied to the imported shapes (core/traces/op_shape_flops.h) -
// the same matrix-product FLOPs the exporter wrote, call by call.

#include <QTemporaryDir>
#include <QTest>

#include "reference_fixtures.h"

#include "reference/chrome_trace_writer.h"
#include "reference/op_trace.h"
#include "reference/token_data.h"
#include "reference/trainer.h"
#include "traces/op_shape_flops.h"
#include "traces/trace_analysis.h"
#include "traces/trace_loader.h"

#include <set>

using namespace lse;
using namespace lse::reference;

class TestTraceRoundTrip : public QObject {
    Q_OBJECT

private slots:
    void exportedTrainingStepsImportWhole()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string data = dir.filePath(QStringLiteral("tokens.bin")).toStdString();
        QVERIFY(writeTokenFile(data, test::repetitiveCorpus(4000), TokenDtype::U16).ok());
        const TrainConfig config = test::tinyTrainConfig(data);
        auto created = Trainer::create(config);
        QVERIFY(created.ok());
        Trainer &trainer = *created.value();
        OpTraceLog log(traceCapacityForSteps(config.model.n_layers, 2));
        trainer.model().profiler().setTrace(&log);
        for (int i = 0; i < 2; ++i)
            QVERIFY(trainer.step().ok());
        trainer.model().profiler().setTrace(nullptr);
        const std::string document = chromeTraceDocument({chromeTraceProcessEvents(log, 0, "round trip")}, {});

        Result<traces::TraceRank> imported = traces::parseTrace(document, "exported");
        QVERIFY2(imported.ok(), imported.ok() ? "" : formatProblems(imported.problems()).c_str());
        const traces::TraceRank &rank = imported.value();
        QVERIFY(!rank.hasGpu());
        QVERIFY(rank.record_shapes);

        // Steps: ProfilerStep#1 and #2, as written.
        std::set<std::int64_t> steps;
        for (const traces::TraceStep &step : rank.steps)
            steps.insert(step.number);
        QCOMPARE(steps, (std::set<std::int64_t>{1, 2}));
        const traces::TraceRankAnalysis analysis = traces::analyseRank(rank);
        QCOMPARE(int(analysis.steps.size()), 2);

        // Operator calls: every cpu_op written is an operator read back, in the same order per
        // thread (one thread here), with its shape.
        std::vector<const TraceEvent *> written;
        for (const TraceEvent &e : log.events())
            if (e.kind == TraceEventKind::Operator || e.kind == TraceEventKind::Update)
                written.push_back(&e);
        std::vector<const traces::TraceCpuOp *> read;
        for (const traces::TraceCpuOp &op : rank.cpu_ops)
            if (!op.annotation)
                read.push_back(&op);
        QCOMPARE(read.size(), written.size());

        // Matrix products: the importer's aten::mm / aten::bmm rule on the imported shapes gives
        // the forward FLOPs written (backward calls carry the forward product's shapes and twice its
        // FLOPs, flop_rules::kBackwardMatmulFactor).
        double written_matmul = 0, imported_matmul = 0;
        int products = 0;
        for (std::size_t i = 0; i < written.size(); ++i) {
            const TraceEvent &e = *written[i];
            const traces::TraceCpuOp &op = *read[i];
            QCOMPARE(rank.text(op.name), std::string(e.name));
            if (e.shape.op_class != OpClass::Matmul) {
                QVERIFY(op.input_dims.empty());
                continue;
            }
            ++products;
            QCOMPARE(int(op.input_dims.size()), 2);
            std::vector<std::string> types;
            for (traces::TextId t : op.input_types)
                types.push_back(rank.text(t));
            const traces::OpCost cost =
                traces::operatorCost(e.shape.batch > 1 ? "aten::bmm" : "aten::mm", op.input_dims, types);
            QVERIFY(cost.counted);
            const double factor = e.phase == OpPhase::Backward ? flop_rules::kBackwardMatmulFactor : 1.0;
            QCOMPARE(factor * cost.flops, e.flops);
            written_matmul += e.flops;
            imported_matmul += factor * cost.flops;
        }
        QCOMPARE(products, 2 * (2 * 2 * 6 + 2));
        QCOMPARE(imported_matmul, written_matmul);
        QVERIFY(written_matmul > 0);
    }
};

QTEST_GUILESS_MAIN(TestTraceRoundTrip)
#include "test_trace_round_trip.moc"
