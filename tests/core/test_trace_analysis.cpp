// SPDX-License-Identifier: GPL-3.0-or-later
// core/traces/trace_analysis: the HTA-style breakdown on hand-written traces whose every figure is
// worked out in the comments (compute, exposed communication and copies, idle split into host-bound
// and waiting, overlap), the union over streams, GEMM and attention FLOPs from shapes, matmul_flops
// counting each product once, CPU-only traces; and on HTA's real traces: each step's breakdown sums
// to its window, matmul_flops and single aten::mm calls checked by hand from their shapes.
#include "trace_test_events.h"

#include "traces/op_shape_flops.h"
#include "traces/trace_analysis.h"

#include <QtTest>

#include <cmath>

using namespace lse::test;
using lse::Result;
using lse::formatProblems;
namespace traces = lse::traces;

namespace {

void checkSumsToWindow(const traces::TraceTimeBreakdown &b)
{
    const double sum = b.compute_seconds + b.communication_seconds + b.memcpy_seconds + b.idle_seconds;
    QVERIFY2(std::abs(sum - b.window_seconds) <= 1e-9 * std::max(1.0, b.window_seconds),
             qPrintable(QStringLiteral("parts %1 vs window %2").arg(sum, 0, 'g', 12).arg(b.window_seconds, 0, 'g', 12)));
    QVERIFY(std::abs(b.idle_host_bound_seconds + b.idle_waiting_seconds - b.idle_seconds) <= 1e-12 + 1e-9 * b.idle_seconds);
    QVERIFY(b.idle_host_bound_seconds >= -1e-12);
    QVERIFY(b.idle_waiting_seconds >= -1e-12);
}

const traces::TraceCpuOp *findOp(const traces::TraceRank &rank, const char *name, const char *shape)
{
    for (const traces::TraceCpuOp &op : rank.cpu_ops) {
        if (rank.text(op.name) == name && rank.text(op.shape) == shape)
            return &op;
    }
    return nullptr;
}

}  // namespace

class TestTraceAnalysis : public QObject {
    Q_OBJECT
private slots:
    // One step [0, 100] µs on the CPU. On the GPU (all numbers µs):
    //   K1 compute [10,30] (launched at 5), C1 NCCL [20,50] (at 6), M1 memcpy [45,60] (at 7),
    //   K2 compute [70,80] (launched at 40: queued 40..70), K3 compute [90,100] (launched at 85).
    // Window [10,100] = 90. Compute = K1 ∪ K2 ∪ K3 = 20+10+10 = 40. Communication exposed = C1 less
    // compute = [30,50] = 20. Memcpy exposed = [50,60] = 10. Idle = [60,70] ∪ [80,90] = 20, of which
    // waiting = [60,70] (K2 queued) + [85,90] (K3 queued) = 15 and host-bound = [80,85] = 5.
    // Overlap = C1 ∩ compute = [20,30] = 10 of C1's 30: 33.3 %.
    void breakdownByHand()
    {
        const traces::TraceRank rank = parsedTrace(traceJson({
            stepEvent(1, 0, 100),
            launchEvent(5, 1), launchEvent(6, 2), launchEvent(7, 3), launchEvent(40, 4), launchEvent(85, 5),
            kernelEvent("ampere_sgemm_128x64_nn", 10, 20, 1, 7),
            kernelEvent("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)", 20, 30, 2, 20),
            kernelEvent("Memcpy DtoD (Device -> Device)", 45, 15, 3, 21, "gpu_memcpy"),
            kernelEvent("void at::native::vectorized_elementwise_kernel<4>(int)", 70, 10, 4, 7),
            kernelEvent("void at::native::reduce_kernel<512, 1>(int)", 90, 10, 5, 7),
        }));
        const traces::TraceRankAnalysis a = traces::analyseRank(rank);
        QCOMPARE(a.steps.size(), std::size_t{1});
        QCOMPARE(a.steps[0].number, std::int64_t{1});
        QCOMPARE(a.steps[0].kernel_count, std::int64_t{5});
        const traces::TraceTimeBreakdown &b = a.breakdown;
        QCOMPARE(b.window_seconds, 90e-6);
        QCOMPARE(b.compute_seconds, 40e-6);
        QCOMPARE(b.communication_seconds, 20e-6);
        QCOMPARE(b.communication_total_seconds, 30e-6);
        QCOMPARE(b.memcpy_seconds, 10e-6);
        QCOMPARE(b.idle_seconds, 20e-6);
        QCOMPARE(b.idle_waiting_seconds, 15e-6);
        QCOMPARE(b.idle_host_bound_seconds, 5e-6);
        QCOMPARE(b.overlap_percent, 100.0 / 3.0);
        checkSumsToWindow(b);
        QCOMPARE(a.kernel_count, std::int64_t{4});  // the memcpy is not a kernel
        QCOMPARE(a.kernel_seconds, 70e-6);
        QCOMPARE(a.classification.unknown_count, std::int64_t{0});
        QCOMPARE(a.top_kernels.front().kernel_class, traces::KernelClass::Communication);
    }

    // Two compute kernels on two streams, [0,10] and [5,15]: the union, 15 µs, not the sum 20.
    void unionOverStreamsNotSum()
    {
        const traces::TraceRank rank = parsedTrace(traceJson({
            kernelEvent("sm90_xmma_gemm_bf16bf16_bf16f32", 0, 10, 1, 7),
            kernelEvent("flash_fwd_kernel<Flash_fwd_kernel_traits<128>>", 5, 10, 2, 13),
        }));
        const traces::TraceRankAnalysis a = traces::analyseRank(rank);
        QCOMPARE(a.steps.size(), std::size_t{1});
        QCOMPARE(a.steps[0].number, std::int64_t{-1});  // no ProfilerStep: the whole trace
        QCOMPARE(a.breakdown.window_seconds, 15e-6);
        QCOMPARE(a.breakdown.compute_seconds, 15e-6);
        QCOMPARE(a.breakdown.idle_seconds, 0.0);
        QCOMPARE(a.kernel_seconds, 20e-6);
        // No launches recorded: nothing is known to be queued, so idle is host-bound (none here).
        checkSumsToWindow(a.breakdown);
    }

    // aten::linear → aten::addmm (bias [64], x [32,128], Wᵀ [128,64], bf16) launching a GEMM and its
    // cuBLAS split-K reduction (3 µs and 1 µs): the addmm's 2·32·64·128 = 524 288 FLOPs go to the
    // two kernels 3:1; bytes = (64 + 32·128 + 128·64)·2 read + 32·64·2 written = 28 800.
    // aten::matmul → aten::bmm ([4,16,8]·[4,8,32]): 2·4·16·32·8 = 32 768, not counted again through
    // the matmul or linear parents.
    void gemmFlopsFromShapes()
    {
        const traces::TraceRank rank = parsedTrace(traceJson({
            cpuOpEvent("aten::linear", 0, 50, 100, "[[32,128],[64,128],[64]]", R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16"])"),
            cpuOpEvent("aten::addmm", 10, 30, 100, "[[64],[32,128],[128,64],[],[]]",
                       R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16","Scalar","Scalar"])"),
            launchEvent(15, 1), launchEvent(20, 2),
            cpuOpEvent("aten::matmul", 60, 30, 100, "[[4,16,8],[4,8,32]]", R"(["float","float"])"),
            cpuOpEvent("aten::bmm", 65, 20, 100, "[[4,16,8],[4,8,32]]", R"(["float","float"])"),
            launchEvent(70, 3),
            kernelEvent("void gemmSN_TN_kernel<float, 128>(int)", 100, 3, 1),
            kernelEvent("void cublasLt::splitKreduce_kernel<32, 16>(int)", 103, 1, 2),
            kernelEvent("some_unnamed_kernel", 110, 2, 3),
        }));
        QCOMPARE(rank.kernels.size(), std::size_t{3});
        const double addmm_flops = 2.0 * 32 * 64 * 128;
        const double addmm_bytes = (64 + 32 * 128 + 128 * 64) * 2.0 + 32 * 64 * 2.0;
        QCOMPARE(rank.kernels[0].kernel_class, traces::KernelClass::Gemm);
        QCOMPARE(rank.kernels[1].kernel_class, traces::KernelClass::Gemm);
        QCOMPARE(rank.kernels[0].flops, addmm_flops * 0.75);
        QCOMPARE(rank.kernels[1].flops, addmm_flops * 0.25);
        QCOMPARE(rank.kernels[0].bytes + rank.kernels[1].bytes, addmm_bytes);
        QCOMPARE(rank.kernels[0].achievedFlopsPerSecond(), addmm_flops * 0.75 / 3e-6);
        QCOMPARE(rank.kernels[0].arithmeticIntensity(), addmm_flops / addmm_bytes);
        // The unnamed kernel is classed by its operator, aten::bmm, and carries its FLOPs.
        QCOMPARE(rank.kernels[2].kernel_class, traces::KernelClass::Gemm);
        QCOMPARE(rank.text(rank.cpu_ops[static_cast<std::size_t>(rank.kernels[2].op_index)].name), std::string("aten::bmm"));
        QCOMPARE(rank.kernels[2].flops, 2.0 * 4 * 16 * 32 * 8);
        const traces::TraceRankAnalysis a = traces::analyseRank(rank);
        QCOMPARE(a.matmul_count, std::int64_t{2});
        QCOMPARE(a.matmul_flops, addmm_flops + 2.0 * 4 * 16 * 32 * 8);
        // Operators: addmm's row holds both of its kernels, one call.
        bool found = false;
        for (const traces::TraceOperatorRow &row : a.operators) {
            if (row.name == "aten::addmm") {
                found = true;
                QCOMPARE(row.count, std::int64_t{1});
                QCOMPARE(row.seconds, 4e-6);
                QCOMPARE(row.flops, addmm_flops);
                QCOMPARE(row.shape, std::string("[[64],[32,128],[128,64],[],[]]"));
                QCOMPARE(row.dtype, std::string("c10::BFloat16"));
            }
        }
        QVERIFY(found);
    }

    // FlashAttention forward, q = k = v (2, 4, 128, 64) bf16: two products 2·(2·4)·128·128·64 each
    // plus 5 FLOPs per score (operator_list.cpp's flash_attention + flash_softmax + values); the
    // backward counts twice both (kBackwardMatmulFactor, kBackwardElementwiseFactor).
    void attentionFlops()
    {
        const std::vector<std::vector<std::int64_t>> q{{2, 4, 128, 64}, {2, 4, 128, 64}, {2, 4, 128, 64}, {}};
        const std::vector<std::string> types{"c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar"};
        const double products = 2 * (2.0 * 8 * 128 * 128 * 64);
        const double softmax = 5.0 * 8 * 128 * 128;
        const traces::OpCost forward = traces::operatorCost("aten::_scaled_dot_product_flash_attention", q, types);
        QVERIFY(forward.counted);
        QCOMPARE(forward.flops, products + softmax);
        QCOMPARE(forward.bytes, 4 * (2.0 * 4 * 128 * 64) * 2);  // q, k, v read, out written
        const std::vector<std::vector<std::int64_t>> grads{{2, 4, 128, 64}, {2, 4, 128, 64}, {2, 4, 128, 64},
                                                           {2, 4, 128, 64}, {2, 4, 128, 64}};
        const std::vector<std::string> grad_types(5, "c10::BFloat16");
        const traces::OpCost backward =
            traces::operatorCost("aten::_scaled_dot_product_flash_attention_backward", grads, grad_types);
        QCOMPARE(backward.flops, 2 * products + 2 * softmax);
        // (batch, seq, heads, dim) layout of aten::_flash_attention_forward: the same count.
        const std::vector<std::vector<std::int64_t>> bshd{{2, 128, 4, 64}, {2, 128, 4, 64}, {2, 128, 4, 64}};
        QCOMPARE(traces::operatorCost("aten::_flash_attention_forward", bshd, types).flops, products + softmax);
        // Unusable shapes count nothing rather than a guess.
        QCOMPARE(traces::operatorCost("aten::mm", {{2, 3}, {4, 5}}, {"float", "float"}).flops, 0.0);
        QCOMPARE(traces::operatorCost("aten::mm", {{-1, 3}, {3, 5}}, {"float", "float"}).flops, 0.0);
        QCOMPARE(traces::operatorCost("aten::linear", {{2, 3}, {3, 5}}, {"float", "float"}).flops, 0.0);
    }

    // A CPU-only trace: no kernels, operators by self time, matmul FLOPs from shapes.
    void cpuOnlyTrace()
    {
        const traces::TraceRank rank = parsedTrace(traceJson({
            stepEvent(3, 0, 200),
            cpuOpEvent("aten::linear", 10, 100, 100, "[[8,16],[32,16]]", R"(["float","float"])"),
            cpuOpEvent("aten::t", 12, 5, 100),
            cpuOpEvent("aten::mm", 20, 60, 100, "[[8,16],[16,32]]", R"(["float","float"])"),
        }));
        QVERIFY(!rank.hasGpu());
        const traces::TraceRankAnalysis a = traces::analyseRank(rank);
        QCOMPARE(a.kernel_count, std::int64_t{0});
        QCOMPARE(a.kernel_seconds, 0.0);
        QCOMPARE(a.breakdown.window_seconds, 0.0);
        QCOMPARE(a.steps.size(), std::size_t{1});
        QCOMPARE(a.matmul_flops, 2.0 * 8 * 32 * 16);
        QCOMPARE(a.operators.size(), std::size_t{3});
        // linear's self time: 100 − 5 − 60 = 35 µs; mm's 60 µs comes first.
        QCOMPARE(a.operators[0].name, std::string("aten::mm"));
        QCOMPARE(a.operators[0].seconds, 60e-6);
        QCOMPARE(a.operators[0].kernel_class, traces::KernelClass::Gemm);
        QCOMPARE(a.operators[1].name, std::string("aten::linear"));
        QCOMPARE(a.operators[1].seconds, 35e-6);
        QCOMPARE(a.operators[1].flops, 0.0);
    }

    // cuDNN's convolution runs a CUTLASS GEMM kernel: under aten::convolution_backward it is
    // convolution work; the same kernel under aten::mm is a GEMM.
    void gemmKernelUnderConvolutionIsConvolution()
    {
        const traces::TraceRank rank = parsedTrace(traceJson({
            cpuOpEvent("aten::convolution_backward", 0, 20), launchEvent(5, 1),
            cpuOpEvent("aten::mm", 30, 20), launchEvent(35, 2),
            kernelEvent("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x6_tn_align4>(int)", 40, 5, 1),
            kernelEvent("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x6_tn_align4>(int)", 50, 5, 2),
        }));
        QCOMPARE(rank.kernels[0].kernel_class, traces::KernelClass::Convolution);
        QCOMPARE(rank.kernels[1].kernel_class, traces::KernelClass::Gemm);
    }

    void intervalHelpers()
    {
        const auto merged = traces::unionOfIntervals({{5, 10}, {0, 3}, {2, 4}, {10, 12}, {20, 20}});
        QCOMPARE(merged.size(), std::size_t{2});
        QCOMPARE(merged[0].start_us, 0.0);
        QCOMPARE(merged[0].end_us, 4.0);
        QCOMPARE(merged[1].start_us, 5.0);
        QCOMPARE(merged[1].end_us, 12.0);
        QCOMPARE(traces::coveredMicroseconds(merged, 3, 6), 2.0);
    }

    // HTA's sampled_rank-0: 2 ProfilerSteps (551, 552); every step's parts sum to its window.
    // Σ 2mnk over its 378 aten::mm/addmm/bmm calls = 1 652 839 505 920 (summed from the file's Input
    // Dims by hand with a few lines of Python); two of them checked here from their shapes.
    void realTraceSampledRank0()
    {
        Result<traces::TraceRank> loaded = traces::loadTrace(traceDataPath("sampled_rank-0.json.gz"));
        QVERIFY2(loaded.ok(), formatProblems(loaded.problems()).c_str());
        const traces::TraceRank &rank = loaded.value();
        const traces::TraceRankAnalysis a = traces::analyseRank(rank);
        QCOMPARE(a.steps.size(), std::size_t{2});
        QCOMPARE(a.steps[0].number, std::int64_t{551});
        QCOMPARE(a.steps[1].number, std::int64_t{552});
        for (const traces::TraceStepAnalysis &step : a.steps) {
            QVERIFY(step.breakdown.window_seconds > 0);
            checkSumsToWindow(step.breakdown);
        }
        checkSumsToWindow(a.breakdown);
        QVERIFY(a.breakdown.communication_total_seconds > 0);
        QVERIFY(a.breakdown.overlap_percent > 0 && a.breakdown.overlap_percent < 100);
        QCOMPARE(a.kernel_count, std::int64_t{1154});
        QCOMPARE(a.matmul_count, std::int64_t{378});
        QCOMPARE(a.matmul_flops, 1652839505920.0);
        const traces::TraceCpuOp *mm = findOp(rank, "aten::mm", "[[2048,110],[110,18030]]");
        QVERIFY(mm != nullptr);
        QCOMPARE(mm->flops, 2.0 * 2048 * 18030 * 110);
        const traces::TraceCpuOp *bmm = findOp(rank, "aten::bmm", "[[2048,160,45],[2048,45,20]]");
        QVERIFY(bmm != nullptr);
        QCOMPARE(bmm->flops, 2.0 * 2048 * 160 * 20 * 45);
        // The kernels linked to one addmm call carry its 2mnk between them.
        const traces::TraceCpuOp *addmm = findOp(rank, "aten::addmm", "[[3906],[2048,512],[512,3906],[],[]]");
        QVERIFY(addmm != nullptr);
        const auto addmm_index = static_cast<std::int32_t>(addmm - rank.cpu_ops.data());
        double carried = 0;
        for (const traces::TraceKernel &kernel : rank.kernels) {
            if (kernel.op_index == addmm_index) {
                QCOMPARE(kernel.kernel_class, traces::KernelClass::Gemm);
                carried += kernel.flops;
            }
        }
        QCOMPARE(carried, 2.0 * 2048 * 3906 * 512);
        // Most GPU activities are linked to the operator that launched them.
        QVERIFY(double(rank.counts.linked_kernels) > 0.9 * double(rank.kernels.size()));
    }

    // HTA's nccl_data (rank 0 of 2, A100, 3 steps, no shapes): sums hold, overlap is between 0 and 100 %.
    void realTraceNccl()
    {
        Result<traces::TraceRank> loaded = traces::loadTrace(traceDataPath("nccl_data_a100.json.gz"));
        QVERIFY2(loaded.ok(), formatProblems(loaded.problems()).c_str());
        const traces::TraceRankAnalysis a = traces::analyseRank(loaded.value());
        QCOMPARE(a.rank, 0);
        QCOMPARE(a.device_name, std::string("NVIDIA A100-PG509-200"));
        QCOMPARE(a.steps.size(), std::size_t{3});
        for (const traces::TraceStepAnalysis &step : a.steps)
            checkSumsToWindow(step.breakdown);
        QVERIFY(a.breakdown.communication_total_seconds > 0);
        QVERIFY(a.breakdown.overlap_percent > 0 && a.breakdown.overlap_percent < 100);
        QCOMPARE(a.classification.unknown_count, std::int64_t{0});
        QCOMPARE(a.matmul_flops, 0.0);  // recorded without shapes
    }
};

QTEST_GUILESS_MAIN(TestTraceAnalysis)
#include "test_trace_analysis.moc"
