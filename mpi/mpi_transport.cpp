// SPDX-License-Identifier: GPL-3.0-or-later
#include "mpi_transport.h"

#include <cstdlib>

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <iterator>
#include <list>
#include <vector>
#include <cstring>
#include <stdexcept>
#include <string>

namespace lse::distributed {

namespace {

// MPI counts are int: larger transfers go as a sequence of messages of at most this many bytes.
constexpr std::int64_t kMaxMessageBytes = std::int64_t(1) << 30;

void check(int status, const char *call)
{
    if (status == MPI_SUCCESS)
        return;
    char text[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    MPI_Error_string(status, text, &length);
    throw std::runtime_error(std::string("MPI: ") + call + " failed: " + std::string(text, std::size_t(length)));
}

}  // namespace

struct MpiTransport::PendingSends {
    MPI_Comm comm = MPI_COMM_WORLD;  // a split's own communicator is freed with the transport
    struct Send {
        std::vector<char> bytes;
        std::vector<MPI_Request> requests;  // one per part of at most kMaxMessageBytes
    };
    std::list<Send> sends;
};

MpiTransport::MpiTransport()
    : pending_sends_(std::make_unique<PendingSends>())
{
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (!initialised) {
        // Each rank runs a compute thread and a communication thread; on a machine with no core to
        // spare, Open MPI's busy-polling wait took the core from the compute thread, so the
        // bucketed all-reduce overlapped nothing (bench_dp_overlap on 2 loaded cores, bucketed /
        // naive exposed time: 0.36-19 polling, 0.26-1.1 and mostly 0.3-0.7 yielding). Waits yield
        // unless the user chose otherwise.
        setenv("OMPI_MCA_mpi_yield_when_idle", "1", 0);
        int provided = MPI_THREAD_SINGLE;
        // MULTIPLE for the sub-groups of combined layouts (each communicator has its own thread);
        // SERIALIZED suffices for one communicator.
        check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided), "MPI_Init_thread");
        initialised_here_ = true;
        if (provided < MPI_THREAD_SERIALIZED) {
            MPI_Finalize();
            throw std::runtime_error("MPI: the library provides thread level " + std::to_string(provided)
                                     + ", the communicator needs MPI_THREAD_SERIALIZED (calls from its own thread)");
        }
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
}

MpiTransport::MpiTransport(SubGroup, int rank, int size)
    : pending_sends_(std::make_unique<PendingSends>())
    , rank_(rank)
    , size_(size)
{
}

std::unique_ptr<Transport> MpiTransport::split(int color, int key, const std::vector<int> &members,
                                               const std::string & /*split_path*/)
{
    int provided = MPI_THREAD_SINGLE;
    MPI_Query_thread(&provided);
    if (provided < MPI_THREAD_MULTIPLE)
        throw std::runtime_error("MPI: splitting the ranks into groups (combined layouts) needs MPI_THREAD_MULTIPLE; "
                                 "the library provides thread level " + std::to_string(provided));
    MPI_Comm comm = MPI_COMM_NULL;
    check(MPI_Comm_split(pending_sends_->comm, color, key, &comm), "MPI_Comm_split");
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int rank = 0, size = 0;
    check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
    check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
    if (size != int(members.size()))
        throw std::logic_error("MPI_Comm_split: a group of " + std::to_string(size) + " ranks, the agreed members are "
                               + std::to_string(members.size()));
    std::unique_ptr<MpiTransport> sub(new MpiTransport(SubGroup{}, rank, size));
    sub->pending_sends_->comm = comm;
    return sub;
}

MpiTransport::~MpiTransport()
{
    try {
        finishSends();
    } catch (...) {
        // A failed peer: nothing left to deliver to; finalise anyway.
    }
    if (pending_sends_->comm != MPI_COMM_WORLD) {
        int finalized = 0;
        MPI_Finalized(&finalized);
        if (!finalized)
            MPI_Comm_free(&pending_sends_->comm);
    }
    if (initialised_here_)
        MPI_Finalize();
}

void MpiTransport::sendRecv(int to, const void *send, std::int64_t send_bytes, int from, void *recv,
                            std::int64_t recv_bytes)
{
    const auto *send_cursor = static_cast<const char *>(send);
    auto *recv_cursor = static_cast<char *>(recv);
    // Messages of up to kMaxMessageBytes; an empty transfer is still one (empty) message, so a
    // barrier's tokens go out. Both ends cut the same byte count the same way.
    auto messages = [](std::int64_t bytes) { return std::max<std::int64_t>(1, (bytes + kMaxMessageBytes - 1) / kMaxMessageBytes); };
    const std::int64_t send_messages = to == kNoPeer ? 0 : messages(send_bytes);
    const std::int64_t recv_messages = from == kNoPeer ? 0 : messages(recv_bytes);
    for (std::int64_t message = 0; message < std::max(send_messages, recv_messages); ++message) {
        const bool sending = message < send_messages;
        const bool receiving = message < recv_messages;
        const std::int64_t send_part = sending ? std::min(kMaxMessageBytes, send_bytes - message * kMaxMessageBytes) : 0;
        const std::int64_t recv_part = receiving ? std::min(kMaxMessageBytes, recv_bytes - message * kMaxMessageBytes) : 0;
        MPI_Status status;
        check(MPI_Sendrecv(send_cursor, int(send_part), MPI_BYTE, sending ? to : MPI_PROC_NULL, 0, recv_cursor,
                           int(recv_part), MPI_BYTE, receiving ? from : MPI_PROC_NULL, 0, pending_sends_->comm, &status),
              "MPI_Sendrecv");
        if (receiving) {
            int received = 0;
            MPI_Get_count(&status, MPI_BYTE, &received);
            if (received != recv_part)
                throw std::runtime_error("MPI: rank " + std::to_string(rank_) + " expected " + std::to_string(recv_part)
                                         + " bytes from rank " + std::to_string(from) + ", got "
                                         + std::to_string(received) + " (ranks ran different collectives)");
        }
        if (send_cursor)
            send_cursor += send_part;
        if (recv_cursor)
            recv_cursor += recv_part;
    }
}

namespace {

constexpr int kPointToPointTag = 1;

std::int64_t messageCount(std::int64_t bytes)
{
    return std::max<std::int64_t>(1, (bytes + kMaxMessageBytes - 1) / kMaxMessageBytes);
}

}  // namespace

void MpiTransport::send(int to, const void *data, std::int64_t bytes)
{
    PendingSends::Send &pending = pending_sends_->sends.emplace_back();
    pending.bytes.resize(std::size_t(bytes));
    if (bytes > 0)
        std::memcpy(pending.bytes.data(), data, std::size_t(bytes));
    const std::int64_t messages = messageCount(bytes);
    pending.requests.assign(std::size_t(messages), MPI_REQUEST_NULL);
    for (std::int64_t message = 0; message < messages; ++message) {
        const std::int64_t offset = message * kMaxMessageBytes;
        const std::int64_t part = std::min(kMaxMessageBytes, bytes - offset);
        check(MPI_Isend(pending.bytes.data() + offset, int(part), MPI_BYTE, to, kPointToPointTag, pending_sends_->comm,
                        &pending.requests[std::size_t(message)]),
              "MPI_Isend");
    }
}

void MpiTransport::recv(int from, void *data, std::int64_t bytes)
{
    auto *cursor = static_cast<char *>(data);
    const std::int64_t messages = messageCount(bytes);
    for (std::int64_t message = 0; message < messages; ++message) {
        const std::int64_t part = std::min(kMaxMessageBytes, bytes - message * kMaxMessageBytes);
        MPI_Status status;
        check(MPI_Recv(cursor, int(part), MPI_BYTE, from, kPointToPointTag, pending_sends_->comm, &status), "MPI_Recv");
        int received = 0;
        MPI_Get_count(&status, MPI_BYTE, &received);
        if (received != part)
            throw std::runtime_error("MPI: rank " + std::to_string(rank_) + " expected " + std::to_string(part)
                                     + " bytes from rank " + std::to_string(from) + ", got " + std::to_string(received)
                                     + " (ranks ran different pipeline schedules)");
        if (cursor)
            cursor += part;
    }
    progressSends();
}

bool MpiTransport::progressSends()
{
    auto &sends = pending_sends_->sends;
    for (auto it = sends.begin(); it != sends.end();) {
        int complete = 0;
        check(MPI_Testall(int(it->requests.size()), it->requests.data(), &complete, MPI_STATUSES_IGNORE), "MPI_Testall");
        it = complete ? sends.erase(it) : std::next(it);
    }
    return !sends.empty();
}

void MpiTransport::finishSends()
{
    auto &sends = pending_sends_->sends;
    while (!sends.empty()) {
        std::vector<MPI_Request> requests = std::move(sends.front().requests);
        const int status = MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
        sends.pop_front();
        check(status, "MPI_Waitall");
    }
}

}  // namespace lse::distributed
