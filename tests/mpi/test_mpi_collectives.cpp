// SPDX-License-Identifier: GPL-3.0-or-later
// The ring collectives across processes (mpirun -np N, one thread per rank): sums, shards,
// broadcast value and the exact bytes each rank sends, the same checks as tests/core/
// test_communicator.cpp over MPI (ZeRO §7: all-reduce 2(n-1)/n·S, reduce-scatter and all-gather
// (n-1)/n·S per rank when n divides the element count). Plain main: every rank checks its own
// results, the failure counts are summed over the ranks, and every rank exits 1 if any failed.

#include "mpi_communicator.h"

#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

using namespace lse::distributed;

namespace {

constexpr std::int64_t kFloatBytes = 4;

int failures = 0;

void expect(bool ok, int rank, const std::string &what)
{
    if (ok)
        return;
    ++failures;
    std::fprintf(stderr, "rank %d: FAIL %s\n", rank, what.c_str());
}

void expectBytes(std::int64_t actual, std::int64_t expected, int rank, const std::string &what)
{
    expect(actual == expected, rank,
           what + ": bytes_sent " + std::to_string(actual) + ", expected " + std::to_string(expected));
}

// Rank r's element i; integers below 2^24, so float sums are exact.
float initialValue(int rank, std::int64_t element) { return float((rank + 1) * 1000 + element); }
float sumOverRanks(int ranks, std::int64_t element) { return float(1000 * ranks * (ranks + 1) / 2 + ranks * element); }

std::vector<float> initialBuffer(int rank, std::int64_t count)
{
    std::vector<float> buffer(static_cast<std::size_t>(count));
    for (std::int64_t i = 0; i < count; ++i)
        buffer[std::size_t(i)] = initialValue(rank, i);
    return buffer;
}

std::int64_t shardBytes(std::int64_t count, int ranks, int rank)
{
    return shardRange(count, ranks, rank % ranks).count * kFloatBytes;
}

void checkCollectives(Communicator &communicator, std::int64_t count)
{
    const int rank = communicator.rank();
    const int ranks = communicator.size();
    const std::int64_t bytes = count * kFloatBytes;
    const std::string where = "count " + std::to_string(count) + " ";
    const bool divides = count % ranks == 0;

    auto reduced = initialBuffer(rank, count);
    communicator.allReduceSum(reduced.data(), count);
    for (std::int64_t i = 0; i < count; ++i)
        expect(reduced[std::size_t(i)] == sumOverRanks(ranks, i), rank, where + "all_reduce sum at " + std::to_string(i));

    auto scattered = initialBuffer(rank, count);
    communicator.reduceScatterSum(scattered.data(), count);
    const ShardRange own = shardRange(count, ranks, rank);
    for (std::int64_t i = own.offset; i < own.offset + own.count; ++i)
        expect(scattered[std::size_t(i)] == sumOverRanks(ranks, i), rank, where + "reduce_scatter shard at " + std::to_string(i));

    std::vector<float> gathered(static_cast<std::size_t>(count), -1.0f);
    for (std::int64_t i = own.offset; i < own.offset + own.count; ++i)
        gathered[std::size_t(i)] = initialValue(rank, i);
    communicator.allGather(gathered.data(), count);
    for (int owner = 0; owner < ranks; ++owner) {
        const ShardRange shard = shardRange(count, ranks, owner);
        for (std::int64_t i = shard.offset; i < shard.offset + shard.count; ++i)
            expect(gathered[std::size_t(i)] == initialValue(owner, i), rank, where + "all_gather at " + std::to_string(i));
    }

    const int root = ranks - 1;
    auto broadcasted = initialBuffer(rank, count);
    communicator.broadcast(broadcasted.data(), count, root);
    for (std::int64_t i = 0; i < count; ++i)
        expect(broadcasted[std::size_t(i)] == initialValue(root, i), rank, where + "broadcast at " + std::to_string(i));

    communicator.barrier();

    const auto records = communicator.takeRecords();
    expect(records.size() == 5, rank, where + "five records");
    if (records.size() != 5)
        return;
    expectBytes(records[0].bytes_sent, 2 * bytes - shardBytes(count, ranks, rank) - shardBytes(count, ranks, rank + 1),
                rank, where + "all_reduce");
    expectBytes(records[1].bytes_sent, bytes - shardBytes(count, ranks, rank), rank, where + "reduce_scatter");
    expectBytes(records[2].bytes_sent, bytes - shardBytes(count, ranks, rank + 1), rank, where + "all_gather");
    if (divides) {
        expectBytes(records[0].bytes_sent, 2 * (ranks - 1) * bytes / ranks, rank, where + "all_reduce 2(n-1)/n·S");
        expectBytes(records[1].bytes_sent, (ranks - 1) * bytes / ranks, rank, where + "reduce_scatter (n-1)/n·S");
        expectBytes(records[2].bytes_sent, (ranks - 1) * bytes / ranks, rank, where + "all_gather (n-1)/n·S");
    }
    const int last_on_ring = (root + ranks - 1) % ranks;
    expectBytes(records[3].bytes_sent, rank == last_on_ring ? 0 : bytes, rank, where + "broadcast");
    expectBytes(records[4].bytes_sent, 0, rank, where + "barrier");
}

// Started collectives complete in start order while the caller computes.
void checkNonBlocking(Communicator &communicator)
{
    const int rank = communicator.rank();
    constexpr std::int64_t kCount = 12 * 4096;
    auto first = initialBuffer(rank, kCount);
    auto second = initialBuffer(rank, kCount);
    auto a = communicator.startAllReduceSum(first.data(), kCount);
    auto b = communicator.startAllReduceSum(second.data(), kCount);
    double sum = 0;
    for (int i = 1; i < 2000000; ++i)
        sum += 1.0 / double(i);
    expect(sum > 1.0, rank, "the overlapped computation ran");
    b->wait();
    expect(a->done(), rank, "the first started all-reduce completed before the second");
    a->wait();
    for (std::int64_t i = 0; i < kCount; ++i)
        expect(first[std::size_t(i)] == sumOverRanks(communicator.size(), i), rank, "non-blocking sum");
    for (const CollectiveRecord &record : communicator.takeRecords())
        expect(record.waited_seconds < record.seconds, rank, "waited less than the collective took");
}

void checkManySmallCollectives(Communicator &communicator)
{
    const int rank = communicator.rank();
    std::vector<std::vector<float>> buffers;
    std::vector<std::unique_ptr<CollectiveHandle>> handles;
    for (int round = 0; round < 300; ++round) {
        const std::int64_t count = 1 + round % 7;
        buffers.push_back(initialBuffer(rank, count));
        if (round % 3 == 0)
            communicator.allReduceSum(buffers.back().data(), count);
        else
            handles.push_back(communicator.startAllReduceSum(buffers.back().data(), count));
    }
    for (auto &handle : handles)
        handle->wait();
    for (const auto &buffer : buffers)
        for (std::size_t i = 0; i < buffer.size(); ++i)
            expect(buffer[i] == sumOverRanks(communicator.size(), std::int64_t(i)), rank, "many small all-reduces");
    communicator.takeRecords();
}

}  // namespace

int main()
{
    try {
        auto communicator = makeMpiCommunicator();
        // 12 and 4800: every n in {2, 3, 4} divides them; 13 and 4801: none does; 1: empty shards.
        for (std::int64_t count : {12, 13, 1, 0, 4800, 4801})
            checkCollectives(*communicator, count);
        checkNonBlocking(*communicator);
        checkManySmallCollectives(*communicator);

        float failed_anywhere = float(failures);
        communicator->allReduceSum(&failed_anywhere, 1);
        if (communicator->rank() == 0)
            std::printf("%d ranks: %s (%d failed checks over all ranks)\n", communicator->size(),
                        failed_anywhere == 0 ? "PASS" : "FAIL", int(failed_anywhere));
        return failed_anywhere == 0 ? 0 : 1;
    } catch (const std::exception &error) {
        std::fprintf(stderr, "test_mpi_collectives: %s\n", error.what());
        return 1;
    }
}
