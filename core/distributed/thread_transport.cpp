// SPDX-License-Identifier: GPL-3.0-or-later
#include "distributed/thread_transport.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace lse::distributed {

ThreadMailboxes::ThreadMailboxes(int ranks)
    : ranks_(ranks)
{
    if (ranks < 1)
        throw std::invalid_argument("thread communicator: ranks must be >= 1, got " + std::to_string(ranks));
}

int ThreadMailboxes::channelsFor(const std::string &split_path)
{
    std::lock_guard lock(mutex_);
    const int next = kChannels + 2 * int(split_channels_.size());
    return split_channels_.try_emplace(split_path, next).first->second;
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

namespace {

std::vector<int> identity(int ranks)
{
    std::vector<int> world(std::size_t(std::max(ranks, 0)));
    for (int rank = 0; rank < ranks; ++rank)
        world[std::size_t(rank)] = rank;
    return world;
}

}  // namespace

ThreadTransport::ThreadTransport(std::shared_ptr<ThreadMailboxes> mailboxes, int rank)
    : ThreadTransport(mailboxes, rank, identity(mailboxes->size()), 0)
{
}

ThreadTransport::ThreadTransport(std::shared_ptr<ThreadMailboxes> mailboxes, int rank, std::vector<int> world_ranks,
                                 int channel)
    : mailboxes_(std::move(mailboxes))
    , rank_(rank)
    , world_ranks_(std::move(world_ranks))
    , channel_(channel)
{
}

void ThreadTransport::sendRecv(int to, const void *send, std::int64_t send_bytes, int from, void *recv,
                               std::int64_t recv_bytes)
{
    const int self = world_ranks_[std::size_t(rank_)];
    if (to != kNoPeer)
        mailboxes_->send(self, world_ranks_.at(std::size_t(to)), send, send_bytes, channel_);
    if (from != kNoPeer)
        mailboxes_->receive(world_ranks_.at(std::size_t(from)), self, recv, recv_bytes, channel_);
}

void ThreadTransport::send(int to, const void *data, std::int64_t bytes)
{
    mailboxes_->send(world_ranks_[std::size_t(rank_)], world_ranks_.at(std::size_t(to)), data, bytes, channel_ + 1);
}

void ThreadTransport::recv(int from, void *data, std::int64_t bytes)
{
    mailboxes_->receive(world_ranks_.at(std::size_t(from)), world_ranks_[std::size_t(rank_)], data, bytes, channel_ + 1);
}

std::unique_ptr<Transport> ThreadTransport::split(int /*color*/, int /*key*/, const std::vector<int> &members,
                                                  const std::string &split_path)
{
    std::vector<int> world;
    int new_rank = -1;
    for (std::size_t i = 0; i < members.size(); ++i) {
        world.push_back(world_ranks_.at(std::size_t(members[i])));
        if (members[i] == rank_)
            new_rank = int(i);
    }
    if (new_rank < 0)
        throw std::logic_error("thread communicator split: rank " + std::to_string(rank_) + " is not among its group's members");
    // Groups of one split are disjoint, so they can share the split's channels.
    return std::unique_ptr<Transport>(
        new ThreadTransport(mailboxes_, new_rank, std::move(world), mailboxes_->channelsFor(split_path)));
}

}  // namespace lse::distributed
