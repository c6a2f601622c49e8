// SPDX-License-Identifier: GPL-3.0-or-later
// kernels/fusion_chain: bias + GeLU + dropout + residual unfused (four kernels) vs fused (one), with
// the operator list's FLOPs and bytes (ops/flop_rules.h, ops/byte_rules.h) and kernel_time's
// streaming time on the accelerator's roofline.
#include "hardware/hardware_catalog.h"
#include "kernels/fusion_chain.h"
#include "ops/flop_rules.h"
#include "problem_matchers.h"

#include <QTest>

using namespace lse;
using namespace lse::kernels;

class TestFusionChain : public QObject {
    Q_OBJECT
private slots:
    void handCountInference();
    void trainingKeepsGeLUsInput();
    void timesAreKernelTimes();
    void badInputNamesTheField();
};

void TestFusionChain::handCountInference()
{
    // 8192 tokens × 4096 wide in bf16: unfused, bias, GeLU and dropout each read and write the
    // tensor (2 × 3) and the residual reads two and writes one (3): 9 tensor passes. Fused: read x
    // and the residual stream, write the result: 3 passes.
    FusionChainConfig config;
    config.tokens = 8192;
    config.width = 4096;
    const double tensor = 8192.0 * 4096.0 * 2;
    const Result<FusionChain> chain = fusionChain(config, *builtinHardwareCatalog().find("h100-sxm"));
    QVERIFY(chain.ok());
    QCOMPARE(chain->ops.size(), std::size_t(4));
    QCOMPARE(chain->unfused_bytes, 9 * tensor);
    QCOMPARE(chain->fused_bytes, 3 * tensor);
    QCOMPARE(chain->flops, (flop_rules::kBias + flop_rules::kGeLU + 1 + flop_rules::kResidual) * 8192.0 * 4096.0);
    QCOMPARE(chain->fusedIntensity(), 3 * chain->unfusedIntensity());
}

void TestFusionChain::trainingKeepsGeLUsInput()
{
    // The backward pass keeps GeLU's input, so the bias output is still written: one pass saved on
    // that link instead of two (roofline/fusion.cpp's rule), 4 passes in all.
    FusionChainConfig config;
    config.tokens = 1024;
    config.width = 1024;
    config.training = true;
    const Result<FusionChain> chain = fusionChain(config, *builtinHardwareCatalog().find("a100-sxm-80gb"));
    QVERIFY(chain.ok());
    QCOMPARE(chain->fused_bytes, 4 * 1024.0 * 1024.0 * 2);
}

void TestFusionChain::timesAreKernelTimes()
{
    const Accelerator &h100 = *builtinHardwareCatalog().find("h100-sxm");
    FusionChainConfig config;
    config.tokens = 8192;
    config.width = 4096;
    const Result<FusionChain> chain = fusionChain(config, h100);
    QVERIFY(chain.ok());
    const performance::KernelMachine machine = performance::kernelMachine(h100, h100.dense_peak.forDType(DType::BF16), DType::BF16);
    double unfused = 0;
    for (const FusionChainOp &op : chain->ops) {
        QCOMPARE(op.unfused_time.seconds, performance::streamingTime(op.flops, op.bytes_read + op.bytes_written, machine).seconds);
        unfused += op.unfused_time.seconds;
    }
    QCOMPARE(chain->unfused_seconds, unfused);
    QCOMPARE(chain->fused_time.seconds, performance::streamingTime(chain->flops, chain->fused_bytes, machine).seconds);
    // Memory bound throughout: about the ratio of the bytes, 3×, less the launch overheads.
    QVERIFY(chain->fused_time.memory_bound);
    QVERIFY(chain->speedup() > 2.5 && chain->speedup() < 3.2);
}

void TestFusionChain::badInputNamesTheField()
{
    using test::hasProblem;
    FusionChainConfig config;
    config.tokens = 0;
    config.width = -1;
    config.ops.clear();
    const Result<FusionChain> chain = fusionChain(config, *builtinHardwareCatalog().find("h100-sxm"));
    QVERIFY(hasProblem(chain.problems(), "tokens", "range"));
    QVERIFY(hasProblem(chain.problems(), "width", "range"));
    QVERIFY(hasProblem(chain.problems(), "ops", "required") || !chain.ok());
}

QTEST_GUILESS_MAIN(TestFusionChain)
#include "test_fusion_chain.moc"
