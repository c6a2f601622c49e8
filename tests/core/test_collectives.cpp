// SPDX-License-Identifier: GPL-3.0-or-later
// Collectives: the simulated buffers hold the mathematical result, and the simulated time equals
// the published alpha-beta costs (Thakur, Rabenseifner & Gropp 2005; Patarasuk & Yuan 2009;
// nccl-tests doc/PERFORMANCE.md).

#include "parallel/collectives.h"

#include <QTest>

#include <cmath>
#include <random>

using namespace lse;
using namespace lse::parallel;

Q_DECLARE_METATYPE(lse::parallel::CollectiveOp)
Q_DECLARE_METATYPE(lse::parallel::CollectiveAlgorithm)

namespace {

// The documented initial value of rank r's element i.
double initialValue(int rank, int element) { return (rank + 1) * 1000.0 + element; }

// Sum over ranks of element i: sum_r ((r+1)·1000 + i) = 1000·n(n+1)/2 + n·i.
double sumOverRanks(int ranks, int element) { return 1000.0 * ranks * (ranks + 1) / 2.0 + double(ranks) * element; }

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)}); }

int log2Floor(int n)
{
    int k = 0;
    while ((2 << k) <= n)
        ++k;
    return k;
}

}  // namespace

class TestCollectives : public QObject {
    Q_OBJECT
private slots:
    void finalBuffersAreTheMathematicalResult_data()
    {
        QTest::addColumn<CollectiveOp>("op");
        QTest::addColumn<CollectiveAlgorithm>("algorithm");
        QTest::addColumn<int>("ranks");
        QTest::addColumn<int>("root");
        const CollectiveOp ops[] = {CollectiveOp::AllReduce, CollectiveOp::ReduceScatter, CollectiveOp::AllGather,
                                    CollectiveOp::Broadcast, CollectiveOp::Reduce,        CollectiveOp::AllToAll};
        for (CollectiveOp op : ops)
            for (CollectiveAlgorithm algorithm : {CollectiveAlgorithm::Ring, CollectiveAlgorithm::Tree})
                for (int ranks : {1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 16})
                    QTest::addRow("%s %s n=%d", std::string(toString(op)).c_str(),
                                  std::string(toString(algorithm)).c_str(), ranks)
                        << op << algorithm << ranks << (ranks > 2 ? ranks / 2 + 1 : 0);
    }
    void finalBuffersAreTheMathematicalResult()
    {
        QFETCH(CollectiveOp, op);
        QFETCH(CollectiveAlgorithm, algorithm);
        QFETCH(int, ranks);
        QFETCH(int, root);
        const auto sim = simulateCollective(op, algorithm, ranks, 1e6, LinkModel{1e9, 1e-6}, root);
        QVERIFY(sim.ok());
        QCOMPARE(int(sim->final_values.size()), ranks);
        const int n = ranks;
        for (int r = 0; r < n; ++r) {
            QCOMPARE(int(sim->final_values[std::size_t(r)].size()), sim->chunks);
            for (int i = 0; i < sim->chunks; ++i) {
                QCOMPARE(sim->initial_values[std::size_t(r)][std::size_t(i)], initialValue(r, i));
                const double value = sim->final_values[std::size_t(r)][std::size_t(i)];
                switch (op) {
                case CollectiveOp::AllReduce:
                    QCOMPARE(value, sumOverRanks(n, i));
                    break;
                case CollectiveOp::ReduceScatter:
                    if (i == r)
                        QCOMPARE(value, sumOverRanks(n, i));
                    break;
                case CollectiveOp::AllGather:  // rank i contributed block i
                    QCOMPARE(value, initialValue(i, i));
                    break;
                case CollectiveOp::Broadcast:
                    QCOMPARE(value, initialValue(root, i));
                    break;
                case CollectiveOp::Reduce:
                    if (r == root)
                        QCOMPARE(value, sumOverRanks(n, i));
                    break;
                case CollectiveOp::AllToAll:  // slot i holds what rank i sent to r: its element r
                    QCOMPARE(value, initialValue(i, r));
                    break;
                }
            }
        }
        // Every transfer names real ranks and blocks, and nobody sends to itself.
        for (const CollectiveStep &step : sim->steps) {
            QVERIFY(!step.transfers.empty());
            for (const ChunkTransfer &t : step.transfers) {
                QVERIFY(t.from_rank != t.to_rank);
                QVERIFY(t.from_rank >= 0 && t.from_rank < n && t.to_rank >= 0 && t.to_rank < n);
                QVERIFY(t.chunk >= 0 && t.chunk_count >= 1 && t.chunk + t.chunk_count <= sim->chunks);
                QVERIFY(near(t.bytes, t.chunk_count * 1e6 / sim->chunks));
            }
        }
    }

    // Random inputs for every op, algorithm and n = 2..16: each output equals the sum (or copy)
    // computed directly from the inputs. Integer values keep every sum exact in any order.
    void randomInputsGiveTheMathematicalResult()
    {
        std::mt19937 rng(2026);
        std::uniform_int_distribution<int> pick(-100000, 100000);
        const CollectiveOp ops[] = {CollectiveOp::AllReduce, CollectiveOp::ReduceScatter, CollectiveOp::AllGather,
                                    CollectiveOp::Broadcast, CollectiveOp::Reduce,        CollectiveOp::AllToAll};
        for (CollectiveOp op : ops)
            for (CollectiveAlgorithm algorithm : {CollectiveAlgorithm::Ring, CollectiveAlgorithm::Tree})
                for (int n = 2; n <= 16; ++n) {
                    const int blocks = collectiveBlockCount(op, algorithm, n);
                    std::vector<std::vector<double>> input(std::size_t(n), std::vector<double>(std::size_t(blocks), 0.0));
                    for (auto &row : input)
                        for (double &value : row)
                            value = pick(rng);
                    const int root = int(rng() % unsigned(n));
                    const auto sim = simulateCollective(op, algorithm, n, 64.0 * blocks, LinkModel{1e9, 1e-6}, root, input);
                    QVERIFY(sim.ok());
                    for (int r = 0; r < n; ++r)
                        for (int i = 0; i < blocks; ++i) {
                            if (!isOutputElement(*sim, r, i))
                                continue;
                            double expected = 0;
                            switch (op) {
                            case CollectiveOp::AllReduce:
                            case CollectiveOp::ReduceScatter:
                            case CollectiveOp::Reduce:
                                for (int q = 0; q < n; ++q)
                                    expected += input[std::size_t(q)][std::size_t(i)];
                                break;
                            case CollectiveOp::AllGather:
                                expected = input[std::size_t(i)][std::size_t(i)];
                                break;
                            case CollectiveOp::Broadcast:
                                expected = input[std::size_t(root)][std::size_t(i)];
                                break;
                            case CollectiveOp::AllToAll:
                                expected = input[std::size_t(i)][std::size_t(r)];
                                break;
                            }
                            QVERIFY2(sim->final_values[std::size_t(r)][std::size_t(i)] == expected,
                                     qPrintable(QStringLiteral("%1 %2 n=%3 rank %4 element %5")
                                                    .arg(QString::fromStdString(std::string(toString(op))),
                                                         QString::fromStdString(std::string(toString(algorithm))))
                                                    .arg(n).arg(r).arg(i)));
                        }
                }
        // A wrongly shaped input is refused, naming the field.
        const auto bad = simulateCollective(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, 4, 1e6,
                                            LinkModel{1e9, 1e-6}, 0, {{1, 2}});
        QVERIFY(!bad.ok());
        QCOMPARE(bad.problems().front().field, std::string("initial_values"));
    }

    // The cluster's link: unidirectional bandwidth × efficiency and the matching latency.
    void clusterLinkFromTheScenario()
    {
        lse::ClusterConfig cluster;
        cluster.accelerator.intra_node_bandwidth_bytes_per_second = 450e9;
        cluster.accelerator.inter_node_bandwidth_bytes_per_second = 50e9;
        cluster.link_efficiency = 0.8;
        cluster.intra_node_latency_seconds = 3e-6;
        cluster.inter_node_latency_seconds = 10e-6;
        const LinkModel intra = clusterLink(cluster, false);
        const LinkModel inter = clusterLink(cluster, true);
        QCOMPARE(intra.bandwidth_bytes_per_second, 360e9);
        QCOMPARE(intra.latency_seconds, 3e-6);
        QCOMPARE(inter.bandwidth_bytes_per_second, 40e9);
        QCOMPARE(inter.latency_seconds, 10e-6);
    }

    // The published closed forms, written out here independently of the implementation.
    void secondsMatchPublishedCosts_data()
    {
        QTest::addColumn<CollectiveOp>("op");
        QTest::addColumn<CollectiveAlgorithm>("algorithm");
        QTest::addColumn<int>("ranks");
        QTest::addColumn<int>("steps");
        QTest::addColumn<double>("expected_seconds");
        const double a = 5e-6, b = 1.0 / 50e9, S = 256e6;  // alpha, seconds per byte, message
        for (int n : {2, 4, 8, 16, 64, 5, 12, 100}) {
            // Patarasuk & Yuan 2009: ring all-reduce 2(n-1) steps of S/n.
            QTest::addRow("ring all-reduce n=%d", n) << CollectiveOp::AllReduce << CollectiveAlgorithm::Ring << n
                                                    << 2 * (n - 1) << 2 * (n - 1) * a + 2.0 * (n - 1) / n * S * b;
            QTest::addRow("ring reduce-scatter n=%d", n) << CollectiveOp::ReduceScatter << CollectiveAlgorithm::Ring
                                                        << n << n - 1 << (n - 1) * a + double(n - 1) / n * S * b;
            QTest::addRow("ring all-gather n=%d", n) << CollectiveOp::AllGather << CollectiveAlgorithm::Ring << n
                                                    << n - 1 << (n - 1) * a + double(n - 1) / n * S * b;
            // Pipelined chain with k = n segments: (n - 1 + k - 1)(α + S/k β) (Thakur et al. 2005 §2,
            // segmented broadcast along a linear array).
            QTest::addRow("ring broadcast n=%d", n) << CollectiveOp::Broadcast << CollectiveAlgorithm::Ring << n
                                                   << 2 * (n - 1) << 2 * (n - 1) * (a + S / n * b);
            QTest::addRow("ring reduce n=%d", n) << CollectiveOp::Reduce << CollectiveAlgorithm::Ring << n
                                                << 2 * (n - 1) << 2 * (n - 1) * (a + S / n * b);
            // Thakur et al. 2005 §4.5 (Rabenseifner): 2 lg p α + 2 (p-1)/p S β, with p' = 2^floor(lg n)
            // and one extra full-message step in and out for a non-power-of-two n (§4.4).
            const int p = 1 << log2Floor(n);
            const bool folded = p != n;
            QTest::addRow("tree all-reduce n=%d", n)
                << CollectiveOp::AllReduce << CollectiveAlgorithm::Tree << n << 2 * log2Floor(n) + (folded ? 2 : 0)
                << 2 * log2Floor(n) * a + 2.0 * (p - 1) / p * S * b + (folded ? 2 * (a + S * b) : 0.0);
            // Binomial tree broadcast: ceil(lg n) steps of the whole message (§4.1).
            const int depth = log2Floor(n) + (folded ? 1 : 0);
            QTest::addRow("tree broadcast n=%d", n)
                << CollectiveOp::Broadcast << CollectiveAlgorithm::Tree << n << depth << depth * (a + S * b);
            QTest::addRow("tree reduce n=%d", n)
                << CollectiveOp::Reduce << CollectiveAlgorithm::Tree << n << depth << depth * (a + S * b);
            QTest::addRow("alltoall n=%d", n) << CollectiveOp::AllToAll << CollectiveAlgorithm::Tree << n << n - 1
                                             << (n - 1) * (a + S / n * b);
            if (!folded) {
                // §4.2 / §4.3: recursive doubling / halving lg n α + (n-1)/n S β.
                QTest::addRow("tree all-gather n=%d", n) << CollectiveOp::AllGather << CollectiveAlgorithm::Tree << n
                                                        << log2Floor(n) << log2Floor(n) * a + double(n - 1) / n * S * b;
                QTest::addRow("tree reduce-scatter n=%d", n)
                    << CollectiveOp::ReduceScatter << CollectiveAlgorithm::Tree << n << log2Floor(n)
                    << log2Floor(n) * a + double(n - 1) / n * S * b;
            }
        }
    }
    void secondsMatchPublishedCosts()
    {
        QFETCH(CollectiveOp, op);
        QFETCH(CollectiveAlgorithm, algorithm);
        QFETCH(int, ranks);
        QFETCH(int, steps);
        QFETCH(double, expected_seconds);
        const LinkModel link{50e9, 5e-6};
        const auto sim = simulateCollective(op, algorithm, ranks, 256e6, link);
        QVERIFY(sim.ok());
        QCOMPARE(int(sim->steps.size()), steps);
        QCOMPARE(collectiveStepCount(op, algorithm, ranks), steps);
        QVERIFY2(near(sim->seconds, expected_seconds),
                 qPrintable(QStringLiteral("simulated %1 s, published %2 s").arg(sim->seconds).arg(expected_seconds)));
        QVERIFY(near(collectiveSeconds(op, algorithm, ranks, 256e6, link), expected_seconds));
    }

    // The closed form the GUI plots equals the simulation for every op, algorithm and n.
    void closedFormEqualsSimulation()
    {
        const LinkModel link{25e9, 3e-6};
        for (int op = 0; op <= int(CollectiveOp::AllToAll); ++op)
            for (CollectiveAlgorithm algorithm : {CollectiveAlgorithm::Ring, CollectiveAlgorithm::Tree})
                for (int n = 1; n <= 33; ++n) {
                    const auto sim = simulateCollective(CollectiveOp(op), algorithm, n, 3e7, link);
                    QVERIFY(sim.ok());
                    QVERIFY2(near(sim->seconds, collectiveSeconds(CollectiveOp(op), algorithm, n, 3e7, link)),
                             qPrintable(QStringLiteral("op %1 n=%2").arg(op).arg(n)));
                    QCOMPARE(int(sim->steps.size()), collectiveStepCount(CollectiveOp(op), algorithm, n));
                }
    }

    // Patarasuk & Yuan 2009: the ring all-reduce sends 2(n-1)/n·S per rank, the lower bound.
    void ringAllReduceIsBandwidthOptimal()
    {
        for (int n : {2, 3, 8, 24}) {
            const auto sim = simulateCollective(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, n, 1e9, LinkModel{1e11, 0});
            QVERIFY(near(sim->bytes_sent_per_rank, 2.0 * (n - 1) / n * 1e9));
        }
    }

    // nccl-tests PERFORMANCE.md: with no latency the bus bandwidth of the ring algorithms equals
    // the link bandwidth, whatever n.
    void busBandwidthEqualsLinkBandwidthWithoutLatency()
    {
        for (CollectiveOp op : {CollectiveOp::AllReduce, CollectiveOp::ReduceScatter, CollectiveOp::AllGather})
            for (int n : {2, 4, 7, 8, 64}) {
                const auto sim = simulateCollective(op, CollectiveAlgorithm::Ring, n, 1e9, LinkModel{40e9, 0});
                QVERIFY(near(sim->bus_bandwidth_bytes_per_second, 40e9));
                QVERIFY(near(sim->algorithm_bandwidth_bytes_per_second, 1e9 / sim->seconds));
            }
        QCOMPARE(busBandwidthFactor(CollectiveOp::AllReduce, 8), 2.0 * 7 / 8);
        QCOMPARE(busBandwidthFactor(CollectiveOp::AllGather, 8), 7.0 / 8);
        QCOMPARE(busBandwidthFactor(CollectiveOp::AllToAll, 4), 3.0 / 4);
        QCOMPARE(busBandwidthFactor(CollectiveOp::Broadcast, 8), 1.0);
    }

    void ringAllReduceStepsFollowTheRing()
    {
        const auto sim = simulateCollective(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, 4, 4e6, LinkModel{1e9, 0});
        QCOMPARE(int(sim->steps.size()), 6);
        for (std::size_t s = 0; s < sim->steps.size(); ++s) {
            QCOMPARE(int(sim->steps[s].transfers.size()), 4);
            for (const ChunkTransfer &t : sim->steps[s].transfers) {
                QCOMPARE(t.to_rank, (t.from_rank + 1) % 4);
                QCOMPARE(t.reduces, s < 3);  // reduce-scatter first, then all-gather copies
                QCOMPARE(t.bytes, 1e6);
            }
        }
    }

    void namesRoundTrip()
    {
        for (int op = 0; op <= int(CollectiveOp::AllToAll); ++op)
            QCOMPARE(collectiveOpFromString(toString(CollectiveOp(op))), std::optional<CollectiveOp>(CollectiveOp(op)));
        QCOMPARE(collectiveOpFromString("all-reduce"), std::optional<CollectiveOp>(CollectiveOp::AllReduce));
        QCOMPARE(collectiveAlgorithmFromString("Tree"), std::optional<CollectiveAlgorithm>(CollectiveAlgorithm::Tree));
        QVERIFY(!collectiveOpFromString("allsum"));
    }

    void invalidInputNamesTheField_data()
    {
        QTest::addColumn<int>("ranks");
        QTest::addColumn<double>("bytes");
        QTest::addColumn<double>("bandwidth");
        QTest::addColumn<int>("root");
        QTest::addColumn<QString>("field");
        QTest::addRow("0 ranks") << 0 << 1e6 << 1e9 << 0 << "ranks";
        QTest::addRow("1025 ranks") << 1025 << 1e6 << 1e9 << 0 << "ranks";
        QTest::addRow("0 bytes") << 8 << 0.0 << 1e9 << 0 << "message_bytes";
        QTest::addRow("NaN bytes") << 8 << std::nan("") << 1e9 << 0 << "message_bytes";
        QTest::addRow("0 bandwidth") << 8 << 1e6 << 0.0 << 0 << "bandwidth";
        QTest::addRow("root 8 of 8") << 8 << 1e6 << 1e9 << 8 << "root";
        QTest::addRow("root -1") << 8 << 1e6 << 1e9 << -1 << "root";
    }
    void invalidInputNamesTheField()
    {
        QFETCH(int, ranks);
        QFETCH(double, bytes);
        QFETCH(double, bandwidth);
        QFETCH(int, root);
        QFETCH(QString, field);
        const auto sim = simulateCollective(CollectiveOp::Broadcast, CollectiveAlgorithm::Tree, ranks, bytes,
                                            LinkModel{bandwidth, 0}, root);
        QVERIFY(!sim.ok());
        QCOMPARE(QString::fromStdString(sim.problems().front().field), field);
        QVERIFY(std::isnan(collectiveSeconds(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, ranks, bytes,
                                             LinkModel{bandwidth, 0})) == (field != "root"));
    }

    void largestRingFinishesQuickly()
    {
        const auto sim = simulateCollective(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, 1024, 1e9, LinkModel{1e11, 1e-6});
        QVERIFY(sim.ok());
        QCOMPARE(int(sim->steps.size()), 2046);
        QCOMPARE(sim->final_values[1023][1023], sumOverRanks(1024, 1023));
    }
};

QTEST_GUILESS_MAIN(TestCollectives)
#include "test_collectives.moc"
