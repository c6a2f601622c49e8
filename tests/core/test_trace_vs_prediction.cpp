// SPDX-License-Identifier: GPL-3.0-or-later
// A trace beside the engine's prediction (core/traces/trace_vs_prediction.h): GEMM shapes from the
// profiler's Input Dims, the catalog part of a deviceProperties name, the peak a GEMM kernel runs
// at, one GEMM call's predicted time by hand (kernel_time.h's formula with the H100's catalog
// factors), the matching of a hand-made forward pass to a small model's predicted operators (shapes
// up to transposition and splits; the parts of the measured step adding up to it), and the real
// traces of tests/data/traces: Qwen1.5-0.5B's forward on an H100 (AMD TraceLens) against its
// scenario, and HTA's A100 training ranks per GEMM call.

#include "hardware/hardware_catalog.h"
#include "performance/step_prediction.h"
#include "scenario/scenario_json.h"
#include "traces/trace_analysis.h"
#include "traces/trace_loader.h"
#include "traces/trace_vs_prediction.h"

#include <QTest>

#include <cmath>

using namespace lse;
using namespace lse::traces;

namespace {

QString tracePath(const char *relative)
{
    return QStringLiteral(LSE_TEST_DATA_DIR "/traces/") + QString::fromUtf8(relative);
}

bool close(double a, double b, double tolerance = 1e-9)
{
    return std::abs(a - b) <= tolerance * std::max({std::abs(a), std::abs(b), 1e-300});
}

TextId intern(TraceRank &rank, const std::string &text)
{
    for (std::size_t i = 0; i < rank.strings.size(); ++i)
        if (rank.strings[i] == text)
            return TextId(i);
    rank.strings.push_back(text);
    return TextId(rank.strings.size() - 1);
}

// A CPU operator with recorded shapes and the one kernel it launched, back to back on stream 7.
struct HandTrace {
    TraceRank rank;
    double clock_us = 0;

    void kernel(KernelClass cls, const std::string &kernel_name, double duration_us, std::int32_t op_index)
    {
        TraceKernel k;
        k.name = intern(rank, kernel_name);
        k.kernel_class = cls;
        k.start_us = clock_us;
        k.duration_us = duration_us;
        k.stream = 7;
        k.op_index = op_index;
        rank.kernels.push_back(k);
        clock_us += duration_us;
    }
    std::int32_t op(const std::string &name, std::vector<std::vector<std::int64_t>> dims, const std::string &type)
    {
        TraceCpuOp op;
        op.name = intern(rank, name);
        op.input_dims = std::move(dims);
        std::string shape = "[";
        for (std::size_t i = 0; i < op.input_dims.size(); ++i) {
            shape += (i ? ",[" : "[");
            for (std::size_t j = 0; j < op.input_dims[i].size(); ++j)
                shape += (j ? "," : "") + std::to_string(op.input_dims[i][j]);
            shape += "]";
        }
        op.shape = intern(rank, shape + "]");
        op.dtype = intern(rank, type);
        rank.cpu_ops.push_back(op);
        return std::int32_t(rank.cpu_ops.size() - 1);
    }
    void mm(std::int64_t m, std::int64_t k, std::int64_t n, double duration_us, const std::string &kernel_name = "sm90_xmma_gemm_bf16bf16_bf16f32")
    {
        kernel(KernelClass::Gemm, kernel_name, duration_us, op("aten::mm", {{m, k}, {k, n}}, "c10::BFloat16"));
    }
};

// One layer, d_model 256, 4 heads of 64, SwiGLU d_ff 512, vocabulary 2048, untied: every product
// has its own shape key except where the test says.
Scenario smallLlama()
{
    Scenario scenario;
    ModelConfig &model = scenario.model;
    model.name = "small";
    model.n_layers = 1;
    model.d_model = 256;
    model.n_heads = 4;
    model.n_kv_heads = 4;
    model.head_dim = 64;
    model.d_ff = 512;
    model.vocab_size = 2048;
    model.max_seq_len = 128;
    model.tied_embeddings = false;
    model.biases = {false, false, false, false};
    model.norm = NormType::RMSNorm;
    model.activation = Activation::SwiGLU;
    model.positional_encoding = PositionalEncoding::RoPE;
    scenario.cluster.accelerator = *builtinHardwareCatalog().find("h100-sxm");
    scenario.cluster.gpus = 1;
    scenario.cluster.gpus_per_node = 1;
    scenario.training.tokens = 1'000'000;
    scenario.training.seq_len = 128;
    scenario.training.global_batch = 2;
    scenario.training.micro_batch = 2;
    scenario.training.parallel.dp = 1;
    scenario.training.flash_attention = true;
    return scenario;
}

const OperatorComparison *row(const std::vector<OperatorComparison> &rows, const std::string &name)
{
    for (const OperatorComparison &r : rows)
        if (r.name == name)
            return &r;
    return nullptr;
}

double sumOfParts(const MissingTime &t)
{
    return t.predicted_kernel_seconds + t.slower_kernel_seconds + t.unpredicted_kernel_seconds
        + t.earlier_kernel_seconds + t.concurrent_kernel_seconds + t.exposed_communication_seconds + t.memcpy_seconds
        + t.idle_host_bound_seconds + t.idle_waiting_seconds;
}

TraceRank loadOrFail(const char *relative)
{
    const QString path = tracePath(relative);
    Result<TraceRank> rank = loadTrace(path.toStdString());
    if (!rank) {
        qWarning("%s: %s", qPrintable(path), rank.problems().front().message.c_str());
        return {};
    }
    return std::move(rank.value());
}

}  // namespace

class TestTraceVsPrediction : public QObject {
    Q_OBJECT

private slots:
    void gemmShapes_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("dims");  // rows of ints separated by ';', dims by ','
        QTest::addColumn<bool>("ok");
        QTest::addColumn<double>("batch");
        QTest::addColumn<double>("m");
        QTest::addColumn<double>("n");
        QTest::addColumn<double>("k");
        QTest::newRow("mm (8x16)(16x32)") << "aten::mm" << "8,16;16,32" << true << 1.0 << 8.0 << 32.0 << 16.0;
        QTest::newRow("addmm bias first") << "aten::addmm" << "32;8,16;16,32;;" << true << 1.0 << 8.0 << 32.0 << 16.0;
        QTest::newRow("bmm (4x8x16)(4x16x32)") << "aten::bmm" << "4,8,16;4,16,32" << true << 4.0 << 8.0 << 32.0 << 16.0;
        QTest::newRow("baddbmm") << "aten::baddbmm" << "4,8,32;4,8,16;4,16,32" << true << 4.0 << 8.0 << 32.0 << 16.0;
        QTest::newRow("mm inner sides differ") << "aten::mm" << "8,16;15,32" << false << 0.0 << 0.0 << 0.0 << 0.0;
        QTest::newRow("mm unknown dim") << "aten::mm" << "8,-1;-1,32" << false << 0.0 << 0.0 << 0.0 << 0.0;
        QTest::newRow("linear is a parent") << "aten::linear" << "8,16;32,16" << false << 0.0 << 0.0 << 0.0 << 0.0;
        QTest::newRow("no shapes") << "aten::mm" << "" << false << 0.0 << 0.0 << 0.0 << 0.0;
    }
    void gemmShapes()
    {
        QFETCH(QString, op);
        QFETCH(QString, dims);
        QFETCH(bool, ok);
        std::vector<std::vector<std::int64_t>> parsed;
        if (!dims.isEmpty())
            for (const QString &tensor : dims.split(';')) {
                std::vector<std::int64_t> sizes;
                for (const QString &d : tensor.split(',', Qt::SkipEmptyParts))
                    sizes.push_back(d.toLongLong());
                parsed.push_back(sizes);
            }
        GemmCallShape shape;
        QCOMPARE(gemmShapeOfCall(op.toStdString(), parsed, shape), ok);
        if (ok) {
            QFETCH(double, batch);
            QFETCH(double, m);
            QFETCH(double, n);
            QFETCH(double, k);
            QCOMPARE(shape.batch, batch);
            QCOMPARE(shape.m, m);
            QCOMPARE(shape.n, n);
            QCOMPARE(shape.k, k);
            QCOMPARE(shape.flops(), 2 * batch * m * n * k);
        }
    }

    void acceleratorOfDeviceName_data()
    {
        QTest::addColumn<QString>("device");
        QTest::addColumn<QString>("id");  // "" = not in the catalog
        QTest::newRow("HTA's A100 board") << "NVIDIA A100-PG509-200" << "a100-sxm-40gb";
        QTest::newRow("A100 80GB") << "NVIDIA A100-SXM4-80GB" << "a100-sxm-80gb";
        QTest::newRow("H100 SXM") << "NVIDIA H100 80GB HBM3" << "h100-sxm";
        QTest::newRow("H100 PCIe") << "NVIDIA H100 PCIe" << "h100-pcie";
        QTest::newRow("MI300X") << "AMD Instinct MI300X" << "mi300x";
        QTest::newRow("V100: not in the catalog") << "Tesla V100-SXM2-32GB" << "";
        QTest::newRow("no device") << "" << "";
    }
    void acceleratorOfDeviceName()
    {
        QFETCH(QString, device);
        QFETCH(QString, id);
        const Accelerator *found = acceleratorForDeviceName(device.toStdString(), builtinHardwareCatalog());
        QCOMPARE(found ? QString::fromStdString(found->id) : QString(), id);
    }

    void gemmPeakDtype_data()
    {
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("dtype");  // "" = none
        QTest::newRow("fp32 SIMT sgemm: fp32 peak") << "ampere_sgemm_128x64_nn" << "float" << "fp32";
        QTest::newRow("CUTLASS s1688: TF32") << "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4>" << "float" << "tf32";
        QTest::newRow("xmma tf32") << "sm80_xmma_gemm_f32f32_tf32f32_f32_nn_n" << "float" << "tf32";
        QTest::newRow("bf16") << "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n" << "c10::BFloat16" << "bf16";
        QTest::newRow("fp16") << "ampere_h16816gemm" << "c10::Half" << "fp16";
        QTest::newRow("integer") << "gemm" << "long int" << "";
        QTest::newRow("no type recorded") << "ampere_sgemm" << "" << "";
    }
    void gemmPeakDtype()
    {
        QFETCH(QString, kernel);
        QFETCH(QString, type);
        QFETCH(QString, dtype);
        const std::optional<DType> found = gemmKernelDType(kernel.toStdString(), type.toStdString());
        QCOMPARE(found ? QString::fromUtf8(toString(*found).data()) : QString(), dtype);
    }

    // 4096³ in bf16 on the H100 SXM (catalog: 989.4 TFLOP/s dense bf16, 132 SMs, 3.35 TB/s;
    // gemm_peak_fraction 0.668, 128×128 tiles, fixed cost depth 726, bandwidth fraction 0.502,
    // 5 µs overhead): 32·32 = 1024 tiles in ⌈1024/132⌉ = 8 waves, wave quantisation 1024/1056;
    // depth 4096/4822; compute 2·4096³ / (989.4e12 · 0.668 · 1024/1056 · 4096/4822) = 252.46 µs
    // beats memory 3·4096²·2 B / (3.35e12 · 0.502) = 59.9 µs; + 5 µs = 257.46 µs. The call's two
    // kernels (the product and cuBLAS's split-K reduction) took 400 + 20 µs: ratio 420 / 257.46.
    void gemmCallByHand()
    {
        HandTrace trace;
        const std::int32_t op = trace.op("aten::mm", {{4096, 4096}, {4096, 4096}}, "c10::BFloat16");
        trace.kernel(KernelClass::Gemm, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n", 400, op);
        trace.kernel(KernelClass::Gemm, "void cublasLt::splitKreduce_kernel", 20, op);
        const Accelerator &h100 = *builtinHardwareCatalog().find("h100-sxm");
        const Result<GemmPredictionSummary> summary = predictTraceGemms(trace.rank, h100);
        QVERIFY(summary.ok());
        const double efficiency = 0.668 * (1024.0 / 1056.0) * (4096.0 / 4822.0);
        const double predicted = 2.0 * 4096 * 4096 * 4096 / (989.4e12 * efficiency) + 5e-6;
        QCOMPARE(summary->calls, std::int64_t(1));
        QCOMPARE(summary->skipped_calls, std::int64_t(0));
        QVERIFY(close(summary->predicted_seconds, predicted, 1e-6));
        QVERIFY(close(summary->measured_seconds, 420e-6));
        QVERIFY(close(summary->median_ratio, 420e-6 / predicted, 1e-6));
        QCOMPARE(summary->rows.size(), std::size_t(1));
        QCOMPARE(summary->rows[0].dtype, std::string("bf16"));
        QCOMPARE(summary->rows[0].kernel_name, std::string("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n"));
        QCOMPARE(summary->rows[0].peak_flops_per_second, 989.4e12);
    }

    void gemmCallsNeedAGpuTrace()
    {
        TraceRank cpu_only;
        cpu_only.source = "cpu.json";
        const Result<GemmPredictionSummary> summary = predictTraceGemms(cpu_only, *builtinHardwareCatalog().find("h100-sxm"));
        QVERIFY(!summary.ok());
        QCOMPARE(summary.problems().front().field, std::string("trace"));
    }

    // A hand-made forward pass of smallLlama() (N = 2·128 = 256 tokens) against its prediction:
    //   q, k, v, o: 4 × (256×256)·(256×256), 10 µs each. The model fuses q|k|v into one
    //     (256×256)·(256×768) product and has one (256×256)·(256×256) output product: one call
    //     fills attention_output, the other three match qkv_projection as a split (768 = 3·256).
    //   gate, up, down: (256×256)·(256×512) twice and (256×512)·(512×256), 12 µs each: their
    //     shapes are alike up to transposition, so mlp_down takes one call and mlp_up (fused
    //     w1|w3, 256 → 1024) the two others as a split; FLOPs agree with the prediction either way.
    //   lm_head (256×256)·(256×2048) 30 µs; an attention kernel 20 µs (FlashAttention); an
    //     element-wise kernel 5 µs; and two the model does not have: (7×13)·(13×5) 3 µs, a
    //     convolution 4 µs. 138 µs of kernels in a 200 µs window with 62 µs idle.
    void forwardPassMatchedByHand()
    {
        HandTrace trace;
        for (int i = 0; i < 4; ++i)
            trace.mm(256, 256, 256, 10);
        trace.mm(256, 256, 512, 12);
        trace.mm(256, 256, 512, 12);
        trace.mm(256, 512, 256, 12);
        trace.mm(256, 256, 2048, 30);
        trace.mm(7, 13, 5, 3);
        trace.kernel(KernelClass::Attention, "pytorch_flash::flash_fwd_kernel",
                     20, trace.op("aten::_scaled_dot_product_flash_attention", {}, ""));
        trace.kernel(KernelClass::Elementwise, "vectorized_elementwise_kernel", 5, -1);
        trace.kernel(KernelClass::Convolution, "cudnn::conv", 4, -1);
        QCOMPARE(trace.clock_us, 138.0);
        QVERIFY(detectComparedPass(trace.rank) == ComparedPass::ForwardOnly);

        TraceRankAnalysis analysis;
        TraceStepAnalysis step;
        step.number = 1;
        step.gpu_start_us = 0;
        step.breakdown.window_seconds = 200e-6;
        step.breakdown.compute_seconds = 138e-6;
        step.breakdown.idle_seconds = 62e-6;
        step.breakdown.idle_host_bound_seconds = 50e-6;
        step.breakdown.idle_waiting_seconds = 12e-6;
        analysis.steps.push_back(step);

        const Scenario scenario = smallLlama();
        const Result<TraceVsPrediction> compared =
            compareWithPrediction(trace.rank, analysis, scenario, ComparedPass::ForwardOnly);
        QVERIFY2(compared.ok(), compared.ok() ? "" : compared.problems().front().message.c_str());
        const TraceVsPrediction &c = *compared;
        QCOMPARE(c.steps, 1);
        QVERIFY(close(c.measured_step_seconds, 200e-6));

        const double cube = 2.0 * 256 * 256 * 256;
        const OperatorComparison *qkv = row(c.operators, "qkv_projection");
        QVERIFY(qkv);
        QVERIFY(qkv->split);
        QCOMPARE(qkv->measured_flops, 3 * cube);
        QCOMPARE(qkv->predicted_flops, 2.0 * 256 * 256 * 768);  // the forward product alone
        QVERIFY(close(qkv->measured_seconds, 30e-6));
        QCOMPARE(qkv->shape, std::string("[256×256]·[256×768]"));
        const OperatorComparison *out = row(c.operators, "attention_output");
        QVERIFY(out);
        QVERIFY(!out->split);
        QCOMPARE(out->measured_flops, cube);
        const OperatorComparison *up = row(c.operators, "mlp_up");
        const OperatorComparison *down = row(c.operators, "mlp_down");
        QVERIFY(up && down);
        QCOMPARE(up->measured_flops, 2 * 2.0 * 256 * 256 * 512);
        QCOMPARE(up->predicted_flops, 2.0 * 256 * 256 * 1024);
        QCOMPARE(down->measured_flops, 2.0 * 256 * 512 * 256);
        const OperatorComparison *head = row(c.operators, "lm_head");
        QVERIFY(head);
        QVERIFY(close(head->measured_seconds, 30e-6));
        const OperatorComparison *flash = row(c.operators, "flash_attention");
        QVERIFY(flash);
        QVERIFY(close(flash->measured_seconds, 20e-6));
        const OperatorComparison *memory = row(c.operators, "memory_bound");
        QVERIFY(memory);
        QVERIFY(close(memory->measured_seconds, 5e-6));
        const OperatorComparison *odd = row(c.operators, "aten::mm [[7,13],[13,5]]");
        QVERIFY(odd);
        QCOMPARE(odd->predicted_seconds, 0.0);
        QVERIFY(row(c.operators, "convolution"));
        QVERIFY(c.missing_in_trace.empty());  // every predicted forward operator has its kernels

        // Where the 200 µs went: 131 µs of kernels the model has (their prediction + how much
        // slower), 7 µs it does not have, no concurrency on one stream, 62 µs idle.
        const MissingTime &t = c.missing_time;
        QVERIFY(close(t.predicted_kernel_seconds + t.slower_kernel_seconds, 131e-6));
        QVERIFY(close(t.unpredicted_kernel_seconds, 7e-6));
        QVERIFY(std::abs(t.concurrent_kernel_seconds) < 1e-12);
        QVERIFY(close(t.idle_host_bound_seconds, 50e-6));
        QVERIFY(close(t.idle_waiting_seconds, 12e-6));
        QVERIFY(close(sumOfParts(t), t.measured_step_seconds));

        // MFU: all matrix products of the trace over the window at the bf16 peak.
        const double matmul_flops = 4 * cube + 3 * 2.0 * 256 * 256 * 512 + 2.0 * 256 * 256 * 2048 + 2.0 * 7 * 13 * 5;
        QCOMPARE(c.measured_matmul_flops, matmul_flops);
        QCOMPARE(c.peak_flops_per_second, 989.4e12);
        QVERIFY(close(c.measured_mfu, matmul_flops / (200e-6 * 989.4e12)));
        // Forward only: the predicted products are the forward ones, the same FLOPs as the trace's
        // five model products (not the odd one).
        QVERIFY(close(c.predicted_matmul_flops, matmul_flops - 2.0 * 7 * 13 * 5));
    }

    // A trace that records launches, with two kernels in the window whose launch it lacks (queued
    // before the profiler started, like the previous iteration's tail in the Qwen trace): their
    // 10 µs are a part of their own, matched to no operator, not "memory-bound" or "unpredicted".
    void kernelsQueuedBeforeTheTrace()
    {
        HandTrace trace;
        trace.kernel(KernelClass::Elementwise, "vectorized_elementwise_kernel", 6, -1);
        trace.kernel(KernelClass::Gemm, "sm90_xmma_gemm_bf16bf16_bf16f32", 4, -1);
        trace.mm(256, 256, 2048, 30);
        for (TraceKernel &k : trace.rank.kernels)
            k.launch_start_us = k.op_index >= 0 ? 5.0 : -1.0;
        trace.rank.counts.runtime_calls = 1;

        TraceRankAnalysis analysis;
        TraceStepAnalysis step;
        step.number = 1;
        step.breakdown.window_seconds = 50e-6;
        step.breakdown.compute_seconds = 40e-6;
        step.breakdown.idle_seconds = 10e-6;
        step.breakdown.idle_host_bound_seconds = 10e-6;
        analysis.steps.push_back(step);

        const Result<TraceVsPrediction> compared =
            compareWithPrediction(trace.rank, analysis, smallLlama(), ComparedPass::ForwardOnly);
        QVERIFY(compared.ok());
        const MissingTime &t = compared->missing_time;
        QVERIFY(close(t.earlier_kernel_seconds, 10e-6));
        QCOMPARE(t.unpredicted_kernel_seconds, 0.0);
        QVERIFY(close(t.predicted_kernel_seconds + t.slower_kernel_seconds, 30e-6));
        QVERIFY(std::abs(t.concurrent_kernel_seconds) < 1e-12);
        QVERIFY(close(sumOfParts(t), 50e-6));
        QVERIFY(row(compared->missing_in_trace, "memory_bound"));  // the early element-wise kernel is not it
    }

    // The real trace of a known model: Qwen1.5-0.5B's forward, bf16, batch 16 × 559 on one H100
    // (tests/data/traces/tracelens-h100/README), against the scenario beside it.
    void qwenForwardOnH100()
    {
        const TraceRank rank = loadOrFail("tracelens-h100/qwen1.5-0.5b_h100_forward.json.gz");
        QVERIFY(rank.hasGpu());
        QCOMPARE(rank.device_name, std::string("NVIDIA H100 80GB HBM3"));
        const Accelerator *h100 = acceleratorForDeviceName(rank.device_name, builtinHardwareCatalog());
        QVERIFY(h100);
        QCOMPARE(h100->id, std::string("h100-sxm"));
        QVERIFY(detectComparedPass(rank) == ComparedPass::ForwardOnly);

        // Per GEMM call: 24 layers × (q, k, v, o 1024×1024; gate, up 1024→2816; down 2816→1024)
        // on 16·559 = 8944 tokens, all bf16, plus the rotary embedding's tiny fp32 bmm.
        const Result<GemmPredictionSummary> gemms = predictTraceGemms(rank, *h100);
        QVERIFY(gemms.ok());
        double bf16_flops = 0;
        std::int64_t bf16_calls = 0;
        for (const GemmComparisonRow &r : gemms->rows)
            if (r.dtype == "bf16") {
                bf16_flops += r.flops;
                bf16_calls += r.calls;
            }
        QCOMPARE(bf16_calls, std::int64_t(24 * 7));
        QCOMPARE(bf16_flops, 24 * 2.0 * 8944 * 1024 * (4 * 1024.0 + 3 * 2816.0));
        QVERIFY(gemms->median_ratio > 0);
        QVERIFY(gemms->p10_ratio <= gemms->median_ratio && gemms->median_ratio <= gemms->p90_ratio);
        qInfo("Qwen H100 GEMM calls: %lld, measured %.3f ms, predicted %.3f ms, measured/predicted median %.3f "
              "(p10 %.3f, p90 %.3f)",
              static_cast<long long>(gemms->calls), gemms->measured_seconds * 1e3, gemms->predicted_seconds * 1e3,
              gemms->median_ratio, gemms->p10_ratio, gemms->p90_ratio);

        const Result<Scenario> scenario =
            loadScenarioFile(tracePath("tracelens-h100/qwen1.5-0.5b_h100_forward.scenario.json").toStdString());
        QVERIFY2(scenario.ok(), scenario.ok() ? "" : scenario.problems().front().message.c_str());
        const TraceRankAnalysis analysis = analyseRank(rank);
        const Result<TraceVsPrediction> compared =
            compareWithPrediction(rank, analysis, *scenario, ComparedPass::ForwardOnly);
        QVERIFY2(compared.ok(), compared.ok() ? "" : compared.problems().front().message.c_str());
        const TraceVsPrediction &c = *compared;
        QCOMPARE(c.steps, 1);
        // The model's products, found with the prediction's FLOPs exactly: q, k, v against the
        // fused QKV product (a split), gate and up against the fused SwiGLU up product.
        const double tokens = 16 * 559;
        for (const auto &[name, n, k] : {std::tuple<const char *, double, double>{"qkv_projection", 3 * 1024.0, 1024.0},
                                         {"attention_output", 1024.0, 1024.0},
                                         {"mlp_up", 2 * 2816.0, 1024.0},
                                         {"mlp_down", 1024.0, 2816.0}}) {
            const OperatorComparison *r = row(c.operators, name);
            QVERIFY2(r, name);
            QCOMPARE(r->measured_flops, 24 * 2 * tokens * n * k);
            QCOMPARE(r->predicted_flops, r->measured_flops);
        }
        QVERIFY(row(c.operators, "flash_attention"));
        // The traced model is the base model: no LM head in the trace.
        QVERIFY(row(c.missing_in_trace, "lm_head"));
        QVERIFY(close(sumOfParts(c.missing_time), c.measured_step_seconds, 1e-9));
        QVERIFY(c.measured_mfu > 0 && c.measured_mfu < 1);
        qInfo("Qwen H100 step: measured %.3f ms, predicted %.3f ms; MFU measured %.3f, predicted %.3f",
              c.measured_step_seconds * 1e3, c.predicted_step_seconds * 1e3, c.measured_mfu, c.predicted_mfu);
    }

    // HTA's training ranks (an A100 job; the files carry no deviceProperties): fp32 inputs run on
    // CUTLASS's TF32 kernels (s1688), so the TF32 peak applies.
    void htaRankPerGemmCall()
    {
        const TraceRank rank = loadOrFail("hta/sampled_rank-0.json.gz");
        QVERIFY(rank.hasGpu());
        const Result<GemmPredictionSummary> gemms = predictTraceGemms(rank, *builtinHardwareCatalog().find("a100-sxm-40gb"));
        QVERIFY(gemms.ok());
        QVERIFY(gemms->calls > 100);
        bool tf32 = false;
        for (const GemmComparisonRow &r : gemms->rows) {
            QCOMPARE(r.flops, double(r.calls) * r.gemm.flops());
            tf32 = tf32 || r.dtype == "tf32";
        }
        QVERIFY(tf32);
        qInfo("HTA sampled_rank-0 on a100-sxm-40gb: %lld calls (%lld skipped), measured/predicted median %.3f "
              "(p10 %.3f, p90 %.3f, min %.3f, max %.3f)",
              static_cast<long long>(gemms->calls), static_cast<long long>(gemms->skipped_calls), gemms->median_ratio,
              gemms->p10_ratio, gemms->p90_ratio, gemms->min_ratio, gemms->max_ratio);
    }
};

QTEST_GUILESS_MAIN(TestTraceVsPrediction)
#include "test_trace_vs_prediction.moc"
