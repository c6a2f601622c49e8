// SPDX-License-Identifier: GPL-3.0-or-later
// Exposed communication (parallel/step_time.h): which traffic compute hides, by hand on an
// OverlapWindow and through the step prediction; the link and DP-overlap fields; older files.

#include "cost/estimate.h"
#include "parallel/step_time.h"
#include "performance/step_prediction.h"
#include "scenario/presets.h"
#include "scenario/scenario_json.h"
#include "test_models.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>

using namespace lse;
using namespace lse::parallel;
using performance::predictStep;
using performance::StepPrediction;

namespace {

constexpr int kLayers = 12;

Scenario gptScenario(int gpus)
{
    Scenario scenario = test::scenarioFor(test::gptModel(kLayers, 768, 12, 50304, 1024), gpus);
    scenario.training.global_batch = 64;
    return scenario;
}

bool close(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); }

CommunicationEstimate communication(double tp, double cp, double ep, double pp, double dp)
{
    CommunicationEstimate c;
    c.tp.seconds = tp;
    c.cp.seconds = cp;
    c.ep.seconds = ep;
    c.pp.seconds = pp;
    c.dp.seconds = dp;
    return c;
}

}  // namespace

class TestStepTime : public QObject {
    Q_OBJECT
private slots:
    // By hand: TP, CP, EP and PP exposed whole; DP hidden behind backward/m except one layer's
    // bucket; ZeRO-3's window is the whole step; overlap off exposes all of it.
    void exposedByHand_data()
    {
        QTest::addColumn<double>("dp");
        QTest::addColumn<int>("zero_stage");
        QTest::addColumn<bool>("overlap");
        QTest::addColumn<double>("exposed_dp");
        // compute 10 s, backward share 0.6, 4 micro-batches: window 1.5 s; 10 layers: bucket dp/10.
        QTest::addRow("hidden but the last bucket") << 1.0 << 0 << true << 0.1;
        QTest::addRow("longer than the window") << 3.0 << 0 << true << 1.5;
        QTest::addRow("ZeRO-3 prefetch over the step") << 3.0 << 3 << true << 0.3;
        QTest::addRow("overlap off") << 1.0 << 0 << false << 1.0;
    }
    void exposedByHand()
    {
        QFETCH(double, dp);
        QFETCH(int, zero_stage);
        QFETCH(bool, overlap);
        QFETCH(double, exposed_dp);
        OverlapWindow window;
        window.compute_seconds = 10;
        window.backward_share = 0.6;
        window.micro_batches = 4;
        window.layers_per_stage = 10;
        window.zero_stage = zero_stage;
        window.dp_overlap = overlap;
        const ExposedCommunication e = exposedCommunication(communication(0.5, 0.25, 0.125, 0.0625, dp), window);
        QVERIFY(close(e.dp_seconds, exposed_dp));
        QCOMPARE(e.tp_seconds, 0.5);
        QCOMPARE(e.cp_seconds, 0.25);
        QCOMPARE(e.ep_seconds, 0.125);
        QCOMPARE(e.pp_seconds, 0.0625);
        QVERIFY(close(e.total(), 0.5 + 0.25 + 0.125 + 0.0625 + exposed_dp));
    }

    // The overlaps of issue 29 by hand, on traffic TP 0.8 s, CP 0.6 s, PP 0.4 s and a ZeRO-1 DP
    // reduction of 0.6 s plus a parameter gather of 0.4 s; compute 10 s (backward share 0.6) in 4
    // micro-batches of 10 layers, 2 virtual stages, tp 8, cp 2:
    // - TP overlap (Wang et al. 2023): max(T/tp, T − GEMM) = max(0.1, 0.8 − 6) = 0.1; with 0.5 s of
    //   GEMMs max(0.1, 0.3) = 0.3; off: 0.8;
    // - CP ring (Liu et al. 2023): max(T/cp, T − attention) = max(0.3, 0.6 − 0.3) = 0.3; with 0.1 s of
    //   attention max(0.3, 0.5) = 0.5;
    // - PP overlap: T/(m·v) = 0.4/8 = 0.05; off: 0.4;
    // - DP: the reduction behind the last backward 10·0.6/4 = 1.5 s leaves its last bucket
    //   0.6/10 = 0.06; the gather behind the first forward 10·0.4/4 = 1 s leaves 0.04; without the
    //   gather overlap the whole 0.4 waits: 0.46.
    void overlapsByHand_data()
    {
        QTest::addColumn<bool>("tp_overlap");
        QTest::addColumn<bool>("pp_overlap");
        QTest::addColumn<bool>("gather_overlap");
        QTest::addColumn<double>("gemm");
        QTest::addColumn<double>("attention");
        QTest::addColumn<double>("tp");
        QTest::addColumn<double>("cp");
        QTest::addColumn<double>("pp");
        QTest::addColumn<double>("dp");
        QTest::addRow("all overlaps on") << true << true << true << 6.0 << 0.3 << 0.1 << 0.3 << 0.05 << 0.1;
        QTest::addRow("short GEMMs, short attention") << true << true << true << 0.5 << 0.1 << 0.3 << 0.5 << 0.05 << 0.1;
        QTest::addRow("overlaps off") << false << false << false << 6.0 << 0.3 << 0.8 << 0.3 << 0.4 << 0.46;
    }
    void overlapsByHand()
    {
        QFETCH(bool, tp_overlap);
        QFETCH(bool, pp_overlap);
        QFETCH(bool, gather_overlap);
        QFETCH(double, gemm);
        QFETCH(double, attention);
        OverlapWindow window;
        window.compute_seconds = 10;
        window.backward_share = 0.6;
        window.micro_batches = 4;
        window.layers_per_stage = 10;
        window.virtual_stages = 2;
        window.gemm_seconds = gemm;
        window.attention_seconds = attention;
        window.tp = 8;
        window.cp = 2;
        window.zero_stage = 1;
        window.tp_comm_overlap = tp_overlap;
        window.pp_comm_overlap = pp_overlap;
        window.dp_param_gather_overlap = gather_overlap;
        CommunicationEstimate c = communication(0.8, 0.6, 0.0, 0.4, 1.0);
        c.dp.gather_seconds = 0.4;
        const ExposedCommunication e = exposedCommunication(c, window);
        QFETCH(double, tp);
        QFETCH(double, cp);
        QFETCH(double, pp);
        QFETCH(double, dp);
        QVERIFY2(close(e.tp_seconds, tp), qPrintable(QString::number(e.tp_seconds)));
        QVERIFY2(close(e.cp_seconds, cp), qPrintable(QString::number(e.cp_seconds)));
        QVERIFY2(close(e.pp_seconds, pp), qPrintable(QString::number(e.pp_seconds)));
        QVERIFY2(close(e.dp_seconds, dp), qPrintable(QString::number(e.dp_seconds)));
    }

    // Through the prediction: the window is the last micro-batch's backward.
    void exposedCommunicationOfAPrediction_data()
    {
        QTest::addColumn<int>("gpus_per_node");
        QTest::addColumn<int>("global_batch");
        QTest::addRow("fast links, big batch") << 8 << 256;
        QTest::addRow("network, one micro-batch") << 1 << 8;
    }
    void exposedCommunicationOfAPrediction()
    {
        QFETCH(int, gpus_per_node);
        QFETCH(int, global_batch);
        Scenario scenario = gptScenario(8);
        scenario.cluster.gpus_per_node = gpus_per_node;
        scenario.training.global_batch = global_batch;
        const Result<Estimate> e = estimate(scenario);
        const Result<StepPrediction> step = predictStep(scenario);
        QVERIFY(e.ok() && step.ok());
        const double dp = e->communication.dp.seconds;
        QVERIFY(dp > 0);
        const double window = step->backward_seconds / step->micro_batches;
        QVERIFY(close(step->exposed.dp_seconds, std::max(dp - window, dp / kLayers)));
        QVERIFY(close(step->exposed_communication_seconds, step->exposed.dp_seconds));

        scenario.training.parallel.dp = 4;
        scenario.training.parallel.tp = 2;
        scenario.training.parallel.sequence_parallel = true;
        const Result<Estimate> tp = estimate(scenario);
        const Result<StepPrediction> tp_step = predictStep(scenario);
        QVERIFY(tp.ok() && tp_step.ok());
        QCOMPARE(tp_step->exposed.tp_seconds, tp->communication.tp.seconds);
    }

    // With DP overlap off nothing hides the reduction: exposed DP = the whole all-reduce and the
    // step grows by exactly what overlap hid; compute is unchanged.
    void dpOverlapOffExposesTheWholeReduction()
    {
        Scenario scenario = gptScenario(8);
        scenario.cluster.gpus_per_node = 8;
        scenario.training.global_batch = 256;
        const Result<Estimate> e = estimate(scenario);
        const Result<StepPrediction> overlapped = predictStep(scenario);
        scenario.training.parallel.dp_overlap = false;
        const Result<StepPrediction> serial = predictStep(scenario);
        QVERIFY(e.ok() && overlapped.ok() && serial.ok());
        const double dp = e->communication.dp.seconds;
        QVERIFY(overlapped->exposed.dp_seconds < dp);
        QCOMPARE(serial->exposed.dp_seconds, dp);
        QCOMPARE(serial->compute_seconds, overlapped->compute_seconds);
        QVERIFY(close(serial->total_seconds - overlapped->total_seconds, dp - overlapped->exposed.dp_seconds));
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
        const Result<StepPrediction> x = predictStep(scenario), y = predictStep(*old);
        QVERIFY(x.ok() && y.ok());
        QCOMPARE(y->total_seconds, x->total_seconds);
    }
};

QTEST_GUILESS_MAIN(TestStepTime)
#include "test_step_time.moc"
