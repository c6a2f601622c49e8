// SPDX-License-Identifier: GPL-3.0-or-later
// Tensor-parallel training (core/distributed/tensor_parallel_trainer.h, issue 33) over in-process
// ranks (ThreadGroup): after 10 steps the losses and every gathered parameter equal the
// single-process Trainer's, at tp = 2 and 4 and for a second architecture (LayerNorm, GeLU, learned
// positions, grouped-query attention, tied embeddings), and for a vocabulary tp does not divide;
// each step runs 2 all-reduces per layer forward ("tp_forward") and 2 backward ("tp_backward"),
// the vocabulary-parallel embedding's, LM head's and cross-entropy's collectives, whose bytes per
// rank equal the cost engine's TP events one by one and in total, with and without sequence
// parallelism (then 4 all-gathers and 4 reduce-scatters of half the bytes each per layer, and the
// norms' gradients summed once); a tp the model cannot be split over is refused naming
// distributed.tp. No timing is asserted.
#include "reference_fixtures.h"
#include "distributed/tensor_parallel_trainer.h"
#include "distributed/thread_group.h"
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
    c.threads = 1;
    return c;
}

// LayerNorm, GeLU, learned positions, 2 K/V heads for 4 query heads, tied embeddings.
TrainConfig variantConfig(const std::string &dataPath)
{
    TrainConfig c = tinyConfig(dataPath);
    c.model.norm = NormType::LayerNorm;
    c.model.activation = Activation::GeLU;
    c.model.positional_encoding = PositionalEncoding::Learned;
    c.model.n_kv_heads = 2;
    c.model.tied_embeddings = true;
    return c;
}

struct RankOutcome {
    std::string failure;
    std::vector<float> parameters;  // gathered, single-process arena order
    std::vector<TensorParallelStepReport> reports;
    double local_parameters = 0;
};

std::vector<RankOutcome> runRanks(const TrainConfig &config, int ranks, bool sequenceParallel)
{
    std::vector<RankOutcome> outcomes(std::size_t(ranks), RankOutcome{});
    ThreadGroup group(ranks);
    group.run([&](Communicator &communicator) {
        RankOutcome &out = outcomes[std::size_t(communicator.rank())];
        Result<std::unique_ptr<TensorParallelTrainer>> trainer = TensorParallelTrainer::create(config, communicator, sequenceParallel);
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
    return outcomes;
}

struct SingleRun {
    std::vector<float> parameters;
    std::vector<StepReport> reports;
    std::vector<NamedTensor<float>> tensors;  // offsets into `parameters` via data - base
    std::vector<std::pair<std::string, std::pair<std::int64_t, std::int64_t>>> ranges;  // name → (offset, size)
};

SingleRun runSingle(const TrainConfig &config)
{
    SingleRun run;
    Result<std::unique_ptr<Trainer>> trainer = Trainer::create(config);
    if (!trainer)
        qFatal("%s", formatProblems(trainer.problems()).c_str());
    for (int s = 0; s < kSteps; ++s) {
        Result<StepReport> report = (*trainer)->step();
        if (!report)
            qFatal("%s", formatProblems(report.problems()).c_str());
        run.reports.push_back(report.value());
    }
    Model &model = (*trainer)->model();
    run.parameters.assign(model.parameterData(), model.parameterData() + model.parameterCount());
    for (const NamedTensor<float> &t : model.parameters())
        run.ranges.push_back({t.name, {t.data - model.parameterData(), t.size()}});
    return run;
}

}  // namespace

class TestTensorParallel : public QObject {
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

    void matchesSingleProcess_data()
    {
        QTest::addColumn<int>("ranks");
        QTest::addColumn<bool>("variant");
        QTest::addColumn<bool>("sp");
        QTest::addColumn<int>("vocabulary");  // 0: the fixture's (16)
        for (bool sp : {false, true}) {
            const char *suffix = sp ? " sp" : "";
            QTest::addRow("tp 2%s", suffix) << 2 << false << sp << 0;
            QTest::addRow("tp 4%s", suffix) << 4 << false << sp << 0;
            QTest::addRow("tp 2 layernorm gelu learned gqa tied%s", suffix) << 2 << true << sp << 0;
            // Rank 0 holds 9 vocabulary rows, rank 1 holds 8.
            QTest::addRow("tp 2 vocabulary 17%s", suffix) << 2 << false << sp << 17;
        }
    }

    // Same losses and parameters as one process; bytes per rank the engine's, event by event.
    void matchesSingleProcess()
    {
        QFETCH(int, ranks);
        QFETCH(bool, variant);
        QFETCH(bool, sp);
        QFETCH(int, vocabulary);
        TrainConfig config = variant ? variantConfig(data_) : tinyConfig(data_);
        if (vocabulary > 0)
            config.model.vocab_size = vocabulary;
        const SingleRun single = runSingle(config);
        // Clipping must act in some step, or the norm summed over the ranks would go untested.
        QVERIFY(std::any_of(single.reports.begin(), single.reports.end(),
                            [&](const StepReport &r) { return r.grad_norm > config.grad_clip; }));
        const std::vector<RankOutcome> outcomes = runRanks(config, ranks, sp);

        const double n = ranks;
        const double N = double(config.batch_size) * double(config.model.max_seq_len);
        const double layerBuffer = 4.0 * N * double(config.model.d_model);  // one (tokens, d_model) fp32 tensor
        for (const RankOutcome &out : outcomes) {
            QVERIFY2(out.failure.empty(), out.failure.c_str());
            QCOMPARE(out.parameters.size(), single.parameters.size());
            // Every tensor: relative error ‖Δθ‖₂ / ‖θ‖₂ within 5e-5, and no element off by more
            // than a tenth of one AdamW step at lr_max (1e-2 here). AdamW divides each gradient by
            // its own root-mean-square, so an element whose gradient is near zero turns the float
            // rounding of the row-parallel layers' different summation order into a visible step:
            // seen with the previous initialisation, max 2.4e-5 at tp 4; with the ziggurat one of
            // issue 35, k_proj at vocabulary 17 off by relative 2.4e-5 and max 1.4e-4 (1.4% of a
            // step). A wrong shard or a missing all-reduce moves whole tensors by whole steps.
            for (const auto &[name, range] : single.ranges) {
                double difference = 0, norm = 0;
                float worst = 0;
                for (std::int64_t i = range.first; i < range.first + range.second; ++i) {
                    const double a = out.parameters[std::size_t(i)], b = single.parameters[std::size_t(i)];
                    difference += (a - b) * (a - b);
                    norm += b * b;
                    worst = std::max(worst, float(std::abs(a - b)));
                }
                const double relative = std::sqrt(difference / norm);
                QVERIFY2(relative <= 5e-5, qPrintable(QStringLiteral("%1: ‖Δθ‖/‖θ‖ = %2").arg(QString::fromStdString(name)).arg(relative)));
                QVERIFY2(worst <= 0.1f * float(config.lr_max), qPrintable(QStringLiteral("%1: max |Δθ| = %2").arg(QString::fromStdString(name)).arg(double(worst))));
            }
            // Each rank holds 1/tp of the split tensors and the whole of the others.
            QVERIFY(out.local_parameters < double(single.parameters.size()));

            QCOMPARE(int(out.reports.size()), kSteps);
            for (const TensorParallelStepReport &report : out.reports) {
                const StepReport &one = single.reports[std::size_t(report.step - 1)];
                QVERIFY2(std::abs(report.loss - one.loss) <= 1e-5 * one.loss,
                         qPrintable(QStringLiteral("step %1 loss %2 vs %3").arg(report.step).arg(report.loss).arg(one.loss)));
                QVERIFY2(std::abs(report.grad_norm - one.grad_norm) <= 1e-4 * one.grad_norm,
                         qPrintable(QStringLiteral("step %1 norm %2 vs %3").arg(report.step).arg(report.grad_norm).arg(one.grad_norm)));
                int forward = 0, backward = 0, gathers = 0, scatters = 0, embedding = 0, head = 0, loss = 0, norms = 0;
                double outside = 0;  // bytes outside the layers
                for (const TensorParallelCommunication &entry : report.communication) {
                    if (entry.purpose == "grad_norm")
                        continue;
                    // Every other collective is one of the engine's events, with its bytes exactly.
                    QVERIFY2(!entry.where.empty(), entry.purpose.c_str());
                    QCOMPARE(entry.predicted_bytes_per_rank, entry.bytes_per_rank);
                    if (entry.purpose == "tp_embedding" || entry.purpose == "tp_lm_head") {
                        (entry.purpose == "tp_embedding" ? embedding : head) += 1;
                        // One all-reduce of a (tokens, d_model) buffer; with SP its two halves.
                        QCOMPARE(entry.bytes_per_rank, (sp ? 1 : 2) * (n - 1) / n * layerBuffer);
                        outside += entry.bytes_per_rank;
                        continue;
                    }
                    if (entry.purpose == "tp_cross_entropy") {
                        ++loss;
                        QCOMPARE(entry.collective, std::string("all_reduce"));
                        QCOMPARE(entry.bytes_per_rank, 2 * (n - 1) / n * 4.0 * N);  // one float per token
                        outside += entry.bytes_per_rank;
                        continue;
                    }
                    if (entry.purpose == "sp_norm_gradients") {
                        QVERIFY(sp);
                        ++norms;
                        outside += entry.bytes_per_rank;
                        continue;
                    }
                    QVERIFY2(entry.purpose == "tp_forward" || entry.purpose == "tp_backward", entry.purpose.c_str());
                    (entry.purpose == "tp_forward" ? forward : backward) += 1;
                    if (sp) {
                        // SP: all-gather and reduce-scatter, (n−1)/n of the buffer each.
                        QVERIFY2(entry.collective == "all_gather" || entry.collective == "reduce_scatter", entry.collective.c_str());
                        (entry.collective == "all_gather" ? gathers : scatters) += 1;
                        QCOMPARE(entry.bytes_per_rank, (n - 1) / n * layerBuffer);
                    } else {
                        // Ring all-reduce: 2(n−1)/n of the buffer.
                        QCOMPARE(entry.collective, std::string("all_reduce"));
                        QCOMPARE(entry.bytes_per_rank, 2 * (n - 1) / n * layerBuffer);
                    }
                }
                const int perDirection = (sp ? 4 : 2) * config.model.n_layers;
                QCOMPARE(forward, perDirection);
                QCOMPARE(backward, perDirection);
                QCOMPARE(gathers, sp ? perDirection : 0);
                QCOMPARE(scatters, sp ? perDirection : 0);
                QCOMPARE(embedding, sp ? 2 : 1);  // forward (and with SP the gradient's gather)
                QCOMPARE(head, sp ? 2 : 1);
                QCOMPARE(loss, 3);                 // row maximum, target logit, sum of exponentials
                QCOMPARE(norms, sp ? 1 : 0);
                QCOMPARE(report.measured_bytes_per_rank, 4 * config.model.n_layers * 2 * (n - 1) / n * layerBuffer + outside);
                QCOMPARE(report.predicted_bytes_per_rank, report.measured_bytes_per_rank);
                QCOMPARE(report.memory.params, 4.0 * out.local_parameters);
                QCOMPARE(report.memory.optimizer_states, 2 * report.memory.params);  // AdamW m and v
                // The engine splits what this model splits (the vocabulary too) and keeps whole
                // what it keeps whole (norms, positions): the same bytes per GPU, when tp divides
                // the vocabulary (the engine then counts V/tp rows, a fraction otherwise).
                if (config.model.vocab_size % ranks == 0)
                    QCOMPARE(report.predicted_memory.params, report.memory.params);
            }
        }
    }

    // tp must split the heads, the K/V heads and d_ff evenly; the problem names distributed.tp.
    void refusesUnsplittableTp()
    {
        const TrainConfig config = tinyConfig(data_);  // 4 heads, 4 K/V heads, d_ff 64
        std::vector<std::string> failures(3);
        ThreadGroup group(3);
        group.run([&](Communicator &communicator) {
            Result<std::unique_ptr<TensorParallelTrainer>> trainer = TensorParallelTrainer::create(config, communicator);
            failures[std::size_t(communicator.rank())] = trainer ? std::string() : formatProblems(trainer.problems());
        });
        for (const std::string &failure : failures) {
            QVERIFY2(failure.find("distributed.tp") != std::string::npos, failure.c_str());
            QVERIFY2(failure.find("n_heads") != std::string::npos, failure.c_str());
        }
        TrainConfig post = config;
        post.model.norm_placement = NormPlacement::Post;
        const Problems problems = validateForTensorParallel(post.model, post.options, 2);
        QCOMPARE(int(problems.size()), 1);
        QCOMPARE(problems.front().field, std::string("model.norm_placement"));
        // Sequence parallelism splits every sequence: the context must divide by tp.
        TrainConfig odd = config;
        odd.model.max_seq_len = 15;
        QVERIFY(validateForTensorParallel(odd.model, odd.options, 2, false).empty());
        const Problems sp = validateForTensorParallel(odd.model, odd.options, 2, true);
        QCOMPARE(int(sp.size()), 1);
        QCOMPARE(sp.front().field, std::string("distributed.tp"));
    }
};

QTEST_GUILESS_MAIN(TestTensorParallel)
#include "test_tensor_parallel.moc"
