// SPDX-License-Identifier: GPL-3.0-or-later
// core/inference: the serving model's closed forms, each computed by hand here — weight bytes of a
// small model per format (int4 with its fp16 scale per 128 weights), KV-cache bytes (vLLM §3, KV heads
// split over tp), batch-1 decode no faster than reading the weights once (the memory roofline),
// Leviathan et al. 2023's expected tokens per step (eq. 1) and speedup (Theorem 3.8) at α = 0 and 1,
// the tensor-parallel all-reduce time of the link model, the breakdown summing to the latency, the
// FLOPs equal to the roofline's (one operator list) and the largest batch at the memory's edge.

#include "../small_serving_model.h"
#include "inference/serving_factors.h"
#include "inference/serving_model.h"
#include "inference/speculative.h"
#include "hardware/hardware_catalog.h"
#include "roofline/roofline.h"
#include "scenario/cluster_links.h"
#include "scenario/presets.h"
#include "scenario/scenario_json.h"

#include <QTest>

#include <cmath>

using namespace lse;
using namespace lse::inference;

namespace {

ModelConfig smallModel() { return test::smallServingModel(); }

ServingInputs inputsFor(const ModelConfig &model, const char *gpu)
{
    Scenario scenario = defaultScenario();
    scenario.model = model;
    scenario.cluster.accelerator = *builtinHardwareCatalog().find(gpu);
    ServingInputs inputs;
    inputs.scenario = scenario;
    return inputs;
}

ServingReport served(const ServingInputs &inputs)
{
    const Result<ServingReport> report = serve(inputs);
    if (!report)
        qFatal("serve failed: %s", formatProblems(report.problems()).c_str());
    return *report;
}

}  // namespace

class TestInference : public QObject {
    Q_OBJECT

private slots:
    void weightBytesByHand_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<double>("expected");
        // Matrices per layer: q 64·64, k and v 64·32 each, o 64·64, gate and up 64·128 each, down
        // 128·64 = 36,864; two layers and the 64·100 head: 80,128 matrix weights. 16-bit always:
        // the 100·64 embedding and 2·2·64 + 64 norm weights = 6,720.
        constexpr double matrices = 80128, unquantised = 6720 * 2.0;
        QTest::addRow("fp16: 2 bytes each") << "fp16" << matrices * 2 + unquantised;
        QTest::addRow("fp8: 1 byte each") << "fp8" << matrices * 1 + unquantised;
        QTest::addRow("int8: 1 byte each (per-channel scales left out)") << "int8" << matrices * 1 + unquantised;
        // GPTQ/AWQ group size 128: 4 bits per weight plus one 16-bit scale per 128 weights.
        QTest::addRow("int4 + fp16 scale per 128 weights: 0.515625 bytes each") << "int4"
                                                                                 << matrices * (0.5 + 2.0 / 128) + unquantised;
    }
    void weightBytesByHand()
    {
        QFETCH(QString, format);
        QFETCH(double, expected);
        ServingInputs inputs = inputsFor(smallModel(), "a100-sxm-80gb");
        inputs.weights = *servingFormatFromString(format.toStdString());
        QCOMPARE(served(inputs).memory.weights_bytes, expected);
    }

    void kvCacheBytesByHand_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("tp");
        QTest::addColumn<QString>("kv");
        QTest::addColumn<qint64>("batch");
        QTest::addColumn<double>("expected");
        // 2 (K and V) · layers · KV heads per GPU · head_dim · (prompt + output) · batch · bytes.
        QTest::addRow("small, 2·2·2·16·(10+6)·3·2 bytes") << "small" << 1 << "fp16" << qint64(3) << 2.0 * 2 * 2 * 16 * 16 * 3 * 2;
        QTest::addRow("small tp 2: one KV head per GPU") << "small" << 2 << "fp16" << qint64(3) << 2.0 * 2 * 1 * 16 * 16 * 3 * 2;
        QTest::addRow("small tp 4: a KV head is not split, it is repeated") << "small" << 4 << "fp8" << qint64(1)
                                                                            << 2.0 * 2 * 1 * 16 * 16 * 1 * 1;
        // Llama 2 70B (Touvron et al. 2023: 80 layers, 8 KV heads of 128): 327,680 bytes per token in
        // 16 bits; fp8 over tp 4 leaves 2 KV heads per GPU.
        QTest::addRow("llama-2-70b tp 4 fp8") << "llama-2-70b" << 4 << "fp8" << qint64(2) << 2.0 * 80 * 2 * 128 * 16 * 2 * 1;
    }
    void kvCacheBytesByHand()
    {
        QFETCH(QString, model);
        QFETCH(int, tp);
        QFETCH(QString, kv);
        QFETCH(qint64, batch);
        QFETCH(double, expected);
        const ModelConfig config = model == "small" ? smallModel() : findModelPreset(model.toStdString())->model;
        ServingInputs inputs = inputsFor(config, "h100-sxm");
        inputs.tp = tp;
        inputs.kv_cache = *servingFormatFromString(kv.toStdString());
        inputs.batch = batch;
        inputs.prompt_tokens = 10;
        inputs.output_tokens = 6;
        QCOMPARE(served(inputs).memory.kv_cache_bytes, expected);
    }

    // Decode reads every weight once per step, so one step can be no faster than the weights over the
    // HBM bandwidth (Williams et al. 2009's memory roof).
    void batchOneTpotAtLeastWeightsOverBandwidth_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<int>("tp");
        QTest::addColumn<QString>("weights");
        QTest::addRow("llama-2-7b A100 fp16") << "llama-2-7b" << "a100-sxm-80gb" << 1 << "fp16";
        QTest::addRow("llama-2-7b H100 int4") << "llama-2-7b" << "h100-sxm" << 1 << "int4";
        QTest::addRow("llama-2-70b H100 tp 4 fp8") << "llama-2-70b" << "h100-sxm" << 4 << "fp8";
        QTest::addRow("llama-2-13b L40S int8") << "llama-2-13b" << "l40s" << 1 << "int8";
    }
    void batchOneTpotAtLeastWeightsOverBandwidth()
    {
        QFETCH(QString, model);
        QFETCH(QString, gpu);
        QFETCH(int, tp);
        QFETCH(QString, weights);
        ServingInputs inputs = inputsFor(findModelPreset(model.toStdString())->model, gpu.toLocal8Bit().constData());
        inputs.tp = tp;
        inputs.weights = *servingFormatFromString(weights.toStdString());
        const ServingReport report = served(inputs);
        const double floor = report.memory.weights_bytes / inputs.scenario.cluster.accelerator.memory_bandwidth_bytes_per_second;
        QVERIFY2(report.tpot_seconds >= floor, qPrintable(QStringLiteral("%1 < %2").arg(report.tpot_seconds).arg(floor)));
        // and with perfect factors the step is still above it
        ServingFactors perfect;
        perfect.compute_fraction = perfect.bandwidth_fraction = 1;
        perfect.kernel_launch_seconds = perfect.host_step_seconds = 0;
        inputs.factors = perfect;
        QVERIFY(served(inputs).tpot_seconds >= floor);
    }

    void speculativeFormulas_data()
    {
        QTest::addColumn<double>("alpha");
        QTest::addColumn<int>("gamma");
        QTest::addColumn<double>("c");
        QTest::addColumn<double>("tokens");
        QTest::addColumn<double>("speedup");
        // Leviathan et al. 2023, eq. (1) and Theorem 3.8.
        QTest::addRow("alpha 0: only the target's own token") << 0.0 << 4 << 0.1 << 1.0 << 1.0 / 1.4;
        QTest::addRow("alpha 1: every draft kept, gamma + 1") << 1.0 << 4 << 0.1 << 5.0 << 5.0 / 1.4;
        QTest::addRow("alpha 0.8, gamma 4: (1 - 0.8^5) / 0.2") << 0.8 << 4 << 0.05 << (1 - 0.32768) / 0.2
                                                               << (1 - 0.32768) / 0.2 / 1.2;
        QTest::addRow("alpha 0.5, gamma 2, free draft") << 0.5 << 2 << 0.0 << 1.75 << 1.75;
    }
    void speculativeFormulas()
    {
        QFETCH(double, alpha);
        QFETCH(int, gamma);
        QFETCH(double, c);
        QFETCH(double, tokens);
        QFETCH(double, speedup);
        QCOMPARE(expectedTokensPerTargetStep(alpha, gamma), tokens);
        QVERIFY(std::abs(speculativeSpeedup(alpha, gamma, c) - speedup) < 1e-12);
    }

    void speculativeReportUsesTheDraftsTpot()
    {
        ServingInputs inputs = inputsFor(findModelPreset("llama-2-70b")->model, "h100-sxm");
        inputs.tp = 4;
        inputs.speculative = SpeculativeInputs{findModelPreset("llama-2-7b")->model, 4, 0.8};
        const ServingReport report = served(inputs);
        QVERIFY(report.speculative.has_value());
        const SpeculativeReport &s = *report.speculative;
        ServingInputs draft = inputs;
        draft.speculative.reset();
        draft.scenario.model = findModelPreset("llama-2-7b")->model;
        QCOMPARE(s.draft_tpot_seconds, served(draft).tpot_seconds);
        QCOMPARE(s.cost_coefficient, s.draft_tpot_seconds / report.tpot_seconds);
        QCOMPARE(s.speedup, speculativeSpeedup(0.8, 4, s.cost_coefficient));
        QCOMPARE(s.tpot_seconds, report.tpot_seconds / s.speedup);
    }

    // Two all-reduces per layer of micro_batch · tokens · d_model 16-bit values, ring alpha-beta:
    // 2(tp−1)·latency + 2(tp−1)/tp · bytes / (bandwidth · efficiency); prefill once, decode per step.
    void tensorParallelAllReduceByHand()
    {
        ServingInputs inputs = inputsFor(smallModel(), "h100-sxm");
        inputs.tp = 2;
        inputs.batch = 3;
        inputs.prompt_tokens = 10;
        inputs.output_tokens = 5;
        const ClusterConfig &cluster = inputs.scenario.cluster;
        const double bandwidth = intraNodeBytesPerSecondPerGpu(cluster) * cluster.link_efficiency;
        const auto allReduce = [&](double bytes) {
            return 2.0 * (2 - 1) * cluster.intra_node_latency_seconds + 2.0 * (2 - 1) / 2 * bytes / bandwidth;
        };
        const double layers = 2;
        const double prefill = 2 * layers * allReduce(3.0 * 10 * 64 * 2);
        const double decode = 4 * 2 * layers * allReduce(3.0 * 1 * 64 * 2);
        const ServingReport report = served(inputs);
        double tp_seconds = -1;
        for (const ServingPart &part : report.breakdown)
            if (part.key == "tp_all_reduce")
                tp_seconds = part.seconds;
        QVERIFY(std::abs(tp_seconds - (prefill + decode)) < 1e-15);
        inputs.tp = 1;
        for (const ServingPart &part : served(inputs).breakdown)
            if (part.key == "tp_all_reduce")
                QCOMPARE(part.seconds, 0.0);
    }

    void breakdownSumsToTheLatency_data()
    {
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("pp");
        QTest::addColumn<qint64>("batch");
        QTest::addRow("tp 1 pp 1 batch 1") << 1 << 1 << qint64(1);
        QTest::addRow("tp 4 pp 1 batch 64") << 4 << 1 << qint64(64);
        QTest::addRow("tp 2 pp 4 batch 6 (micro-batches)") << 2 << 4 << qint64(6);
    }
    void breakdownSumsToTheLatency()
    {
        QFETCH(int, tp);
        QFETCH(int, pp);
        QFETCH(qint64, batch);
        ServingInputs inputs = inputsFor(findModelPreset("llama-2-13b")->model, "a100-sxm-80gb");
        inputs.tp = tp;
        inputs.pp = pp;
        inputs.batch = batch;
        const ServingReport report = served(inputs);
        double sum = 0;
        for (const ServingPart &part : report.breakdown) {
            QVERIFY(part.seconds >= 0);
            QVERIFY2(!part.formula.empty() && !part.source.empty(), part.key.c_str());
            sum += part.seconds;
        }
        QVERIFY(std::abs(sum - report.end_to_end_seconds) <= 1e-9 * report.end_to_end_seconds);
        QVERIFY(std::abs(report.ttft_seconds + report.decode_seconds - report.end_to_end_seconds) < 1e-12);
        QCOMPARE(report.decode_seconds, report.tpot_seconds * double(inputs.output_tokens - 1));
        QCOMPARE(report.output_tokens_per_second, double(batch) * 128 / report.end_to_end_seconds);
    }

    // The prefill's FLOPs are the roofline's prefill phase: one operator list (core/ops), no second formula.
    void flopsAreTheRooflines()
    {
        ServingInputs inputs = inputsFor(findModelPreset("llama-2-7b")->model, "h100-sxm");
        inputs.batch = 2;
        inputs.prompt_tokens = 256;
        const ServingReport report = served(inputs);
        Scenario scenario = inputs.scenario;
        scenario.training.seq_len = 256;
        RooflineOptions options = rooflineOptionsFor(scenario, StepPhase::Prefill);
        options.batch = 2;
        const Result<RooflineReport> roofline = rooflineReport(scenario, options, rooflineMachine(scenario));
        QVERIFY(roofline.ok());
        double flops = 0;
        for (const ServingOperator &op : report.prefill_operators)
            flops += op.flops;
        QVERIFY(std::abs(flops - roofline->total_flops) <= 1e-12 * flops);
    }

    void largestBatchIsAtTheMemorysEdge()
    {
        ServingInputs inputs = inputsFor(findModelPreset("llama-2-13b")->model, "a100-sxm-80gb");
        inputs.prompt_tokens = 1024;
        inputs.output_tokens = 1024;
        const std::int64_t largest = served(inputs).max_batch;
        QVERIFY(largest > 1);
        inputs.batch = largest;
        QVERIFY(served(inputs).memory.fits);
        inputs.batch = largest + 1;
        QVERIFY(!served(inputs).memory.fits);
    }

    void badInputNamesTheField_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addRow("int4 activations") << "inference.activations";
        QTest::addRow("int4 KV cache") << "inference.kv_cache";
        QTest::addRow("fp8 activations on an A100") << "inference.activations";
        QTest::addRow("tp not dividing the heads") << "inference.tp";
        QTest::addRow("acceptance above 1") << "inference.acceptance";
    }
    void badInputNamesTheField()
    {
        QFETCH(QString, field);
        ServingInputs inputs = inputsFor(smallModel(), "a100-sxm-80gb");
        const QString row = QString::fromLatin1(QTest::currentDataTag());
        if (row == "int4 activations")
            inputs.activations = ServingFormat::INT4;
        else if (row == "int4 KV cache")
            inputs.kv_cache = ServingFormat::INT4;
        else if (row == "fp8 activations on an A100")
            inputs.activations = ServingFormat::FP8;
        else if (row == "tp not dividing the heads")
            inputs.tp = 3;
        else
            inputs.speculative = SpeculativeInputs{smallModel(), 4, 1.5};
        const Result<ServingReport> report = serve(inputs);
        QVERIFY(!report.ok());
        bool named = false;
        for (const Problem &problem : report.problems())
            named = named || problem.field == field.toStdString();
        QVERIFY2(named, formatProblems(report.problems()).c_str());
    }

    void catalogFactorsHaveSources()
    {
        const ServingFactorCatalog &catalog = builtinServingFactors();
        QVERIFY(!catalog.fitted.empty());
        QVERIFY(!catalog.fit_command.empty());
        for (const ServingFactors &factors : catalog.fitted) {
            QVERIFY2(!factors.source.empty(), factors.accelerator.c_str());
            QVERIFY(builtinHardwareCatalog().find(factors.accelerator) != nullptr);
        }
        // A100 40 GB borrows the 80 GB's fit (the same chip); a part without any is uncalibrated.
        QVERIFY(catalog.lookUp("a100-sxm-40gb", "fp16").calibrated);
        QCOMPARE(catalog.lookUp("a100-sxm-40gb", "fp16").compute_fraction,
                 catalog.lookUp("a100-sxm-80gb", "fp16").compute_fraction);
        QVERIFY(!catalog.lookUp("tpu-v5p", "fp16").calibrated);
    }
};

QTEST_GUILESS_MAIN(TestInference)
#include "test_inference.moc"
