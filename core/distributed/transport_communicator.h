// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "distributed/communicator.h"
#include "distributed/transport.h"

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace lse::distributed {

namespace detail {
struct PendingCollective;
}

// A Communicator over any Transport. Every collective, blocking ones too, runs on one
// communication thread of its own in start order, so all ranks issue their transfers in the same
// order and only that thread touches the transport (what MPI_THREAD_SERIALIZED allows).
// A blocking collective is start + wait: its whole duration counts as waited (exposed).
class TransportCommunicator : public Communicator {
public:
    // split_path: this group's name among every split of the world ("" for the world itself).
    explicit TransportCommunicator(std::unique_ptr<Transport> transport, std::string split_path = {});
    ~TransportCommunicator() override;  // finishes every started collective first
    TransportCommunicator(const TransportCommunicator &) = delete;
    TransportCommunicator &operator=(const TransportCommunicator &) = delete;

    int rank() const override { return rank_; }
    int size() const override { return size_; }

    void allReduceSum(float *data, std::int64_t count) override;
    void allReduceMax(float *data, std::int64_t count) override;
    void reduceScatterSum(float *data, std::int64_t count) override;
    void allGather(float *data, std::int64_t count) override;
    void broadcast(float *data, std::int64_t count, int root) override;
    void barrier() override;
    void send(const float *data, std::int64_t count, int to) override;
    void recv(float *data, std::int64_t count, int from) override;

    std::unique_ptr<CollectiveHandle> startAllReduceSum(float *data, std::int64_t count) override;
    std::unique_ptr<CollectiveHandle> startReduceScatterSum(float *data, std::int64_t count) override;
    std::unique_ptr<CollectiveHandle> startAllGather(float *data, std::int64_t count) override;

    // Waits until every started collective has completed (without counting that as waited),
    // then returns their records in start order.
    std::vector<CollectiveRecord> takeRecords() override;

    // Agrees on the groups with one all-gather of every rank's (color, key) on this group's thread,
    // then has the transport open the sub-group (MPI_Comm_split over MPI). Neither is recorded.
    std::unique_ptr<Communicator> split(int color, int key) override;

private:
    using Work = std::function<std::int64_t(Transport &)>;  // runs the collective, returns bytes sent
    std::unique_ptr<CollectiveHandle> start(Collective collective, std::int64_t elements, Work work, bool caller_blocks,
                                            int peer = -1, bool recorded = true);
    void checkPeer(const char *what, int peer) const;
    // All-reduce, reduce-scatter or all-gather of `data` (the collectives over a whole buffer).
    std::unique_ptr<CollectiveHandle> startBufferCollective(Collective collective, float *data, std::int64_t count, bool caller_blocks);
    void runQueue();

    std::unique_ptr<Transport> transport_;
    int rank_;
    int size_;
    std::mutex mutex_;
    std::condition_variable queued_;
    std::deque<std::shared_ptr<detail::PendingCollective>> queue_;
    std::vector<std::shared_ptr<detail::PendingCollective>> started_;  // since the last takeRecords()
    bool stopping_ = false;
    std::string split_path_;
    int splits_ = 0;  // splits of this group so far: names the next one
    bool sends_pending_ = false;  // the transport holds buffered sends not yet complete (thread_ only)
    std::thread thread_;
};

}  // namespace lse::distributed
