// SPDX-License-Identifier: GPL-3.0-or-later
// Device mesh coordinates and groups (Megatron-LM rank order) and the per-collective
// communication events, checked against hand-laid-out meshes and the papers' closed forms.

#include "cost/estimate.h"
#include "parallel/device_mesh.h"
#include "parallel/model_parallel_communication.h"
#include "test_models.h"

#include <QTest>

#include <algorithm>
#include <map>
#include <set>

using namespace lse;
using namespace lse::parallel;

Q_DECLARE_METATYPE(std::vector<int>)

namespace {

ParallelConfig degrees(int dp, int tp, int pp, int cp = 1, int ep = 1)
{
    ParallelConfig parallel;
    parallel.dp = dp;
    parallel.tp = tp;
    parallel.pp = pp;
    parallel.cp = cp;
    parallel.ep = ep;
    return parallel;
}

ClusterConfig cluster(int gpus, int per_node = 8)
{
    ClusterConfig config;
    config.gpus = gpus;
    config.gpus_per_node = per_node;
    return config;
}

DeviceMesh mesh(int gpus, const ParallelConfig &parallel, std::vector<MeshDim> order = defaultMeshOrder(),
                int per_node = 8)
{
    const Result<DeviceMesh> result = makeDeviceMesh(cluster(gpus, per_node), parallel, std::move(order));
    if (!result)
        qFatal("%s", formatProblems(result.problems()).c_str());
    return *result;
}

double eventBytes(const std::vector<CommunicationEvent> &events, MeshDim dim)
{
    double bytes = 0;
    for (const CommunicationEvent &event : events)
        if (event.dim == dim)
            bytes += event.totalBytes();
    return bytes;
}

double eventSeconds(const std::vector<CommunicationEvent> &events, MeshDim dim)
{
    double seconds = 0;
    for (const CommunicationEvent &event : events)
        if (event.dim == dim)
            seconds += event.totalSeconds();
    return seconds;
}

std::vector<CommunicationEvent> eventsOf(const std::vector<CommunicationEvent> &events, MeshDim dim)
{
    std::vector<CommunicationEvent> result;
    std::copy_if(events.begin(), events.end(), std::back_inserter(result),
                 [dim](const CommunicationEvent &event) { return event.dim == dim; });
    return result;
}

// The GPT layer of Korthikanti et al. (h = 768, s = 1024, 12 layers) on tp 4 × pp 2, 4 micro-batches.
Scenario megatronScenario(bool sequence_parallel, Recomputation recomputation)
{
    Scenario scenario = test::scenarioFor(test::gptModel(12, 768, 12, 50257, 1024), 8);
    scenario.training.parallel = degrees(1, 4, 2);
    scenario.training.parallel.sequence_parallel = sequence_parallel;
    scenario.training.recomputation = recomputation;
    scenario.training.global_batch = 4;
    return scenario;
}

}  // namespace

class TestDeviceMesh : public QObject {
    Q_OBJECT
private slots:
    // 16 GPUs, tp 2 × dp 4 × pp 2. Megatron order (tp innermost, then cp, dp, pp):
    // rank = tp + 2·dp + 8·pp. Llama 3 order [TP, CP, PP, DP]: rank = tp + 2·pp + 4·dp.
    void coordinates_data()
    {
        QTest::addColumn<bool>("llama3_order");
        QTest::addColumn<int>("rank");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("dp");
        QTest::addColumn<int>("pp");
        QTest::addRow("megatron rank 0") << false << 0 << 0 << 0 << 0;
        QTest::addRow("megatron rank 1") << false << 1 << 1 << 0 << 0;
        QTest::addRow("megatron rank 2") << false << 2 << 0 << 1 << 0;
        QTest::addRow("megatron rank 7") << false << 7 << 1 << 3 << 0;
        QTest::addRow("megatron rank 8") << false << 8 << 0 << 0 << 1;
        QTest::addRow("megatron rank 13") << false << 13 << 1 << 2 << 1;
        QTest::addRow("llama3 rank 2") << true << 2 << 0 << 0 << 1;
        QTest::addRow("llama3 rank 5") << true << 5 << 1 << 1 << 0;
        QTest::addRow("llama3 rank 15") << true << 15 << 1 << 3 << 1;
    }
    void coordinates()
    {
        QFETCH(bool, llama3_order);
        QFETCH(int, rank);
        QFETCH(int, tp);
        QFETCH(int, dp);
        QFETCH(int, pp);
        const std::vector<MeshDim> order = llama3_order
            ? std::vector<MeshDim>{MeshDim::TP, MeshDim::CP, MeshDim::PP, MeshDim::DP}
            : defaultMeshOrder();
        const DeviceMesh m = mesh(16, degrees(4, 2, 2), order);
        QCOMPARE(m.coordinate(rank, MeshDim::TP), tp);
        QCOMPARE(m.coordinate(rank, MeshDim::DP), dp);
        QCOMPARE(m.coordinate(rank, MeshDim::PP), pp);
        QCOMPARE(m.coordinate(rank, MeshDim::CP), 0);
        QCOMPARE(m.rankAt(tp, 0, dp, pp), rank);
    }

    void groups_data()
    {
        QTest::addColumn<int>("dim");
        QTest::addColumn<int>("rank");
        QTest::addColumn<std::vector<int>>("expected");
        QTest::addRow("tp group of 5") << int(MeshDim::TP) << 5 << std::vector<int>{4, 5};
        QTest::addRow("dp group of 5") << int(MeshDim::DP) << 5 << std::vector<int>{1, 3, 5, 7};
        QTest::addRow("pp group of 5") << int(MeshDim::PP) << 5 << std::vector<int>{5, 13};
        QTest::addRow("cp group of 5") << int(MeshDim::CP) << 5 << std::vector<int>{5};
    }
    void groups()
    {
        QFETCH(int, dim);
        QFETCH(int, rank);
        QFETCH(std::vector<int>, expected);
        const DeviceMesh m = mesh(16, degrees(4, 2, 2));
        QCOMPARE(m.group(rank, MeshDim(dim)), expected);
    }

    // Every rank is in exactly one group of each dimension, and groups have the dimension's size.
    void groupsPartitionTheRanks_data()
    {
        QTest::addColumn<int>("dp");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("cp");
        QTest::addColumn<int>("ep");
        QTest::addRow("tp2 dp4 pp2") << 4 << 2 << 2 << 1 << 1;
        QTest::addRow("tp2 cp2 dp4 pp2 ep4") << 4 << 2 << 2 << 2 << 4;
        QTest::addRow("tp4 cp2 dp3 ep6") << 3 << 4 << 1 << 2 << 6;
        QTest::addRow("tp8 dp16 pp8 ep8") << 16 << 8 << 8 << 1 << 8;
    }
    void groupsPartitionTheRanks()
    {
        QFETCH(int, dp);
        QFETCH(int, tp);
        QFETCH(int, pp);
        QFETCH(int, cp);
        QFETCH(int, ep);
        const int gpus = dp * tp * pp * cp;
        const DeviceMesh m = mesh(gpus, degrees(dp, tp, pp, cp, ep));
        for (MeshDim dim : {MeshDim::TP, MeshDim::CP, MeshDim::EP, MeshDim::DP, MeshDim::PP}) {
            std::vector<int> seen(gpus, 0);
            const std::vector<std::vector<int>> all = m.groups(dim);
            QCOMPARE(int(all.size()), gpus / m.size(dim));
            for (const std::vector<int> &members : all) {
                QCOMPARE(int(members.size()), m.size(dim));
                std::set<int> coordinates;
                for (int rank : members) {
                    ++seen[rank];
                    coordinates.insert(m.coordinate(rank, dim));
                    QCOMPARE(m.group(rank, dim), members);
                }
                QCOMPARE(int(coordinates.size()), m.size(dim));
            }
            QVERIFY(std::all_of(seen.begin(), seen.end(), [](int count) { return count == 1; }));
        }
    }

    // Megatron-LM: expert groups are blocks of ep consecutive ranks of the dp×cp index with the same
    // tp rank. tp2 cp2 dp4, rank = tp + 2·cp + 4·dp; dp×cp index = cp + 2·dp.
    void expertGroupsAreCarvedOutOfDpCp()
    {
        const DeviceMesh m = mesh(16, degrees(4, 2, 1, 2, 4));
        QCOMPARE(m.group(0, MeshDim::EP), (std::vector<int>{0, 2, 4, 6}));
        QCOMPARE(m.group(9, MeshDim::EP), (std::vector<int>{9, 11, 13, 15}));
        QCOMPARE(m.coordinate(6, MeshDim::EP), 3);
        QCOMPARE(m.coordinate(8, MeshDim::EP), 0);
        // The same with dp only: tp2 dp8 ep4.
        const DeviceMesh dp_only = mesh(16, degrees(8, 2, 1, 1, 4));
        QCOMPARE(dp_only.group(3, MeshDim::EP), (std::vector<int>{1, 3, 5, 7}));
        QCOMPARE(dp_only.group(10, MeshDim::EP), (std::vector<int>{8, 10, 12, 14}));
    }

    void nodeCrossing_data()
    {
        QTest::addColumn<int>("gpus");
        QTest::addColumn<int>("dp");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("per_node");
        QTest::addColumn<bool>("tp_crosses");
        QTest::addColumn<bool>("dp_crosses");
        QTest::addColumn<bool>("pp_crosses");
        QTest::addRow("tp2 dp4 pp2, 8/node") << 16 << 4 << 2 << 2 << 8 << false << false << true;
        QTest::addRow("tp8 dp4, 8/node") << 32 << 4 << 8 << 1 << 8 << false << true << false;
        QTest::addRow("tp16 dp2, 8/node") << 32 << 2 << 16 << 1 << 8 << true << true << false;
        QTest::addRow("tp4 dp3, 6/node: tp straddles") << 12 << 3 << 4 << 1 << 6 << true << true << false;
        QTest::addRow("tp2 dp4 pp2, 16/node") << 16 << 4 << 2 << 2 << 16 << false << false << false;
    }
    void nodeCrossing()
    {
        QFETCH(int, gpus);
        QFETCH(int, dp);
        QFETCH(int, tp);
        QFETCH(int, pp);
        QFETCH(int, per_node);
        QFETCH(bool, tp_crosses);
        QFETCH(bool, dp_crosses);
        QFETCH(bool, pp_crosses);
        const DeviceMesh m = mesh(gpus, degrees(dp, tp, pp), defaultMeshOrder(), per_node);
        QCOMPARE(m.groupCrossesNodes(MeshDim::TP), tp_crosses);
        QCOMPARE(m.groupCrossesNodes(MeshDim::DP), dp_crosses);
        QCOMPARE(m.groupCrossesNodes(MeshDim::PP), pp_crosses);
        const std::vector<Problem> warnings = meshWarnings(m);
        const bool warned = std::any_of(warnings.begin(), warnings.end(),
                                        [](const Problem &p) { return p.rule == "tp_crosses_nodes"; });
        QCOMPARE(warned, tp_crosses);
    }

    void warningNamesTheDegreeAndNodeSize()
    {
        const DeviceMesh m = mesh(32, degrees(2, 16, 1));
        const std::vector<Problem> warnings = meshWarnings(m);
        QCOMPARE(int(warnings.size()), 1);
        QCOMPARE(warnings[0].field, std::string("training.tp"));
        QVERIFY2(warnings[0].message.find("tp 16 crosses nodes (8 GPUs per node)") != std::string::npos,
                 warnings[0].message.c_str());
        QCOMPARE(m.nodesPerGroup(MeshDim::TP), 2);
    }

    void badMeshIsAProblem_data()
    {
        QTest::addColumn<int>("gpus");
        QTest::addColumn<int>("dp");
        QTest::addColumn<int>("ep");
        QTest::addColumn<bool>("bad_order");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("rule");
        QTest::addRow("product") << 16 << 2 << 1 << false << "parallel.dp" << "gpu_count";
        QTest::addRow("ep does not divide dp·cp") << 8 << 4 << 3 << false << "parallel.ep" << "divisible";
        QTest::addRow("zero dp") << 8 << 0 << 1 << false << "parallel.dp" << "positive";
        QTest::addRow("order") << 8 << 4 << 1 << true << "order" << "permutation";
    }
    void badMeshIsAProblem()
    {
        QFETCH(int, gpus);
        QFETCH(int, dp);
        QFETCH(int, ep);
        QFETCH(bool, bad_order);
        QFETCH(QString, field);
        QFETCH(QString, rule);
        const std::vector<MeshDim> order = bad_order
            ? std::vector<MeshDim>{MeshDim::TP, MeshDim::EP, MeshDim::DP, MeshDim::PP}
            : defaultMeshOrder();
        const Result<DeviceMesh> result = makeDeviceMesh(cluster(gpus), degrees(dp, 2, 1, 1, ep), order);
        QVERIFY(!result.ok());
        QCOMPARE(QString::fromStdString(result.problems().front().field), field);
        QCOMPARE(QString::fromStdString(result.problems().front().rule), rule);
    }

    // Korthikanti et al. 2022 §4.2.2 (cost-model-notes F15): per layer and micro-batch, 2
    // all-reduces forward and 2 backward of b·s·h elements, each moving 2(t-1)/t of it per rank;
    // with SP 4 all-gathers and 4 reduce-scatters of (t-1)/t each; full recomputation repeats the
    // forward ones.
    void tensorParallelEvents_data()
    {
        QTest::addColumn<bool>("sp");
        QTest::addColumn<int>("recomputation");
        QTest::addColumn<int>("kinds");
        QTest::addColumn<double>("bytes_per_call");
        const double sbh_bytes = 1024.0 * 768 * 2;
        QTest::addRow("all-reduce") << false << int(Recomputation::None) << 4 << 2.0 * 3 / 4 * sbh_bytes;
        QTest::addRow("all-reduce, full recompute") << false << int(Recomputation::Full) << 6 << 2.0 * 3 / 4 * sbh_bytes;
        QTest::addRow("sequence parallel") << true << int(Recomputation::None) << 8 << 3.0 / 4 * sbh_bytes;
        QTest::addRow("sequence parallel, selective") << true << int(Recomputation::Selective) << 8 << 3.0 / 4 * sbh_bytes;
    }
    void tensorParallelEvents()
    {
        QFETCH(bool, sp);
        QFETCH(int, recomputation);
        QFETCH(int, kinds);
        QFETCH(double, bytes_per_call);
        const Scenario scenario = megatronScenario(sp, Recomputation(recomputation));
        const std::vector<CommunicationEvent> events =
            communicationEvents(scenario, mesh(8, scenario.training.parallel));
        // The layers' events run once per layer and micro-batch; the rest are outside the layers
        // (Shoeybi et al. 2019 §3): on this last stage of pp = 2, the LM head's and the
        // vocabulary-parallel cross-entropy's, each micro-batch, and with SP the norms' gradients
        // once per step; together exactly the engine's tp_outside_layers.
        std::vector<CommunicationEvent> tp, outside;
        for (const CommunicationEvent &event : eventsOf(events, MeshDim::TP))
            (event.count_per_step == 6 * 4 ? tp : outside).push_back(event);
        QCOMPARE(int(tp.size()), kinds);
        const Result<Estimate> estimated = estimate(scenario);
        QVERIFY(estimated.ok());
        double outside_bytes = 0;
        for (const CommunicationEvent &event : outside)
            outside_bytes += event.totalBytes();
        QCOMPARE(outside_bytes, estimated->communication.tp_outside_layers.total());
        QCOMPARE(int(outside.size()), sp ? 6 : 4);  // head (SP: gather + scatter), 3 in the loss (SP: + norms)
        std::map<std::string, int> by_collective;
        for (const CommunicationEvent &event : tp) {
            QCOMPARE(event.count_per_step, 6 * 4);  // 6 layers per stage × 4 micro-batches
            QCOMPARE(event.bytes_per_rank, bytes_per_call);
            QVERIFY(!event.crosses_nodes);
            QVERIFY(!event.overlappable);
            ++by_collective[event.collective];
        }
        if (sp)
            QCOMPARE(by_collective["all-gather"], by_collective["reduce-scatter"]);
        else
            QCOMPARE(by_collective["all-reduce"], kinds);
        // Pipeline: b·s·h forward and back per micro-batch, each of the tp = 4 ranks sending its
        // quarter (Narayanan et al. 2021 §4.1 scatter/gather).
        for (const CommunicationEvent &event : eventsOf(events, MeshDim::PP)) {
            QCOMPARE(event.count_per_step, 4);
            QCOMPARE(event.bytes_per_rank, 1024.0 * 768 * 2 / scenario.training.parallel.tp);
        }
    }

    // ZeRO §7 (cost-model-notes F3): all-reduce 2Ψ; ZeRO-1/2 Ψ reduce-scatter + Ψ all-gather;
    // ZeRO-3 an all-gather before forward and before backward of every micro-batch (3Ψ with one),
    // each times (n-1)/n per rank.
    void zeroEvents_data()
    {
        QTest::addColumn<int>("stage");
        QTest::addColumn<QString>("collectives");
        QTest::addColumn<double>("psi_per_step");
        QTest::addRow("DP") << 0 << "all-reduce" << 2.0;
        QTest::addRow("ZeRO-1") << 1 << "reduce-scatter,all-gather" << 2.0;
        QTest::addRow("ZeRO-2") << 2 << "reduce-scatter,all-gather" << 2.0;
        QTest::addRow("ZeRO-3, 2 micro-batches") << 3 << "all-gather,all-gather,reduce-scatter" << 5.0;
    }
    void zeroEvents()
    {
        QFETCH(int, stage);
        QFETCH(QString, collectives);
        QFETCH(double, psi_per_step);
        Scenario scenario = test::scenarioFor(test::gptModel(12, 768, 12, 50257, 1024), 64);
        scenario.training.parallel.zero_stage = stage;
        scenario.training.global_batch = 128;  // 2 micro-batches per rank
        const Result<Estimate> e = estimate(scenario);
        QVERIFY(e.ok());
        const double psi_bytes = double(e->params.total) * 2;
        const std::vector<CommunicationEvent> dp =
            eventsOf(communicationEvents(scenario, mesh(64, scenario.training.parallel)), MeshDim::DP);
        QStringList names;
        for (const CommunicationEvent &event : dp) {
            names << QString::fromStdString(event.collective);
            QVERIFY(event.overlappable);
            QVERIFY(event.crosses_nodes);
            QCOMPARE(event.bytes_per_rank, (psi_per_step == 2.0 && stage == 0 ? 2.0 : 1.0) * psi_bytes * 63 / 64);
        }
        QCOMPARE(names.join(','), collectives);
        QCOMPARE(eventBytes(dp, MeshDim::DP), psi_per_step * psi_bytes * 63 / 64);
    }

    // Ring attention (Liu et al. 2023): each rank's K and V block (b·s/cp·kv_dim each) travels
    // cp-1 hops forward; backward K/V and dK/dV again. GShard all-to-all: top_k copies of every
    // token's h-vector, (ep-1)/ep of them leave the rank, 4 times per MoE layer and micro-batch.
    void contextAndExpertEvents()
    {
        ModelConfig model = test::gptModel(4, 512, 8, 1000, 2048);
        model.n_kv_heads = 2;
        model.moe.n_experts = 8;
        model.moe.top_k = 2;
        model.moe.expert_d_ff = 1024;
        Scenario scenario = test::scenarioFor(model, 16);
        scenario.training.parallel = degrees(4, 2, 1, 2, 4);
        scenario.training.global_batch = 8;  // 2 micro-batches per rank
        const std::vector<CommunicationEvent> events =
            communicationEvents(scenario, mesh(16, scenario.training.parallel));
        const double local_tokens = 2048.0 / 2;
        const std::vector<CommunicationEvent> cp = eventsOf(events, MeshDim::CP);
        QCOMPARE(int(cp.size()), 3);
        for (const CommunicationEvent &event : cp) {
            QCOMPARE(event.count_per_step, 4 * 2);
            // K and V of kv_dim = 2 heads · 64, split over tp 2, bf16, cp-1 = 1 hop.
            QCOMPARE(event.bytes_per_rank, 1.0 * 2 * local_tokens * (2 * 64) * 2 / 2);
        }
        const std::vector<CommunicationEvent> ep = eventsOf(events, MeshDim::EP);
        QCOMPARE(int(ep.size()), 4);
        for (const CommunicationEvent &event : ep) {
            QCOMPARE(event.collective, std::string("all-to-all"));
            QCOMPARE(event.count_per_step, 4 * 2);
            QCOMPARE(event.bytes_per_rank, 3.0 / 4 * local_tokens * 2 * 512 * 2);
        }
    }

    // The events divide the engine's per-dimension totals exactly, bytes and seconds.
    void eventsAddUpToTheEngine_data()
    {
        QTest::addColumn<int>("zero");
        QTest::addColumn<bool>("sp");
        QTest::addColumn<int>("recomputation");
        QTest::addRow("zero0") << 0 << false << int(Recomputation::None);
        QTest::addRow("zero1 sp selective") << 1 << true << int(Recomputation::Selective);
        QTest::addRow("zero3 full") << 3 << false << int(Recomputation::Full);
        QTest::addRow("zero3 sp full") << 3 << true << int(Recomputation::Full);
    }
    void eventsAddUpToTheEngine()
    {
        QFETCH(int, zero);
        QFETCH(bool, sp);
        QFETCH(int, recomputation);
        ModelConfig model = test::gptModel(8, 512, 8, 1000, 2048);
        model.moe.n_experts = 8;
        model.moe.top_k = 2;
        model.moe.expert_d_ff = 1024;
        model.moe.moe_layer_interval = 2;
        Scenario scenario = test::scenarioFor(model, 64);
        scenario.training.parallel = degrees(4, 4, 2, 2, 8);
        scenario.training.parallel.virtual_stages = 2;
        scenario.training.parallel.zero_stage = zero;
        scenario.training.parallel.sequence_parallel = sp;
        scenario.training.recomputation = Recomputation(recomputation);
        scenario.training.global_batch = 32;
        const Result<Estimate> e = estimate(scenario);
        QVERIFY2(e.ok(), formatProblems(e.problems()).c_str());
        const std::vector<CommunicationEvent> events =
            communicationEvents(scenario, mesh(64, scenario.training.parallel));
        const CommunicationEstimate &c = e->communication;
        const std::pair<MeshDim, const CommunicationPart *> parts[] = {
            {MeshDim::TP, &c.tp}, {MeshDim::CP, &c.cp}, {MeshDim::EP, &c.ep}, {MeshDim::DP, &c.dp}, {MeshDim::PP, &c.pp}};
        for (const auto &[dim, part] : parts) {
            QVERIFY(part->bytes > 0);
            // TP: the layers' part and, beside it, the traffic outside the layers.
            const bool tp = dim == MeshDim::TP;
            const double bytes = part->bytes + (tp ? c.tp_outside_layers.total() : 0.0);
            const double seconds = part->seconds + (tp ? c.tp_outside_layers.seconds : 0.0);
            QVERIFY(qAbs(eventBytes(events, dim) / bytes - 1) < 1e-12);
            QVERIFY(qAbs(eventSeconds(events, dim) / seconds - 1) < 1e-12);
        }
        QVERIFY(c.tp_outside_layers.total() > 0);
    }

    void invalidScenarioHasNoEvents()
    {
        Scenario scenario = megatronScenario(false, Recomputation::None);
        const DeviceMesh m = mesh(8, scenario.training.parallel);
        scenario.training.global_batch = 0;
        QVERIFY(communicationEvents(scenario, m).empty());
    }
};

QTEST_GUILESS_MAIN(TestDeviceMesh)
#include "test_device_mesh.moc"
