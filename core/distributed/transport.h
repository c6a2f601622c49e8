// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

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

    // Point-to-point for pipeline stages, on a channel of their own (they never match a
    // sendRecv's message). send is buffered: it returns once the bytes are copied out, without
    // waiting for the receiver. recv blocks until the message from `from` arrives.
    virtual void send(int to, const void *data, std::int64_t bytes) = 0;
    virtual void recv(int from, void *data, std::int64_t bytes) = 0;
    // Moves buffered sends along (MPI: tests their requests); true while some have not completed.
    // The communication thread calls it while idle so a peer's receive is never starved.
    virtual bool progressSends() { return false; }
    // Blocks until every buffered send has completed (before shutting down).
    virtual void finishSends() {}

    // The transport of one sub-group (Communicator::split), called by every rank of this group in
    // the same order. `members` are the new group's ranks here, in their new rank order (already
    // agreed by all ranks: ascending key, then rank), `color` and `key` this rank's arguments, and
    // `split_path` names this split uniquely among all splits of the world (equal on every member).
    virtual std::unique_ptr<Transport> split(int color, int key, const std::vector<int> &members,
                                             const std::string &split_path) = 0;
};

}  // namespace lse::distributed
