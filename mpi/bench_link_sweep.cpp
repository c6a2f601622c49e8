// SPDX-License-Identifier: GPL-3.0-or-later
// Measures this machine's link as nccl-tests does: a ping-pong (2 ranks) or ring all-reduce sweep
// over message sizes, then the alpha-beta fit the engine's collective times use.
//   mpirun -np 2 --oversubscribe --allow-run-as-root --bind-to none build/default/mpi/bench_link_sweep
// Built, not run by CTest: the numbers depend on the machine and its load.

#include "distributed/link_measurement.h"
#include "mpi_communicator.h"

#include <cstdio>
#include <exception>

using namespace lse::distributed;

namespace {

void print(const char *title, const std::vector<SweepPoint> &points, const lse::Result<lse::parallel::LinkModel> &fit)
{
    std::printf("%s\n%12s %14s %14s %14s\n", title, "bytes", "time_us", "algbw_GB/s", "busbw_GB/s");
    for (const SweepPoint &point : points)
        std::printf("%12lld %14.2f %14.3f %14.3f\n", static_cast<long long>(point.bytes), point.seconds * 1e6,
                    point.algorithm_bandwidth_bytes_per_second / 1e9, point.bus_bandwidth_bytes_per_second / 1e9);
    if (fit)
        std::printf("fit: alpha = %.2f us, beta = %.3f GB/s\n\n", fit->latency_seconds * 1e6,
                    fit->bandwidth_bytes_per_second / 1e9);
    else
        std::printf("fit: %s\n\n", lse::formatProblems(fit.problems()).c_str());
}

}  // namespace

int main()
{
    try {
        auto communicator = makeMpiCommunicator();
        const bool printing = communicator->rank() == 0;
        if (communicator->size() == 2) {
            const auto ping_pong = measurePingPong(*communicator);
            if (printing)
                print("ping-pong (one-way time)", ping_pong, fitPingPong(ping_pong));
        }
        const auto all_reduce = measureAllReduce(*communicator);
        if (printing) {
            std::printf("ranks: %d\n", communicator->size());
            print("ring all-reduce", all_reduce, fitRingAllReduce(all_reduce, communicator->size()));
        }
        return 0;
    } catch (const std::exception &error) {
        std::fprintf(stderr, "bench_link_sweep: %s\n", error.what());
        return 1;
    }
}
