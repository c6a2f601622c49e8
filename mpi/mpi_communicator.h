// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "distributed/communicator.h"

#include <memory>

namespace lse::distributed {

// This process's rank of MPI_COMM_WORLD as a Communicator (ring collectives over MpiTransport on
// the communicator's own thread). Initialises MPI if needed; finalises it when destroyed. One per
// process.
std::unique_ptr<Communicator> makeMpiCommunicator();

}  // namespace lse::distributed
