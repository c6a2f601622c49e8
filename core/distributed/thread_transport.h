// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "distributed/transport.h"

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

namespace lse::distributed {

// Mailboxes shared by the ranks of one process: a FIFO of messages per (sender, receiver) pair.
// Sends are buffered (copied out at once), so a ring step never waits for its partner to post
// the matching receive and cannot deadlock.
class ThreadMailboxes {
public:
    explicit ThreadMailboxes(int ranks);
    int size() const { return ranks_; }
    // Channel 0 carries the collectives' sendRecv, channel 1 the point-to-point send/recv: one FIFO
    // per (channel, sender, receiver).
    static constexpr int kChannels = 2;
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
        return queues_[std::size_t((channel * ranks_ + from) * ranks_ + to)];
    }

    int ranks_;
    std::mutex mutex_;
    std::condition_variable arrived_;
    std::vector<std::deque<std::vector<std::byte>>> queues_;
    bool aborted_ = false;
};

// One rank's view of the shared mailboxes.
class ThreadTransport : public Transport {
public:
    ThreadTransport(std::shared_ptr<ThreadMailboxes> mailboxes, int rank);
    int rank() const override { return rank_; }
    int size() const override { return mailboxes_->size(); }
    void sendRecv(int to, const void *send, std::int64_t send_bytes, int from, void *recv,
                  std::int64_t recv_bytes) override;
    void send(int to, const void *data, std::int64_t bytes) override;
    void recv(int from, void *data, std::int64_t bytes) override;

private:
    std::shared_ptr<ThreadMailboxes> mailboxes_;
    int rank_;
};

}  // namespace lse::distributed
