// SPDX-License-Identifier: GPL-3.0-or-later
#include "distributed/thread_transport.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace lse::distributed {

ThreadMailboxes::ThreadMailboxes(int ranks)
    : ranks_(ranks)
{
    if (ranks < 1)
        throw std::invalid_argument("thread communicator: ranks must be >= 1, got " + std::to_string(ranks));
    queues_.resize(std::size_t(kChannels) * std::size_t(ranks) * std::size_t(ranks));
}

void ThreadMailboxes::send(int from, int to, const void *data, std::int64_t bytes, int channel)
{
    std::vector<std::byte> message(static_cast<std::size_t>(bytes));
    if (bytes > 0)
        std::memcpy(message.data(), data, std::size_t(bytes));
    {
        std::lock_guard lock(mutex_);
        queue(from, to, channel).push_back(std::move(message));
    }
    arrived_.notify_all();
}

void ThreadMailboxes::receive(int from, int to, void *data, std::int64_t bytes, int channel)
{
    std::vector<std::byte> message;
    {
        std::unique_lock lock(mutex_);
        auto &messages = queue(from, to, channel);
        arrived_.wait(lock, [&] { return aborted_ || !messages.empty(); });
        if (aborted_)
            throw std::runtime_error("thread communicator: another rank failed, rank " + std::to_string(to)
                                     + " stops waiting for rank " + std::to_string(from));
        message = std::move(messages.front());
        messages.pop_front();
    }
    if (std::int64_t(message.size()) != bytes)
        throw std::runtime_error("thread communicator: rank " + std::to_string(to) + " expected "
                                 + std::to_string(bytes) + " bytes from rank " + std::to_string(from) + ", got "
                                 + std::to_string(message.size()) + " (ranks ran different collectives)");
    if (bytes > 0)
        std::memcpy(data, message.data(), std::size_t(bytes));
}

void ThreadMailboxes::abort()
{
    {
        std::lock_guard lock(mutex_);
        aborted_ = true;
    }
    arrived_.notify_all();
}

ThreadTransport::ThreadTransport(std::shared_ptr<ThreadMailboxes> mailboxes, int rank)
    : mailboxes_(std::move(mailboxes))
    , rank_(rank)
{
}

void ThreadTransport::sendRecv(int to, const void *send, std::int64_t send_bytes, int from, void *recv,
                               std::int64_t recv_bytes)
{
    if (to != kNoPeer)
        mailboxes_->send(rank_, to, send, send_bytes);
    if (from != kNoPeer)
        mailboxes_->receive(from, rank_, recv, recv_bytes);
}

void ThreadTransport::send(int to, const void *data, std::int64_t bytes)
{
    mailboxes_->send(rank_, to, data, bytes, 1);
}

void ThreadTransport::recv(int from, void *data, std::int64_t bytes)
{
    mailboxes_->receive(from, rank_, data, bytes, 1);
}

}  // namespace lse::distributed
