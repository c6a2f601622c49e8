// SPDX-License-Identifier: GPL-3.0-or-later
// Communicator over in-process ranks: the ring collectives produce the sums, shards and broadcast
// value, and the bytes each rank sends are the ring's exact counts (ZeRO §7: all-reduce
// 2(n-1)/n·S, reduce-scatter and all-gather (n-1)/n·S when n divides the element count).

#include "distributed/thread_group.h"

#include <QTest>

#include <algorithm>
#include <atomic>
#include <memory>
#include <stdexcept>
#include <vector>

using namespace lse::distributed;

namespace {

constexpr std::int64_t kFloatBytes = 4;

// Rank r's element i before a collective; integers below 2^24, so float sums are exact.
float initialValue(int rank, std::int64_t element) { return float((rank + 1) * 1000 + element); }

// Σ_r ((r+1)·1000 + i) = 1000·n(n+1)/2 + n·i.
float sumOverRanks(int ranks, std::int64_t element) { return float(1000 * ranks * (ranks + 1) / 2 + ranks * element); }

std::vector<float> initialBuffer(int rank, std::int64_t count)
{
    std::vector<float> buffer(static_cast<std::size_t>(count));
    for (std::int64_t i = 0; i < count; ++i)
        buffer[std::size_t(i)] = initialValue(rank, i);
    return buffer;
}

QString name(Collective collective)
{
    const std::string_view text = toString(collective);
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

std::int64_t shardBytes(std::int64_t count, int ranks, int rank)
{
    return shardRange(count, ranks, rank % ranks).count * kFloatBytes;
}

// Records of every rank, indexed by rank, after running rankMain on each.
std::vector<std::vector<CollectiveRecord>> runAndRecord(ThreadGroup &group,
                                                        const std::function<void(Communicator &)> &rankMain)
{
    std::vector<std::vector<CollectiveRecord>> records(std::size_t(group.size()));
    group.run([&](Communicator &communicator) {
        rankMain(communicator);
        records[std::size_t(communicator.rank())] = communicator.takeRecords();
    });
    return records;
}

}  // namespace

class TestCommunicator : public QObject {
    Q_OBJECT

private slots:
    void shardRangeCoversTheBufferInOrder()
    {
        for (int ranks = 1; ranks <= 5; ++ranks) {
            for (std::int64_t count : {0, 1, 4, 7, 12}) {
                std::int64_t next_offset = 0;
                for (int rank = 0; rank < ranks; ++rank) {
                    const ShardRange shard = shardRange(count, ranks, rank);
                    QCOMPARE(shard.offset, next_offset);
                    // As even as possible: lengths differ by at most one, longer ones first.
                    QCOMPARE(shard.count, count / ranks + (rank < count % ranks ? 1 : 0));
                    next_offset += shard.count;
                }
                QCOMPARE(next_offset, count);
            }
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, shardRange(4, 2, 2));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, shardRange(-1, 2, 0));
    }

    void collectiveNames()
    {
        QCOMPARE(name(Collective::AllReduce), QString("all_reduce"));
        QCOMPARE(name(Collective::ReduceScatter), QString("reduce_scatter"));
        QCOMPARE(name(Collective::AllGather), QString("all_gather"));
        QCOMPARE(name(Collective::Broadcast), QString("broadcast"));
        QCOMPARE(name(Collective::Barrier), QString("barrier"));
    }

    void collectives_data()
    {
        QTest::addColumn<int>("ranks");
        QTest::addColumn<qint64>("count");
        for (int ranks = 1; ranks <= 4; ++ranks)
            for (qint64 count : {12, 13, 1, 0})  // 12: every n divides it; 13: none but 1; 1: empty shards
                QTest::addRow("n=%d count=%lld", ranks, count) << ranks << count;
    }

    void allReduceSumsEveryElementAndSendsTheRingBytes()
    {
        QFETCH(int, ranks);
        QFETCH(qint64, count);
        ThreadGroup group(ranks);
        std::vector<std::vector<float>> results(static_cast<std::size_t>(ranks));
        const auto records = runAndRecord(group, [&](Communicator &communicator) {
            auto buffer = initialBuffer(communicator.rank(), count);
            communicator.allReduceSum(buffer.data(), count);
            results[std::size_t(communicator.rank())] = buffer;
        });
        const std::int64_t bytes = count * kFloatBytes;
        for (int rank = 0; rank < ranks; ++rank) {
            for (std::int64_t i = 0; i < count; ++i)
                QCOMPARE(results[std::size_t(rank)][std::size_t(i)], sumOverRanks(ranks, i));
            QCOMPARE(records[std::size_t(rank)].size(), std::size_t(1));
            const CollectiveRecord &record = records[std::size_t(rank)][0];
            QCOMPARE(name(record.collective), name(Collective::AllReduce));
            QCOMPARE(record.elements, std::int64_t(count));
            // Reduce-scatter sends every shard but r's, all-gather every shard but r+1's.
            QCOMPARE(record.bytes_sent,
                     ranks == 1 ? 0 : 2 * bytes - shardBytes(count, ranks, rank) - shardBytes(count, ranks, rank + 1));
            if (count % ranks == 0)
                QCOMPARE(record.bytes_sent, 2 * (ranks - 1) * bytes / ranks);
        }
    }
    void allReduceSumsEveryElementAndSendsTheRingBytes_data() { collectives_data(); }

    // The maximum over ranks of every element (each rank's largest value sits at a different
    // index, and negative values too), with the same ring bytes as the sum.
    void allReduceMaxTakesTheLargestOfEveryElement()
    {
        QFETCH(int, ranks);
        QFETCH(qint64, count);
        ThreadGroup group(ranks);
        std::vector<std::vector<float>> results(static_cast<std::size_t>(ranks));
        const auto value = [](int rank, std::int64_t i) { return float((rank * 7 + i * 3) % 11) - 5.0f; };
        const auto records = runAndRecord(group, [&](Communicator &communicator) {
            std::vector<float> buffer(static_cast<std::size_t>(count));
            for (std::int64_t i = 0; i < count; ++i)
                buffer[std::size_t(i)] = value(communicator.rank(), i);
            communicator.allReduceMax(buffer.data(), count);
            results[std::size_t(communicator.rank())] = buffer;
        });
        const std::int64_t bytes = count * kFloatBytes;
        for (int rank = 0; rank < ranks; ++rank) {
            for (std::int64_t i = 0; i < count; ++i) {
                float largest = value(0, i);
                for (int other = 1; other < ranks; ++other)
                    largest = std::max(largest, value(other, i));
                QCOMPARE(results[std::size_t(rank)][std::size_t(i)], largest);
            }
            QCOMPARE(records[std::size_t(rank)].size(), std::size_t(1));
            const CollectiveRecord &record = records[std::size_t(rank)][0];
            QCOMPARE(name(record.collective), name(Collective::AllReduce));
            QCOMPARE(record.bytes_sent,
                     ranks == 1 ? 0 : 2 * bytes - shardBytes(count, ranks, rank) - shardBytes(count, ranks, rank + 1));
        }
    }
    void allReduceMaxTakesTheLargestOfEveryElement_data() { collectives_data(); }

    void reduceScatterLeavesEachRankItsSummedShard()
    {
        QFETCH(int, ranks);
        QFETCH(qint64, count);
        ThreadGroup group(ranks);
        std::vector<std::vector<float>> results(static_cast<std::size_t>(ranks));
        const auto records = runAndRecord(group, [&](Communicator &communicator) {
            auto buffer = initialBuffer(communicator.rank(), count);
            communicator.reduceScatterSum(buffer.data(), count);
            results[std::size_t(communicator.rank())] = buffer;
        });
        const std::int64_t bytes = count * kFloatBytes;
        for (int rank = 0; rank < ranks; ++rank) {
            const ShardRange shard = shardRange(count, ranks, rank);
            for (std::int64_t i = shard.offset; i < shard.offset + shard.count; ++i)
                QCOMPARE(results[std::size_t(rank)][std::size_t(i)], sumOverRanks(ranks, i));
            const CollectiveRecord &record = records[std::size_t(rank)].at(0);
            QCOMPARE(name(record.collective), name(Collective::ReduceScatter));
            QCOMPARE(record.bytes_sent, ranks == 1 ? 0 : bytes - shardBytes(count, ranks, rank));
            if (count % ranks == 0)
                QCOMPARE(record.bytes_sent, (ranks - 1) * bytes / ranks);
        }
    }
    void reduceScatterLeavesEachRankItsSummedShard_data() { collectives_data(); }

    void allGatherCopiesEveryShardEverywhere()
    {
        QFETCH(int, ranks);
        QFETCH(qint64, count);
        ThreadGroup group(ranks);
        std::vector<std::vector<float>> results(static_cast<std::size_t>(ranks));
        const auto records = runAndRecord(group, [&](Communicator &communicator) {
            // Only this rank's shard holds data; the rest is garbage the gather must overwrite.
            std::vector<float> buffer(std::size_t(count), -1.0f);
            const ShardRange shard = shardRange(count, communicator.size(), communicator.rank());
            for (std::int64_t i = shard.offset; i < shard.offset + shard.count; ++i)
                buffer[std::size_t(i)] = initialValue(communicator.rank(), i);
            communicator.allGather(buffer.data(), count);
            results[std::size_t(communicator.rank())] = buffer;
        });
        const std::int64_t bytes = count * kFloatBytes;
        for (int rank = 0; rank < ranks; ++rank) {
            for (int owner = 0; owner < ranks; ++owner) {
                const ShardRange shard = shardRange(count, ranks, owner);
                for (std::int64_t i = shard.offset; i < shard.offset + shard.count; ++i)
                    QCOMPARE(results[std::size_t(rank)][std::size_t(i)], initialValue(owner, i));
            }
            const CollectiveRecord &record = records[std::size_t(rank)].at(0);
            QCOMPARE(name(record.collective), name(Collective::AllGather));
            QCOMPARE(record.bytes_sent, ranks == 1 ? 0 : bytes - shardBytes(count, ranks, rank + 1));
            if (count % ranks == 0)
                QCOMPARE(record.bytes_sent, (ranks - 1) * bytes / ranks);
        }
    }
    void allGatherCopiesEveryShardEverywhere_data() { collectives_data(); }

    void broadcastCopiesTheRootsBufferAlongTheRing()
    {
        QFETCH(int, ranks);
        QFETCH(qint64, count);
        const int root = ranks - 1;
        ThreadGroup group(ranks);
        std::vector<std::vector<float>> results(static_cast<std::size_t>(ranks));
        const auto records = runAndRecord(group, [&](Communicator &communicator) {
            auto buffer = initialBuffer(communicator.rank(), count);
            communicator.broadcast(buffer.data(), count, root);
            results[std::size_t(communicator.rank())] = buffer;
        });
        const int last_on_ring = (root + ranks - 1) % ranks;  // receives only
        for (int rank = 0; rank < ranks; ++rank) {
            for (std::int64_t i = 0; i < count; ++i)
                QCOMPARE(results[std::size_t(rank)][std::size_t(i)], initialValue(root, i));
            const CollectiveRecord &record = records[std::size_t(rank)].at(0);
            QCOMPARE(name(record.collective), name(Collective::Broadcast));
            QCOMPARE(record.bytes_sent, rank == last_on_ring ? 0 : count * kFloatBytes);
        }
    }
    void broadcastCopiesTheRootsBufferAlongTheRing_data() { collectives_data(); }

    void barrierHoldsEveryRankUntilAllArrive_data()
    {
        QTest::addColumn<int>("ranks");
        for (int ranks = 1; ranks <= 4; ++ranks)
            QTest::addRow("n=%d", ranks) << ranks;
    }
    void barrierHoldsEveryRankUntilAllArrive()
    {
        QFETCH(int, ranks);
        ThreadGroup group(ranks);
        std::atomic<int> arrived{0};
        std::vector<int> seen(static_cast<std::size_t>(ranks));
        const auto records = runAndRecord(group, [&](Communicator &communicator) {
            ++arrived;
            communicator.barrier();
            seen[std::size_t(communicator.rank())] = arrived.load();
        });
        for (int rank = 0; rank < ranks; ++rank) {
            QCOMPARE(seen[std::size_t(rank)], ranks);
            QCOMPARE(name(records[std::size_t(rank)].at(0).collective), name(Collective::Barrier));
            QCOMPARE(records[std::size_t(rank)].at(0).bytes_sent, std::int64_t(0));
        }
    }

    // Started collectives complete in start order, and a caller that computes meanwhile blocks
    // in wait() for less than the collective took.
    void nonBlockingCollectivesCompleteInOrderAndOverlap()
    {
        constexpr int kRanks = 3;
        constexpr std::int64_t kCount = 3 * 4096;
        ThreadGroup group(kRanks);
        // One char per rank, not vector<bool>: its bits share words, so ranks writing them would race.
        std::vector<char> earlier_done_after_last(kRanks, 0);
        std::vector<double> computed(kRanks);
        const auto records = runAndRecord(group, [&](Communicator &communicator) {
            auto first = initialBuffer(communicator.rank(), kCount);
            auto second = initialBuffer(communicator.rank(), kCount);
            auto third = initialBuffer(communicator.rank(), kCount);
            auto a = communicator.startAllReduceSum(first.data(), kCount);
            auto b = communicator.startReduceScatterSum(second.data(), kCount);
            auto c = communicator.startAllGather(third.data(), kCount);
            double sum = 0;  // the computation the collectives overlap
            for (int i = 1; i < 2000000; ++i)
                sum += 1.0 / double(i);
            computed[std::size_t(communicator.rank())] = sum;
            c->wait();
            earlier_done_after_last[std::size_t(communicator.rank())] = a->done() && b->done();
            a->wait();
            b->wait();
            for (std::int64_t i = 0; i < kCount; ++i)
                QCOMPARE(first[std::size_t(i)], sumOverRanks(kRanks, i));
        });
        for (int rank = 0; rank < kRanks; ++rank) {
            QVERIFY(computed[std::size_t(rank)] > 1.0);
            QVERIFY(earlier_done_after_last[std::size_t(rank)]);
            const auto &rank_records = records[std::size_t(rank)];
            QCOMPARE(rank_records.size(), std::size_t(3));
            QCOMPARE(name(rank_records[0].collective), name(Collective::AllReduce));
            QCOMPARE(name(rank_records[1].collective), name(Collective::ReduceScatter));
            QCOMPARE(name(rank_records[2].collective), name(Collective::AllGather));
            for (const CollectiveRecord &record : rank_records) {
                QVERIFY(record.seconds > 0);
                QVERIFY2(record.waited_seconds < record.seconds, "the caller computed while the collective ran");
            }
        }
    }

    void blockingCollectiveCountsItsWholeTimeAsWaited()
    {
        ThreadGroup group(2);
        const auto records = runAndRecord(group, [&](Communicator &communicator) {
            auto buffer = initialBuffer(communicator.rank(), 1024);
            communicator.allReduceSum(buffer.data(), 1024);
        });
        for (const auto &rank_records : records) {
            QVERIFY(rank_records.at(0).seconds > 0);
            QCOMPARE(rank_records.at(0).waited_seconds, rank_records.at(0).seconds);
        }
    }

    void manySmallCollectivesDoNotDeadlock()
    {
        constexpr int kRanks = 4;
        constexpr int kRounds = 400;
        ThreadGroup group(kRanks);
        std::vector<int> correct(kRanks, 0);
        const auto records = runAndRecord(group, [&](Communicator &communicator) {
            std::vector<std::vector<float>> buffers;
            std::vector<std::unique_ptr<CollectiveHandle>> handles;
            for (int round = 0; round < kRounds; ++round) {
                const std::int64_t count = 1 + round % 7;
                buffers.push_back(initialBuffer(communicator.rank(), count));
                if (round % 3 == 0)
                    communicator.allReduceSum(buffers.back().data(), count);
                else
                    handles.push_back(communicator.startAllReduceSum(buffers.back().data(), count));
                if (round % 50 == 0)
                    communicator.barrier();
            }
            for (auto &handle : handles)
                handle->wait();
            for (std::size_t round = 0; round < buffers.size(); ++round) {
                bool all_equal = true;
                for (std::size_t i = 0; i < buffers[round].size(); ++i)
                    all_equal = all_equal && buffers[round][i] == sumOverRanks(kRanks, std::int64_t(i));
                correct[std::size_t(communicator.rank())] += all_equal ? 1 : 0;
            }
        });
        for (int rank = 0; rank < kRanks; ++rank) {
            QCOMPARE(correct[std::size_t(rank)], kRounds);
            QCOMPARE(records[std::size_t(rank)].size(), std::size_t(kRounds + kRounds / 50));
        }
    }

    void badArgumentsNameTheField()
    {
        ThreadGroup group(2);
        float value = 1;
        try {
            group.communicator(0).allReduceSum(&value, -1);
            QFAIL("negative count accepted");
        } catch (const std::invalid_argument &error) {
            QVERIFY(std::string(error.what()).find("count") != std::string::npos);
        }
        try {
            group.communicator(0).broadcast(&value, 1, 2);
            QFAIL("root outside the group accepted");
        } catch (const std::invalid_argument &error) {
            QVERIFY(std::string(error.what()).find("root") != std::string::npos);
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, group.communicator(0).allGather(nullptr, 4));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ThreadGroup(0));
    }

    // One rank failing must not leave the others waiting forever for its messages.
    // dp x tp = 2 x 2 from the device mesh (TP innermost): tp groups {0,1} {2,3}, dp groups {0,2}
    // {1,3}. Each sub-group sums only its members and keeps its own records; the parent records
    // neither the sub-groups' traffic nor the split's exchange.
    void splitMakesSubGroupsWithTheirOwnRecords()
    {
        ThreadGroup group(4);
        std::vector<std::vector<float>> tp_sums(4), dp_sums(4);
        std::vector<std::size_t> parent_records(4), tp_records(4);
        std::vector<int> tp_ranks(4), dp_ranks(4);
        group.run([&](Communicator &world) {
            const int rank = world.rank();
            std::unique_ptr<Communicator> tp = world.split(rank / 2, rank);  // color: the dp coordinate
            std::unique_ptr<Communicator> dp = world.split(rank % 2, -rank); // key reverses the order
            std::vector<float> a{float(rank), 1.0f, 10.0f * float(rank)};
            tp->allReduceSum(a.data(), std::int64_t(a.size()));
            std::vector<float> b{float(rank)};
            dp->allReduceSum(b.data(), 1);
            tp_sums[std::size_t(rank)] = a;
            dp_sums[std::size_t(rank)] = b;
            tp_ranks[std::size_t(rank)] = tp->rank();
            dp_ranks[std::size_t(rank)] = dp->rank();
            tp_records[std::size_t(rank)] = tp->takeRecords().size();
            parent_records[std::size_t(rank)] = world.takeRecords().size();
            dp.reset();
            tp.reset();
        });
        for (int rank = 0; rank < 4; ++rank) {
            const float first = rank < 2 ? 1.0f : 5.0f;  // 0+1 or 2+3
            QCOMPARE(tp_sums[std::size_t(rank)], (std::vector<float>{first, 2.0f, 10.0f * first}));
            QCOMPARE(dp_sums[std::size_t(rank)][0], rank % 2 == 0 ? 2.0f : 4.0f);  // 0+2 or 1+3
            QCOMPARE(tp_ranks[std::size_t(rank)], rank % 2);
            QCOMPARE(dp_ranks[std::size_t(rank)], rank < 2 ? 1 : 0);  // key -rank: the higher rank first
            QCOMPARE(tp_records[std::size_t(rank)], std::size_t(1));
            QCOMPARE(parent_records[std::size_t(rank)], std::size_t(0));
        }
    }

    void aFailingRankReleasesTheOthers()
    {
        ThreadGroup group(3);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, group.run([](Communicator &communicator) {
            if (communicator.rank() == 1)
                throw std::runtime_error("rank 1 fails");
            std::vector<float> buffer(6, 1.0f);
            communicator.allReduceSum(buffer.data(), 6);
        }));
    }
};

QTEST_APPLESS_MAIN(TestCommunicator)
#include "test_communicator.moc"
