// SPDX-License-Identifier: GPL-3.0-or-later
// The step-time model: compute from Narayanan et al. 2021 Eq. 3, the 1F1B bubble of §2.2 and the
// exposed data-parallel traffic, each checked against its closed form.

#include "cost/estimate.h"
#include "parallel/step_time.h"
#include "scenario/presets.h"
#include "scenario/scenario_json.h"
#include "test_models.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>

using namespace lse;
using namespace lse::parallel;

namespace {

constexpr int kLayers = 12;
constexpr double kHidden = 768, kSeq = 1024, kVocab = 50304;

Scenario gptScenario(int gpus)
{
    Scenario scenario = test::scenarioFor(test::gptModel(kLayers, std::int64_t(kHidden), 12, std::int64_t(kVocab), 1024), gpus);
    scenario.cluster.peak_flops_per_second_override = 1e15;
    scenario.training.global_batch = 64;
    return scenario;
}

bool close(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); }

}  // namespace

class TestStepTime : public QObject {
    Q_OBJECT
private slots:
    // Narayanan et al. 2021 Eq. 3: a GPT step is 72·B·s·l·h²·(1 + s/6h + V/12lh) FLOPs without
    // recomputation and 96·B·s·l·h²·(1 + s/6h + V/16lh) with full recomputation.
    void computeFollowsNarayananEquation3_data()
    {
        QTest::addColumn<int>("recomputation");
        QTest::addColumn<double>("flops");
        const double B = 64, s = kSeq, l = kLayers, h = kHidden, V = kVocab;
        QTest::addRow("no recomputation")
            << int(Recomputation::None) << 72 * B * s * l * h * h * (1 + s / (6 * h) + V / (12 * l * h));
        QTest::addRow("full recomputation")
            << int(Recomputation::Full) << 96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h));
    }
    void computeFollowsNarayananEquation3()
    {
        QFETCH(int, recomputation);
        QFETCH(double, flops);
        Scenario scenario = gptScenario(8);
        scenario.training.recomputation = Recomputation(recomputation);
        const Result<StepTimeBreakdown> step = stepTime(scenario, 0.5);
        QVERIFY2(step.ok(), formatProblems(step.problems()).c_str());
        QVERIFY(close(step->compute_seconds, flops / (8 * 1e15 * 0.5)));
        // MFU counts model FLOPs only (PaLM App. B): the 72 form over the whole step.
        const double B = 64, s = kSeq, l = kLayers, h = kHidden, V = kVocab;
        const double model_flops = 72 * B * s * l * h * h * (1 + s / (6 * h) + V / (12 * l * h));
        QVERIFY(close(step->mfu, model_flops / (8 * 1e15 * step->total_seconds)));
        QVERIFY(close(step->tokens_per_second, B * s / step->total_seconds));
        QVERIFY(close(step->total_seconds,
                      step->compute_seconds + step->exposed_communication_seconds + step->bubble_seconds));
    }

    // Narayanan et al. 2021 §2.2: bubble fraction (p-1)/m, divided by v when interleaved.
    void bubbleIsPMinusOneOverVM_data()
    {
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("v");
        QTest::addColumn<int>("micro_batches");
        QTest::addRow("p4 m8") << 4 << 1 << 8;
        QTest::addRow("p4 v3 m8") << 4 << 3 << 8;
        QTest::addRow("p2 m64") << 2 << 1 << 64;
        QTest::addRow("p1") << 1 << 1 << 32;
    }
    void bubbleIsPMinusOneOverVM()
    {
        QFETCH(int, pp);
        QFETCH(int, v);
        QFETCH(int, micro_batches);
        Scenario scenario = gptScenario(pp * 2);
        scenario.training.parallel.pp = pp;
        scenario.training.parallel.dp = 2;
        scenario.training.parallel.virtual_stages = v;
        scenario.training.global_batch = 2 * micro_batches;
        const Result<StepTimeBreakdown> step = stepTime(scenario, 0.4);
        QVERIFY2(step.ok(), formatProblems(step.problems()).c_str());
        QVERIFY(close(step->bubble_seconds + 1, double(pp - 1) / (v * micro_batches) * step->compute_seconds + 1));
    }

    // TP, CP, EP and PP traffic is exposed whole; DP gradients hide behind the last micro-batch's
    // backward (2/3 of its FLOPs without recomputation) except one layer's bucket.
    void exposedCommunication_data()
    {
        QTest::addColumn<int>("gpus_per_node");
        QTest::addColumn<int>("global_batch");
        QTest::addColumn<bool>("hidden_but_last_bucket");
        QTest::addRow("fast links, big batch: only the last bucket shows") << 8 << 256 << true;
        QTest::addRow("network, one micro-batch: part of the all-reduce shows") << 1 << 8 << false;
    }
    void exposedCommunication()
    {
        QFETCH(int, gpus_per_node);
        QFETCH(int, global_batch);
        QFETCH(bool, hidden_but_last_bucket);
        Scenario scenario = gptScenario(8);
        scenario.cluster.gpus_per_node = gpus_per_node;
        scenario.training.global_batch = global_batch;
        const Result<Estimate> e = estimate(scenario);
        const Result<StepTimeBreakdown> step = stepTime(scenario, 0.5);
        QVERIFY(e.ok() && step.ok());
        const double dp = e->communication.dp.seconds;
        QVERIFY(dp > 0);
        const double micro_batches = global_batch / 8.0;
        const double window = step->compute_seconds * (2.0 / 3.0) / micro_batches;
        QVERIFY(close(step->exposed_dp_seconds, std::max(dp - window, dp / kLayers)));
        QCOMPARE(dp - window < dp / kLayers, hidden_but_last_bucket);
        QVERIFY(close(step->exposed_communication_seconds, step->exposed_dp_seconds));

        scenario.training.parallel.dp = 4;
        scenario.training.parallel.tp = 2;
        scenario.training.parallel.sequence_parallel = true;
        const Result<Estimate> tp = estimate(scenario);
        const Result<StepTimeBreakdown> tp_step = stepTime(scenario, 0.5);
        QVERIFY(tp.ok() && tp_step.ok());
        QCOMPARE(tp_step->exposed_tp_seconds, tp->communication.tp.seconds);
    }

    // Hand check: with DP overlap off nothing hides the reduction, so exposed DP = the whole
    // all-reduce and the step grows by exactly what overlap hid; everything else is unchanged.
    void dpOverlapOffExposesTheWholeReduction()
    {
        Scenario scenario = gptScenario(8);
        scenario.cluster.gpus_per_node = 8;
        scenario.training.global_batch = 256;
        const Result<Estimate> e = estimate(scenario);
        const Result<StepTimeBreakdown> overlapped = stepTime(scenario, 0.5);
        scenario.training.parallel.dp_overlap = false;
        const Result<StepTimeBreakdown> serial = stepTime(scenario, 0.5);
        QVERIFY(e.ok() && overlapped.ok() && serial.ok());
        const double dp = e->communication.dp.seconds;
        QVERIFY(overlapped->exposed_dp_seconds < dp);
        QCOMPARE(serial->exposed_dp_seconds, dp);
        QCOMPARE(serial->compute_seconds, overlapped->compute_seconds);
        QVERIFY(close(serial->total_seconds - overlapped->total_seconds, dp - overlapped->exposed_dp_seconds));
        QVERIFY(serial->mfu < overlapped->mfu);
    }

    // The DP all-reduce of 8 GPUs on one node crosses NVLink: halving the link's Gbit/s doubles
    // its bandwidth term; the latency term (ring steps × latency) stays.
    void intraNodeLinkFieldScalesTheReduction()
    {
        Scenario scenario = gptScenario(8);
        scenario.cluster.gpus_per_node = 8;
        const double catalog_gbps = scenario.cluster.accelerator.intra_node_bandwidth_bytes_per_second * 8 / 1e9;
        scenario.cluster.intra_node_latency_seconds = 0;
        const Result<Estimate> base = estimate(scenario);
        scenario.cluster.intra_node_gbps_per_gpu = catalog_gbps;
        const Result<Estimate> same = estimate(scenario);
        scenario.cluster.intra_node_gbps_per_gpu = catalog_gbps / 2;
        const Result<Estimate> half = estimate(scenario);
        QVERIFY(base.ok() && same.ok() && half.ok());
        QCOMPARE(same->communication.dp.seconds, base->communication.dp.seconds);
        QVERIFY(close(half->communication.dp.seconds, 2 * base->communication.dp.seconds));
        // The network field does not touch a group inside one node.
        scenario.cluster.intra_node_gbps_per_gpu.reset();
        scenario.cluster.inter_node_gbps_per_gpu = 1;
        const Result<Estimate> slow_network = estimate(scenario);
        QVERIFY(slow_network.ok());
        QCOMPARE(slow_network->communication.dp.seconds, base->communication.dp.seconds);
    }

    // A file written before the fields existed (keys removed) gives the same estimate and step time
    // as the scenario it came from: the course example and a preset.
    void olderFilesGiveIdenticalTimes_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addRow("course example") << QString();
        QTest::addRow("first preset") << QString::fromStdString(builtinModelPresets().front().id);
    }
    void olderFilesGiveIdenticalTimes()
    {
        QFETCH(QString, preset);
        Scenario scenario = defaultScenario();
        if (!preset.isEmpty())
            scenario.model = findModelPreset(preset.toStdString())->model;
        QJsonObject root = QJsonDocument::fromJson(scenarioToJson(scenario)).object();
        QJsonObject cluster = root["cluster"].toObject();
        cluster.remove("intra_node_gbps_per_gpu");
        cluster.remove("inter_node_gbps_per_gpu");
        root["cluster"] = cluster;
        QJsonObject training = root["training"].toObject();
        QJsonObject parallel = training["parallel"].toObject();
        parallel.remove("dp_overlap");
        training["parallel"] = parallel;
        root["training"] = training;
        const Result<Scenario> old = scenarioFromJson(QJsonDocument(root).toJson());
        QVERIFY2(old.ok(), formatProblems(old.problems()).c_str());
        const Result<Estimate> a = estimate(scenario), b = estimate(*old);
        QVERIFY(a.ok() && b.ok());
        QCOMPARE(b->communication.total_seconds, a->communication.total_seconds);
        QCOMPARE(b->time.days, a->time.days);
        const Result<StepTimeBreakdown> x = stepTime(scenario, 0.5), y = stepTime(*old, 0.5);
        QVERIFY(x.ok() && y.ok());
        QCOMPARE(y->total_seconds, x->total_seconds);
    }

    void memoryAndFitComeFromTheEstimate()
    {
        Scenario scenario = gptScenario(8);
        const Result<Estimate> e = estimate(scenario);
        const Result<StepTimeBreakdown> step = stepTime(scenario, 0.5);
        QCOMPARE(step->memory_bytes_per_gpu, double(e->memory.total));
        QVERIFY(step->fits);
        scenario.cluster.accelerator.memory_bytes = e->memory.total - 1;
        QVERIFY(!stepTime(scenario, 0.5)->fits);
    }

    // Issue 13 item 8: the Search page's step-time model and the engine's assumed MFU are two time
    // models. The comparison reports both; at the MFU the step-time model implies, the engine's
    // days (exact FLOP count) equal the step-time model's.
    void timeModelsSideBySide()
    {
        Scenario scenario = gptScenario(8);
        scenario.training.flops_model = FlopsModel::Exact;
        scenario.training.mfu = 0.3;
        const Result<TimeModelComparison> comparison = compareTimeModels(scenario, 0.5);
        QVERIFY(comparison.ok());
        const Result<StepTimeBreakdown> step = stepTime(scenario, 0.5);
        QCOMPARE(comparison->assumed_mfu, 0.3);
        QCOMPARE(comparison->assumed_days, estimate(scenario)->time.days);
        QCOMPARE(comparison->step_model_mfu, step->mfu);
        QCOMPARE(comparison->step_seconds, step->total_seconds);
        QVERIFY(comparison->step_model_mfu != comparison->assumed_mfu);
        QVERIFY(close(comparison->step_model_days * 86400 * step->tokens_per_second, double(scenario.training.tokens)));

        Scenario at_implied = scenario;
        at_implied.training.mfu = comparison->step_model_mfu;
        QVERIFY(close(estimate(at_implied)->time.days, comparison->step_model_days));

        Scenario invalid = scenario;
        invalid.training.global_batch = 7;
        const Result<TimeModelComparison> bad = compareTimeModels(invalid, 0.5);
        QVERIFY(!bad.ok());
        QCOMPARE(bad.problems().front().field, std::string("training.global_batch"));
    }

    void badInputIsAProblem_data()
    {
        QTest::addColumn<double>("efficiency");
        QTest::addColumn<int>("global_batch");
        QTest::addColumn<QString>("field");
        QTest::addRow("efficiency 0") << 0.0 << 64 << "compute_efficiency";
        QTest::addRow("efficiency > 1") << 1.5 << 64 << "compute_efficiency";
        QTest::addRow("invalid scenario") << 0.5 << 7 << "training.global_batch";
    }
    void badInputIsAProblem()
    {
        QFETCH(double, efficiency);
        QFETCH(int, global_batch);
        QFETCH(QString, field);
        Scenario scenario = gptScenario(8);
        scenario.training.global_batch = global_batch;
        const Result<StepTimeBreakdown> step = stepTime(scenario, efficiency);
        QVERIFY(!step.ok());
        QCOMPARE(QString::fromStdString(step.problems().front().field), field);
    }
};

QTEST_GUILESS_MAIN(TestStepTime)
#include "test_step_time.moc"
