// SPDX-License-Identifier: GPL-3.0-or-later
// The CPU kernel-factor measurement (core/reference/kernel_benchmark): quick grids only (the full
// one takes seconds and its rates are benchmark figures, never test assertions).
#include "reference/kernel_benchmark.h"

#include <QTest>

#include <QThread>

#include <algorithm>

using namespace lse;
using namespace lse::reference;

class TestKernelBenchmark : public QObject {
    Q_OBJECT
private slots:
    void quickGridIsComplete()
    {
        KernelBenchmarkOptions options;
        options.quick = true;
        const CpuKernelFactors f = measureCpuKernelFactors(options);
        const std::size_t cells = f.gemm_axis.size() * f.gemm_axis.size() * f.gemm_axis.size();
        QCOMPARE(f.threads, 1);
        QVERIFY(f.quick);
        QCOMPARE(f.gemm_flops_per_second.size(), cells);
        QCOMPARE(f.gemm_weight_gradient_flops_per_second.size(), cells);
        for (std::size_t i = 0; i < cells; ++i) {
            QVERIFY(f.gemm_flops_per_second[i] > 0);
            QVERIFY(f.gemm_weight_gradient_flops_per_second[i] > 0);
        }
        // The tiled attention kernel's forward is measured on the attention grid.
        QCOMPARE(f.attention_tiled_forward_flops_per_second.size(), f.attention_seq_axis.size() * f.attention_head_dim_axis.size());
        for (double rate : f.attention_tiled_forward_flops_per_second)
            QVERIFY(rate > 0);
        // The few-row product at 2, 4 and 8 rows from the largest working set.
        QCOMPARE(f.blocked_vector_rows_axis, (std::vector<double>{2, 4, 8}));
        QCOMPARE(f.blocked_vector_bytes_per_second.size(), std::size_t(3));
        for (double rate : f.blocked_vector_bytes_per_second)
            QVERIFY(rate > 0);
        QCOMPARE(f.blocked_vector_working_set_bytes, f.stream_working_set_bytes.back());
        QVERIFY(validateCpuKernelFactors(f).empty());
        // Aᵀ·B cells shallower than k = 256 take the A·Bᵀ rate of the same (m, n, k).
        const std::size_t S = f.gemm_axis.size();
        for (std::size_t i = 0; i < cells; ++i)
            if (f.gemm_axis[i % S] < 256)
                QCOMPARE(f.gemm_weight_gradient_flops_per_second[i], f.gemm_flops_per_second[i]);
    }

    // Above one thread, a product's rate is never below the one-thread rate of the same cell (a
    // busy machine's wall-clock batches can lose a core; Eigen never runs a product slower on more
    // threads). One-thread rates far above anything measurable make every cell take them.
    void oneThreadRatesFloorTheProducts()
    {
        if (QThread::idealThreadCount() < 2)
            QSKIP("needs two logical cores");
        KernelBenchmarkOptions one;
        one.quick = true;
        CpuKernelFactors fast = measureCpuKernelFactors(one);
        std::fill(fast.gemm_flops_per_second.begin(), fast.gemm_flops_per_second.end(), 1e18);
        std::fill(fast.gemm_weight_gradient_flops_per_second.begin(), fast.gemm_weight_gradient_flops_per_second.end(), 2e18);

        KernelBenchmarkOptions two;
        two.quick = true;
        two.threads = 2;
        two.one_thread = &fast;
        const CpuKernelFactors floored = measureCpuKernelFactors(two);
        QCOMPARE(floored.threads, 2);
        QCOMPARE(floored.gemm_flops_per_second, fast.gemm_flops_per_second);
        QCOMPARE(floored.gemm_weight_gradient_flops_per_second, fast.gemm_weight_gradient_flops_per_second);

        // Without the one-thread factors, or with another grid, the two-thread rates are their own.
        two.one_thread = nullptr;
        const CpuKernelFactors own = measureCpuKernelFactors(two);
        QVERIFY(*std::max_element(own.gemm_flops_per_second.begin(), own.gemm_flops_per_second.end()) < 1e18);
        CpuKernelFactors otherGrid = fast;
        otherGrid.gemm_axis.back() *= 2;
        two.one_thread = &otherGrid;
        const CpuKernelFactors unfloored = measureCpuKernelFactors(two);
        QVERIFY(*std::max_element(unfloored.gemm_flops_per_second.begin(), unfloored.gemm_flops_per_second.end()) < 1e18);
    }
};

QTEST_MAIN(TestKernelBenchmark)
#include "test_kernel_benchmark.moc"
