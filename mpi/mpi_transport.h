// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "distributed/transport.h"

#include <memory>

namespace lse::distributed {

// Point-to-point transfers between the processes of MPI_COMM_WORLD (one process per rank, started
// by mpirun). Constructing the first one initialises MPI with MPI_THREAD_SERIALIZED: only the
// communicator's communication thread calls MPI between init and finalize, one call at a time.
// Destroying it finalises MPI when this object initialised it. MPI errors become
// std::runtime_error with MPI's message instead of aborting the job.
class MpiTransport : public Transport {
public:
    MpiTransport();  // defined with PendingSends
    ~MpiTransport() override;
    MpiTransport(const MpiTransport &) = delete;
    MpiTransport &operator=(const MpiTransport &) = delete;

    int rank() const override { return rank_; }
    int size() const override { return size_; }
    void sendRecv(int to, const void *send, std::int64_t send_bytes, int from, void *recv,
                  std::int64_t recv_bytes) override;
    // Point-to-point on tag 1 (the collectives use tag 0): send copies the bytes and posts
    // MPI_Isend, so it never waits for the receiver (a buffered send); the copies are freed as
    // their requests complete (progressSends, finishSends, the destructor).
    void send(int to, const void *data, std::int64_t bytes) override;
    void recv(int from, void *data, std::int64_t bytes) override;
    bool progressSends() override;
    void finishSends() override;
    // MPI_Comm_split of this transport's communicator. Sub-groups run on threads of their own,
    // so this needs MPI_THREAD_MULTIPLE (requested at initialisation; an error names it if the
    // library gave less).
    std::unique_ptr<Transport> split(int color, int key, const std::vector<int> &members,
                                     const std::string &split_path) override;

private:
    struct SubGroup {};
    MpiTransport(SubGroup, int rank, int size);
    // The communicator (MPI_COMM_WORLD or a split of it), the copies of buffered sends and their
    // MPI_Requests (mpi.h stays in the .cpp).
    struct PendingSends;
    std::unique_ptr<PendingSends> pending_sends_;
    bool initialised_here_ = false;
    int rank_ = 0;
    int size_ = 1;
};

}  // namespace lse::distributed
