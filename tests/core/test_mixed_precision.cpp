// SPDX-License-Identifier: GPL-3.0-or-later
// Mixed-precision recipes (core/numbers/mixed_precision.h): each tensor's format and bytes, and the
// model-state bytes per parameter, checked against the papers and against the memory engine.

#include "cost/estimate.h"
#include "numbers/mixed_precision.h"

#include <QTest>

using namespace lse;

namespace {

const PrecisionTensorRow *findRow(const MixedPrecisionBreakdown &b, PrecisionTensor tensor)
{
    for (const PrecisionTensorRow &r : b.tensors)
        if (r.tensor == tensor)
            return &r;
    return nullptr;
}

// What the Memory page shows: the memory engine's model state for `parameters` parameters.
double engineModelState(double parameters, const PrecisionConfig &precision, Optimizer optimizer)
{
    TrainingConfig training;
    training.precision = precision;
    training.optimizer = optimizer;
    return modelStateBytes(parameters, training, 1, optimizerStateBytesPerParameter(optimizer)).total();
}

}  // namespace

class TestMixedPrecision : public QObject {
    Q_OBJECT
private slots:
    void bytesPerParameterFromThePapers_data()
    {
        QTest::addColumn<int>("recipe");
        QTest::addColumn<double>("bytes");
        QTest::addRow("plain fp32 Adam: 4 + 4 + 8 = 16 bytes per parameter") << int(PrecisionRecipe::FP32) << 16.0;
        QTest::addRow("ZeRO §3: 2+2+12 = 16 bytes per parameter (bf16)") << int(PrecisionRecipe::BF16Mixed) << 16.0;
        QTest::addRow("Micikevicius 2018 + ZeRO §3: fp16 2+2+12 = 16") << int(PrecisionRecipe::FP16Mixed) << 16.0;
        QTest::addRow("Transformer Engine fp8: bf16 weights, 2+2+12 = 16") << int(PrecisionRecipe::FP8Mixed) << 16.0;
    }
    void bytesPerParameterFromThePapers()
    {
        QFETCH(int, recipe);
        QFETCH(double, bytes);
        const MixedPrecisionBreakdown b = mixedPrecisionBreakdown(precisionForRecipe(PrecisionRecipe(recipe)), Optimizer::Adam);
        QCOMPARE(b.modelStateBytesPerParameter(), bytes);
        QCOMPARE(b.rowsBytesPerParameter(), bytes);
    }

    void formatsOfEachTensor()
    {
        // ZeRO §3: bf16 weights (2) and gradients (2), fp32 master (4) and Adam m, v (4 + 4).
        const MixedPrecisionBreakdown bf16 = mixedPrecisionBreakdown(precisionForRecipe(PrecisionRecipe::BF16Mixed), Optimizer::AdamW);
        QCOMPARE(findRow(bf16, PrecisionTensor::Weights)->format, std::string("bf16"));
        QCOMPARE(findRow(bf16, PrecisionTensor::Weights)->bytes_per_parameter, 2.0);
        QCOMPARE(findRow(bf16, PrecisionTensor::Gradients)->bytes_per_parameter, 2.0);
        QCOMPARE(findRow(bf16, PrecisionTensor::MasterWeights)->bytes_per_parameter, 4.0);
        QCOMPARE(findRow(bf16, PrecisionTensor::FirstMoment)->bytes_per_parameter, 4.0);
        QCOMPARE(findRow(bf16, PrecisionTensor::SecondMoment)->bytes_per_parameter, 4.0);
        QVERIFY(!bf16.needsLossScaling());  // bf16 keeps fp32's 8 exponent bits
        QVERIFY(!findRow(bf16, PrecisionTensor::LossScale));
        // Plain fp32: no master copy (the weights are the master).
        const MixedPrecisionBreakdown fp32 = mixedPrecisionBreakdown(precisionForRecipe(PrecisionRecipe::FP32), Optimizer::AdamW);
        QVERIFY(!findRow(fp32, PrecisionTensor::MasterWeights));
        QCOMPARE(findRow(fp32, PrecisionTensor::Weights)->bytes_per_parameter, 4.0);
        // Micikevicius et al. 2018 §3.2: fp16 needs a loss scale (one scalar, not per parameter).
        const MixedPrecisionBreakdown fp16 = mixedPrecisionBreakdown(precisionForRecipe(PrecisionRecipe::FP16Mixed), Optimizer::AdamW);
        QVERIFY(fp16.needsLossScaling());
        QVERIFY(findRow(fp16, PrecisionTensor::LossScale));
        QVERIFY(!findRow(fp16, PrecisionTensor::LossScale)->per_parameter);
        QCOMPARE(findRow(fp16, PrecisionTensor::Activations)->format, std::string("fp16"));
        // Micikevicius et al. 2022 / Transformer Engine: fp8 matmul operands with per-tensor scales.
        const MixedPrecisionBreakdown fp8 = mixedPrecisionBreakdown(precisionForRecipe(PrecisionRecipe::FP8Mixed), Optimizer::AdamW);
        QCOMPARE(findRow(fp8, PrecisionTensor::MatmulOperands)->format, std::string("fp8"));
        QCOMPARE(findRow(fp8, PrecisionTensor::MatmulOperands)->bytes_per_element, 1.0);
        QVERIFY(findRow(fp8, PrecisionTensor::TensorScales));
        QVERIFY(!findRow(bf16, PrecisionTensor::TensorScales));
    }

    // The page and the Memory page can't disagree: every recipe, optimizer and edited field gives
    // the memory engine's model-state bytes.
    void equalsTheMemoryEngine_data()
    {
        QTest::addColumn<int>("recipe");
        QTest::addColumn<int>("optimizer");
        QTest::addColumn<bool>("accumulate");
        QTest::addColumn<bool>("master");
        QTest::addColumn<int>("gradient_dtype");
        for (PrecisionRecipe recipe : precisionRecipes())
            for (Optimizer optimizer : {Optimizer::SGD, Optimizer::Momentum, Optimizer::Adam, Optimizer::AdamW,
                                        Optimizer::Adam8bit, Optimizer::Adafactor})
                for (bool accumulate : {false, true})
                    for (bool master : {false, true})
                        for (DType gradient : {DType::FP32, DType::BF16, DType::FP8})
                            QTest::addRow("%s %s acc=%d master=%d grad=%s", toString(recipe).data(),
                                          toString(optimizer).data(), int(accumulate), int(master),
                                          toString(gradient).data())
                                << int(recipe) << int(optimizer) << accumulate << master << int(gradient);
    }
    void equalsTheMemoryEngine()
    {
        QFETCH(int, recipe);
        QFETCH(int, optimizer);
        QFETCH(bool, accumulate);
        QFETCH(bool, master);
        QFETCH(int, gradient_dtype);
        PrecisionConfig precision = precisionForRecipe(PrecisionRecipe(recipe));
        precision.fp32_gradient_accumulation = accumulate;
        precision.master_weights = master;
        precision.gradient_dtype = DType(gradient_dtype);
        const MixedPrecisionBreakdown b = mixedPrecisionBreakdown(precision, Optimizer(optimizer));
        const double parameters = 7.0e9;
        QCOMPARE(b.modelStateBytesPerParameter() * parameters, engineModelState(parameters, precision, Optimizer(optimizer)));
        QCOMPARE(b.rowsBytesPerParameter(), b.modelStateBytesPerParameter());
        QCOMPARE(findRow(b, PrecisionTensor::MasterWeights) != nullptr, master);
        QCOMPARE(findRow(b, PrecisionTensor::GradientAccumulator) != nullptr, accumulate);
    }

    void optimizerMoments()
    {
        const PrecisionConfig bf16 = precisionForRecipe(PrecisionRecipe::BF16Mixed);
        QVERIFY(!findRow(mixedPrecisionBreakdown(bf16, Optimizer::SGD), PrecisionTensor::FirstMoment));
        const MixedPrecisionBreakdown momentum = mixedPrecisionBreakdown(bf16, Optimizer::Momentum);
        QCOMPARE(findRow(momentum, PrecisionTensor::FirstMoment)->bytes_per_parameter, 4.0);
        QVERIFY(!findRow(momentum, PrecisionTensor::SecondMoment));
        // Dettmers et al. 2022: one byte per state plus an fp32 absmax per 2048-element block.
        const MixedPrecisionBreakdown adam8 = mixedPrecisionBreakdown(bf16, Optimizer::Adam8bit);
        QCOMPARE(findRow(adam8, PrecisionTensor::SecondMoment)->bytes_per_parameter, 1.0 + 4.0 / 2048);
    }
};

QTEST_GUILESS_MAIN(TestMixedPrecision)
#include "test_mixed_precision.moc"
