// SPDX-License-Identifier: GPL-3.0-or-later
// Communication volume per step and its alpha-beta time.

#include "scenario/cluster_links.h"
#include "cost/estimate.h"
#include "test_models.h"

#include <QTest>

using namespace lse;

namespace {

Scenario dataParallel(int gpus, int zero_stage)
{
    Scenario scenario = test::scenarioFor(test::gptModel(12, 768, 12, 50257, 1024), gpus);
    scenario.cluster.gpus_per_node = 8;
    scenario.training.parallel.zero_stage = zero_stage;
    return scenario;
}

}  // namespace

class TestCommunication : public QObject {
    Q_OBJECT
private slots:
    // ZeRO §7: all-reduce moves 2Ψ per rank; ZeRO-1/2 reduce-scatter + all-gather 2Ψ; ZeRO-3
    // 3Ψ (with one micro-batch per step), times (n-1)/n for a ring of n ranks.
    void zeroCommunicationVolume_data()
    {
        QTest::addColumn<int>("stage");
        QTest::addColumn<double>("psi_multiple");
        QTest::addRow("ZeRO §7 DP all-reduce: 2Ψ") << 0 << 2.0;
        QTest::addRow("ZeRO §7 ZeRO-1: 2Ψ") << 1 << 2.0;
        QTest::addRow("ZeRO §7 ZeRO-2: 2Ψ") << 2 << 2.0;
        QTest::addRow("ZeRO §7 ZeRO-3: 3Ψ") << 3 << 3.0;
    }
    void zeroCommunicationVolume()
    {
        QFETCH(int, stage);
        QFETCH(double, psi_multiple);
        const Scenario scenario = dataParallel(64, stage);
        const Result<Estimate> e = estimate(scenario);
        QVERIFY2(e.ok(), formatProblems(e.problems()).c_str());
        const double psi_bytes = double(e->params.total) * 2;  // bf16 gradients and weights
        QCOMPARE(e->communication.dp.bytes, psi_multiple * psi_bytes * 63.0 / 64.0);
        QCOMPARE(e->communication.dp.group_size, 64);
        QVERIFY(e->communication.dp.crosses_nodes);
    }

    void tensorParallelAllReduces()
    {
        // Korthikanti §4.2.2: 4 all-reduces of s·b·h per layer per micro-batch (2 fwd, 2 bwd).
        Scenario scenario = dataParallel(8, 0);
        scenario.training.parallel.dp = 1;
        scenario.training.parallel.tp = 4;
        scenario.training.parallel.pp = 2;
        scenario.training.global_batch = 4;
        const Result<Estimate> e = estimate(scenario);
        QVERIFY2(e.ok(), formatProblems(e.problems()).c_str());
        const double sbh_bytes = 1024.0 * 768 * 2;
        const double layers_per_stage = 6, micro_batches = 4;
        const TensorParallelOutsideLayers &outside = e->communication.tp_outside_layers;
        QCOMPARE(e->communication.tp.bytes, 4 * layers_per_stage * micro_batches * 2.0 * 3 / 4 * sbh_bytes);
        // Shoeybi §3 outside the layers, per micro-batch on the last of pp = 2 stages (the most
        // loaded, with the head): the head's input-gradient all-reduce of s·b·h and the
        // vocabulary-parallel cross-entropy's 3 all-reduces of one fp32 per token; the embedding's
        // all-reduce is on the first stage. Counted beside the layers' traffic, not in it (the
        // calibrated step time keeps the layers' alone).
        QCOMPARE(outside.micro_batches, 4);
        QCOMPARE(outside.embedding_bytes_per_micro_batch, 0.0);
        QCOMPARE(outside.lm_head_bytes_per_micro_batch, 2.0 * 3 / 4 * sbh_bytes);
        QCOMPARE(outside.cross_entropy_bytes, 2.0 * 3 / 4 * 1024.0 * 4);
        QCOMPARE(outside.replicated_gradient_bytes, 0.0);
        QCOMPARE(outside.total(), micro_batches * (2.0 * 3 / 4 * sbh_bytes + 3 * 2.0 * 3 / 4 * 1024.0 * 4));
        QVERIFY(!e->communication.tp.crosses_nodes);
        // Pipeline: activations forward and gradients back for each micro-batch; each of the tp = 4
        // ranks sends its quarter (Narayanan et al. 2021 §4.1 scatter/gather).
        QCOMPARE(e->communication.pp.bytes, 2 * micro_batches * sbh_bytes / 4);
        // Sequence parallelism moves the same volume (all-gather + reduce-scatter), plus once per
        // step the all-reduce of the gradients of what every tp rank holds whole (each rank saw its
        // own rows): in each of the last stage's 6 layers GPT-2's two LayerNorms (gain and bias,
        // 4h) and the biases of the two row-parallel outputs (2h), and the final LayerNorm (2h); bf16.
        scenario.training.parallel.sequence_parallel = true;
        const Result<Estimate> sp = estimate(scenario);
        const double norms = (6 * (4 + 2) + 2) * 768.0;
        QCOMPARE(sp->communication.tp_outside_layers.replicated_gradient_bytes, 2.0 * 3 / 4 * norms * 2);
        QCOMPARE(sp->communication.tp.bytes, e->communication.tp.bytes);
        QCOMPARE(sp->communication.tp_outside_layers.total() - sp->communication.tp_outside_layers.replicated_gradient_bytes,
                 outside.total());
        QVERIFY(outside.seconds > 0);
        // pp = 1: the embedding's all-reduce joins the same stage.
        scenario.training.parallel.sequence_parallel = false;
        scenario.training.parallel.pp = 1;
        scenario.training.parallel.dp = 2;  // the same 8 GPUs
        const Result<Estimate> one = estimate(scenario);
        QVERIFY2(one.ok(), formatProblems(one.problems()).c_str());
        QCOMPARE(one->communication.tp_outside_layers.embedding_bytes_per_micro_batch, 2.0 * 3 / 4 * sbh_bytes);
    }

    // Alpha-beta per bucket: GPT-2 small (124.4M parameters) in Megatron-Core's default buckets of
    // max(40e6, 1e6·dp) parameters is ceil(124.4/40) = 4 all-reduces, each paying the ring's
    // 2(n − 1) latency steps; the bytes pay the bandwidth once.
    void alphaBetaTime()
    {
        Scenario scenario = dataParallel(8, 0);
        const Result<Estimate> e = estimate(scenario);
        QVERIFY(e.ok());
        const CommunicationPart &dp = e->communication.dp;
        QVERIFY(!dp.crosses_nodes);
        QCOMPARE(dp.calls, 4.0);
        const double bandwidth = scenario.cluster.accelerator.intra_node_bandwidth_bytes_per_second
            * scenario.cluster.link_efficiency;
        const double expected = 4 * 2.0 * 7 * scenario.cluster.intra_node_latency_seconds + dp.bytes / bandwidth;
        QCOMPARE(dp.seconds, expected);
        QCOMPARE(e->communication.total_seconds, dp.seconds);
    }

    // Hierarchical all-reduce (Cho et al. 2019, BlueConnect): 16 ranks on 2 nodes of 8 run
    // f(8)·S over NVLink, then f(2)·S/8 over each GPU's own NIC; with dp = 1024 the bucket grows to
    // 1e6·1024 parameters, so the 124.4M parameters go in one bucket.
    void hierarchicalAcrossNodes()
    {
        const Scenario scenario = dataParallel(16, 0);
        const Result<Estimate> e = estimate(scenario);
        QVERIFY(e.ok());
        const CommunicationPart &dp = e->communication.dp;
        const double data_bytes = double(e->params.total) * 2;  // bf16 gradients
        const ClusterConfig &c = scenario.cluster;
        const double nvlink = intraNodeBytesPerSecondPerGpu(c) * c.link_efficiency;
        const double nic = interNodeBytesPerSecondPerGpu(c) * c.link_efficiency;
        const double intra = 4 * 2.0 * 7 * c.intra_node_latency_seconds + (2.0 * 7 / 8) * data_bytes / nvlink;
        const double inter = 4 * 2.0 * 1 * c.inter_node_latency_seconds + (2.0 * 1 / 2) * data_bytes / 8 / nic;
        QCOMPARE(dp.seconds, intra + inter);
        const Result<Estimate> wide = estimate(dataParallel(1024, 0));
        QVERIFY(wide.ok());
        QCOMPARE(wide->communication.dp.calls, 1.0);
    }

    void crossNodeUsesNetwork()
    {
        const Result<Estimate> inside = estimate(dataParallel(8, 0));
        const Result<Estimate> across = estimate(dataParallel(16, 0));
        QVERIFY(inside.ok() && across.ok());
        QVERIFY(across->communication.dp.crosses_nodes);
        QVERIFY(across->communication.dp.seconds > inside->communication.dp.seconds);
    }
};

QTEST_GUILESS_MAIN(TestCommunication)
#include "test_communication.moc"
