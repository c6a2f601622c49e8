// SPDX-License-Identifier: GPL-3.0-or-later
// ZeRO-3 training (core/distributed/zero3_parameters.h through DataParallelTrainer) over in-process
// ranks: after 10 steps the loss and every parameter equal the single-process Trainer's (and
// ZeRO-2's) at 2 and 4 ranks; each rank sends, per step, exactly the engine's ZeRO-3 volume
// (ZeRO §7.2.2: 3Ψ·(n−1)/n, 1.5× DP's all-reduce), split into the forward gathers, the backward
// gathers and the reduce-scatters; between steps a rank holds only its shard; memory per rank
// equals the engine's params, grads and optimizer per GPU and the step's peak falls from 2 to 4
// ranks; checkpoints written by ZeRO-3 continue on another rank count. No timing is asserted.
#include "reference_fixtures.h"
#include "distributed/data_parallel_trainer.h"
#include "distributed/thread_group.h"
#include "distributed/zero3_parameters.h"
#include "reference/trainer.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace lse;
using namespace lse::distributed;
using namespace lse::reference;

namespace {

constexpr int kSteps = 10;

TrainConfig tinyConfig(const std::string &dataPath)
{
    TrainConfig c = lse::test::tinyTrainConfig(dataPath);
    c.batch_size = 8;  // divisible by 2 and 4 ranks
    c.threads = 1;
    c.eval_every = 5;  // evaluation gathers the whole model on every rank
    return c;
}

std::vector<float> parametersOf(Model &model)
{
    return std::vector<float>(model.parameterData(), model.parameterData() + model.parameterCount());
}

struct RankOutcome {
    std::string failure;
    std::vector<float> parameters;   // gathered whole after the last step
    std::int64_t finite_between_steps = -1;  // finite arena elements after the last step, before gathering
    std::int64_t own_finite_between_steps = -1;  // ... of them in this rank's pieces
    std::int64_t released_between_steps = -1;    // elements outside the pieces that read NaN or 0 (a dropped page)
    std::int64_t shard_elements = 0;
    std::vector<DataParallelStepReport> reports;
};

// `resume`: continue this checkpoint instead of starting; `save`: write one after the last step.
std::vector<RankOutcome> runRanks(const TrainConfig &config, DataParallelMode mode, int ranks,
                                  const std::string &resume = {}, const std::string &save = {}, int stop_at = 0)
{
    std::vector<RankOutcome> outcomes(std::size_t(ranks), RankOutcome{});
    ThreadGroup group(ranks);
    group.run([&](Communicator &communicator) {
        RankOutcome &out = outcomes[std::size_t(communicator.rank())];
        DataParallelOptions options;
        options.mode = mode;
        Result<std::unique_ptr<DataParallelTrainer>> trainer =
            resume.empty() ? DataParallelTrainer::create(config, options, communicator)
                           : DataParallelTrainer::resume(resume, config, options, communicator);
        if (!trainer) {
            out.failure = formatProblems(trainer.problems());
            return;
        }
        while ((*trainer)->currentStep() < (stop_at > 0 ? stop_at : config.steps)) {
            Result<DataParallelStepReport> report = (*trainer)->step();
            if (!report) {
                out.failure = formatProblems(report.problems());
                return;
            }
            out.reports.push_back(report.value());
        }
        Model &model = (*trainer)->model();
        out.finite_between_steps = std::count_if(model.parameterData(), model.parameterData() + model.parameterCount(),
                                                 [](float x) { return std::isfinite(x); });
        if (mode == DataParallelMode::Zero3) {
            out.own_finite_between_steps = out.released_between_steps = 0;
            const float *data = model.parameterData();
            for (const Zero3Group &g : zero3Groups(model, ranks, communicator.rank()))
                for (std::int64_t i = g.whole.offset; i < g.whole.offset + g.whole.count; ++i) {
                    const bool own = i >= g.own.offset && i < g.own.offset + g.own.count;
                    if (own)
                        out.own_finite_between_steps += std::isfinite(data[i]) ? 1 : 0;
                    else
                        out.released_between_steps += (std::isnan(data[i]) || data[i] == 0.0f) ? 1 : 0;
                }
        }
        if (!save.empty())
            if (Result<bool> saved = (*trainer)->saveCheckpoint(save); !saved) {
                out.failure = formatProblems(saved.problems());
                return;
            }
        (*trainer)->gatherFullParameters();
        out.parameters = parametersOf(model);
        out.shard_elements = std::int64_t((*trainer)->memory().params / 4.0);
    });
    return outcomes;
}

// Within relative 1e-5 of the larger magnitude (absolute 1e-5 below 1).
float worstRelative(const std::vector<float> &a, const std::vector<float> &b)
{
    float worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        worst = std::max(worst, std::abs(a[i] - b[i]) / std::max({1.0f, std::abs(a[i]), std::abs(b[i])}));
    return worst;
}

}  // namespace

class TestZero3 : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::string data_;
    std::vector<float> single_;
    std::vector<StepReport> singleReports_;
    std::int64_t P_ = 0;
    int groups_ = 0;
    double peak_[5] = {};  // model_state_peak by ranks
    double resident_[5] = {};  // resident_model_state_peak by ranks

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        data_ = dir_.filePath(QStringLiteral("tokens.bin")).toStdString();
        QVERIFY(writeTokenFile(data_, lse::test::repetitiveCorpus(4000), TokenDtype::U16).ok());
        TrainConfig config = tinyConfig(data_);
        config.steps = kSteps;
        Result<std::unique_ptr<Trainer>> trainer = Trainer::create(config);
        QVERIFY2(trainer.ok(), formatProblems(trainer.problems()).c_str());
        for (int s = 0; s < kSteps; ++s) {
            Result<StepReport> report = (*trainer)->step();
            QVERIFY2(report.ok(), formatProblems(report.problems()).c_str());
            singleReports_.push_back(report.value());
        }
        single_ = parametersOf((*trainer)->model());
        P_ = std::int64_t(single_.size());
        groups_ = int((*trainer)->model().parameterGroups().size());
        QCOMPARE(groups_, config.model.n_layers + 2);
    }

    void groupsCoverTheArena()
    {
        Result<std::unique_ptr<Model>> model = Model::create(tinyConfig(data_).model, ReferenceOptions{});
        QVERIFY(model.ok());
        std::int64_t next = 0;
        for (const auto &[offset, count] : (*model)->parameterGroups()) {
            QCOMPARE(offset, next);
            QVERIFY(count > 0);
            next = offset + count;
        }
        QCOMPARE(next, (*model)->parameterCount());
        // Pieces of 3 ranks cover every group once.
        std::vector<int> covered(std::size_t((*model)->parameterCount()), 0);
        for (int r = 0; r < 3; ++r)
            for (const Zero3Group &g : zero3Groups(**model, 3, r))
                for (std::int64_t i = g.own.offset; i < g.own.offset + g.own.count; ++i)
                    ++covered[std::size_t(i)];
        QVERIFY(std::all_of(covered.begin(), covered.end(), [](int c) { return c == 1; }));
    }

    void matchesSingleProcess_data()
    {
        QTest::addColumn<int>("ranks");
        QTest::newRow("2 ranks") << 2;
        QTest::newRow("4 ranks") << 4;
    }

    void matchesSingleProcess()
    {
        QFETCH(int, ranks);
        TrainConfig config = tinyConfig(data_);
        config.steps = kSteps;
        const std::vector<RankOutcome> zero3 = runRanks(config, DataParallelMode::Zero3, ranks);
        const std::vector<RankOutcome> zero2 = runRanks(config, DataParallelMode::Zero2, ranks);
        QVERIFY2(zero2[0].failure.empty(), zero2[0].failure.c_str());

        const double S = 4.0 * double(P_);
        const double n = ranks;
        const double gather = (n - 1) / n * S;  // one all-gather or reduce-scatter of the whole arena
        for (const RankOutcome &out : zero3) {
            QVERIFY2(out.failure.empty(), out.failure.c_str());
            QCOMPARE(std::int64_t(out.parameters.size()), P_);
            const float vsSingle = worstRelative(out.parameters, single_);
            QVERIFY2(vsSingle < 1e-5f, qPrintable(QStringLiteral("max relative |Δθ| vs one process = %1").arg(double(vsSingle))));
            const float vsZero2 = worstRelative(out.parameters, zero2[0].parameters);
            QVERIFY2(vsZero2 < 1e-5f, qPrintable(QStringLiteral("max relative |Δθ| vs ZeRO-2 = %1").arg(double(vsZero2))));
            // Between steps the rank holds its shard alone: the rest of the arena is released (its
            // whole pages dropped, reading 0; the partial pages at the groups' ends NaN).
            QCOMPARE(out.own_finite_between_steps, out.shard_elements);
            QCOMPARE(out.released_between_steps, P_ - out.shard_elements);
            QVERIFY(out.finite_between_steps < P_);  // some NaN edges: a read of them would show
            QCOMPARE(double(out.shard_elements), double(P_) / n);

            QCOMPARE(int(out.reports.size()), kSteps);
            for (const DataParallelStepReport &report : out.reports) {
                const StepReport &one = singleReports_[std::size_t(report.step - 1)];
                QVERIFY2(std::abs(report.loss - one.loss) <= 1e-5 * one.loss,
                         qPrintable(QStringLiteral("step %1 loss %2 vs %3").arg(report.step).arg(report.loss).arg(one.loss)));
                QVERIFY(std::abs(report.grad_norm - one.grad_norm) <= 1e-4 * one.grad_norm);
                QCOMPARE(report.validation_loss.has_value(), one.validation_loss.has_value());
                if (one.validation_loss)
                    QVERIFY(std::abs(*report.validation_loss - *one.validation_loss) <= 1e-5 * *one.validation_loss);

                // Bytes: each purpose once per group, each the whole arena's (n-1)/n·S in total.
                double forward = 0, backward = 0, reduced = 0;
                int forwardCalls = 0, backwardCalls = 0, reduceCalls = 0;
                for (const CommunicationEntry &entry : report.communication) {
                    if (entry.purpose == "zero3_gather_forward") {
                        QCOMPARE(entry.collective, std::string("all_gather"));
                        forward += entry.bytes_per_rank;
                        ++forwardCalls;
                    } else if (entry.purpose == "zero3_gather_backward") {
                        QCOMPARE(entry.collective, std::string("all_gather"));
                        backward += entry.bytes_per_rank;
                        ++backwardCalls;
                    } else if (entry.purpose == "zero3_reduce_scatter") {
                        QCOMPARE(entry.collective, std::string("reduce_scatter"));
                        reduced += entry.bytes_per_rank;
                        ++reduceCalls;
                    } else {
                        QCOMPARE(entry.purpose, std::string("loss_and_norm"));
                    }
                }
                QCOMPARE(forwardCalls, groups_);
                QCOMPARE(backwardCalls, groups_);
                QCOMPARE(reduceCalls, groups_);
                QCOMPARE(forward, gather);
                QCOMPARE(backward, gather);
                QCOMPARE(reduced, gather);
                QCOMPARE(report.measured_bytes_per_rank, 3 * gather);
                QCOMPARE(report.predicted_bytes_per_rank, report.measured_bytes_per_rank);
                QCOMPARE(report.predicted_dp_bytes_per_rank, 2 * gather);
                QCOMPARE(report.measured_bytes_per_rank / report.predicted_dp_bytes_per_rank, 1.5);

                // Memory per rank: every model state sharded, as the engine predicts exactly.
                const DataParallelMemory &m = report.memory;
                QCOMPARE(m.params, S / n);
                QCOMPARE(m.grads, S / n);
                QCOMPARE(m.optimizer_states, 2 * S / n);  // AdamW m and v of the shard
                QCOMPARE(m.params, report.predicted_memory.params);
                QCOMPARE(m.grads, report.predicted_memory.grads);
                QCOMPARE(m.optimizer_states, report.predicted_memory.optimizer_states);
                // The working copy: at most one group gathered at a time, and some gathered.
                QVERIFY(m.gathered_params_peak > 0);
                QVERIFY(m.gathered_params_peak < S / 2);
                QCOMPARE(m.full_grads_peak, m.gathered_params_peak);
                QCOMPARE(m.model_state_peak, m.params + m.grads + m.optimizer_states + m.gathered_params_peak + m.full_grads_peak);
                // The kernel's view: the arenas' resident pages never exceed the accounting by more
                // than the partial pages at the groups' ends (two arenas, two ends, one page each),
                // and stay below holding both arenas whole.
                QVERIFY(m.resident_model_state_peak > m.optimizer_states);
                QVERIFY2(m.resident_model_state_peak <= m.model_state_peak + (4.0 * groups_ + 4.0) * 4096.0,
                         qPrintable(QStringLiteral("resident %1 vs accounted %2").arg(m.resident_model_state_peak).arg(m.model_state_peak)));
                QVERIFY2(m.resident_model_state_peak < 2.0 * S + m.optimizer_states,
                         qPrintable(QStringLiteral("resident %1 vs both arenas %2").arg(m.resident_model_state_peak).arg(2.0 * S)));
            }
        }
        peak_[ranks] = zero3[0].reports.back().memory.model_state_peak;
        resident_[ranks] = zero3[0].reports.back().memory.resident_model_state_peak;
    }

    // More ranks, less memory per rank: ZeRO-3's whole point (ZeRO §5.3).
    void peakMemoryFallsWithRanks()
    {
        QVERIFY(peak_[2] > 0 && peak_[4] > 0);
        QVERIFY2(peak_[4] < peak_[2], qPrintable(QStringLiteral("%1 vs %2").arg(peak_[4]).arg(peak_[2])));
        // And as the kernel counts it: the resident pages fall too.
        QVERIFY2(resident_[4] < resident_[2], qPrintable(QStringLiteral("resident %1 vs %2").arg(resident_[4]).arg(resident_[2])));
        // Both below holding the whole model state (4 copies of the arena: θ, g, m, v).
        QVERIFY(peak_[2] < 4.0 * 4.0 * double(P_));
    }

    // A checkpoint written by 2 ZeRO-3 ranks after 5 steps continues on 4 to the same parameters
    // as 10 uninterrupted steps of one process.
    void checkpointContinuesOnOtherRanks()
    {
        TrainConfig config = tinyConfig(data_);
        config.steps = kSteps;  // the schedule's length; the first run stops half way
        const std::string path = dir_.filePath(QStringLiteral("zero3_step5.safetensors")).toStdString();
        const std::vector<RankOutcome> first = runRanks(config, DataParallelMode::Zero3, 2, {}, path, 5);
        QVERIFY2(first[0].failure.empty(), first[0].failure.c_str());
        const std::vector<RankOutcome> second = runRanks(config, DataParallelMode::Zero3, 4, path);
        for (const RankOutcome &out : second) {
            QVERIFY2(out.failure.empty(), out.failure.c_str());
            QCOMPARE(int(out.reports.size()), kSteps - 5);
            const float worst = worstRelative(out.parameters, single_);
            QVERIFY2(worst < 1e-5f, qPrintable(QStringLiteral("max relative |Δθ| = %1").arg(double(worst))));
        }
    }

    // Three ranks: the groups do not divide by 3, so pieces differ by an element; the parameters
    // still match one process, and each rank sends the ring's exact counts per group (the
    // all-gather every piece but the next rank's, the reduce-scatter every piece but its own).
    void unevenPiecesMatchOneProcess()
    {
        TrainConfig config = tinyConfig(data_);
        config.steps = kSteps;
        config.batch_size = 6;
        config.eval_every = 0;
        Result<std::unique_ptr<Trainer>> single = Trainer::create(config);
        QVERIFY2(single.ok(), formatProblems(single.problems()).c_str());
        for (int s = 0; s < kSteps; ++s)
            QVERIFY((*single)->step().ok());
        const std::vector<float> expected = parametersOf((*single)->model());
        const std::vector<RankOutcome> outcomes = runRanks(config, DataParallelMode::Zero3, 3);
        Result<std::unique_ptr<Model>> model = Model::create(config.model, ReferenceOptions{});
        QVERIFY(model.ok());
        bool uneven = false;
        for (int r = 0; r < 3; ++r) {
            const RankOutcome &out = outcomes[std::size_t(r)];
            QVERIFY2(out.failure.empty(), out.failure.c_str());
            const float worst = worstRelative(out.parameters, expected);
            QVERIFY2(worst < 1e-5f, qPrintable(QStringLiteral("max relative |Δθ| = %1").arg(double(worst))));
            double expectedBytes = 0;
            const std::vector<Zero3Group> own = zero3Groups(**model, 3, r), next = zero3Groups(**model, 3, (r + 1) % 3);
            for (std::size_t g = 0; g < own.size(); ++g) {
                uneven = uneven || own[g].whole.count % 3 != 0;
                expectedBytes += 4.0 * double(2 * (own[g].whole.count - next[g].own.count) + (own[g].whole.count - own[g].own.count));
            }
            for (const DataParallelStepReport &report : out.reports)
                QCOMPARE(report.measured_bytes_per_rank, expectedBytes);
        }
        QVERIFY(uneven);
    }

    void tiedEmbeddingsNameTheField()
    {
        std::vector<std::unique_ptr<Communicator>> communicators = makeThreadCommunicators(2);
        TrainConfig config = tinyConfig(data_);
        config.model.tied_embeddings = true;
        DataParallelOptions options;
        options.mode = DataParallelMode::Zero3;
        Result<std::unique_ptr<DataParallelTrainer>> tied = DataParallelTrainer::create(config, options, *communicators[0]);
        QVERIFY(!tied.ok());
        QCOMPARE(tied.problems().front().field, std::string("model.tied_embeddings"));
    }
};

QTEST_GUILESS_MAIN(TestZero3)
#include "test_zero3.moc"
