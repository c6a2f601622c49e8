// SPDX-License-Identifier: GPL-3.0-or-later
// core/inference/quantisation_savings: what the serving formats save against 16-bit storage, by hand
// on a small model (the matrices of test_inference's weightBytesByHand; vLLM §3's KV bytes).

#include "../small_serving_model.h"
#include "inference/quantisation_savings.h"
#include "hardware/hardware_catalog.h"
#include "scenario/scenario_json.h"

#include <QTest>

using namespace lse;
using namespace lse::inference;

namespace {

// The small model of tests/small_serving_model.h on `gpu`.
ServingInputs smallOn(const char *gpu)
{
    const ModelConfig model = test::smallServingModel();
    ServingInputs inputs;
    inputs.scenario = defaultScenario();
    inputs.scenario.model = model;
    inputs.scenario.cluster.accelerator = *builtinHardwareCatalog().find(gpu);
    inputs.prompt_tokens = 10;
    inputs.output_tokens = 6;
    inputs.batch = 3;
    return inputs;
}

const TensorSaving &row(const QuantisationSavings &savings, const char *tensor)
{
    for (const TensorSaving &saving : savings.tensors)
        if (saving.tensor == tensor)
            return saving;
    qFatal("no row %s", tensor);
}

}  // namespace

class TestQuantisationSavings : public QObject {
    Q_OBJECT
private slots:
    void int4WeightsSaveByHand()
    {
        ServingInputs inputs = smallOn("a100-sxm-80gb");
        inputs.weights = ServingFormat::INT4;
        const Result<QuantisationSavings> savings = quantisationSavings(inputs);
        QVERIFY(savings.ok());
        // 80,128 matrix weights go from 2 bytes to 4 bits + one fp16 scale per 128 (GPTQ/AWQ);
        // the embedding and norms stay 16-bit on both sides.
        const TensorSaving &weights = row(*savings, "weights");
        QCOMPARE(weights.bytes_per_element, 0.515625);
        QCOMPARE(weights.sixteen_bit_bytes_per_element, 2.0);
        QCOMPARE(weights.saved_bytes_per_gpu, 80128 * (2 - 0.515625));
        QCOMPARE(row(*savings, "kv_cache").saved_bytes_per_gpu, 0.0);
        QVERIFY(savings->max_batch >= savings->sixteen_bit_max_batch);
    }

    void fp8KvCacheHalvesIt()
    {
        ServingInputs inputs = smallOn("h100-sxm");
        inputs.kv_cache = ServingFormat::FP8;
        const Result<QuantisationSavings> savings = quantisationSavings(inputs);
        QVERIFY(savings.ok());
        // 2 (K and V) · 2 layers · 2 KV heads · 16 · (10 + 6) tokens · 3 sequences, 2 bytes → 1 byte.
        const double sixteen = 2.0 * 2 * 2 * 16 * 16 * 3 * 2;
        const TensorSaving &kv = row(*savings, "kv_cache");
        QCOMPARE(kv.sixteen_bit_bytes_per_gpu, sixteen);
        QCOMPARE(kv.bytes_per_gpu, sixteen / 2);
        QCOMPARE(kv.saved_bytes_per_gpu, sixteen / 2);
        QCOMPARE(row(*savings, "weights").saved_bytes_per_gpu, 0.0);
    }

    void eightBitWeightsAndActivationsRunAtTheEightBitPeak()
    {
        ServingInputs inputs = smallOn("h100-sxm");
        inputs.weights = ServingFormat::FP8;
        inputs.activations = ServingFormat::FP8;
        const Result<QuantisationSavings> savings = quantisationSavings(inputs);
        QVERIFY(savings.ok());
        QVERIFY(savings->compute_format == ComputeFormat::FP8);
        QVERIFY(savings->sixteen_bit_compute_format == ComputeFormat::FP16);
        // Half the weight bytes on both sides' memory: 80,128 matrix weights at 1 byte instead of 2.
        QCOMPARE(row(*savings, "weights").saved_bytes_per_gpu, 80128.0);
    }

    void badFormatNamesTheField()
    {
        ServingInputs inputs = smallOn("a100-sxm-80gb");
        inputs.activations = ServingFormat::INT4;
        const Result<QuantisationSavings> savings = quantisationSavings(inputs);
        QVERIFY(!savings.ok());
        QCOMPARE(savings.problems().front().field, std::string("inference.activations"));
    }
};

QTEST_GUILESS_MAIN(TestQuantisationSavings)
#include "test_quantisation_savings.moc"
