// SPDX-License-Identifier: GPL-3.0-or-later
// The CPU inference predictor (performance/cpu_inference_prediction.h) with given kernel factors
// (tests/cpu_kernel_fixture.h): hand-computed decode products — a batch-1 product bound by reading
// its weights at the stream bandwidth, a batch-64 one by the GEMM table —, the decode attention from
// its measured rate, the phases as the sums of their operators, the other processes' share, and
// bad inputs named.

#include <QTest>

#include "../cpu_kernel_fixture.h"

#include "ops/flop_rules.h"
#include "performance/cpu_inference_prediction.h"
#include "performance/cpu_kernel_time.h"
#include "reference/decode_time_comparison.h"
#include "reference/kernel_benchmark.h"

#include <algorithm>
#include <cmath>

using namespace lse;
using namespace lse::performance;

namespace {

ModelConfig model()
{
    ModelConfig c;
    c.name = "prediction";
    c.n_layers = 2;
    c.d_model = 256;
    c.n_heads = 4;
    c.n_kv_heads = 4;
    c.head_dim = 64;
    c.d_ff = 512;
    c.vocab_size = 1000;
    c.max_seq_len = 128;
    return c;  // RMSNorm, pre-norm, SwiGLU (w1|w3: 1024 wide), RoPE, untied
}

// GEMMs at 50 GFLOP/s everywhere, attention and decode attention at 4 GFLOP/s, streaming and one-row
// products at 10 GB/s whatever the working set, element-wise at 2 GFLOP/s, 1 µs per call, one thread.
CpuKernelFactors factors()
{
    CpuKernelFactors f = test::givenCpuKernelFactors(1, 50e9, 4e9, 2e9, "2026-12-01T10:00:00Z");
    f.stream_bytes_per_second = {10e9, 10e9};
    f.gemv_bytes_per_second = {10e9, 10e9};
    return f;
}

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); }

const OperatorTime *row(const std::vector<OperatorTime> &rows, const std::string &name)
{
    for (const OperatorTime &r : rows)
        if (r.name == name)
            return &r;
    return nullptr;
}

reference::ReferenceDecodePrediction predict(std::int64_t batch, std::int64_t prompt, std::int64_t output,
                                             const CpuKernelFactors &f = factors())
{
    Result<reference::ReferenceDecodePrediction> p = reference::predictReferenceDecode(model(), batch, prompt, output, f);
    if (!p)
        qFatal("%s", formatProblems(p.problems()).c_str());
    return *p;
}

}  // namespace

class TestCpuInferencePrediction : public QObject {
    Q_OBJECT

private slots:
    // A prefill on the tiled kernel (generate's default) is one "flash_attention" row, as the
    // profiler times it, predicted as the naive kernel's three operators together; everything
    // else, the decode steps included, is unchanged.
    void tiledPrefillIsOneFlashAttentionRow()
    {
        const CpuKernelFactors f = factors();
        const reference::ReferenceDecodePrediction naive = predict(2, 20, 3, f);
        Result<reference::ReferenceDecodePrediction> tiled =
            reference::predictReferenceDecode(model(), 2, 20, 3, f, reference::AttentionAlgorithm::Tiled);
        QVERIFY(tiled.ok());
        const auto &rows = tiled->idle.prefill_operators;
        QVERIFY(!row(rows, "attention_scores") && !row(rows, "softmax") && !row(rows, "attention_values"));
        const OperatorTime *flash = row(rows, "flash_attention");
        QVERIFY(flash);
        QCOMPARE(std::count_if(rows.begin(), rows.end(), [](const OperatorTime &r) { return r.name == "flash_attention"; }), 1);
        const double parts = row(naive.idle.prefill_operators, "attention_scores")->seconds
            + row(naive.idle.prefill_operators, "softmax")->seconds + row(naive.idle.prefill_operators, "attention_values")->seconds;
        QVERIFY(near(flash->seconds, parts));
        QVERIFY(near(tiled->idle.prefill_seconds, naive.idle.prefill_seconds));
        QCOMPARE(tiled->idle.decode_seconds, naive.idle.decode_seconds);
        QCOMPARE(tiled->idle.decode_operators.size(), naive.idle.decode_operators.size());
    }

    // With the tiled kernel's own measured rate (8 GFLOP/s here): ⌈pairs / threads⌉ rounds of one
    // (sequence, head) pair's two products, 4·T²·Dh FLOPs, plus one call. Batch 2 × 4 heads = 8
    // pairs at T = 20, Dh = 64, two layers.
    void tiledPrefillAtItsOwnRate()
    {
        CpuKernelFactors f = factors();
        f.attention_tiled_forward_flops_per_second.assign(
            f.attention_seq_axis.size() * f.attention_head_dim_axis.size(), 8e9);
        Result<reference::ReferenceDecodePrediction> tiled =
            reference::predictReferenceDecode(model(), 2, 20, 3, f, reference::AttentionAlgorithm::Tiled);
        QVERIFY(tiled.ok());
        const OperatorTime *flash = row(tiled->idle.prefill_operators, "flash_attention");
        QVERIFY(flash);
        const double perLayer = 8 * 4.0 * 20 * 20 * 64 / 8e9 + f.call_overhead_seconds;
        QVERIFY2(near(flash->seconds, 2 * perLayer), qPrintable(QString("%1 vs %2").arg(flash->seconds).arg(2 * perLayer)));
        // FLOPs as the profiler books them: both products whole and the causal softmax.
        const reference::ReferenceDecodePrediction naive = predict(2, 20, 3, f);
        const double flops = row(naive.idle.prefill_operators, "attention_scores")->flops
            + row(naive.idle.prefill_operators, "softmax")->flops + row(naive.idle.prefill_operators, "attention_values")->flops;
        QVERIFY(near(flash->flops, flops));
    }

    // Batch 1: the fused Q|K|V product (1×256)·(256×768) is a matrix-vector product, bound by
    // reading its operands at the one-row product's 10 GB/s: 4·(256 + 256·768 + 768) bytes = 79 µs,
    // per layer, per step. A few rows (m = 8, below the grid's 16) take the table's time, linear in
    // m through m = 16 and 256: with a flat rate 2·m·n·k / rate.
    void batchOneWeightProductIsBoundByItsWeights()
    {
        const reference::ReferenceDecodePrediction p = predict(1, 20, 2);
        QCOMPARE(p.idle.decode_steps, std::int64_t(1));
        const OperatorTime *qkv = row(p.idle.decode_operators, "qkv_projection");
        QVERIFY(qkv);
        QCOMPARE(qkv->count, 2.0);  // two layers, one step
        QVERIFY(near(qkv->seconds, 2 * 4.0 * (256 + 256 * 768 + 768) / 10e9));
        // The head: (1×256)·(256×1000), once.
        QVERIFY(near(row(p.idle.decode_operators, "lm_head")->seconds, 4.0 * (256 + 256 * 1000 + 1000) / 10e9));
        CpuKernelFactors f = factors();
        QVERIFY(cpuGemmTime(GemmShape{1, 1, 768, 256}, f).memory_bound);
        f.gemv_bytes_per_second = {20e9, 20e9};
        QVERIFY(near(cpuGemmTime(GemmShape{1, 1, 768, 256}, f).seconds, 4.0 * (256 + 256 * 768 + 768) / 20e9));
        f.stream_bytes_per_second = {1e15, 1e15};
        // Above the blocked matrix-vector products' 8 rows: the table (50 GFLOP/s, linear below its m).
        QVERIFY(near(cpuGemmTime(GemmShape{1, 12, 768, 256}, f).seconds, 2.0 * 12 * 768 * 256 / 50e9));
        QVERIFY(!cpuGemmTime(GemmShape{1, 12, 768, 256}, f).memory_bound);
    }

    // Batch 64: (64×256)·(256×768) takes 2·64·768·256 / 50e9 = 503 µs, more than its 1.05 MB of
    // operands at 10 GB/s (105 µs).
    void batchSixtyFourWeightProductIsComputeBound()
    {
        const reference::ReferenceDecodePrediction p = predict(64, 20, 2);
        const OperatorTime *qkv = row(p.idle.decode_operators, "qkv_projection");
        QVERIFY(qkv);
        QVERIFY(near(qkv->seconds, 2 * 2.0 * 64 * 768 * 256 / 50e9));
        QCOMPARE(qkv->shape, std::string("[64×256]·[256×768]"));
    }

    // The attention over the cache, step 1 of a 20-token prompt (21 keys) for 3 sequences on one
    // thread: 3 rounds of one sequence's FLOPs, 4·21·(4·64 + kSoftmax), at 4 GFLOP/s, and one call,
    // per layer.
    void decodeAttentionFromItsRate()
    {
        const reference::ReferenceDecodePrediction p = predict(3, 20, 2);
        const OperatorTime *attention = row(p.idle.decode_operators, "decode_attention");
        QVERIFY(attention);
        const double perSequence = 4.0 * 21 * (4 * 64 + flop_rules::kSoftmax);
        QVERIFY(near(attention->flops, 2 * 3 * perSequence));
        QVERIFY(near(attention->seconds, 2 * (3 * perSequence / 4e9 + 1e-6)));
        QVERIFY(!row(p.idle.decode_operators, "attention_scores"));  // one kernel, not three
        QVERIFY(row(p.idle.prefill_operators, "attention_scores"));   // the prefill's T × T products
    }

    // Each phase is the sum of its operators; decode throughput counts every sequence's tokens; the
    // decode steps grow with the context; the head of the prefill runs on the last tokens only.
    void phasesAddUp()
    {
        const reference::ReferenceDecodePrediction p = predict(8, 32, 17);
        double prefill = 0, decode = 0;
        for (const OperatorTime &r : p.idle.prefill_operators)
            prefill += r.seconds;
        for (const OperatorTime &r : p.idle.decode_operators)
            decode += r.seconds;
        QVERIFY(near(p.idle.prefill_seconds, prefill));
        QVERIFY(near(p.idle.decode_seconds, decode));
        QCOMPARE(p.idle.decode_steps, std::int64_t(16));
        QVERIFY(near(p.decode_tokens_per_second, 8.0 * 16 / p.decode_seconds));
        QVERIFY(p.idle.last_step_seconds > p.idle.first_step_seconds);
        QCOMPARE(row(p.idle.prefill_operators, "lm_head")->shape, std::string("[8×256]·[256×1000]"));
        QCOMPARE(row(p.idle.decode_operators, "sampling")->count, 16.0);
        QVERIFY(near(p.prefill_seconds, p.idle.prefill_seconds));  // cpu_share 1

        CpuKernelFactors shared = factors();
        shared.cpu_share = 0.5;
        const reference::ReferenceDecodePrediction busy = predict(8, 32, 17, shared);
        QVERIFY(near(busy.prefill_seconds, 2 * p.idle.prefill_seconds));
        QVERIFY(near(busy.decode_tokens_per_second, p.decode_tokens_per_second / 2));
        const std::vector<reference::DecodeOperatorComparison> rows =
            reference::compareDecodeOperators(busy, {}, {}, 1.0, 2.0);
        double predicted = 0;
        for (const reference::DecodeOperatorComparison &r : rows)
            if (r.phase == "decode")
                predicted += r.predicted_seconds;
        QVERIFY(near(predicted, busy.decode_seconds));
        QCOMPARE(rows.back().name, std::string(reference::kSamplingAndRestName));
        QCOMPARE(rows.back().measured_seconds, 2.0);
    }

    // The kernel benchmark's quick grid (tests: well under a second) measures every factor the
    // predictor needs, the decode attention and one-row product tables and the sampling rate included.
    void quickMeasurementFeedsThePredictor()
    {
        reference::KernelBenchmarkOptions options;
        options.quick = true;
        const CpuKernelFactors measured = reference::measureCpuKernelFactors(options);
        QVERIFY2(validateCpuKernelFactors(measured).empty(), formatProblems(validateCpuKernelFactors(measured)).c_str());
        QCOMPARE(measured.decode_attention_flops_per_second.size(),
                 measured.decode_attention_keys_axis.size() * measured.attention_head_dim_axis.size());
        QCOMPARE(measured.gemv_bytes_per_second.size(), measured.stream_working_set_bytes.size());
        QVERIFY(std::find(measured.elementwise_kernels.begin(), measured.elementwise_kernels.end(), "sampling")
                != measured.elementwise_kernels.end());
        const reference::ReferenceDecodePrediction p = predict(2, 8, 3, measured);
        QVERIFY(p.prefill_seconds > 0 && p.decode_tokens_per_second > 0);
    }

    void badInputsAreNamed()
    {
        Result<reference::ReferenceDecodePrediction> p = reference::predictReferenceDecode(model(), 0, 20, 2, factors());
        QVERIFY(!p.ok());
        QCOMPARE(p.problems().front().field, std::string("inference.batch"));
        CpuKernelFactors missing = factors();
        missing.decode_attention_flops_per_second.clear();
        p = reference::predictReferenceDecode(model(), 1, 20, 2, missing);
        QVERIFY(!p.ok());
        QCOMPARE(p.problems().front().field, std::string("kernels.decode_attention_flops_per_second"));
    }
};

QTEST_APPLESS_MAIN(TestCpuInferencePrediction)
#include "test_cpu_inference_prediction.moc"
