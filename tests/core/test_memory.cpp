// SPDX-License-Identifier: GPL-3.0-or-later
// Memory per GPU: model states (ZeRO paper) and activations (Korthikanti et al. 2022).

#include "cost/estimate.h"
#include "ops/operator_list.h"
#include "test_models.h"

#include <QTest>

using namespace lse;

namespace {

TrainingConfig mixedAdam(int zero_stage)
{
    TrainingConfig training;
    training.precision = precisionForRecipe(PrecisionRecipe::BF16Mixed);
    training.optimizer = Optimizer::Adam;
    training.parallel.zero_stage = zero_stage;
    return training;
}

// One GPT layer's operators as the Korthikanti paper analyses it: 16-bit activations, dropout,
// no FlashAttention.
std::vector<Operator> korthikantiLayer(std::int64_t s, std::int64_t b, std::int64_t h, int a)
{
    OperatorShapes shapes;
    shapes.seq_len = s;
    shapes.micro_batch = b;
    shapes.activation_bytes = 2;
    shapes.flash_attention = false;
    shapes.dropout = true;
    return forwardOperators(test::gptModel(1, h, a, 51200, s), shapes).dense_layers.ops;
}

}  // namespace

class TestMemory : public QObject {
    Q_OBJECT
private slots:
    // ZeRO (Rajbhandari et al. 2019) Figure 1: a 7.5B-parameter model on 64 GPUs,
    // mixed-precision Adam (K = 12).
    void zeroPaperExample_data()
    {
        QTest::addColumn<int>("stage");
        QTest::addColumn<double>("gigabytes");
        QTest::addRow("ZeRO Fig.1 baseline: 120 GB") << 0 << 120.0;
        QTest::addRow("ZeRO Fig.1 P_os: 31.4 GB") << 1 << 31.4;
        QTest::addRow("ZeRO Fig.1 P_os+g: 16.6 GB") << 2 << 16.6;
        QTest::addRow("ZeRO Fig.1 P_os+g+p: 1.9 GB") << 3 << 1.9;
    }
    void zeroPaperExample()
    {
        QFETCH(int, stage);
        QFETCH(double, gigabytes);
        const TrainingConfig training = mixedAdam(stage);
        const ModelStateBytes bytes =
            modelStateBytes(7.5e9, training, 64, optimizerStateBytesPerParameter(training.optimizer));
        // The paper prints one decimal.
        QVERIFY2(std::abs(bytes.total() / 1e9 - gigabytes) < 0.05,
                 qPrintable(QString("got %1 GB").arg(bytes.total() / 1e9)));
    }

    // cost-model-notes.md: 16 (ZeRO), 18 (fp32 grads), 20 (fp32 accumulation), 12 (no master).
    void bytesPerParameterConventions_data()
    {
        QTest::addColumn<int>("convention");
        QTest::addColumn<double>("bytes");
        QTest::addRow("ZeRO §3.1: bf16 weights+grads, fp32 master+Adam = 16") << 0 << 16.0;
        QTest::addRow("Megatron bf16 / HF docs: fp32 gradients = 18") << 1 << 18.0;
        QTest::addRow("fp16 with fp32 gradient accumulation = 20") << 2 << 20.0;
        QTest::addRow("CS336 2026 lecture: no master copy = 12") << 3 << 12.0;
        QTest::addRow("fp32 SGD with momentum = 12") << 4 << 12.0;
        QTest::addRow("8-bit Adam (Dettmers 2022) + fp32 master = 10 + block scales") << 5 << 10.0 + 8.0 / 2048;
    }
    void bytesPerParameterConventions()
    {
        QFETCH(int, convention);
        QFETCH(double, bytes);
        TrainingConfig training = mixedAdam(0);
        switch (convention) {
        case 1: training.precision.gradient_dtype = DType::FP32; break;
        case 2:
            training.precision = precisionForRecipe(PrecisionRecipe::FP16Mixed);
            training.precision.fp32_gradient_accumulation = true;
            break;
        case 3: training.precision.master_weights = false; break;
        case 4:
            training.precision = precisionForRecipe(PrecisionRecipe::FP32);
            training.optimizer = Optimizer::Momentum;
            break;
        case 5: training.optimizer = Optimizer::Adam8bit; break;
        default: break;
        }
        const ModelStateBytes states =
            modelStateBytes(1.0, training, 1, optimizerStateBytesPerParameter(training.optimizer));
        QCOMPARE(states.total(), bytes);
    }

    // Korthikanti et al. 2022, Table 2, per layer (bytes), for GPT-3 175B (s=2048, h=12288,
    // a=96) and MT-NLG 530B (h=20480, a=128), micro-batch 1, t=8.
    void korthikantiTable2_data()
    {
        QTest::addColumn<qint64>("hidden");
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("tp");
        QTest::addColumn<bool>("sp");
        QTest::addColumn<int>("recompute");
        QTest::addColumn<double>("expected_sbh");  // coefficient of s·b·h
        struct Row {
            const char *name;
            qint64 h;
            int a;
            int t;
            bool sp;
            Recomputation recompute;
        };
        const Row rows[] = {
            {"Table 2 none: sbh(34 + 5as/h), GPT-3 175B", 12288, 96, 1, false, Recomputation::None},
            {"Table 2 TP: sbh(10 + 24/t + 5as/(ht)), GPT-3 175B", 12288, 96, 8, false, Recomputation::None},
            {"Table 2 TP+SP: sbh/t(34 + 5as/h), GPT-3 175B", 12288, 96, 8, true, Recomputation::None},
            {"Table 2 TP+selective: sbh(10 + 24/t), GPT-3 175B", 12288, 96, 8, false, Recomputation::Selective},
            {"Table 2 TP+SP+selective: 34sbh/t, GPT-3 175B", 12288, 96, 8, true, Recomputation::Selective},
            {"Table 2 full recompute: 2sbh, GPT-3 175B", 12288, 96, 8, false, Recomputation::Full},
            {"Table 2 none: sbh(34 + 5as/h), MT-NLG 530B", 20480, 128, 1, false, Recomputation::None},
            {"Table 2 TP: sbh(10 + 24/t + 5as/(ht)), MT-NLG 530B", 20480, 128, 8, false, Recomputation::None},
            {"Table 2 TP+SP: sbh/t(34 + 5as/h), MT-NLG 530B", 20480, 128, 8, true, Recomputation::None},
            {"Table 2 TP+SP+selective: 34sbh/t, MT-NLG 530B", 20480, 128, 8, true, Recomputation::Selective},
        };
        const double s = 2048;
        for (const Row &row : rows) {
            const double attention = 5.0 * row.a * s / double(row.h);  // 5as/h
            const double t = row.t;
            double coefficient = 0;
            switch (row.recompute) {
            case Recomputation::None:
                coefficient = row.sp ? (34 + attention) / t : 10 + 24 / t + attention / t;
                break;
            case Recomputation::Selective: coefficient = row.sp ? 34 / t : 10 + 24 / t; break;
            case Recomputation::Full: coefficient = 2; break;
            }
            QTest::addRow("%s", row.name) << row.h << row.a << row.t << row.sp << int(row.recompute) << coefficient;
        }
    }
    void korthikantiTable2()
    {
        QFETCH(qint64, hidden);
        QFETCH(int, heads);
        QFETCH(int, tp);
        QFETCH(bool, sp);
        QFETCH(int, recompute);
        QFETCH(double, expected_sbh);
        const std::int64_t s = 2048, b = 1;
        const double bytes = layerActivationBytes(korthikantiLayer(s, b, hidden, heads),
                                                  {tp, sp, Recomputation(recompute)});
        QCOMPARE(bytes, expected_sbh * double(s * b * hidden));
    }

    void korthikantiGpt3LiteralValue()
    {
        // 5as/h = 80 for GPT-3 (Korthikanti §4.1): 114·sbh = 2,868,903,936 bytes per layer.
        const double bytes = layerActivationBytes(korthikantiLayer(2048, 1, 12288, 96), {1, false, Recomputation::None});
        QCOMPARE(bytes, 2'868'903'936.0);
    }

    void flashAttentionDropsQuadraticTerm()
    {
        OperatorShapes shapes;
        shapes.seq_len = 2048;
        shapes.flash_attention = true;
        const ModelConfig model = test::gptModel(1, 12288, 96, 51200, 2048);
        const double flash = layerActivationBytes(forwardOperators(model, shapes).dense_layers.ops, {});
        // 34sbh without dropout masks (32sbh... minus 2 masks: 32sbh) plus the fp32 log-sum-exp.
        const double sbh = 2048.0 * 12288.0;
        QCOMPARE(flash, 32.0 * sbh + 4.0 * 2048.0 * 96.0);
    }

    // Korthikanti §4.2.3: with 1F1B the first stage keeps p micro-batches of its L/p layers,
    // i.e. L layers' worth; interleaving multiplies that by 1 + (p-1)/(p·v).
    void pipelineInFlightActivations_data()
    {
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("virtual_stages");
        QTest::addColumn<double>("layers_worth");
        QTest::addRow("Korthikanti §4.2.3 no PP: L layers") << 1 << 1 << 8.0;
        QTest::addRow("Korthikanti §4.2.3 p=4 1F1B: L layers") << 4 << 1 << 8.0;
        QTest::addRow("Korthikanti §4.2.3 p=4 v=2: L(1 + 3/8)") << 4 << 2 << 8.0 * (1.0 + 3.0 / 8.0);
    }
    void pipelineInFlightActivations()
    {
        QFETCH(int, pp);
        QFETCH(int, virtual_stages);
        QFETCH(double, layers_worth);
        Scenario scenario = test::scenarioFor(test::gptModel(8, 1024, 16, 50304, 1024), 16);
        scenario.training.parallel.dp = 16 / pp;
        scenario.training.parallel.pp = pp;
        scenario.training.parallel.virtual_stages = virtual_stages;
        scenario.training.global_batch = 64;
        const Result<Estimate> result = estimate(scenario);
        QVERIFY2(result.ok(), formatProblems(result.problems()).c_str());
        const MemoryEstimate &memory = result->memory;
        QCOMPARE(memory.pipeline_stage, 0);
        OperatorShapes shapes;
        shapes.seq_len = 1024;
        const ForwardOperators forward = forwardOperators(scenario.model, shapes);
        double expected = layers_worth * layerActivationBytes(forward.dense_layers.ops, {});
        expected += layerActivationBytes(forward.embedding, {}) * memory.in_flight_micro_batches;
        if (pp == 1)
            expected += layerActivationBytes(forward.head, {});
        QCOMPARE(double(memory.activations), std::floor(expected));
    }

    void tensorAndPipelineShardModelStates()
    {
        // Llama-2-70B-class on 64 GPUs, tp 8 pp 8: each GPU holds ~1/64 of the parameters.
        Scenario scenario = test::scenarioFor(test::gptModel(80, 8192, 64, 32000, 4096), 64);
        scenario.model.tied_embeddings = false;
        scenario.training.parallel = {1, 8, 8, 1, 1, 1, 0, true};
        scenario.training.global_batch = 64;
        const Result<Estimate> result = estimate(scenario);
        QVERIFY2(result.ok(), formatProblems(result.problems()).c_str());
        const double share = double(result->memory.parameters_on_gpu) / double(result->params.total);
        QVERIFY2(share > 1.0 / 64 && share < 1.2 / 64, qPrintable(QString::number(share)));
        QCOMPARE(result->memory.params, result->memory.parameters_on_gpu * 2);
    }

    void kvCachePerToken()
    {
        // vLLM §3 / Llama-2-70B: 2 · 80 layers · 8 KV heads · 128 · 2 bytes = 327,680 bytes per token.
        Scenario scenario = test::scenarioFor(test::gptModel(80, 8192, 64, 32000, 4096), 8);
        scenario.model.n_kv_heads = 8;
        const Result<Estimate> result = estimate(scenario);
        QVERIFY(result.ok());
        QCOMPARE(result->inference.kv_cache_bytes_per_token, qint64(327'680));
        QCOMPARE(result->inference.kv_cache_bytes_per_sequence, qint64(327'680) * 4096);
    }

    // The default framework reserve (issue 28 item 19) is the sum of its three cited parts, about
    // 4 GB per GPU: the CUDA context with the kernels (1,343 MiB measured by Hugging Face), one NCCL
    // communicator's buffers (688 MB, NVIDIA/nccl #964) and the caching allocator's fragmentation
    // (1.83 GiB in a PyTorch out-of-memory report for Llama 3.3 70B). It is part of every total,
    // so a layout search leaves that much of each GPU free.
    void defaultFrameworkReserveIsInTheTotal()
    {
        std::int64_t parts = 0;
        for (const FrameworkReserveFigure &figure : kDefaultFrameworkReserve) {
            QVERIFY(!figure.source.empty());
            parts += figure.bytes;
        }
        QCOMPARE(parts, qint64(4'100'000'000));  // 1.4 + 0.7 + 2.0 GB
        QCOMPARE(kDefaultFrameworkReserveBytes, parts);
        QCOMPARE(TrainingConfig{}.framework_reserve_bytes, parts);
        const Scenario scenario = test::scenarioFor(test::gptModel(12, 768, 12, 50257, 1024), 1);
        const Result<Estimate> result = estimate(scenario);
        QVERIFY(result.ok());
        const MemoryEstimate &m = result->memory;
        QCOMPARE(m.framework_reserve, parts);
        QCOMPARE(m.total, m.params + m.grads + m.optimizer + m.activations + parts);
        // A reserve of 0 is allowed: the papers' memory figures count only the model's own bytes.
        Scenario bare = scenario;
        bare.training.framework_reserve_bytes = 0;
        QCOMPARE(estimate(bare)->memory.total, m.total - parts);
    }

    void fitsComparesWithCapacity()
    {
        Scenario scenario = test::scenarioFor(test::gptModel(12, 768, 12, 50257, 1024), 1);
        Result<Estimate> small = estimate(scenario);
        QVERIFY(small.ok() && small->memory.fits);
        QCOMPARE(small->memory.capacity, scenario.cluster.accelerator.memory_bytes);
        scenario.model = test::gptModel(96, 12288, 96, 50257, 2048);
        scenario.training.seq_len = 2048;
        Result<Estimate> huge = estimate(scenario);
        QVERIFY(huge.ok() && !huge->memory.fits);
        QVERIFY(huge->memory.total > huge->memory.capacity);
    }
};

QTEST_GUILESS_MAIN(TestMemory)
#include "test_memory.moc"
