// SPDX-License-Identifier: GPL-3.0-or-later
// Combined layouts (issue 33) over in-process ranks: the groups come from the Layout page's rank
// mapping (parallel::DeviceMesh, TP innermost) via Communicator::split (mesh_communicators.h), and
// dp x tp = 2 x 2 trains to the single-process Trainer's losses and parameters (relative 1e-5 after
// 10 steps), and so does dp x pp = 2 x 2 (1F1B). dp x tp's TP collectives carry the engine's bytes
// for the same mesh event by event, and its data-parallel gradient all-reduce the engine's DP
// bytes for what one GPU holds (the layers and the vocabulary split over tp, norms whole). No
// timing is asserted.
#include "reference_fixtures.h"
#include "distributed/mesh_communicators.h"
#include "distributed/pipeline_parallel_trainer.h"
#include "distributed/tensor_parallel_trainer.h"
#include "distributed/thread_group.h"
#include "reference/trainer.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <mutex>

using namespace lse;
using namespace lse::distributed;
using namespace lse::reference;

namespace {

constexpr int kSteps = 10;

TrainConfig tinyConfig(const std::string &dataPath)
{
    TrainConfig c = lse::test::tinyTrainConfig(dataPath);
    c.threads = 1;
    return c;
}

struct RankOutcome {
    std::string failure;
    std::vector<float> parameters;  // this tp group's shards gathered (single-process order)
    std::vector<TensorParallelStepReport> reports;
    int tp_rank = -1, dp_rank = -1;
    double local_parameters = 0;
};

}  // namespace

class TestMeshTraining : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::string data_;

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        data_ = dir_.filePath(QStringLiteral("tokens.bin")).toStdString();
        QVERIFY(writeTokenFile(data_, lse::test::repetitiveCorpus(4000), TokenDtype::U16).ok());
    }

    // The groups are DeviceMesh's: same tp group <=> same dp coordinate, and the rank inside each
    // group is the mesh coordinate along it.
    void groupsFollowTheDeviceMesh()
    {
        const Result<parallel::DeviceMesh> mesh = localMesh(2, 2, 1);
        QVERIFY(mesh.ok());
        ThreadGroup group(4);
        std::vector<std::vector<float>> tp_sums(4), dp_sums(4);
        std::vector<int> tp_rank(4), dp_rank(4);
        group.run([&](Communicator &world) {
            MeshCommunicators split = splitByMesh(world, mesh.value());
            const int r = world.rank();
            std::vector<float> value{float(r)};
            split.tp->allReduceSum(value.data(), 1);
            tp_sums[std::size_t(r)] = value;
            value = {float(r)};
            split.dp->allReduceSum(value.data(), 1);
            dp_sums[std::size_t(r)] = value;
            tp_rank[std::size_t(r)] = split.tp->rank();
            dp_rank[std::size_t(r)] = split.dp->rank();
            QCOMPARE(split.pp->size(), 1);
        });
        for (int r = 0; r < 4; ++r) {
            float tp_sum = 0, dp_sum = 0;
            for (int member : mesh->group(r, parallel::MeshDim::TP))
                tp_sum += float(member);
            for (int member : mesh->group(r, parallel::MeshDim::DP))
                dp_sum += float(member);
            QCOMPARE(tp_sums[std::size_t(r)][0], tp_sum);
            QCOMPARE(dp_sums[std::size_t(r)][0], dp_sum);
            QCOMPARE(tp_rank[std::size_t(r)], mesh->coordinate(r, parallel::MeshDim::TP));
            QCOMPARE(dp_rank[std::size_t(r)], mesh->coordinate(r, parallel::MeshDim::DP));
        }
    }

    void dpTimesTpMatchesSingleProcess()
    {
        const TrainConfig config = tinyConfig(data_);
        std::vector<float> single;
        std::vector<StepReport> single_reports;
        std::vector<std::pair<std::string, std::pair<std::int64_t, std::int64_t>>> ranges;
        {
            Result<std::unique_ptr<Trainer>> trainer = Trainer::create(config);
            QVERIFY(trainer.ok());
            for (int s = 0; s < kSteps; ++s) {
                Result<StepReport> report = (*trainer)->step();
                QVERIFY(report.ok());
                single_reports.push_back(report.value());
            }
            Model &model = (*trainer)->model();
            single.assign(model.parameterData(), model.parameterData() + model.parameterCount());
            for (const NamedTensor<float> &t : model.parameters())
                ranges.push_back({t.name, {t.data - model.parameterData(), t.size()}});
        }

        const int dp = 2, tp = 2;
        const Result<parallel::DeviceMesh> mesh = localMesh(dp, tp, 1);
        QVERIFY(mesh.ok());
        std::vector<RankOutcome> outcomes(4);
        ThreadGroup group(4);
        group.run([&](Communicator &world) {
            RankOutcome &out = outcomes[std::size_t(world.rank())];
            MeshCommunicators split = splitByMesh(world, mesh.value());
            out.tp_rank = split.tp_rank;
            out.dp_rank = split.dp_rank;
            Result<std::unique_ptr<TensorParallelTrainer>> trainer =
                TensorParallelTrainer::create(config, *split.tp, false, split.dp.get());
            if (!trainer) {
                out.failure = formatProblems(trainer.problems());
                return;
            }
            for (int s = 0; s < kSteps; ++s) {
                Result<TensorParallelStepReport> report = (*trainer)->step();
                if (!report) {
                    out.failure = formatProblems(report.problems());
                    return;
                }
                out.reports.push_back(report.value());
            }
            out.parameters = (*trainer)->model().gatherParameters();
            out.local_parameters = double((*trainer)->model().localParameterCount());
        });

        const double N = double(config.batch_size / dp) * double(config.model.max_seq_len);
        const double layerBuffer = 4.0 * N * double(config.model.d_model);
        for (const RankOutcome &out : outcomes) {
            QVERIFY2(out.failure.empty(), out.failure.c_str());
            QCOMPARE(out.parameters.size(), single.size());
            for (const auto &[name, range] : ranges) {
                double difference = 0, norm = 0;
                for (std::int64_t i = range.first; i < range.first + range.second; ++i) {
                    const double a = out.parameters[std::size_t(i)], b = single[std::size_t(i)];
                    difference += (a - b) * (a - b);
                    norm += b * b;
                }
                const double relative = std::sqrt(difference / norm);
                QVERIFY2(relative <= 1e-5, qPrintable(QStringLiteral("%1: ‖Δθ‖/‖θ‖ = %2").arg(QString::fromStdString(name)).arg(relative)));
            }
            for (const TensorParallelStepReport &report : out.reports) {
                const StepReport &one = single_reports[std::size_t(report.step - 1)];
                QVERIFY2(std::abs(report.loss - one.loss) <= 1e-5 * one.loss,
                         qPrintable(QStringLiteral("step %1 loss %2 vs %3").arg(report.step).arg(report.loss).arg(one.loss)));
                int tp_events = 0, dp_events = 0;
                for (const TensorParallelCommunication &entry : report.communication) {
                    if (entry.purpose == "tp_forward" || entry.purpose == "tp_backward") {
                        ++tp_events;
                        QCOMPARE(entry.bytes_per_rank, 2 * (tp - 1.0) / tp * layerBuffer);  // this replica's rows
                        QCOMPARE(entry.predicted_bytes_per_rank, entry.bytes_per_rank);
                    } else if (entry.purpose.rfind("tp_", 0) == 0) {  // embedding, LM head, loss
                        QCOMPARE(entry.predicted_bytes_per_rank, entry.bytes_per_rank);
                    } else if (entry.purpose == "dp_gradients") {
                        ++dp_events;
                        QCOMPARE(entry.collective, std::string("all_reduce"));
                        QCOMPARE(entry.bytes_per_rank, 2 * (dp - 1.0) / dp * 4.0 * out.local_parameters);
                    }
                }
                QCOMPARE(tp_events, 4 * config.model.n_layers);
                QCOMPARE(dp_events, 1);
                QCOMPARE(report.predicted_bytes_per_rank, report.measured_bytes_per_rank);
                // The engine's DP volume: a ring all-reduce of what one GPU holds, exactly.
                QCOMPARE(report.dp_predicted_bytes_per_rank, report.dp_measured_bytes_per_rank);
                QVERIFY(report.dp_measured_bytes_per_rank > 0);
                // More than P/tp: the norm gains are whole on every tp rank.
                QVERIFY(report.dp_measured_bytes_per_rank > 2 * (dp - 1.0) / dp * 4.0 * double(single.size()) / tp);
            }
        }
    }

    // dp x pp = 2 x 2, 1F1B with 2 micro-batches per replica: each stage's range of the arena and
    // every loss equal one process's; the stage gradients' all-reduce over the dp group carries the
    // stage's range, beside the engine's DP volume (P/pp per rank).
    void dpTimesPpMatchesSingleProcess()
    {
        const TrainConfig config = tinyConfig(data_);  // 2 layers, batch 4
        std::vector<float> single;
        std::vector<StepReport> single_reports;
        {
            Result<std::unique_ptr<Trainer>> trainer = Trainer::create(config);
            QVERIFY(trainer.ok());
            for (int s = 0; s < kSteps; ++s) {
                Result<StepReport> report = (*trainer)->step();
                QVERIFY(report.ok());
                single_reports.push_back(report.value());
            }
            Model &model = (*trainer)->model();
            single.assign(model.parameterData(), model.parameterData() + model.parameterCount());
        }
        const int dp = 2, pp = 2;
        const Result<parallel::DeviceMesh> mesh = localMesh(dp, 1, pp);
        QVERIFY(mesh.ok());
        struct Outcome {
            std::string failure;
            std::vector<float> stage;  // this rank's range of the arena
            ShardRange range;
            std::vector<PipelineStepReport> reports;
        };
        std::vector<Outcome> outcomes(4);
        ThreadGroup group(4);
        group.run([&](Communicator &world) {
            Outcome &out = outcomes[std::size_t(world.rank())];
            MeshCommunicators split = splitByMesh(world, mesh.value());
            PipelineParallelOptions options;
            options.micro_batches = 2;
            Result<std::unique_ptr<PipelineParallelTrainer>> trainer =
                PipelineParallelTrainer::create(config, options, *split.pp, split.dp.get());
            if (!trainer) {
                out.failure = formatProblems(trainer.problems());
                return;
            }
            for (int s = 0; s < kSteps; ++s) {
                Result<PipelineStepReport> report = (*trainer)->step();
                if (!report) {
                    out.failure = formatProblems(report.problems());
                    return;
                }
                out.reports.push_back(report.value());
            }
            out.range = (*trainer)->parameterRange();
            const float *data = (*trainer)->model().parameterData() + out.range.offset;
            out.stage.assign(data, data + out.range.count);
        });
        for (const Outcome &out : outcomes) {
            QVERIFY2(out.failure.empty(), out.failure.c_str());
            double difference = 0, norm = 0;
            for (std::int64_t i = 0; i < out.range.count; ++i) {
                const double a = out.stage[std::size_t(i)], b = single[std::size_t(out.range.offset + i)];
                difference += (a - b) * (a - b);
                norm += b * b;
            }
            QVERIFY2(std::sqrt(difference / norm) <= 1e-5, qPrintable(QStringLiteral("stage ‖Δθ‖/‖θ‖ = %1").arg(std::sqrt(difference / norm))));
            for (const PipelineStepReport &report : out.reports) {
                const StepReport &one = single_reports[std::size_t(report.step - 1)];
                QVERIFY2(std::abs(report.loss - one.loss) <= 1e-5 * one.loss,
                         qPrintable(QStringLiteral("step %1 loss %2 vs %3").arg(report.step).arg(report.loss).arg(one.loss)));
                int gradients = 0;
                for (const PipelineCommunicationEntry &entry : report.communication)
                    if (entry.purpose == "dp_gradients") {
                        ++gradients;
                        QCOMPARE(entry.bytes_per_rank, 2 * (dp - 1.0) / dp * 4.0 * double(out.range.count));
                    }
                QCOMPARE(gradients, 1);
                // The engine's bytes for this stage's GPUs (communication.dp_bytes_per_stage): what
                // the stage holds, so equal to the measured all-reduce.
                QCOMPARE(report.dp_predicted_bytes_per_rank, 2 * (dp - 1.0) / dp * 4.0 * double(out.range.count));
                QCOMPARE(report.measured_bytes_per_rank, report.stage == 0 || report.stage == pp - 1
                                                             ? report.predicted_bytes_per_rank / 2
                                                             : report.predicted_bytes_per_rank);
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestMeshTraining)
#include "test_mesh_training.moc"
