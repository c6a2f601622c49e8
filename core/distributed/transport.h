// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace lse::distributed {

// Point-to-point transfers between the ranks of one group: all the ring collectives need
// (MPI_Sendrecv's shape). Implemented in memory for threads (thread_transport.h) and over MPI
// (mpi/mpi_transport.h). One thread per rank calls it at a time.
class Transport {
public:
    // No peer for one side of sendRecv (MPI_PROC_NULL's role): that side moves nothing.
    static constexpr int kNoPeer = -1;

    virtual ~Transport() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    // Sends send_bytes from `send` to rank `to` and receives exactly recv_bytes from rank `from`
    // into `recv`; returns when both are done. Messages between two ranks arrive in send order.
    // Throws std::runtime_error when the peer's message has another length or the group aborted.
    virtual void sendRecv(int to, const void *send, std::int64_t send_bytes, int from, void *recv,
                          std::int64_t recv_bytes) = 0;
};

}  // namespace lse::distributed
