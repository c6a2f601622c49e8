// SPDX-License-Identifier: GPL-3.0-or-later
// The reference run's predicted step time (core/reference/step_time_comparison.h): the one
// operator-level predictor (core/performance) with this CPU's kernel factors, from the step's
// operators alone, never from a run (issue 13, item 6; issue 29, section 3). Given (made-up)
// kernel factors keep the numbers independent of this machine; the tiny model runs in
// milliseconds. No timing is asserted.
#include "../cpu_kernel_fixture.h"
#include "performance/cpu_kernel_time.h"
#include "reference/step_time_comparison.h"
#include "reference/token_data.h"
#include "reference/trainer.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace lse;
using namespace lse::reference;

namespace {

CpuKernelFactors givenKernels(int threads, double cpu_share = 1)
{
    CpuKernelFactors f = lse::test::givenCpuKernelFactors(threads, 40e9, 20e9, 3e9, "2026-12-01T10:00:00Z");
    f.barrier_seconds = threads > 1 ? 4e-6 : 0;
    f.cpu_share = cpu_share;
    return f;
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

    // The step is the predictor's operators (each timed by its CPU kernel class) plus the
    // trainer's gradient passes and finite check; with a share of the cores below 1 the time other
    // processes hold them is added: idle · (1/share − 1).
    void stepIsTheSumOfItsParts()
    {
        const Result<ReferenceStepPrediction> p = predictReferenceStep(tinyConfig(data_), givenKernels(1));
        QVERIFY2(p.ok(), formatProblems(p.problems()).c_str());
        double operators = 0;
        bool has_optimizer = false;
        for (const performance::OperatorTime &op : p->step.operators) {
            operators += op.seconds;
            has_optimizer = has_optimizer || op.pass == "optimizer";
        }
        QVERIFY(has_optimizer);  // the trainer's step includes the AdamW update
        QVERIFY(std::abs(operators - p->step.total_seconds) <= 1e-12 * operators);
        QVERIFY(p->gradient_passes_seconds > 0 && p->finite_check_seconds > 0);
        QVERIFY(std::abs(p->idle_seconds - (p->step.total_seconds + p->gradient_passes_seconds + p->finite_check_seconds)) <=
                1e-12 * p->idle_seconds);
        QCOMPARE(p->other_processes_seconds, 0.0);
        QCOMPARE(p->seconds, p->idle_seconds);

        const Result<ReferenceStepPrediction> shared = predictReferenceStep(tinyConfig(data_), givenKernels(1, 0.5));
        QVERIFY(shared.ok());
        QVERIFY(std::abs(shared->idle_seconds - p->idle_seconds) <= 1e-12 * p->idle_seconds);
        QVERIFY(std::abs(shared->seconds - 2 * p->idle_seconds) <= 1e-12 * p->idle_seconds);
    }

    // Every weight product is timed from the rate table: the tiny model's products all sit on or
    // above the 16..256 grid, so each takes its FLOPs / 40 GFLOP/s.
    void productsUseTheRateTable()
    {
        const Result<ReferenceStepPrediction> p = predictReferenceStep(tinyConfig(data_), givenKernels(1));
        QVERIFY(p.ok());
        int products = 0;
        for (const performance::OperatorTime &op : p->step.operators)
            if (op.kernel_class == performance::KernelClass::Gemm) {
                ++products;
                QVERIFY2(std::abs(op.seconds - op.flops / 40e9) <= 1e-9 * op.seconds, op.name.c_str());
            }
        QVERIFY(products > 0);
    }

    // The operators are the step the trainer runs: their forward + backward FLOPs are the FLOPs
    // the op profiler counts in one training step.
    void operatorsAreTheTrainersStep()
    {
        const TrainConfig config = tinyConfig(data_);
        const Result<ReferenceStepPrediction> p = predictReferenceStep(config, givenKernels(1));
        QVERIFY(p.ok());
        double predicted = 0;
        for (const performance::OperatorTime &op : p->step.operators)
            if (op.pass == "forward" || op.pass == "backward")
                predicted += op.flops;
        Result<std::unique_ptr<Trainer>> trainer = Trainer::create(config);
        QVERIFY2(trainer.ok(), formatProblems(trainer.problems()).c_str());
        const Result<StepReport> step = trainer.value()->step();
        QVERIFY(step.ok());
        QVERIFY2(std::abs(step->flops - predicted) <= 1e-9 * predicted,
                 qPrintable(QStringLiteral("measured %1, predicted %2").arg(step->flops).arg(predicted)));
        // Every operator the profiler timed has a predicted row of the same name.
        const std::vector<OperatorComparison> rows =
            compareOperators(*p, {}, trainer.value()->profiler().records(), 1, step->seconds);
        for (const OperatorComparison &row : rows)
            QVERIFY2(row.predicted_seconds > 0 || row.name == "token_embedding", row.name.c_str());
    }

    // Two runs with different measured step times get the same prediction: it never reads a run.
    void doesNotUseTheRun()
    {
        TrainConfig config = tinyConfig(data_);
        Result<std::unique_ptr<Trainer>> a = Trainer::create(config);
        QVERIFY(a.ok());
        const Result<StepReport> first = a.value()->step();
        QVERIFY(first.ok());
        const Result<ReferenceStepPrediction> before = predictReferenceStep(a.value()->config(), givenKernels(1));
        for (int i = 0; i < 3; ++i)
            QVERIFY(a.value()->step().ok());
        const Result<ReferenceStepPrediction> after = predictReferenceStep(a.value()->config(), givenKernels(1));
        QVERIFY(before.ok() && after.ok());
        QCOMPARE(after->seconds, before->seconds);
    }

    // Rows join the predictor's (name, pass) with the profiler's, over the steps after the first,
    // largest |measured − predicted| first; a forward the profiler never timed alone is fused with
    // its backward; the rest of the step is the optimizer row.
    void operatorComparisonRows()
    {
        ReferenceStepPrediction p;
        p.idle_seconds = p.seconds = 1.0;
        const auto op = [](const char *name, const char *pass, double seconds) {
            performance::OperatorTime t;
            t.name = name;
            t.pass = pass;
            t.seconds = seconds;
            return t;
        };
        p.step.operators = {op("mlp_up", "forward", 0.010), op("mlp_up", "backward", 0.010), op("mlp_up", "backward", 0.010),
                            op("cross_entropy", "forward", 0.002), op("cross_entropy", "backward", 0.004),
                            op("optimizer_step", "optimizer", 0.003)};
        p.gradient_passes_seconds = 0.001;
        p.finite_check_seconds = 0.0005;
        // After the first step, and at the end of three steps in all (two after the first).
        const std::vector<OpRecord> after_first = {{"mlp_up", OpPhase::Forward, true, 0, 0.011, 1},
                                                   {"mlp_up", OpPhase::Backward, true, 0, 0.030, 1},
                                                   {"cross_entropy", OpPhase::Backward, false, 0, 0.009, 1}};
        const std::vector<OpRecord> end = {{"mlp_up", OpPhase::Forward, true, 0, 0.011 + 2 * 0.012, 3},
                                           {"mlp_up", OpPhase::Backward, true, 0, 0.030 + 2 * 0.021, 3},
                                           {"cross_entropy", OpPhase::Backward, false, 0, 0.009 + 2 * 0.005, 3}};
        const std::vector<OperatorComparison> rows = compareOperators(p, after_first, end, 2, 0.045);
        QCOMPARE(rows.size(), std::size_t(4));
        const auto find = [&rows](const std::string &name, const std::string &pass) {
            return *std::find_if(rows.begin(), rows.end(),
                                 [&](const OperatorComparison &r) { return r.name == name && r.pass == pass; });
        };
        const OperatorComparison up = find("mlp_up", "forward");
        QVERIFY(std::abs(up.predicted_seconds - 0.010) < 1e-12 && std::abs(up.measured_seconds - 0.012) < 1e-12);
        QVERIFY(std::abs(up.difference_fraction - 0.2) < 1e-9);
        const OperatorComparison up_back = find("mlp_up", "backward");  // two products in one row
        QVERIFY(std::abs(up_back.predicted_seconds - 0.020) < 1e-12 && std::abs(up_back.measured_seconds - 0.021) < 1e-12);
        const OperatorComparison loss = find("cross_entropy", "forward+backward");
        QVERIFY(std::abs(loss.predicted_seconds - 0.006) < 1e-12 && std::abs(loss.measured_seconds - 0.005) < 1e-12);
        const OperatorComparison rest = find(kOptimizerAndRestName, "optimizer");
        QVERIFY(std::abs(rest.predicted_seconds - 0.0045) < 1e-12);
        QVERIFY(std::abs(rest.measured_seconds - (0.045 - 0.012 - 0.021 - 0.005)) < 1e-12);
        for (std::size_t i = 1; i < rows.size(); ++i)
            QVERIFY(std::abs(rows[i - 1].measured_seconds - rows[i - 1].predicted_seconds) >=
                    std::abs(rows[i].measured_seconds - rows[i].predicted_seconds));
        // The predicted rows carry the step's share of other processes: at half the cores, twice.
        p.seconds = 2.0;
        const std::vector<OperatorComparison> shared = compareOperators(p, after_first, end, 2, 0.045);
        QVERIFY(std::abs(std::find_if(shared.begin(), shared.end(), [](const OperatorComparison &r) {
                             return r.name == "mlp_up" && r.pass == "forward";
                         })->predicted_seconds - 0.020) < 1e-12);
    }

    // The tiled attention kernel is timed as one operator, flash_attention; the engine lists three
    // (flash_attention, flash_softmax, flash_attention_values): one row holds the three predictions
    // and the one measurement (the parts' zero-time records add nothing).
    void flashAttentionPartsShareOneRow()
    {
        ReferenceStepPrediction p;
        p.idle_seconds = p.seconds = 1.0;
        const auto op = [](const char *name, const char *pass, double seconds) {
            performance::OperatorTime t;
            t.name = name;
            t.pass = pass;
            t.seconds = seconds;
            return t;
        };
        p.step.operators = {op("flash_attention", "forward", 0.004), op("flash_softmax", "forward", 0.001),
                            op("flash_attention_values", "forward", 0.004), op("flash_attention", "backward", 0.008),
                            op("flash_softmax", "backward", 0.002), op("flash_attention_values", "backward", 0.008)};
        const std::vector<OpRecord> end = {{"flash_attention", OpPhase::Forward, true, 0, 0.010, 1},
                                           {"flash_softmax", OpPhase::Forward, false, 0, 0, 1},
                                           {"flash_attention_values", OpPhase::Forward, true, 0, 0, 1},
                                           {"flash_attention", OpPhase::Backward, true, 0, 0.020, 1},
                                           {"flash_softmax", OpPhase::Backward, false, 0, 0, 1},
                                           {"flash_attention_values", OpPhase::Backward, true, 0, 0, 1}};
        const std::vector<OperatorComparison> rows = compareOperators(p, {}, end, 1, 0.030);
        for (const OperatorComparison &r : rows)
            QVERIFY2(r.name == "flash_attention" || r.name == kOptimizerAndRestName, r.name.c_str());
        for (const char *pass : {"forward", "backward"}) {
            const auto row = std::find_if(rows.begin(), rows.end(), [&](const OperatorComparison &r) {
                return r.name == "flash_attention" && r.pass == pass;
            });
            QVERIFY(row != rows.end());
            const double scale = std::string(pass) == "forward" ? 1 : 2;
            QVERIFY(std::abs(row->predicted_seconds - 0.009 * scale) < 1e-12);
            QVERIFY(std::abs(row->measured_seconds - 0.010 * scale) < 1e-12);
        }
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

    void incompleteKernelFactorsAreAProblem()
    {
        CpuKernelFactors f = givenKernels(1);
        f.stream_bytes_per_second.clear();
        const Result<ReferenceStepPrediction> p = predictReferenceStep(tinyConfig(data_), f);
        QVERIFY(!p.ok());
        QCOMPARE(p.problems().front().field, std::string("kernels.stream_bytes_per_second"));
    }
};

QTEST_GUILESS_MAIN(TestReferencePrediction)
#include "test_reference_prediction.moc"
