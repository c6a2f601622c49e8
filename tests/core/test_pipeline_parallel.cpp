// SPDX-License-Identifier: GPL-3.0-or-later
// Pipeline-parallel training (core/distributed/pipeline_parallel_trainer.h) over in-process ranks
// (ThreadGroup, one std::thread per stage): after 10 steps the loss, the gradient norm and every
// parameter (each on the stage that owns it) equal the single-process Trainer's, for GPipe and 1F1B
// at pp = 2 and 4, even and uneven stage splits; the bytes each stage sends equal the cost
// engine's PP communication exactly; the recorded schedule follows the engine's order and its
// bubble is measured as the formula means it; bad input names its field. No timing is asserted.
#include "reference_fixtures.h"
#include "distributed/pipeline_parallel_trainer.h"
#include "distributed/thread_group.h"
#include "reference/trainer.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>

using namespace lse;
using namespace lse::distributed;
using namespace lse::reference;
using parallel::PipelineScheduleKind;

namespace {

constexpr int kSteps = 10;

TrainConfig tinyConfig(const std::string &dataPath, int layers)
{
    TrainConfig c = lse::test::tinyTrainConfig(dataPath);
    c.model.n_layers = layers;
    c.batch_size = 8;
    c.threads = 1;
    return c;
}

struct Single {
    std::vector<float> parameters;
    std::vector<StepReport> reports;
};

struct StageOutcome {
    std::string failure;
    std::vector<float> parameters;
    ShardRange range;
    std::vector<PipelineStepReport> reports;
};

std::vector<StageOutcome> runStages(const TrainConfig &config, const PipelineParallelOptions &options, int stages)
{
    std::vector<StageOutcome> outcomes(static_cast<std::size_t>(stages));
    ThreadGroup group(stages);
    group.run([&](Communicator &communicator) {
        StageOutcome &out = outcomes[std::size_t(communicator.rank())];
        Result<std::unique_ptr<PipelineParallelTrainer>> trainer =
            PipelineParallelTrainer::create(config, options, communicator);
        if (!trainer) {
            out.failure = formatProblems(trainer.problems());
            return;
        }
        for (int s = 0; s < kSteps; ++s) {
            Result<PipelineStepReport> report = (*trainer)->step();
            if (!report) {
                out.failure = formatProblems(report.problems());
                throw std::runtime_error(out.failure);  // the other stages must stop waiting
            }
            out.reports.push_back(report.value());
        }
        Model &model = (*trainer)->model();
        out.parameters.assign(model.parameterData(), model.parameterData() + model.parameterCount());
        out.range = (*trainer)->parameterRange();
    });
    return outcomes;
}

// Every tensor's [offset, offset + size) in the arena, from the model's own layout.
std::vector<std::pair<std::int64_t, std::int64_t>> tensorRanges(const TrainConfig &config)
{
    std::vector<std::pair<std::int64_t, std::int64_t>> ranges;
    std::int64_t offset = 0;
    for (const ParameterShape &shape : referenceParameterShapes(config.model)) {
        std::int64_t size = 1;
        for (std::int64_t d : shape.shape)
            size *= d;
        ranges.emplace_back(offset, offset + size);
        offset += size;
    }
    return ranges;
}

// "Every parameter equals the single process's to relative 1e-5", tensor by tensor: ||Δθ|| / ||θ||
// over each tensor this stage owns (an element near 0 has no meaningful relative error of its own:
// AdamW's m/√v turns rounding-level gradient differences into update differences of lr·O(1e-6)).
// And the largest element difference, absolute, as the data-parallel test bounds it.
struct ParameterMatch {
    double worst_tensor_relative = 0;
    double max_abs = 0;
};
ParameterMatch compareParameters(const StageOutcome &out, const std::vector<float> &single,
                                 const std::vector<std::pair<std::int64_t, std::int64_t>> &tensors)
{
    ParameterMatch match;
    for (const auto &[from, to] : tensors) {
        if (from < out.range.offset || to > out.range.offset + out.range.count)
            continue;  // another stage's
        double diff = 0, norm = 0;
        for (std::int64_t i = from; i < to; ++i) {
            const double a = out.parameters[std::size_t(i)], b = single[std::size_t(i)];
            diff += (a - b) * (a - b);
            norm += b * b;
            match.max_abs = std::max(match.max_abs, std::abs(a - b));
        }
        if (norm > 0)
            match.worst_tensor_relative = std::max(match.worst_tensor_relative, std::sqrt(diff / norm));
    }
    return match;
}

}  // namespace

Q_DECLARE_METATYPE(lse::parallel::PipelineScheduleKind)

class TestPipelineParallel : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::string data_;
    std::map<int, Single> single_;  // by n_layers

    const Single &single(int layers)
    {
        auto it = single_.find(layers);
        if (it != single_.end())
            return it->second;
        Single &out = single_[layers];
        Result<std::unique_ptr<Trainer>> trainer = Trainer::create(tinyConfig(data_, layers));
        if (!trainer)
            qFatal("%s", formatProblems(trainer.problems()).c_str());
        for (int s = 0; s < kSteps; ++s) {
            Result<StepReport> report = (*trainer)->step();
            if (!report)
                qFatal("%s", formatProblems(report.problems()).c_str());
            out.reports.push_back(report.value());
        }
        Model &model = (*trainer)->model();
        out.parameters.assign(model.parameterData(), model.parameterData() + model.parameterCount());
        return out;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        data_ = dir_.filePath(QStringLiteral("tokens.bin")).toStdString();
        QVERIFY(writeTokenFile(data_, lse::test::repetitiveCorpus(4000), TokenDtype::U16).ok());
    }

    void matchesSingleProcess_data()
    {
        QTest::addColumn<PipelineScheduleKind>("schedule");
        QTest::addColumn<int>("stages");
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("microBatches");
        QTest::addColumn<QString>("split");
        for (PipelineScheduleKind schedule : {PipelineScheduleKind::GPipe, PipelineScheduleKind::OneFOneB}) {
            const char *name = schedule == PipelineScheduleKind::GPipe ? "gpipe" : "1f1b";
            QTest::addRow("%s pp2 even m4", name) << schedule << 2 << 2 << 4 << "1,1";
            QTest::addRow("%s pp2 uneven m8", name) << schedule << 2 << 3 << 8 << "1,2";
            QTest::addRow("%s pp4 even m4", name) << schedule << 4 << 4 << 4 << "1,1,1,1";
            QTest::addRow("%s pp4 uneven m2", name) << schedule << 4 << 5 << 2 << "1,1,2,1";
        }
    }

    void matchesSingleProcess()
    {
        QFETCH(PipelineScheduleKind, schedule);
        QFETCH(int, stages);
        QFETCH(int, layers);
        QFETCH(int, microBatches);
        QFETCH(QString, split);
        const Single &one = single(layers);
        const TrainConfig config = tinyConfig(data_, layers);
        PipelineParallelOptions options;
        options.schedule = schedule;
        options.micro_batches = microBatches;
        const std::vector<StageOutcome> outcomes = runStages(config, options, stages);

        // The engine's PP volume: 2m sends of one micro-batch's boundary activations (rows × T × D fp32).
        const double message = 4.0 * (config.batch_size / microBatches) * double(config.model.max_seq_len) * double(config.model.d_model);
        const double engine = 2.0 * microBatches * message;
        const std::vector<std::pair<std::int64_t, std::int64_t>> tensors = tensorRanges(config);
        std::int64_t covered = 0;
        for (int stage = 0; stage < stages; ++stage) {
            const StageOutcome &out = outcomes[std::size_t(stage)];
            QVERIFY2(out.failure.empty(), out.failure.c_str());
            QCOMPARE(out.range.offset, covered);  // the stages' ranges tile the arena
            covered += out.range.count;
            const ParameterMatch match = compareParameters(out, one.parameters, tensors);
            QVERIFY2(match.worst_tensor_relative < 1e-5, qPrintable(QStringLiteral("stage %1: ||Δθ||/||θ|| = %2 in a tensor").arg(stage).arg(match.worst_tensor_relative)));
            QVERIFY2(match.max_abs < 1e-5, qPrintable(QStringLiteral("stage %1: max |Δθ| = %2").arg(stage).arg(match.max_abs)));

            QCOMPARE(int(out.reports.size()), kSteps);
            for (const PipelineStepReport &report : out.reports) {
                const StepReport &ref = one.reports[std::size_t(report.step - 1)];
                QVERIFY2(std::abs(report.loss - ref.loss) <= 1e-5 * ref.loss,
                         qPrintable(QStringLiteral("step %1 loss %2 vs %3").arg(report.step).arg(report.loss).arg(ref.loss)));
                QVERIFY2(std::abs(report.grad_norm - ref.grad_norm) <= 1e-4 * ref.grad_norm,
                         qPrintable(QStringLiteral("step %1 norm %2 vs %3").arg(report.step).arg(report.grad_norm).arg(ref.grad_norm)));

                // Bytes: exactly the engine's, direction by direction.
                QCOMPARE(report.predicted_bytes_per_rank, engine);
                const bool first = stage == 0, last = stage == stages - 1;
                QCOMPARE(report.measured_bytes_per_rank, (first || last) ? engine / 2 : engine);
                int sends = 0, recvs = 0;
                for (const PipelineCommunicationEntry &entry : report.communication) {
                    if (entry.purpose != "pp_send" && entry.purpose != "pp_recv")
                        continue;
                    QCOMPARE(entry.collective, std::string(entry.purpose == "pp_send" ? "send" : "recv"));
                    QCOMPARE(entry.count, microBatches);
                    QCOMPARE(entry.bytes_per_rank, entry.predicted_bytes_per_rank);
                    QCOMPARE(entry.bytes_per_rank, microBatches * message);
                    QVERIFY(entry.peer == stage - 1 || entry.peer == stage + 1);
                    (entry.purpose == "pp_send" ? sends : recvs) += 1;
                }
                QCOMPARE(sends, (first || last) ? 1 : 2);
                QCOMPARE(recvs, (first || last) ? 1 : 2);

                // The schedule: every rank's 2m passes in the engine's order, not overlapping.
                QCOMPARE(int(report.schedule.size()), stages * 2 * microBatches);
                for (int rank = 0; rank < stages; ++rank) {
                    Result<std::vector<PipelineWork>> order = stageWorkOrder(schedule, stages, microBatches, rank);
                    QVERIFY(order.ok());
                    double previous_end = 0;
                    for (std::size_t i = 0; i < order->size(); ++i) {
                        const PipelinePass &pass = report.schedule[std::size_t(rank * 2 * microBatches) + i];
                        QCOMPARE(pass.rank, rank);
                        QCOMPARE(pass.micro_batch, (*order)[i].micro_batch);
                        QCOMPARE(pass.pass, std::string((*order)[i].backward ? "backward" : "forward"));
                        QVERIFY(pass.start_seconds >= previous_end - 1e-6);
                        QVERIFY(pass.end_seconds >= pass.start_seconds);
                        previous_end = pass.end_seconds;
                    }
                }
                QCOMPARE(report.bubble.formula, double(stages - 1) / double(microBatches + stages - 1));
                QVERIFY(report.bubble.measured >= 0 && report.bubble.measured < 1);
                QCOMPARE(int(report.bubble.per_rank.size()), stages);
            }
        }
        QCOMPARE(covered, std::int64_t(one.parameters.size()));
        // The engine's split (scenario/stage_layers.h): the remainder on the middle stages.
        QStringList layersPerStage;
        for (const StageOutcome &out : outcomes)
            layersPerStage << QString::number(out.reports.back().end_layer - out.reports.back().first_layer);
        QCOMPARE(layersPerStage.join(QLatin1Char(',')), split);
    }

    // The orders are the schedules the papers describe.
    void workOrders()
    {
        auto text = [](const std::vector<PipelineWork> &order) {
            QString s;
            for (const PipelineWork &w : order)
                s += QStringLiteral("%1%2 ").arg(w.backward ? "B" : "F").arg(w.micro_batch);
            return s.trimmed();
        };
        // GPipe: all forwards, then all backwards (first micro-batch's backward first on every stage
        // in the engine's simulation order).
        Result<std::vector<PipelineWork>> gpipe = stageWorkOrder(PipelineScheduleKind::GPipe, 2, 3, 0);
        QVERIFY(gpipe.ok());
        QVERIFY2(text(*gpipe).startsWith(QStringLiteral("F0 F1 F2 B")), qPrintable(text(*gpipe)));
        // 1F1B, 4 stages, 4 micro-batches: stage 0 warms up with p - 1 = 3 forwards; the last stage
        // alternates from the start.
        Result<std::vector<PipelineWork>> first = stageWorkOrder(PipelineScheduleKind::OneFOneB, 4, 4, 0);
        QVERIFY(first.ok());
        QCOMPARE(text(*first), QStringLiteral("F0 F1 F2 F3 B0 B1 B2 B3"));
        Result<std::vector<PipelineWork>> last = stageWorkOrder(PipelineScheduleKind::OneFOneB, 4, 4, 3);
        QVERIFY(last.ok());
        QCOMPARE(text(*last), QStringLiteral("F0 B0 F1 B1 F2 B2 F3 B3"));
        QVERIFY(!stageWorkOrder(PipelineScheduleKind::Interleaved, 2, 4, 0).ok());
    }

    // The measured bubble of an ideal run equals the formula: equal passes placed as the engine
    // places them.
    void bubbleOfAnIdealScheduleIsTheFormula()
    {
        const int p = 4, m = 6;
        Result<parallel::PipelineTimeline> timeline =
            parallel::simulatePipeline(PipelineScheduleKind::OneFOneB, p, m, 1, parallel::PipelineTimes{1, 2});
        QVERIFY(timeline.ok());
        std::vector<PipelinePass> passes;
        for (const parallel::PipelineTask &task : timeline->tasks)
            passes.push_back({task.stage, task.micro_batch,
                              task.kind == parallel::WorkKind::Forward ? "forward" : "backward", task.start_seconds,
                              task.end_seconds});
        const PipelineBubble bubble = pipelineBubble(passes, p, m);
        QCOMPARE(bubble.formula, 3.0 / 9.0);
        QVERIFY(std::abs(bubble.measured - bubble.formula) < 1e-12);
        QVERIFY(std::abs(bubble.measured - timeline->idle_share_of_makespan) < 1e-12);
    }

    void refusesBadInput_data()
    {
        QTest::addColumn<int>("stages");
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("microBatches");
        QTest::addColumn<bool>("tied");
        QTest::addColumn<QString>("field");
        QTest::addRow("more stages than layers") << 4 << 2 << 4 << false << "model.n_layers";
        QTest::addRow("batch not divisible by m") << 2 << 2 << 3 << false << "micro_batches";
        QTest::addRow("no micro-batches") << 2 << 2 << 0 << false << "micro_batches";
        QTest::addRow("tied embeddings") << 2 << 2 << 2 << true << "model.tied_embeddings";
    }

    void refusesBadInput()
    {
        QFETCH(int, stages);
        QFETCH(int, layers);
        QFETCH(int, microBatches);
        QFETCH(bool, tied);
        QFETCH(QString, field);
        TrainConfig config = tinyConfig(data_, layers);
        config.model.tied_embeddings = tied;
        PipelineParallelOptions options;
        options.micro_batches = microBatches;
        std::vector<std::string> failures(static_cast<std::size_t>(stages));
        ThreadGroup group(stages);
        group.run([&](Communicator &communicator) {
            Result<std::unique_ptr<PipelineParallelTrainer>> trainer =
                PipelineParallelTrainer::create(config, options, communicator);
            failures[std::size_t(communicator.rank())] = trainer ? "" : trainer.problems().front().field;
        });
        for (const std::string &failure : failures)
            QCOMPARE(QString::fromStdString(failure), field);
    }

    void refusesAStageListThatDoesNotFit()
    {
        TrainConfig config = tinyConfig(data_, 4);
        PipelineParallelOptions options;
        options.micro_batches = 2;
        options.stage_layers = {3, 2};  // sums to 5, not 4
        std::string failure;
        ThreadGroup group(2);
        group.run([&](Communicator &communicator) {
            Result<std::unique_ptr<PipelineParallelTrainer>> trainer =
                PipelineParallelTrainer::create(config, options, communicator);
            if (communicator.rank() == 0 && !trainer)
                failure = trainer.problems().front().field;
        });
        QCOMPARE(QString::fromStdString(failure), QStringLiteral("stage_layers"));
    }

    // A given stage list: 3 + 1 layers trains to the same result as the even split.
    void givenStageListMatchesSingleProcess()
    {
        const Single &one = single(4);
        PipelineParallelOptions options;
        options.micro_batches = 4;
        options.stage_layers = {3, 1};
        const std::vector<StageOutcome> outcomes = runStages(tinyConfig(data_, 4), options, 2);
        for (const StageOutcome &out : outcomes) {
            QVERIFY2(out.failure.empty(), out.failure.c_str());
            QCOMPARE(out.reports.back().end_layer - out.reports.back().first_layer, out.reports.back().stage == 0 ? 3 : 1);
            const ParameterMatch match = compareParameters(out, one.parameters, tensorRanges(tinyConfig(data_, 4)));
            QVERIFY2(match.worst_tensor_relative < 1e-5 && match.max_abs < 1e-5,
                     qPrintable(QStringLiteral("%1 %2").arg(match.worst_tensor_relative).arg(match.max_abs)));
        }
    }
};

QTEST_GUILESS_MAIN(TestPipelineParallel)
#include "test_pipeline_parallel.moc"
