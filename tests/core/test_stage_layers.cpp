// SPDX-License-Identifier: GPL-3.0-or-later
// Uneven pipeline stages (issue 17): the automatic split (as even as possible, first and last stage
// lighter), a given training.parallel.stage_layers, the rules validation names, the scenario file,
// and the engine's use of the most loaded stage (memory against a hand calculation; an even split
// computes what the n_layers / pp of before did).

#include "cost/estimate.h"
#include "cost/estimate_json.h"
#include "ops/parameter_tensors.h"
#include "parallel/layout_search.h"
#include "performance/step_prediction.h"
#include "scenario/presets.h"
#include "scenario/scenario_json.h"
#include "scenario/stage_layers.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <algorithm>
#include <numeric>

using namespace lse;

namespace {

QString describe(const Problems &problems) { return QString::fromStdString(formatProblems(problems)); }

ModelConfig presetModel(const char *id)
{
    const ModelPreset *preset = findModelPreset(id);
    if (!preset)
        qFatal("no preset %s", id);
    return preset->model;
}

std::vector<int> repeated(int count, int value) { return std::vector<int>(std::size_t(count), value); }

// `first`, then `middle` repeated, then `last`.
std::vector<int> framed(int first, std::vector<int> middle, int last)
{
    middle.insert(middle.begin(), first);
    middle.push_back(last);
    return middle;
}

double shardedElements(const std::vector<ParameterTensor> &tensors, int tp)
{
    double elements = 0;
    for (const ParameterTensor &tensor : tensors)
        elements += double(tensor.elements()) / (tensor.tp_sharded ? tp : 1);
    return elements;
}

double elementsOf(const std::vector<ParameterTensor> &tensors)
{
    double elements = 0;
    for (const ParameterTensor &tensor : tensors)
        elements += double(tensor.elements());
    return elements;
}

// Llama 2 7B (32 layers, untied embeddings) on 32 GPUs: tp 1, pp 4, dp 8, 8 micro-batches a step.
Scenario llamaOnFourStages()
{
    Scenario scenario = defaultScenario();
    scenario.model = presetModel("llama-2-7b");
    scenario.cluster.gpus = 32;
    scenario.training.parallel = ParallelConfig{};
    scenario.training.parallel.pp = 4;
    scenario.training.parallel.dp = 8;
    scenario.training.parallel.zero_stage = 1;
    scenario.training.global_batch = 64;
    scenario.training.micro_batch = 1;
    scenario.training.recomputation = Recomputation::Selective;
    return scenario;
}

QByteArray estimateJson(const Scenario &scenario)
{
    const Result<Estimate> result = estimate(scenario);
    if (!result)
        qFatal("estimate failed: %s", formatProblems(result.problems()).c_str());
    return QJsonDocument(estimateToJson(*result, scenario)).toJson(QJsonDocument::Compact);
}

}  // namespace

Q_DECLARE_METATYPE(std::vector<int>)

class TestStageLayers : public QObject {
    Q_OBJECT
private slots:
    void automaticSplit_data()
    {
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("stages");
        QTest::addColumn<std::vector<int>>("expected");
        // BLOOM 176B: 70 layers on 12 stages.
        QTest::addRow("70 on 12") << 70 << 12 << framed(5, repeated(10, 6), 5);
        // Llama 3 405B: 126 on 16, one layer fewer on the first and last stage (Llama 3 paper §3.3.2).
        QTest::addRow("126 on 16") << 126 << 16 << framed(7, repeated(14, 8), 7);
        QTest::addRow("96 on 8, even") << 96 << 8 << repeated(8, 12);
        // Two extra layers: the last middle stages take them.
        QTest::addRow("10 on 8") << 10 << 8 << std::vector<int>{1, 1, 1, 1, 1, 2, 2, 1};
        // More extra layers than middle stages: the last one goes to the last stage.
        QTest::addRow("7 on 4") << 7 << 4 << std::vector<int>{1, 2, 2, 2};
        QTest::addRow("5 on 2") << 5 << 2 << std::vector<int>{2, 3};
        QTest::addRow("one stage") << 80 << 1 << std::vector<int>{80};
    }
    void automaticSplit()
    {
        QFETCH(int, layers);
        QFETCH(int, stages);
        QFETCH(std::vector<int>, expected);
        QCOMPARE(evenLayerSplit(layers, stages), expected);
        ParallelConfig parallel;
        parallel.pp = stages;
        const PipelineLayers placement = pipelineLayers(layers, parallel);
        QCOMPARE(placement.stage_layers, expected);
        QVERIFY(!placement.given);
        QCOMPARE(placement.mostLoadedStageLayers(), *std::max_element(expected.begin(), expected.end()));
        QCOMPARE(mostLoadedStageLayers(layers, parallel), placement.mostLoadedStageLayers());
        QCOMPARE(placement.most_loaded_stage, int(std::max_element(expected.begin(), expected.end()) - expected.begin()));
        QVERIFY(stageLayerProblems(layers, parallel).empty());
    }

    void interleavedChunks()
    {
        // 70 on 12 stages with 2 chunks each: stage 0's 5 layers as 2 + 3, a middle stage's 6 as 3 + 3.
        ParallelConfig parallel;
        parallel.pp = 12;
        parallel.virtual_stages = 2;
        const PipelineLayers placement = pipelineLayers(70, parallel);
        QCOMPARE(placement.chunkLayers(0), (std::vector<int>{2, 3}));
        QCOMPARE(placement.chunkLayers(5), (std::vector<int>{3, 3}));
        QVERIFY(placement.chunkLayers(12).empty());
        for (int stage = 0; stage < 12; ++stage) {
            const std::vector<int> chunks = placement.chunkLayers(stage);
            QCOMPARE(std::accumulate(chunks.begin(), chunks.end(), 0), placement.stage_layers[std::size_t(stage)]);
        }
    }

    void givenListIsUsed()
    {
        ParallelConfig parallel;
        parallel.pp = 4;
        parallel.stage_layers = {6, 10, 9, 7};
        const PipelineLayers placement = pipelineLayers(32, parallel);
        QVERIFY(placement.given);
        QCOMPARE(placement.stage_layers, parallel.stage_layers);
        QCOMPARE(placement.most_loaded_stage, 1);
        QCOMPARE(mostLoadedStageLayers(32, parallel), 10);
        QCOMPARE(placement.imbalance(), 10.0 * 4 / 32);
        QVERIFY(stageLayerProblems(32, parallel).empty());
    }

    void invalidLists_data()
    {
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("stages");
        QTest::addColumn<int>("chunks");
        QTest::addColumn<std::vector<int>>("given");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("rule");
        QTest::addColumn<QString>("message");
        QTest::addRow("too short") << 32 << 4 << 1 << std::vector<int>{16, 16} << "training.stage_layers" << "length"
                                   << "training.stage_layers has 2 entries; it needs one per pipeline stage (training.pp 4)";
        QTest::addRow("wrong sum") << 32 << 4 << 1 << std::vector<int>{8, 8, 8, 7} << "training.stage_layers" << "sum"
                                   << "training.stage_layers sums to 31; it must sum to model.n_layers 32";
        QTest::addRow("empty first stage") << 32 << 4 << 1 << std::vector<int>{0, 11, 11, 10} << "training.stage_layers"
                                           << "minimum" << "training.stage_layers[0] is 0; every stage needs at least 1 layer";
        QTest::addRow("a chunk without a layer") << 32 << 4 << 2 << std::vector<int>{1, 11, 11, 9} << "training.stage_layers"
                                                 << "minimum" << "at least training.virtual_stages 2 layers (one per chunk)";
        QTest::addRow("more chunks than layers") << 6 << 4 << 2 << std::vector<int>{} << "model.n_layers"
                                                 << "layers_per_chunk"
                                                 << "model.n_layers 6 is fewer than training.pp·virtual_stages 8";
    }
    void invalidLists()
    {
        QFETCH(int, layers);
        QFETCH(int, stages);
        QFETCH(int, chunks);
        QFETCH(std::vector<int>, given);
        QFETCH(QString, field);
        QFETCH(QString, rule);
        QFETCH(QString, message);
        Scenario scenario = llamaOnFourStages();
        scenario.model.n_layers = layers;
        scenario.training.parallel.pp = stages;
        scenario.training.parallel.virtual_stages = chunks;
        scenario.training.parallel.stage_layers = given;
        const Problems problems = validate(scenario);
        QCOMPARE(problems.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(problems.front().field), field);
        QCOMPARE(QString::fromStdString(problems.front().rule), rule);
        QVERIFY2(QString::fromStdString(problems.front().message).contains(message), qPrintable(describe(problems)));
        // The estimate refuses it with the same problem; nothing crashes on the way.
        QVERIFY(!estimate(scenario).ok());
        QVERIFY(!performance::predictStep(scenario).ok());
    }

    // pp no longer has to divide the layers: the published layouts validate and estimate.
    void unevenLayoutsEstimate_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("stages");
        QTest::addRow("BLOOM-like 70 on 12") << "gpt3-175b" << 70 << 12;
        QTest::addRow("Llama 3.1 405B on 16") << "llama-3.1-405b" << 126 << 16;
    }
    void unevenLayoutsEstimate()
    {
        QFETCH(QString, model);
        QFETCH(int, layers);
        QFETCH(int, stages);
        Scenario scenario = defaultScenario();
        scenario.model = presetModel(qPrintable(model));
        scenario.model.n_layers = layers;
        scenario.training.seq_len = 2048;
        scenario.cluster.gpus = 8 * stages * 8;
        scenario.training.parallel.tp = 8;
        scenario.training.parallel.pp = stages;
        scenario.training.parallel.dp = 8;
        scenario.training.global_batch = 512;
        QVERIFY2(validate(scenario).empty(), qPrintable(describe(validate(scenario))));
        const Result<Estimate> result = estimate(scenario);
        QVERIFY(result.ok());
        QCOMPARE(result->memory.layers_per_stage, evenLayerSplit(layers, stages));
        QVERIFY(performance::predictStep(scenario).ok());
    }

    // Memory of the most loaded stage against a hand calculation: Llama 2 7B with 4, 12, 10, 6
    // layers. Stage 1 holds 12 layers and, in 1F1B, p − 1 = 3 micro-batches of their activations
    // (Korthikanti et al. 2022 §4.2.3); stage 0 holds 4 layers + the embedding and 4 micro-batches.
    void mostLoadedStageMemoryByHand()
    {
        Scenario scenario = llamaOnFourStages();
        scenario.training.parallel.stage_layers = {4, 12, 10, 6};
        QVERIFY2(validate(scenario).empty(), qPrintable(describe(validate(scenario))));
        const Result<Estimate> result = estimate(scenario);
        QVERIFY(result.ok());
        const MemoryEstimate &memory = result->memory;
        const ModelParameters parameters = modelParameters(scenario.model);
        const double layer_elements = elementsOf(parameters.dense_layers.tensors);
        QCOMPARE(layer_elements, 202383360.0);  // 4·4096² + 3·4096·11008 + 2·4096
        QCOMPARE(memory.pipeline_stage, 1);
        QCOMPARE(memory.stage_layers, 12);
        QCOMPARE(memory.most_loaded_stage, 1);
        QCOMPARE(memory.parameters_on_gpu, std::int64_t(12 * layer_elements));
        QCOMPARE(memory.params, std::int64_t(12 * layer_elements * 2));  // bf16 weights
        QCOMPARE(memory.in_flight_micro_batches, 3.0);
        QCOMPARE(memory.activations, std::int64_t(memory.activation_bytes_per_layer * 12 * 3));
    }

    // With pp dividing the layers, the placement is n_layers / pp everywhere, as before uneven
    // stages: GPT-3 175B, 96 layers on 8 stages. Stage 0 (12 layers + embedding, p = 8 micro-batches
    // in flight) is the largest, by the same hand calculation; the automatic split and the same
    // split typed as a list give byte-identical estimates.
    void evenSplitMatchesTheEvenFormula()
    {
        Scenario scenario = defaultScenario();
        scenario.model = presetModel("gpt3-175b");
        scenario.training.seq_len = 2048;
        scenario.cluster.gpus = 512;
        scenario.training.parallel = ParallelConfig{};
        scenario.training.parallel.tp = 8;
        scenario.training.parallel.pp = 8;
        scenario.training.parallel.dp = 8;
        scenario.training.parallel.sequence_parallel = true;
        scenario.training.parallel.zero_stage = 1;
        scenario.training.global_batch = 512;
        scenario.training.recomputation = Recomputation::Selective;
        QVERIFY2(validate(scenario).empty(), qPrintable(describe(validate(scenario))));
        const Result<Estimate> result = estimate(scenario);
        QVERIFY(result.ok());
        QCOMPARE(result->memory.layers_per_stage, repeated(8, 12));
        QCOMPARE(result->memory.pipeline_stage, 0);
        QCOMPARE(result->memory.in_flight_micro_batches, 8.0);
        // Stage 0's shard before ZeRO: 12 layers and the embedding, tensor-parallel ones split by tp.
        const ModelParameters parameters = modelParameters(scenario.model);
        const double stage0 = 96.0 / 8 * shardedElements(parameters.dense_layers.tensors, 8)
            + shardedElements(parameters.embedding, 8);
        QCOMPARE(result->memory.parameters_on_gpu, std::int64_t(stage0));
        QVERIFY(result->memory.activations >= std::int64_t(result->memory.activation_bytes_per_layer * 12 * 8));
        Scenario typed = scenario;
        typed.training.parallel.stage_layers = repeated(8, 12);
        QCOMPARE(estimateJson(typed), estimateJson(scenario));
        // The step model's last DP bucket is one layer of the 12 (n_layers / pp of before).
        QCOMPARE(pipelineLayers(96, scenario.training.parallel).mostLoadedStageLayers(), 12);
    }

    // A heavier middle stage moves memory, TP traffic and the step time the way the most loaded
    // stage says; a lighter first stage alone changes neither the TP traffic nor the step.
    void mostLoadedStageDrivesCommunicationAndTime()
    {
        Scenario even = llamaOnFourStages();
        even.cluster.gpus = 64;
        even.training.parallel.tp = 2;
        even.training.parallel.dp = 8;
        Scenario skewed = even;
        skewed.training.parallel.stage_layers = {5, 11, 8, 8};  // 11 on stage 1 instead of 8
        const Result<Estimate> a = estimate(even), b = estimate(skewed);
        QVERIFY(a.ok() && b.ok());
        QCOMPARE(b->communication.tp.bytes, a->communication.tp.bytes * 11 / 8);
        // DP in the step-time model: the embedding and head shared over the stages, the layers of
        // the most loaded stage (11 of the 32 instead of 8).
        const ModelParameters parameters = modelParameters(even.model);
        const double shared = elementsOf(parameters.embedding) + elementsOf(parameters.head);
        const double layers = elementsOf(parameters.dense_layers.tensors) * 32;
        QCOMPARE(b->communication.dp.bytes / a->communication.dp.bytes, (shared + layers * 11 / 8) / (shared + layers));
        // Per stage, what its GPUs hold: per tp rank a layer's matrices halved and its two norm
        // gains whole; stage 0 adds half the (vocabulary-parallel) embedding, the last stage the
        // whole final norm and half the head.
        const double layer = (elementsOf(parameters.dense_layers.tensors) - 2 * 4096) / 2 + 2 * 4096;
        const double embedding = elementsOf(parameters.embedding) / 2;
        const double head = 4096 + (elementsOf(parameters.head) - 4096) / 2;
        const std::vector<double> &held = b->communication.dp_bytes_per_stage;
        QCOMPARE(held.size(), std::size_t(4));
        QCOMPARE(held[0] / held[2], (5 * layer + embedding) / (8 * layer));
        QCOMPARE(held[1] / held[2], 11.0 / 8);
        QCOMPARE(held[3] / held[2], (8 * layer + head) / (8 * layer));
        // ZeRO-1 over dp 8: reduce-scatter + all-gather of bf16, 7/8 of (2 + 2) bytes per element.
        QCOMPARE(held[2], 7.0 / 8 * 4 * 8 * layer);
        QVERIFY(b->memory.total > a->memory.total);
        Scenario lighter_first = even;
        lighter_first.training.parallel.stage_layers = {7, 8, 9, 8};
        const Result<Estimate> c = estimate(lighter_first);
        QCOMPARE(c->communication.tp.bytes, a->communication.tp.bytes * 9 / 8);
        // The step model puts the exposed TP traffic of the most loaded stage on the critical path.
        const Result<performance::StepPrediction> step_even = performance::predictStep(even);
        const Result<performance::StepPrediction> step_skewed = performance::predictStep(skewed);
        QVERIFY(step_even.ok() && step_skewed.ok());
        QCOMPARE(step_skewed->exposed.tp_seconds / step_even->exposed.tp_seconds, 11.0 / 8);
        QCOMPARE(step_skewed->busiest_stage_layers, 11);
        QVERIFY(step_skewed->total_seconds > step_even->total_seconds);
    }

    void layoutSearchConsidersUnevenPipelines()
    {
        // 70 layers on 16 GPUs: pp 4 and 8 do not divide 70 but real runs use such layouts.
        Scenario base = llamaOnFourStages();
        base.model.n_layers = 70;
        base.cluster.gpus = 16;
        base.training.parallel.stage_layers = {10, 20, 20, 20};  // the base's own list is not carried over
        parallel::SearchOptions options;
        options.max_virtual_stages = 2;
        options.max_micro_batch = 1;
        options.max_cloud_points = 100000;  // sample every layout
        const Result<parallel::SearchResult> result = parallel::searchLayouts(base, options);
        QVERIFY(result.ok());
        ParallelConfig p;
        p.tp = 1;
        p.pp = 8;
        p.dp = 2;
        QVERIFY(parallel::layoutIsValid(base, p, 1));
        QVERIFY(validate(parallel::applyLayout(base, {p, 1, Recomputation::None, {}})).empty());
        QVERIFY(result->cloud.size() == std::size_t(result->evaluated));  // every layout sampled
        const auto has_pp = [&](int pp) {
            return std::any_of(result->cloud.begin(), result->cloud.end(),
                               [pp](const parallel::LayoutCandidate &c) { return c.parallel.pp == pp; });
        };
        QVERIFY(has_pp(8));
        QVERIFY(has_pp(16));
        for (const parallel::LayoutCandidate &candidate : result->cloud)
            QVERIFY(candidate.parallel.stage_layers.empty());
    }

    void scenarioFileRoundTrip()
    {
        Scenario scenario = llamaOnFourStages();
        // Unset: the file has no stage_layers key, so older readers and files see what they did.
        const QByteArray automatic = scenarioToJson(scenario);
        QVERIFY(!automatic.contains("stage_layers"));
        scenario.training.parallel.stage_layers = {7, 9, 9, 7};
        const QByteArray given = scenarioToJson(scenario);
        QVERIFY(given.contains("stage_layers"));
        const Result<Scenario> back = scenarioFromJson(given);
        QVERIFY2(back.ok(), qPrintable(describe(back.problems())));
        QCOMPARE(back->training.parallel.stage_layers, scenario.training.parallel.stage_layers);
        const Result<Scenario> old = scenarioFromJson(automatic);
        QVERIFY(old.ok());
        QVERIFY(old->training.parallel.stage_layers.empty());
    }

    void scenarioFileRejectsBadLists_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("rule");
        QTest::addRow("not an array") << QByteArray("\"8,8\"") << "type";
        QTest::addRow("negative") << QByteArray("[8, -1, 8, 8]") << "range";
        QTest::addRow("fraction") << QByteArray("[8, 8.5, 8, 8]") << "range";
        QTest::addRow("text entry") << QByteArray("[8, \"8\", 8, 8]") << "type";
    }
    void scenarioFileRejectsBadLists()
    {
        QFETCH(QByteArray, value);
        QFETCH(QString, rule);
        QByteArray json = scenarioToJson(llamaOnFourStages());
        json.replace("\"dp_overlap\": true", "\"dp_overlap\": true, \"stage_layers\": " + value);
        QVERIFY(json.contains("stage_layers"));
        const Result<Scenario> loaded = scenarioFromJson(json);
        QVERIFY(!loaded.ok());
        const Problems &problems = loaded.problems();
        const auto it = std::find_if(problems.begin(), problems.end(),
                                     [](const Problem &p) { return p.field == "training.parallel.stage_layers"; });
        QVERIFY2(it != problems.end(), qPrintable(describe(problems)));
        QCOMPARE(QString::fromStdString(it->rule), rule);
    }

    void listText()
    {
        QCOMPARE(stageLayersText({5, 6, 6, 5}), std::string("5,6,6,5"));
        QCOMPARE(parseStageLayers(" 5, 6 ,6,5 "), std::optional<std::vector<int>>(std::vector<int>{5, 6, 6, 5}));
        QCOMPARE(parseStageLayers(""), std::optional<std::vector<int>>(std::vector<int>{}));
        QVERIFY(!parseStageLayers("5,,6"));
        QVERIFY(!parseStageLayers("5,x"));
        QVERIFY(!parseStageLayers("5,-1"));
        QVERIFY(!parseStageLayers("5.5,6"));
    }
};

QTEST_GUILESS_MAIN(TestStageLayers)
#include "test_stage_layers.moc"
