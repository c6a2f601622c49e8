// SPDX-License-Identifier: GPL-3.0-or-later
// The reference run's predicted step time (core/reference/step_time_prediction.h): it comes from
// this machine's roofline and the step's operators alone, never from a run (issue 13, item 6).
// A made-up roofline keeps the numbers independent of this machine; the tiny model runs in
// milliseconds. No timing is asserted.
#include "reference/step_time_prediction.h"
#include "reference/token_data.h"
#include "reference/trainer.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace lse;
using namespace lse::reference;

namespace {

MachineRoofline fakeCpu()
{
    MachineRoofline r = currentMachineIdentity();
    r.threads_used = 2;
    r.peak_flops_per_s_one_core = 40e9;
    r.peak_flops_per_s_all_cores = 75e9;
    r.bandwidth_bytes_per_s_one_core = 9e9;
    r.bandwidth_bytes_per_s_all_cores = 14e9;
    r.measured_at = "2026-12-01T10:00:00Z";
    return r;
}

TrainConfig tinyConfig(const std::string &data)
{
    TrainConfig c;
    c.model.name = "prediction-test";
    c.model.n_layers = 2;
    c.model.d_model = 32;
    c.model.n_heads = 4;
    c.model.n_kv_heads = 4;
    c.model.head_dim = 8;
    c.model.d_ff = 64;
    c.model.vocab_size = 64;
    c.model.max_seq_len = 16;
    c.data_path = data;
    c.batch_size = 2;
    c.steps = 10;
    c.warmup_steps = 1;
    c.eval_every = 0;
    c.threads = 1;
    return c;
}

}  // namespace

class TestReferencePrediction : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::string data_;

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        data_ = dir_.filePath(QStringLiteral("tokens.bin")).toStdString();
        std::vector<std::uint32_t> ids(2000);
        for (std::size_t i = 0; i < ids.size(); ++i)
            ids[i] = std::uint32_t((i * 7) % 64);
        QVERIFY(writeTokenFile(data_, ids, TokenDtype::U16).ok());
    }

    // The prediction is the sum over operators of max(FLOPs / peak, bytes / bandwidth).
    void matchesHandSumOverOperators()
    {
        const MachineRoofline cpu = fakeCpu();
        const Result<StepTimePrediction> p = predictStepTime(tinyConfig(data_), cpu, 2);
        QVERIFY2(p.ok(), formatProblems(p.problems()).c_str());
        QVERIFY(p->all_cores);
        QVERIFY(!p->report.ops.empty());
        double hand = 0;
        bool has_optimizer = false;
        for (const RooflineOp &op : p->report.ops) {
            hand += std::max(op.flops / cpu.peak_flops_per_s_all_cores, op.bytes() / cpu.bandwidth_bytes_per_s_all_cores);
            has_optimizer = has_optimizer || op.pass == OpPass::Optimizer;
        }
        QVERIFY(has_optimizer);  // the trainer's step includes the AdamW update
        QVERIFY(hand > 0);
        QVERIFY(std::abs(p->seconds - hand) <= 1e-12 * hand);
        QVERIFY(std::abs(p->compute_bound_seconds + p->memory_bound_seconds - p->seconds) <= 1e-12 * hand);

        // One thread: the one-core roofline, hence a longer step.
        const Result<StepTimePrediction> one = predictStepTime(tinyConfig(data_), cpu, 1);
        QVERIFY(one.ok());
        QVERIFY(!one->all_cores);
        QCOMPARE(one->machine.peak_flops_per_second, cpu.peak_flops_per_s_one_core);
        QVERIFY(one->seconds > p->seconds);
    }

    // The operators are the step the trainer runs: their forward + backward FLOPs are the FLOPs
    // the op profiler counts in one training step.
    void operatorsAreTheTrainersStep()
    {
        const TrainConfig config = tinyConfig(data_);
        const Result<StepTimePrediction> p = predictStepTime(config, fakeCpu(), 1);
        QVERIFY(p.ok());
        double predicted = 0;
        for (const RooflineOp &op : p->report.ops)
            if (op.pass == OpPass::Forward || op.pass == OpPass::Backward)
                predicted += op.flops;
        Result<std::unique_ptr<Trainer>> trainer = Trainer::create(config);
        QVERIFY2(trainer.ok(), formatProblems(trainer.problems()).c_str());
        const Result<StepReport> step = trainer.value()->step();
        QVERIFY(step.ok());
        QVERIFY2(std::abs(step->flops - predicted) <= 1e-9 * predicted,
                 qPrintable(QStringLiteral("measured %1, predicted %2").arg(step->flops).arg(predicted)));
    }

    // Two runs with different measured step times get the same prediction: it never reads a run.
    // (Before issue 13 the prediction was FLOPs / (peak × the run's MFU), i.e. the run itself.)
    void doesNotUseTheRun()
    {
        TrainConfig config = tinyConfig(data_);
        config.peak_flops_per_s = 75e9;
        Result<std::unique_ptr<Trainer>> a = Trainer::create(config);
        QVERIFY(a.ok());
        const Result<StepReport> first = a.value()->step();  // cold: page faults, packing buffers
        QVERIFY(first.ok());
        const Result<StepTimePrediction> before = predictStepTime(a.value()->config(), fakeCpu(), 1);
        for (int i = 0; i < 3; ++i)
            QVERIFY(a.value()->step().ok());
        const Result<StepTimePrediction> after = predictStepTime(a.value()->config(), fakeCpu(), 1);
        QVERIFY(before.ok() && after.ok());
        QCOMPARE(after->seconds, before->seconds);

        const double measured_a = first->seconds, measured_b = first->seconds * 3;
        const std::optional<double> da = signedDifference(measured_a, before->seconds);
        const std::optional<double> db = signedDifference(measured_b, before->seconds);
        QVERIFY(da && db);
        QVERIFY(*da != *db);  // the difference follows the measurement, not a constant
        QCOMPARE(*da, (measured_a - before->seconds) / before->seconds);
    }

    void signedDifferenceSigns()
    {
        QCOMPARE(*signedDifference(3.0, 2.0), 0.5);
        QCOMPARE(*signedDifference(1.0, 2.0), -0.5);
        QVERIFY(!signedDifference(1.0, 0.0));
    }

    void typicalStepIsTheMedianAfterTheFirst()
    {
        QCOMPARE(typicalStepSeconds({}), 0.0);
        QCOMPARE(typicalStepSeconds({0.5}), 0.5);
        QCOMPARE(typicalStepSeconds({9.0, 0.2, 0.1, 0.3}), 0.2);        // the cold first step is left out
        QCOMPARE(typicalStepSeconds({9.0, 0.2, 16.0, 0.1, 0.3}), 0.25);  // one stalled step does not dominate
    }

    void unmeasuredRooflineIsAProblem()
    {
        MachineRoofline cpu = fakeCpu();
        cpu.bandwidth_bytes_per_s_all_cores = 0;
        const Result<StepTimePrediction> p = predictStepTime(tinyConfig(data_), cpu, 2);
        QVERIFY(!p.ok());
        QCOMPARE(p.problems().front().field, std::string("machine"));
        QVERIFY(p.problems().front().message.find("--remeasure") != std::string::npos);
        QVERIFY(predictStepTime(tinyConfig(data_), cpu, 1).ok());  // the one-core line is complete
    }
};

QTEST_GUILESS_MAIN(TestReferencePrediction)
#include "test_reference_prediction.moc"
