// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "distributed/transport.h"

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace lse::distributed {

// Mailboxes shared by the ranks of one process: a FIFO of messages per (sender, receiver) pair.
// Sends are buffered (copied out at once), so a ring step never waits for its partner to post
// the matching receive and cannot deadlock.
class ThreadMailboxes {
public:
    explicit ThreadMailboxes(int ranks);
    int size() const { return ranks_; }
    // Channel 0 carries the world's collectives' sendRecv, channel 1 its point-to-point send/recv;
    // every sub-group (Communicator::split) gets two channels of its own (channelsFor): one FIFO per
    // (channel, sender, receiver), senders and receivers numbered as in the world.
    static constexpr int kChannels = 2;
    // The first of two channels of the split named `split_path`: the same on every rank asking.
    int channelsFor(const std::string &split_path);
    void send(int from, int to, const void *data, std::int64_t bytes, int channel = 0);
    // Blocks until the next message from `from` to `to` arrives; throws std::runtime_error when
    // its length is not `bytes` or the group was aborted.
    void receive(int from, int to, void *data, std::int64_t bytes, int channel = 0);
    // Wakes every blocked receive with an error: one rank failed, so the others must not wait
    // for messages that will never come.
    void abort();

private:
    std::deque<std::vector<std::byte>> &queue(int from, int to, int channel)
    {
        return queues_[std::make_tuple(channel, from, to)];
    }

    int ranks_;
    std::mutex mutex_;
    std::condition_variable arrived_;
    std::map<std::tuple<int, int, int>, std::deque<std::vector<std::byte>>> queues_;  // guarded by mutex_
    std::map<std::string, int> split_channels_;                                      // guarded by mutex_
    bool aborted_ = false;
};

// One rank's view of the shared mailboxes: of the whole world, or (split) of one sub-group whose
// rank r is world rank members[r], on the sub-group's own channels.
class ThreadTransport : public Transport {
public:
    ThreadTransport(std::shared_ptr<ThreadMailboxes> mailboxes, int rank);
    int rank() const override { return rank_; }
    int size() const override { return int(world_ranks_.size()); }
    void sendRecv(int to, const void *send, std::int64_t send_bytes, int from, void *recv,
                  std::int64_t recv_bytes) override;
    void send(int to, const void *data, std::int64_t bytes) override;
    void recv(int from, void *data, std::int64_t bytes) override;
    std::unique_ptr<Transport> split(int color, int key, const std::vector<int> &members,
                                     const std::string &split_path) override;

private:
    ThreadTransport(std::shared_ptr<ThreadMailboxes> mailboxes, int rank, std::vector<int> world_ranks, int channel);
    std::shared_ptr<ThreadMailboxes> mailboxes_;
    int rank_;
    std::vector<int> world_ranks_;  // this group's rank -> world rank
    int channel_ = 0;               // sendRecv's channel; send/recv use channel_ + 1
};

}  // namespace lse::distributed
