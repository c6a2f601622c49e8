// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "distributed/communicator.h"

#include <functional>
#include <memory>
#include <vector>

namespace lse::distributed {

class ThreadMailboxes;

// n ranks inside this process over shared in-memory mailboxes: for tests and for machines
// without MPI. Each communicator must be used from its own std::thread (one caller per rank, as
// one process per rank under MPI).
std::vector<std::unique_ptr<Communicator>> makeThreadCommunicators(int ranks);

// The ranks of makeThreadCommunicators together with the threads that drive them.
class ThreadGroup {
public:
    explicit ThreadGroup(int ranks);
    ~ThreadGroup();
    int size() const { return int(communicators_.size()); }
    Communicator &communicator(int rank) { return *communicators_.at(std::size_t(rank)); }

    // Runs rankMain(communicator) on one std::thread per rank and returns when all have returned.
    // When one rank throws, the others' pending receives fail too (instead of waiting forever)
    // and the first exception is rethrown here.
    void run(const std::function<void(Communicator &)> &rankMain);

private:
    std::shared_ptr<ThreadMailboxes> mailboxes_;
    std::vector<std::unique_ptr<Communicator>> communicators_;
};

}  // namespace lse::distributed
