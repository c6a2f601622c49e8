// SPDX-License-Identifier: GPL-3.0-or-later
#include "distributed/thread_group.h"

#include "distributed/thread_transport.h"
#include "distributed/transport_communicator.h"

#include <exception>
#include <mutex>
#include <thread>

namespace lse::distributed {

namespace {

std::vector<std::unique_ptr<Communicator>> communicatorsOver(const std::shared_ptr<ThreadMailboxes> &mailboxes)
{
    std::vector<std::unique_ptr<Communicator>> communicators;
    for (int rank = 0; rank < mailboxes->size(); ++rank)
        communicators.push_back(
            std::make_unique<TransportCommunicator>(std::make_unique<ThreadTransport>(mailboxes, rank)));
    return communicators;
}

}  // namespace

std::vector<std::unique_ptr<Communicator>> makeThreadCommunicators(int ranks)
{
    return communicatorsOver(std::make_shared<ThreadMailboxes>(ranks));
}

ThreadGroup::ThreadGroup(int ranks)
    : mailboxes_(std::make_shared<ThreadMailboxes>(ranks))
    , communicators_(communicatorsOver(mailboxes_))
{
}

ThreadGroup::~ThreadGroup() = default;

void ThreadGroup::run(const std::function<void(Communicator &)> &rankMain)
{
    std::mutex error_mutex;
    std::exception_ptr first_error;
    std::vector<std::thread> threads;
    threads.reserve(communicators_.size());
    for (auto &communicator : communicators_) {
        threads.emplace_back([&, rank_communicator = communicator.get()] {
            try {
                rankMain(*rank_communicator);
            } catch (...) {
                {
                    std::lock_guard lock(error_mutex);
                    if (!first_error)
                        first_error = std::current_exception();
                }
                mailboxes_->abort();
            }
        });
    }
    for (auto &thread : threads)
        thread.join();
    if (first_error)
        std::rethrow_exception(first_error);
}

}  // namespace lse::distributed

