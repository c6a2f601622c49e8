// SPDX-License-Identifier: GPL-3.0-or-later
// Export → import (issue 31): the reference transformer's traced training steps
// (core/reference/chrome_trace_writer.h), read back by the trace importer (core/traces), give the
// same steps, the same operator calls, the recorded shapes, and - through the importer's own FLOP
// rules for aten::mm / aten::bmm applied to the imported shapes (core/traces/op_shape_flops.h) -
// the same matrix-product FLOPs the exporter wrote, call by call. The analysis of the imported
// trace uses the recorded classes, FLOPs and bytes (args.class/flops/bytes): matmul_flops is the
// op profiler's, no operator stays unknown. A data-parallel export (one process per rank, named
// "rank N") imports as one rank per process, each with the collectives and bytes it wrote.

#include <QTemporaryDir>
#include <QTest>

#include "reference_fixtures.h"

#include "distributed/data_parallel_trainer.h"
#include "distributed/thread_group.h"
#include "reference/chrome_trace_writer.h"
#include "reference/op_trace.h"
#include "reference/token_data.h"
#include "reference/trainer.h"
#include "traces/kernel_classifier.h"
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
        trainer.model().profiler().setEnabled(true);
        trainer.model().profiler().reset();
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

        // The analysis reads the recorded class, FLOPs and bytes: matmul_flops is the op profiler's
        // matrix-multiply FLOPs of the traced steps (forward and backward, each call once, not
        // again through its phase or step), and every operator has a class.
        QCOMPARE(analysis.matmul_flops, trainer.model().profiler().matmulFlops());
        QCOMPARE(analysis.matmul_count, std::int64_t(products));
        double written_flops = 0, written_bytes = 0, read_flops = 0, read_bytes = 0;
        for (const TraceEvent *e : written) {
            written_flops += e->flops;
            written_bytes += e->bytes;
        }
        for (const traces::TraceOperatorRow &row : analysis.operators) {
            QVERIFY2(row.kernel_class != traces::KernelClass::Unknown, row.name.c_str());
            read_flops += row.flops;
            read_bytes += row.bytes;
        }
        QCOMPARE(read_flops, written_flops);
        QCOMPARE(read_bytes, written_bytes);
        // The writer's classes map to the importer's: matmul → gemm, softmax → reduction, ...
        for (std::size_t i = 0; i < written.size(); ++i) {
            const traces::KernelClass expected =
                traces::classOfRecordedClass(written[i]->kind == TraceEventKind::Update ? "optimizer"
                                                                                         : toString(written[i]->shape.op_class));
            QVERIFY(expected != traces::KernelClass::Unknown);
            QCOMPARE(int(read[i]->recorded_class), int(expected));
        }
        QCOMPARE(int(traces::classOfRecordedClass("matmul")), int(traces::KernelClass::Gemm));
        QCOMPARE(analysis.cpu_communication.count, std::int64_t(0));
    }

    // `train --dp 2 --trace` in-process: two ranks on threads (distributed/thread_group.h), each
    // trace log written as its process "rank N" as the CLI writes it (app/cli/data_parallel_train.cpp),
    // read back as two ranks with the collectives and bytes each wrote.
    void exportedDataParallelTraceImportsOneRankPerProcess()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string data = dir.filePath(QStringLiteral("tokens.bin")).toStdString();
        QVERIFY(writeTokenFile(data, test::repetitiveCorpus(4000), TokenDtype::U16).ok());
        TrainConfig config = test::tinyTrainConfig(data);
        constexpr int kRanks = 2;
        constexpr int kSteps = 2;
        std::vector<std::unique_ptr<OpTraceLog>> logs;
        for (int r = 0; r < kRanks; ++r)
            logs.push_back(std::make_unique<OpTraceLog>(traceCapacityForSteps(config.model.n_layers, kSteps)));
        std::vector<std::string> failures(kRanks);
        std::vector<double> matmul_flops(kRanks, 0.0);
        distributed::ThreadGroup group(kRanks);
        const auto origin = OpTraceLog::Clock::now();
        group.run([&](distributed::Communicator &communicator) {
            const int r = communicator.rank();
            auto trainer = distributed::DataParallelTrainer::create(config, distributed::DataParallelOptions{}, communicator);
            if (!trainer) {
                failures[std::size_t(r)] = formatProblems(trainer.problems());
                return;
            }
            OpTraceLog &log = *logs[std::size_t(r)];
            log.setOrigin(origin);
            reference::OpProfiler &profiler = (*trainer)->model().profiler();
            profiler.setEnabled(true);
            profiler.reset();
            profiler.setTrace(&log);
            for (int s = 0; s < kSteps; ++s) {
                if (Result<distributed::DataParallelStepReport> report = (*trainer)->step(); !report) {
                    failures[std::size_t(r)] = formatProblems(report.problems());
                    return;
                }
            }
            profiler.setTrace(nullptr);
            matmul_flops[std::size_t(r)] = profiler.matmulFlops();
        });
        for (const std::string &failure : failures)
            QVERIFY2(failure.empty(), failure.c_str());
        std::vector<std::string> processes;
        for (int r = 0; r < kRanks; ++r)
            processes.push_back(chromeTraceProcessEvents(*logs[std::size_t(r)], r, "rank " + std::to_string(r)));
        const std::string document = chromeTraceDocument(processes, {{"producer", "test"}});

        // Through a file, as the CLI and the GUI read it (loadTraces expands a file into its ranks).
        const std::string path = dir.filePath(QStringLiteral("dp.json")).toStdString();
        QVERIFY(writeChromeTrace(path, document).ok());
        Result<std::vector<traces::TraceRank>> imported = traces::loadTraces({path});
        QVERIFY2(imported.ok(), imported.ok() ? "" : formatProblems(imported.problems()).c_str());
        QCOMPARE(int(imported.value().size()), kRanks);
        for (int r = 0; r < kRanks; ++r) {
            const traces::TraceRank &rank = imported.value()[std::size_t(r)];
            QCOMPARE(rank.rank, r);
            QCOMPARE(rank.world_size, kRanks);
            // What the writer wrote for this rank: its collectives and their bytes.
            std::int64_t written_calls = 0;
            double written_bytes = 0;
            for (const TraceEvent &e : logs[std::size_t(r)]->events()) {
                if (e.kind == TraceEventKind::Communication) {
                    ++written_calls;
                    written_bytes += e.bytes;
                }
            }
            QVERIFY(written_calls > 0);
            QVERIFY(written_bytes > 0);
            const traces::TraceRankAnalysis analysis = traces::analyseRank(rank);
            QCOMPARE(int(analysis.steps.size()), kSteps);
            QCOMPARE(analysis.cpu_communication.count, written_calls);
            QCOMPARE(analysis.cpu_communication.bytes, written_bytes);
            QVERIFY(analysis.cpu_communication.seconds >= 0);
            std::int64_t rows_calls = 0;
            for (const traces::TraceOperatorRow &row : analysis.operators) {
                QVERIFY2(row.kernel_class != traces::KernelClass::Unknown, row.name.c_str());
                if (row.kernel_class == traces::KernelClass::Communication)
                    rows_calls += row.count;
            }
            QCOMPARE(rows_calls, written_calls);
            // A CPU-only trace: no GPU timeline, so the breakdown stays zero.
            QCOMPARE(analysis.breakdown.communication_seconds, 0.0);
            QCOMPARE(analysis.matmul_flops, matmul_flops[std::size_t(r)]);
        }
        QCOMPARE(int(traces::parseTraceRanks(document, "dp.json").value().size()), kRanks);
        // The file read as one rank (loadTrace/parseTrace) keeps every event in one.
        Result<traces::TraceRank> whole = traces::parseTrace(document, "dp.json");
        QVERIFY(whole.ok());
        QCOMPARE(whole.value().cpu_ops.size(),
                 imported.value()[0].cpu_ops.size() + imported.value()[1].cpu_ops.size());
    }
};

QTEST_GUILESS_MAIN(TestTraceRoundTrip)
#include "test_trace_round_trip.moc"
