// SPDX-License-Identifier: GPL-3.0-or-later
// Data-parallel and ZeRO-1/2 training (core/distributed/data_parallel_trainer.h) over in-process
// ranks (makeThreadCommunicators, one std::thread per rank): after 10 steps every rank's
// parameters equal the single-process Trainer's on the same global batch, for 2 and 4 ranks and
// every mode; the bytes each rank sends equal the ring volumes of ZeRO §7 and the cost engine's
// DP communication volume exactly; ZeRO shards optimizer states (and, stage 2, gradients) as the
// engine predicts; buckets start during backward; bad input names its field. No timing is asserted.
#include "reference_fixtures.h"
#include "distributed/data_parallel_trainer.h"
#include "distributed/gradient_buckets.h"
#include "distributed/thread_group.h"
#include "reference/trainer.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <mutex>

using namespace lse;
using namespace lse::distributed;
using namespace lse::reference;

namespace {

constexpr int kSteps = 10;

// The smallest model test_reference_trainer trains.
// The trainer tests' tiny run with batch 8 (divisible by 2 and 4 ranks) on one thread.
TrainConfig tinyConfig(const std::string &dataPath)
{
    TrainConfig c = lse::test::tinyTrainConfig(dataPath);
    c.batch_size = 8;
    c.threads = 1;
    return c;
}

using lse::test::repetitiveCorpus;

std::vector<float> parametersOf(Model &model)
{
    return std::vector<float>(model.parameterData(), model.parameterData() + model.parameterCount());
}

struct RankOutcome {
    std::string failure;
    std::vector<float> parameters;
    std::vector<DataParallelStepReport> reports;
    std::int64_t shard_elements = 0;
};

std::vector<RankOutcome> runRanks(const TrainConfig &config, const DataParallelOptions &options, int ranks)
{
    std::vector<RankOutcome> outcomes(std::size_t(ranks), RankOutcome{});
    ThreadGroup group(ranks);
    group.run([&](Communicator &communicator) {
        RankOutcome &out = outcomes[std::size_t(communicator.rank())];
        Result<std::unique_ptr<DataParallelTrainer>> trainer = DataParallelTrainer::create(config, options, communicator);
        if (!trainer) {
            out.failure = formatProblems(trainer.problems());
            return;
        }
        for (int s = 0; s < kSteps; ++s) {
            Result<DataParallelStepReport> report = (*trainer)->step();
            if (!report) {
                out.failure = formatProblems(report.problems());
                return;
            }
            out.reports.push_back(report.value());
        }
        out.parameters = parametersOf((*trainer)->model());
        out.shard_elements = shardRange((*trainer)->model().parameterCount(), ranks, communicator.rank()).count;
    });
    return outcomes;
}

}  // namespace

Q_DECLARE_METATYPE(lse::distributed::DataParallelMode)

class TestDataParallel : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::string data_;
    std::vector<float> single_;  // the single-process Trainer's parameters after kSteps
    std::vector<StepReport> singleReports_;
    std::int64_t P_ = 0;

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        data_ = dir_.filePath(QStringLiteral("tokens.bin")).toStdString();
        QVERIFY(writeTokenFile(data_, repetitiveCorpus(4000), TokenDtype::U16).ok());
        Result<std::unique_ptr<Trainer>> trainer = Trainer::create(tinyConfig(data_));
        QVERIFY2(trainer.ok(), formatProblems(trainer.problems()).c_str());
        for (int s = 0; s < kSteps; ++s) {
            Result<StepReport> report = (*trainer)->step();
            QVERIFY2(report.ok(), formatProblems(report.problems()).c_str());
            singleReports_.push_back(report.value());
        }
        // Clipping must act in some step, or the sharded modes' global norm would go untested.
        QVERIFY(std::any_of(singleReports_.begin(), singleReports_.end(),
                            [](const StepReport &r) { return r.grad_norm > tinyConfig("").grad_clip; }));
        single_ = parametersOf((*trainer)->model());
        P_ = std::int64_t(single_.size());
    }

    void matchesSingleProcess_data()
    {
        QTest::addColumn<int>("ranks");
        QTest::addColumn<DataParallelMode>("mode");
        for (int n : {2, 4})
            for (DataParallelMode mode :
                 {DataParallelMode::Naive, DataParallelMode::Bucketed, DataParallelMode::Zero1, DataParallelMode::Zero2})
                QTest::addRow("%d ranks %s", n, std::string(toString(mode)).c_str()) << n << mode;
    }

    // Same parameters as one process on the same global batch; bytes per rank exactly the ring
    // volumes and the engine's; memory per rank by category as ZeRO shards it.
    void matchesSingleProcess()
    {
        QFETCH(int, ranks);
        QFETCH(DataParallelMode, mode);
        QVERIFY2(P_ % ranks == 0, "the test model's parameter count must divide over the ranks");
        DataParallelOptions options;
        options.mode = mode;
        options.bucket_bytes = 4096;  // several buckets in the tiny model's arena
        const std::vector<RankOutcome> outcomes = runRanks(tinyConfig(data_), options, ranks);

        const double S = 4.0 * double(P_);  // the arena in bytes
        const double n = ranks;
        const bool zero = zeroStage(mode) > 0;
        // ZeRO §7: all-reduce 2(n-1)/n·S; reduce-scatter (n-1)/n·S + all-gather (n-1)/n·S.
        const double expectedBytes = zero ? (n - 1) / n * S + (n - 1) / n * S : 2 * (n - 1) / n * S;
        for (const RankOutcome &out : outcomes) {
            QVERIFY2(out.failure.empty(), out.failure.c_str());
            QCOMPARE(std::int64_t(out.parameters.size()), P_);
            float worst = 0;
            for (std::size_t i = 0; i < single_.size(); ++i)
                worst = std::max(worst, std::abs(out.parameters[i] - single_[i]));
            QVERIFY2(worst < 2e-5f, qPrintable(QStringLiteral("max |Δθ| = %1").arg(double(worst))));

            QCOMPARE(int(out.reports.size()), kSteps);
            for (const DataParallelStepReport &report : out.reports) {
                // The reduced loss and the global gradient norm are the single process's.
                const StepReport &one = singleReports_[std::size_t(report.step - 1)];
                QVERIFY2(std::abs(report.loss - one.loss) < 1e-5 * one.loss,
                         qPrintable(QStringLiteral("step %1 loss %2 vs %3").arg(report.step).arg(report.loss).arg(one.loss)));
                QVERIFY2(std::abs(report.grad_norm - one.grad_norm) < 1e-4 * one.grad_norm,
                         qPrintable(QStringLiteral("step %1 norm %2 vs %3").arg(report.step).arg(report.grad_norm).arg(one.grad_norm)));
                QCOMPARE(report.measured_bytes_per_rank, expectedBytes);
                QCOMPARE(report.predicted_bytes_per_rank, report.measured_bytes_per_rank);
                double gradientBytes = 0, parameterBytes = 0;
                for (const CommunicationEntry &entry : report.communication) {
                    QVERIFY(entry.seconds >= 0 && entry.exposed_seconds >= 0);
                    if (entry.purpose == "gradients") {
                        QCOMPARE(entry.collective, std::string(zero ? "reduce_scatter" : "all_reduce"));
                        gradientBytes += entry.bytes_per_rank;
                    } else if (entry.purpose == "parameters") {
                        QCOMPARE(entry.collective, std::string("all_gather"));
                        parameterBytes += entry.bytes_per_rank;
                    } else {
                        QCOMPARE(entry.purpose, std::string("loss_and_norm"));
                    }
                }
                QCOMPARE(gradientBytes, zero ? (n - 1) / n * S : 2 * (n - 1) / n * S);
                QCOMPARE(parameterBytes, zero ? (n - 1) / n * S : 0.0);

                const DataParallelMemory &m = report.memory;
                const double shardBytes = 4.0 * double(out.shard_elements);
                QCOMPARE(m.params, S);
                QCOMPARE(m.optimizer_states, zero ? 2 * shardBytes : 2 * S);  // AdamW m and v
                QCOMPARE(m.grads, mode == DataParallelMode::Zero2 ? shardBytes : S);
                QCOMPARE(m.optimizer_states, report.predicted_memory.optimizer_states);
                QCOMPARE(m.grads, report.predicted_memory.grads);
                QCOMPARE(m.params, report.predicted_memory.params);
            }
        }
    }

    // Three ranks: the tiny model's parameter count does not divide by 3, so shards differ by one
    // element and each rank's bytes are the ring's exact counts (ring_collectives.h): the
    // reduce-scatter sends every shard but its own, the all-gather every shard but the next one's.
    void unevenShardsCountExactly()
    {
        QVERIFY(P_ % 3 != 0);
        TrainConfig config = tinyConfig(data_);
        config.batch_size = 6;
        Result<std::unique_ptr<Trainer>> single = Trainer::create(config);
        QVERIFY2(single.ok(), formatProblems(single.problems()).c_str());
        for (int s = 0; s < kSteps; ++s)
            QVERIFY((*single)->step().ok());
        const std::vector<float> expected = parametersOf((*single)->model());

        DataParallelOptions options;
        options.mode = DataParallelMode::Zero1;
        const std::vector<RankOutcome> outcomes = runRanks(config, options, 3);
        const double S = 4.0 * double(P_);
        for (int r = 0; r < 3; ++r) {
            const RankOutcome &out = outcomes[std::size_t(r)];
            QVERIFY2(out.failure.empty(), out.failure.c_str());
            float worst = 0;
            for (std::size_t i = 0; i < expected.size(); ++i)
                worst = std::max(worst, std::abs(out.parameters[i] - expected[i]));
            QVERIFY2(worst < 2e-5f, qPrintable(QStringLiteral("max |Δθ| = %1").arg(double(worst))));
            const double own = 4.0 * double(shardRange(P_, 3, r).count);
            const double next = 4.0 * double(shardRange(P_, 3, (r + 1) % 3).count);
            for (const DataParallelStepReport &report : out.reports)
                QCOMPARE(report.measured_bytes_per_rank, (S - own) + (S - next));
        }
    }

    void gradientReadyHookReportsFinalGradients_data()
    {
        QTest::addColumn<bool>("tied");
        QTest::addColumn<bool>("norms");
        QTest::addColumn<bool>("learnedPositions");
        QTest::newRow("untied, norms, RoPE") << false << true << false;
        QTest::newRow("tied, no norms, learned positions") << true << false << true;
    }

    // Each time the model reports gradients final from an offset to the arena's end, they already
    // hold their end-of-backward values; the offsets fall and the last covers the whole arena.
    void gradientReadyHookReportsFinalGradients()
    {
        QFETCH(bool, tied);
        QFETCH(bool, norms);
        QFETCH(bool, learnedPositions);
        TrainConfig config = tinyConfig(data_);
        config.model.tied_embeddings = tied;
        if (!norms)
            config.model.norm = NormType::None;
        if (learnedPositions)
            config.model.positional_encoding = PositionalEncoding::Learned;
        ReferenceOptions options;
        options.max_batch = 2;
        Result<std::unique_ptr<Model>> created = Model::create(config.model, options);
        QVERIFY2(created.ok(), formatProblems(created.problems()).c_str());
        Model &model = *created.value();
        const std::int64_t P = model.parameterCount();
        const float *grads = model.gradientData();
        std::vector<std::pair<std::int64_t, std::vector<float>>> snapshots;
        model.setGradientReadyCallback([&](std::int64_t from) {
            snapshots.emplace_back(from, std::vector<float>(grads + from, grads + P));
        });
        const int T = int(config.model.max_seq_len);
        std::vector<std::int32_t> tokens(std::size_t(2 * T)), targets(tokens.size());
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            tokens[i] = std::int32_t(i % 12);
            targets[i] = std::int32_t((i + 1) % 12);
        }
        QVERIFY(model.forwardBackward(tokens.data(), targets.data(), 2, T).ok());
        QVERIFY(snapshots.size() >= std::size_t(config.model.n_layers) + 1);
        QCOMPARE(snapshots.back().first, std::int64_t(0));
        for (std::size_t k = 0; k < snapshots.size(); ++k) {
            if (k > 0)
                QVERIFY(snapshots[k].first < snapshots[k - 1].first);
            const std::int64_t from = snapshots[k].first;
            QVERIFY(std::equal(snapshots[k].second.begin(), snapshots[k].second.end(), grads + from));
        }
    }

    // Buckets start while backward still runs (the model's gradient-ready hook), not after it.
    void bucketsStartDuringBackward()
    {
        DataParallelOptions options;
        options.mode = DataParallelMode::Bucketed;
        options.bucket_bytes = 4096;
        const std::vector<RankOutcome> outcomes = runRanks(tinyConfig(data_), options, 2);
        for (const RankOutcome &out : outcomes) {
            QVERIFY2(out.failure.empty(), out.failure.c_str());
            for (const DataParallelStepReport &report : out.reports) {
                QCOMPARE(report.buckets, int(gradientBuckets(P_, 4096 / 4).size()));
                QVERIFY(report.buckets > 2);
                QCOMPARE(report.buckets_started_in_backward, report.buckets);
            }
        }
    }

    void bucketsCoverTheArenaFromItsEnd()
    {
        const std::vector<ShardRange> buckets = gradientBuckets(10, 4);
        QCOMPARE(int(buckets.size()), 3);
        QCOMPARE(buckets[0].offset, std::int64_t(6));
        QCOMPARE(buckets[0].count, std::int64_t(4));
        QCOMPARE(buckets[1].offset, std::int64_t(2));
        QCOMPARE(buckets[2].offset, std::int64_t(0));
        QCOMPARE(buckets[2].count, std::int64_t(2));
    }

    void badInputNamesTheField()
    {
        std::vector<std::unique_ptr<Communicator>> communicators = makeThreadCommunicators(3);
        TrainConfig config = tinyConfig(data_);  // batch 8 over 3 ranks
        Result<std::unique_ptr<DataParallelTrainer>> uneven =
            DataParallelTrainer::create(config, DataParallelOptions{}, *communicators[0]);
        QVERIFY(!uneven.ok());
        QCOMPARE(uneven.problems().front().field, std::string("training.batch_size"));

        config.batch_size = 6;
        DataParallelOptions options;
        options.mode = DataParallelMode::Bucketed;
        options.bucket_bytes = 0;
        Result<std::unique_ptr<DataParallelTrainer>> noBucket = DataParallelTrainer::create(config, options, *communicators[0]);
        QVERIFY(!noBucket.ok());
        QCOMPARE(noBucket.problems().front().field, std::string("distributed.bucket_bytes"));
    }
};

QTEST_GUILESS_MAIN(TestDataParallel)
#include "test_data_parallel.moc"
