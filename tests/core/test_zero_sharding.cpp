// SPDX-License-Identifier: GPL-3.0-or-later
// ZeRO sharding (Rajbhandari et al. 2020): who holds which slice, the paper's bytes per GPU and its
// communication volume.

#include "cost/estimate.h"
#include "parallel/zero_sharding.h"

#include <QTest>

#include <cmath>

using namespace lse;
using namespace lse::parallel;

namespace {

TrainingConfig mixedAdam()
{
    TrainingConfig training;
    training.precision = precisionForRecipe(PrecisionRecipe::BF16Mixed);
    training.optimizer = Optimizer::Adam;
    return training;
}

}  // namespace

class TestZeroSharding : public QObject {
    Q_OBJECT
private slots:
    // ZeRO §5, Figure 1: Ψ = 7.5B, N = 64, K = 12: 16Ψ, 4Ψ + 12Ψ/N, 2Ψ + 14Ψ/N, 16Ψ/N.
    void paperFigureOne_data()
    {
        QTest::addColumn<int>("stage");
        QTest::addColumn<double>("gigabytes");
        QTest::addColumn<double>("formula_bytes");
        const double psi = 7.5e9, n = 64;
        QTest::addRow("baseline 120 GB") << 0 << 120.0 << 16 * psi;
        QTest::addRow("P_os 31.4 GB") << 1 << 31.4 << 4 * psi + 12 * psi / n;
        QTest::addRow("P_os+g 16.6 GB") << 2 << 16.6 << 2 * psi + 14 * psi / n;
        QTest::addRow("P_os+g+p 1.9 GB") << 3 << 1.9 << 16 * psi / n;
    }
    void paperFigureOne()
    {
        QFETCH(int, stage);
        QFETCH(double, gigabytes);
        QFETCH(double, formula_bytes);
        const auto layout = zeroLayout(7.5e9, mixedAdam(), 64, stage);
        QVERIFY(layout.ok());
        QCOMPARE(int(layout->holdings.size()), 64);
        for (const RankHoldings &h : layout->holdings) {
            QVERIFY(std::abs(h.total_bytes / 1e9 - gigabytes) < 0.05);  // the paper prints one decimal
            QVERIFY(std::abs(h.total_bytes - formula_bytes) < 1.0);
            QVERIFY(std::abs(h.parameter_bytes + h.gradient_bytes + h.optimizer_bytes - h.total_bytes) < 1.0);
        }
    }

    // The same bytes as the cost engine for other precision recipes and optimizers.
    void equalsTheCostEngine_data()
    {
        QTest::addColumn<int>("recipe");
        QTest::addColumn<int>("optimizer");
        QTest::addColumn<bool>("fp32_accumulation");
        QTest::addRow("fp32 adamw") << int(PrecisionRecipe::FP32) << int(Optimizer::AdamW) << false;
        QTest::addRow("bf16 sgd") << int(PrecisionRecipe::BF16Mixed) << int(Optimizer::SGD) << false;
        QTest::addRow("fp16 adam + fp32 accumulation") << int(PrecisionRecipe::FP16Mixed) << int(Optimizer::Adam) << true;
        QTest::addRow("bf16 8-bit adam") << int(PrecisionRecipe::BF16Mixed) << int(Optimizer::Adam8bit) << false;
    }
    void equalsTheCostEngine()
    {
        QFETCH(int, recipe);
        QFETCH(int, optimizer);
        QFETCH(bool, fp32_accumulation);
        TrainingConfig training;
        training.precision = precisionForRecipe(PrecisionRecipe(recipe));
        training.precision.fp32_gradient_accumulation = fp32_accumulation;
        training.optimizer = Optimizer(optimizer);
        for (int stage = 0; stage <= 3; ++stage)
            for (int dp : {1, 3, 8}) {
                training.parallel.zero_stage = stage;
                const ModelStateBytes engine =
                    modelStateBytes(1.3e9, training, dp, optimizerStateBytesPerParameter(training.optimizer));
                training.parallel.zero_stage = 0;  // zeroLayout takes the stage as an argument
                const auto layout = zeroLayout(1.3e9, training, dp, stage);
                QVERIFY(layout.ok());
                const RankHoldings &h = layout->holdings.back();
                QCOMPARE(h.parameter_bytes, engine.params);
                QCOMPARE(h.gradient_bytes, engine.grads);
                QCOMPARE(h.optimizer_bytes, engine.optimizer);
                QCOMPARE(h.total_bytes, engine.total());
            }
    }

    // Sharded states are split into N disjoint slices that cover the vector; replicated ones are whole.
    void shardsPartitionTheVector()
    {
        for (int stage = 0; stage <= 3; ++stage) {
            const int n = 6;
            const auto layout = zeroLayout(1e9, mixedAdam(), n, stage);
            QVERIFY(layout.ok());
            const auto check = [&](auto member, bool sharded) {
                double covered = 0;
                for (int r = 0; r < n; ++r) {
                    const ShardRange range = layout->holdings[std::size_t(r)].*member;
                    if (sharded) {
                        QVERIFY(std::abs(range.begin_fraction - double(r) / n) < 1e-12);
                        QVERIFY(std::abs(range.end_fraction - double(r + 1) / n) < 1e-12);
                    } else {
                        QCOMPARE(range.begin_fraction, 0.0);
                        QCOMPARE(range.end_fraction, 1.0);
                    }
                    covered += range.fraction();
                }
                QVERIFY(std::abs(covered - (sharded ? 1.0 : double(n))) < 1e-9);
            };
            check(&RankHoldings::optimizer_states, stage >= 1);
            check(&RankHoldings::gradients, stage >= 2);
            check(&RankHoldings::parameters, stage >= 3);
        }
    }

    // ZeRO §7: DP and ZeRO-1/2 move 2Ψ per rank and step, ZeRO-3 3Ψ (1.5x).
    void communicationVolume_data()
    {
        QTest::addColumn<int>("stage");
        QTest::addColumn<double>("volume_in_psi");
        QTest::addColumn<int>("collectives");
        QTest::addRow("DP: all-reduce") << 0 << 2.0 << 1;
        QTest::addRow("ZeRO-1: reduce-scatter + all-gather") << 1 << 2.0 << 2;
        QTest::addRow("ZeRO-2: reduce-scatter + all-gather") << 2 << 2.0 << 2;
        QTest::addRow("ZeRO-3: 2 all-gathers + reduce-scatter") << 3 << 3.0 << 3;
    }
    void communicationVolume()
    {
        QFETCH(int, stage);
        QFETCH(double, volume_in_psi);
        QFETCH(int, collectives);
        const double psi = 2e9, n = 16;
        const auto layout = zeroLayout(psi, mixedAdam(), int(n), stage);
        QVERIFY(layout.ok());
        QCOMPARE(int(layout->communication.size()), collectives);
        QCOMPARE(layout->communication_volume_in_psi, volume_in_psi);
        // Ring volume with 2-byte gradients and weights: volume · (N-1)/N · 2Ψ bytes.
        QVERIFY(std::abs(layout->communication_bytes_per_step - volume_in_psi * (n - 1) / n * 2 * psi) < 1.0);
        const auto single = zeroLayout(psi, mixedAdam(), 1, stage);
        QVERIFY(single->communication.empty());
        QCOMPARE(single->communication_bytes_per_step, 0.0);
    }

    void invalidInputNamesTheField()
    {
        QCOMPARE(zeroLayout(0, mixedAdam(), 8, 1).problems().front().field, std::string("parameters"));
        QCOMPARE(zeroLayout(1e9, mixedAdam(), 0, 1).problems().front().field, std::string("dp"));
        QCOMPARE(zeroLayout(1e9, mixedAdam(), 8, 4).problems().front().field, std::string("stage"));
        QCOMPARE(zeroLayout(1e9, mixedAdam(), 8, -1).problems().front().field, std::string("stage"));
    }
};

QTEST_GUILESS_MAIN(TestZeroSharding)
#include "test_zero_sharding.moc"
