// SPDX-License-Identifier: GPL-3.0-or-later
// Communicator::send / recv across processes (mpirun -np N; issue 33's pipeline stages): messages
// around the ring arrive intact and in order; sends are buffered, so every rank sending a large
// message (beyond Open MPI's eager limit) before it receives does not deadlock; sends and the ring
// collectives interleave without matching each other's messages; the records carry peer and bytes.
// Plain main, as test_mpi_collectives: failures summed over the ranks, exit 1 if any.

#include "mpi_communicator.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

using namespace lse::distributed;

namespace {

int failures = 0;

void expect(bool ok, int rank, const std::string &what)
{
    if (ok)
        return;
    ++failures;
    std::fprintf(stderr, "rank %d: FAIL %s\n", rank, what.c_str());
}

// Every rank sends `count` floats to the next rank, twice, before receiving from the previous one.
void ringExchange(Communicator &c, std::int64_t count)
{
    const int rank = c.rank(), n = c.size();
    const int next = (rank + 1) % n, previous = (rank + n - 1) % n;
    const std::string where = "count " + std::to_string(count) + " ";
    std::vector<float> first(static_cast<std::size_t>(count)), second(static_cast<std::size_t>(count));
    for (std::int64_t i = 0; i < count; ++i) {
        first[std::size_t(i)] = float(rank * 1000 + i % 1000);
        second[std::size_t(i)] = float(-rank - 1);
    }
    c.send(first.data(), count, next);
    c.send(second.data(), count, next);
    // The buffers may be reused at once: a buffered send copied them.
    std::fill(first.begin(), first.end(), 0.0f);
    std::vector<float> in(static_cast<std::size_t>(count));
    c.recv(in.data(), count, previous);
    bool ok = true;
    for (std::int64_t i = 0; i < count; ++i)
        ok = ok && in[std::size_t(i)] == float(previous * 1000 + i % 1000);
    expect(ok, rank, where + "first message from the previous rank");
    c.recv(in.data(), count, previous);
    ok = true;
    for (std::int64_t i = 0; i < count; ++i)
        ok = ok && in[std::size_t(i)] == float(-previous - 1);
    expect(ok, rank, where + "second message, in order");

    const std::vector<CollectiveRecord> records = c.takeRecords();
    expect(records.size() == 4, rank, where + "four records");
    if (records.size() == 4) {
        expect(toString(records[0].collective) == "send" && records[0].peer == next
                   && records[0].bytes_sent == 4 * count,
               rank, where + "send record");
        expect(toString(records[2].collective) == "recv" && records[2].peer == previous
                   && records[2].bytes_received == 4 * count && records[2].bytes_sent == 0,
               rank, where + "recv record");
    }
}

// A send posted before an all-reduce is received after it: the collective's transfers must not
// take the point-to-point message, nor the reverse.
void interleavedWithCollectives(Communicator &c)
{
    const int rank = c.rank(), n = c.size();
    float token = float(100 + rank);
    c.send(&token, 1, (rank + 1) % n);
    float value = 1.0f;
    c.allReduceSum(&value, 1);
    expect(value == float(n), rank, "all-reduce between a send and its receive");
    float got = 0;
    c.recv(&got, 1, (rank + n - 1) % n);
    expect(got == float(100 + (rank + n - 1) % n), rank, "the point-to-point message after the all-reduce");
    c.takeRecords();
}

}  // namespace

int main()
{
    try {
        auto communicator = makeMpiCommunicator();
        for (std::int64_t count : {0, 1, 1000, 1 << 20})  // 4 MiB: far beyond the eager limit
            ringExchange(*communicator, count);
        interleavedWithCollectives(*communicator);

        float failed_anywhere = float(failures);
        communicator->allReduceSum(&failed_anywhere, 1);
        if (communicator->rank() == 0)
            std::printf("%d ranks: %s (%d failed checks over all ranks)\n", communicator->size(),
                        failed_anywhere == 0 ? "PASS" : "FAIL", int(failed_anywhere));
        return failed_anywhere == 0 ? 0 : 1;
    } catch (const std::exception &error) {
        std::fprintf(stderr, "test_mpi_point_to_point: %s\n", error.what());
        return 1;
    }
}
