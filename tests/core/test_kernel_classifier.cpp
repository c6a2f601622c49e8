// SPDX-License-Identifier: GPL-3.0-or-later
// core/traces/kernel_classifier: real kernel names (from HTA's traces, cuBLAS, CUTLASS, cuDNN,
// FlashAttention, NCCL) each in its class, the operator fallback for names that say nothing, and
// on HTA's real traces the share left unknown.
#include "trace_test_events.h"

#include "traces/kernel_classifier.h"
#include "traces/trace_analysis.h"

#include <QtTest>

using lse::Result;
using lse::formatProblems;
namespace traces = lse::traces;
using traces::KernelClass;

Q_DECLARE_METATYPE(traces::KernelClass)

class TestKernelClassifier : public QObject {
    Q_OBJECT
private slots:
    void byName_data()
    {
        QTest::addColumn<QString>("category");
        QTest::addColumn<QString>("name");
        QTest::addColumn<KernelClass>("expected");
        const auto row = [](const char *tag, const char *category, const char *name, KernelClass cls) {
            QTest::newRow(tag) << QString::fromLatin1(category) << QString::fromLatin1(name) << cls;
        };
        row("ampere sgemm", "kernel", "ampere_sgemm_128x64_nn", KernelClass::Gemm);
        row("cutlass gemm", "kernel", "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_256x64_16x4_nn_align4>(int)",
            KernelClass::Gemm);
        row("hopper xmma", "kernel", "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1",
            KernelClass::Gemm);
        row("cublasLt split-K", "kernel", "void cublasLt::splitKreduce_kernel<32, 16, int, float>(int)", KernelClass::Gemm);
        row("gemv", "kernel", "void gemvNSP_kernel<float, float, float, float, 1, 16, 4, 1024>(int)", KernelClass::Gemm);
        row("fbgemm is not a gemm", "kernel", "void fbgemm_gpu::permute_2D_data_kernel<false, int, int>(int)",
            KernelClass::Elementwise);
        row("implicit-gemm conv", "kernel",
            "sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16",
            KernelClass::Convolution);
        row("cudnn cutlass conv", "kernel",
            "_ZN19cutlass_cudnn_train6KernelINS_4conv6kernel23ImplicitGemmConvolutionE", KernelClass::Convolution);
        row("flash fwd", "kernel", "void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4>, true>(Flash_fwd_params)",
            KernelClass::Attention);
        row("fmha cutlass", "kernel", "fmha_cutlassF_bf16_aligned_64x128_rf_sm80(PyTorchMemEffAttention::AttentionKernel)",
            KernelClass::Attention);
        row("cudnn sdpa", "kernel", "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_3",
            KernelClass::Attention);
        row("nccl allreduce", "kernel", "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
            KernelClass::Communication);
        row("nccl dev kernel", "kernel", "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
            KernelClass::Communication);
        row("layer norm", "kernel",
            "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int)", KernelClass::Norm);
        row("batch norm", "kernel", "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 128, true, 1, true>(int)",
            KernelClass::Norm);
        row("mean reduce (functor not read)", "kernel",
            "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float>>>(int)",
            KernelClass::Reduction);
        row("softmax", "kernel", "void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, false>(int)",
            KernelClass::Reduction);
        row("elementwise add", "kernel",
            "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>(int)",
            KernelClass::Elementwise);
        row("copy", "kernel", "void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int>(int)",
            KernelClass::Elementwise);
        row("memcpy", "gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", KernelClass::Memcpy);
        row("memset", "gpu_memset", "Memset (Device)", KernelClass::Memset);
        row("unknown", "kernel", "void compute_cuda_kernel<long>(long*, long*, long*, long, long)", KernelClass::Unknown);
    }
    void byName()
    {
        QFETCH(QString, category);
        QFETCH(QString, name);
        QFETCH(KernelClass, expected);
        const KernelClass got = traces::classifyKernel(category.toStdString(), name.toStdString(), "");
        QVERIFY2(got == expected, traces::kernelClassName(got).data());
    }

    // A name that says nothing takes its class from the operator that launched it.
    void byOperator()
    {
        QCOMPARE(traces::classifyKernel("kernel", "void epilogue::impl::globalKernel<int>(int)", "aten::addmm"),
                 KernelClass::Gemm);
        QCOMPARE(traces::classifyKernel("kernel", "std::enable_if<true, void>::type kernel(int)", "aten::native_layer_norm"),
                 KernelClass::Norm);
        QCOMPARE(traces::classifyKernel("kernel", "k", "aten::_scaled_dot_product_flash_attention"), KernelClass::Attention);
        QCOMPARE(traces::classifyKernel("kernel", "k", "nccl:all_reduce"), KernelClass::Communication);
        QCOMPARE(traces::classifyKernel("kernel", "k", "aten::cudnn_convolution"), KernelClass::Convolution);
        QCOMPARE(traces::classifyKernel("kernel", "k", "something::else"), KernelClass::Unknown);
        // The name wins over the operator: a copy inside aten::mm is a copy.
        QCOMPARE(traces::classifyKernel("kernel", "void at::native::elementwise_kernel<128, 2>(int)", "aten::mm"),
                 KernelClass::Elementwise);
    }

    void namesRoundTrip()
    {
        for (KernelClass cls : traces::allKernelClasses()) {
            KernelClass back = KernelClass::Unknown;
            QVERIFY(traces::kernelClassFromName(traces::kernelClassName(cls), back));
            QCOMPARE(back, cls);
        }
        KernelClass none = KernelClass::Gemm;
        QVERIFY(!traces::kernelClassFromName("tensor-core", none));
    }

    // HTA's real traces: every activity gets a class; the share left unknown is small and reported.
    // sampled_rank-0: 10 of 1204 unknown (fbgemm's bounds_check_indices_kernel, compute_cuda_kernel,
    // _offsets_range_cuda_kernel); nccl_data and alexnet: none.
    void realTracesUnknownShare_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qint64>("activities");
        QTest::addColumn<qint64>("unknown");
        QTest::newRow("sampled_rank-0") << "sampled_rank-0.json.gz" << qint64{1204} << qint64{10};
        QTest::newRow("nccl_data_a100") << "nccl_data_a100.json.gz" << qint64{3774} << qint64{0};
        QTest::newRow("alexnet_a100") << "alexnet_a100.json.gz" << qint64{98} << qint64{0};
    }
    void realTracesUnknownShare()
    {
        QFETCH(QString, file);
        QFETCH(qint64, activities);
        QFETCH(qint64, unknown);
        Result<traces::TraceRank> rank = traces::loadTrace(lse::test::traceDataPath(file.toLatin1().constData()));
        QVERIFY2(rank.ok(), formatProblems(rank.problems()).c_str());
        const traces::TraceRankAnalysis a = traces::analyseRank(rank.value());
        QCOMPARE(a.classification.activity_count, activities);
        QCOMPARE(a.classification.unknown_count, unknown);
        QCOMPARE(a.classification.unknown_percent, 100.0 * double(unknown) / double(activities));
        std::int64_t total = 0;
        for (const traces::TraceClassRow &row : a.classification.by_class)
            total += row.count;
        QCOMPARE(total, activities);
    }
};

QTEST_GUILESS_MAIN(TestKernelClassifier)
#include "test_kernel_classifier.moc"
