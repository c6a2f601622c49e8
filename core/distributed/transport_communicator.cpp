// SPDX-License-Identifier: GPL-3.0-or-later
#include "distributed/transport_communicator.h"

#include "distributed/ring_collectives.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <stdexcept>
#include <string>

namespace lse::distributed {

namespace detail {

// One started collective, shared by the queue, the caller's handle and the record list.
struct PendingCollective {
    using Clock = std::chrono::steady_clock;
    std::function<std::int64_t(Transport &)> work;
    Clock::time_point started_at = Clock::now();
    Clock::time_point completed_at;  // guarded by mutex
    // A blocking collective: the caller waits from start to completion, all of it exposed.
    bool caller_blocks = false;
    std::mutex mutex;
    std::condition_variable finished;
    bool done = false;
    std::exception_ptr error;
    CollectiveRecord record;  // guarded by mutex

    void waitDone()
    {
        std::unique_lock lock(mutex);
        finished.wait(lock, [&] { return done; });
    }
};

}  // namespace detail

namespace {

using detail::PendingCollective;

double secondsBetween(PendingCollective::Clock::time_point from, PendingCollective::Clock::time_point to)
{
    return std::chrono::duration<double>(to - from).count();
}

class TransportHandle : public CollectiveHandle {
public:
    explicit TransportHandle(std::shared_ptr<PendingCollective> pending)
        : pending_(std::move(pending))
    {
    }
    ~TransportHandle() override
    {
        // The buffer must outlive the transfer even when the caller forgot to wait.
        if (!waited_)
            pending_->waitDone();
    }

    void wait() override
    {
        if (waited_)
            return;
        waited_ = true;
        // Blocked from here until the communication thread completed the collective (already
        // complete: nothing exposed). Ending at completion, not at this thread's wake-up, keeps
        // waited_seconds <= seconds.
        const auto blocked_from = PendingCollective::Clock::now();
        pending_->waitDone();
        std::lock_guard lock(pending_->mutex);
        if (!pending_->caller_blocks && pending_->completed_at > blocked_from)
            pending_->record.waited_seconds += secondsBetween(blocked_from, pending_->completed_at);
        if (pending_->error)
            std::rethrow_exception(pending_->error);
    }

    bool done() const override
    {
        std::lock_guard lock(pending_->mutex);
        return pending_->done;
    }

private:
    std::shared_ptr<PendingCollective> pending_;
    bool waited_ = false;
};

void checkBuffer(const char *what, const float *data, std::int64_t count)
{
    if (count < 0)
        throw std::invalid_argument(std::string(what) + ": count must be >= 0, got " + std::to_string(count));
    if (count > 0 && data == nullptr)
        throw std::invalid_argument(std::string(what) + ": data must not be null when count > 0");
}

}  // namespace

TransportCommunicator::TransportCommunicator(std::unique_ptr<Transport> transport, std::string split_path)
    : transport_(std::move(transport))
    , rank_(transport_->rank())
    , size_(transport_->size())
    , split_path_(std::move(split_path))
    , thread_([this] { runQueue(); })
{
}

TransportCommunicator::~TransportCommunicator()
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    queued_.notify_all();
    thread_.join();
}

void TransportCommunicator::runQueue()
{
    for (;;) {
        std::shared_ptr<PendingCollective> pending;
        {
            std::unique_lock lock(mutex_);
            const auto ready = [&] { return stopping_ || !queue_.empty(); };
            // Buffered point-to-point sends still in flight: poll them while idle, so a peer
            // waiting for their bytes is not starved of this rank's progress (MPI moves a message
            // above its eager limit only inside MPI calls on both ends, fragment by fragment). Every
            // 20 µs: polling each 1 ms stretched a 2-stage step of 8 KiB messages from 2.4 to 6 ms
            // (measured, train --pp 2 on 2 cores); the polling stops once the sends are complete.
            while (!ready() && sends_pending_) {
                lock.unlock();
                sends_pending_ = transport_->progressSends();
                lock.lock();
                if (!ready())
                    queued_.wait_for(lock, std::chrono::microseconds(20));
            }
            queued_.wait(lock, ready);
            if (queue_.empty()) {
                lock.unlock();
                transport_->finishSends();
                return;  // stopping, and everything started has run
            }
            pending = queue_.front();
            queue_.pop_front();
        }
        std::int64_t bytes_sent = 0;
        std::exception_ptr error;
        const auto ran_from = PendingCollective::Clock::now();
        try {
            bytes_sent = pending->work(*transport_);
        } catch (...) {
            error = std::current_exception();
        }
        const auto completed_at = PendingCollective::Clock::now();
        const double seconds = secondsBetween(pending->started_at, completed_at);
        {
            std::lock_guard lock(pending->mutex);
            pending->completed_at = completed_at;
            pending->record.bytes_sent = bytes_sent;
            pending->record.seconds = seconds;
            pending->record.ran_from = ran_from;
            pending->record.ran_to = completed_at;
            if (pending->caller_blocks)
                pending->record.waited_seconds = seconds;
            pending->error = error;
            pending->work = nullptr;
            pending->done = true;
        }
        pending->finished.notify_all();
        sends_pending_ = transport_->progressSends();
    }
}

std::unique_ptr<CollectiveHandle> TransportCommunicator::start(Collective collective, std::int64_t elements, Work work,
                                                                bool caller_blocks, int peer, bool recorded)
{
    auto pending = std::make_shared<PendingCollective>();
    pending->caller_blocks = caller_blocks;
    pending->work = std::move(work);
    pending->record.collective = collective;
    pending->record.elements = elements;
    pending->record.peer = peer;
    if (collective == Collective::Recv)
        pending->record.bytes_received = elements * std::int64_t(sizeof(float));
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(pending);
        if (recorded)
            started_.push_back(pending);
    }
    queued_.notify_all();
    return std::make_unique<TransportHandle>(std::move(pending));
}

std::unique_ptr<CollectiveHandle> TransportCommunicator::startBufferCollective(Collective collective, float *data,
                                                                   std::int64_t count, bool caller_blocks)
{
    checkBuffer(toString(collective).data(), data, count);
    Work work;
    switch (collective) {
    case Collective::AllReduce:
        work = [data, count](Transport &transport) { return ringAllReduceSum(transport, data, count); };
        break;
    case Collective::ReduceScatter:
        work = [data, count](Transport &transport) { return ringReduceScatterSum(transport, data, count); };
        break;
    case Collective::AllGather:
        work = [data, count](Transport &transport) { return ringAllGather(transport, data, count); };
        break;
    case Collective::Broadcast:
    case Collective::Barrier:
    case Collective::Send:
    case Collective::Recv:
        throw std::logic_error("startBufferCollective: broadcast and barrier have their own entry points");
    }
    return start(collective, count, std::move(work), caller_blocks);
}

std::unique_ptr<CollectiveHandle> TransportCommunicator::startAllReduceSum(float *data, std::int64_t count)
{
    return startBufferCollective(Collective::AllReduce, data, count, false);
}

std::unique_ptr<CollectiveHandle> TransportCommunicator::startReduceScatterSum(float *data, std::int64_t count)
{
    return startBufferCollective(Collective::ReduceScatter, data, count, false);
}

std::unique_ptr<CollectiveHandle> TransportCommunicator::startAllGather(float *data, std::int64_t count)
{
    return startBufferCollective(Collective::AllGather, data, count, false);
}

void TransportCommunicator::allReduceSum(float *data, std::int64_t count)
{
    startBufferCollective(Collective::AllReduce, data, count, true)->wait();
}

void TransportCommunicator::allReduceMax(float *data, std::int64_t count)
{
    checkBuffer("all_reduce max", data, count);
    start(Collective::AllReduce, count, [data, count](Transport &transport) {
        return ringAllReduceMax(transport, data, count);
    }, true)->wait();
}

void TransportCommunicator::reduceScatterSum(float *data, std::int64_t count)
{
    startBufferCollective(Collective::ReduceScatter, data, count, true)->wait();
}

void TransportCommunicator::allGather(float *data, std::int64_t count)
{
    startBufferCollective(Collective::AllGather, data, count, true)->wait();
}

void TransportCommunicator::broadcast(float *data, std::int64_t count, int root)
{
    checkBuffer("broadcast", data, count);
    if (root < 0 || root >= size_)
        throw std::invalid_argument("broadcast: root must be in [0, " + std::to_string(size_) + "), got "
                                    + std::to_string(root));
    start(Collective::Broadcast, count, [data, count, root](Transport &transport) {
        return ringBroadcast(transport, data, count, root);
    }, true)->wait();
}

void TransportCommunicator::barrier()
{
    start(Collective::Barrier, 0, [](Transport &transport) { return ringBarrier(transport); }, true)->wait();
}

void TransportCommunicator::checkPeer(const char *what, int peer) const
{
    if (peer < 0 || peer >= size_ || peer == rank_)
        throw std::invalid_argument(std::string(what) + ": the peer must be another rank in [0, " + std::to_string(size_)
                                    + "), got " + std::to_string(peer) + " on rank " + std::to_string(rank_));
}

void TransportCommunicator::send(const float *data, std::int64_t count, int to)
{
    checkBuffer("send", data, count);
    checkPeer("send", to);
    // The transport copies the message out before the work returns (a buffered send), so the
    // caller may reuse `data` as soon as wait() returns.
    start(Collective::Send, count, [data, count, to](Transport &transport) {
        const std::int64_t bytes = count * std::int64_t(sizeof(float));
        transport.send(to, data, bytes);
        return bytes;
    }, true, to)->wait();
}

void TransportCommunicator::recv(float *data, std::int64_t count, int from)
{
    checkBuffer("recv", data, count);
    checkPeer("recv", from);
    start(Collective::Recv, count, [data, count, from](Transport &transport) {
        transport.recv(from, data, count * std::int64_t(sizeof(float)));
        return std::int64_t(0);
    }, true, from)->wait();
}

std::unique_ptr<Communicator> TransportCommunicator::split(int color, int key)
{
    if (color < 0)
        throw std::invalid_argument("split: color must be >= 0, got " + std::to_string(color));
    // Every rank's (color, key), as floats: exact for the small integers ranks and colors are.
    std::vector<float> colors_keys(std::size_t(2 * size_), 0.0f);
    colors_keys[std::size_t(2 * rank_)] = float(color);
    colors_keys[std::size_t(2 * rank_ + 1)] = float(key);
    float *buffer = colors_keys.data();
    const std::int64_t count = std::int64_t(colors_keys.size());
    start(Collective::AllGather, count, [buffer, count](Transport &transport) {
        return ringAllGather(transport, buffer, count);
    }, true, -1, false)->wait();
    std::vector<int> members;
    for (int rank = 0; rank < size_; ++rank)
        if (int(colors_keys[std::size_t(2 * rank)]) == color)
            members.push_back(rank);
    std::stable_sort(members.begin(), members.end(), [&](int a, int b) {
        return colors_keys[std::size_t(2 * a + 1)] < colors_keys[std::size_t(2 * b + 1)];
    });
    const std::string path = split_path_ + "/" + std::to_string(splits_++);
    std::unique_ptr<Transport> sub;
    start(Collective::Barrier, 0, [&](Transport &transport) {
        sub = transport.split(color, key, members, path);
        return std::int64_t(0);
    }, true, -1, false)->wait();
    return std::make_unique<TransportCommunicator>(std::move(sub), path);
}

std::vector<CollectiveRecord> TransportCommunicator::takeRecords()
{
    std::vector<std::shared_ptr<PendingCollective>> started;
    {
        std::lock_guard lock(mutex_);
        started.swap(started_);
    }
    std::vector<CollectiveRecord> records;
    records.reserve(started.size());
    for (const auto &pending : started) {
        pending->waitDone();
        std::lock_guard lock(pending->mutex);
        records.push_back(pending->record);
    }
    return records;
}

}  // namespace lse::distributed
