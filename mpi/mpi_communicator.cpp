// SPDX-License-Identifier: GPL-3.0-or-later
#include "mpi_communicator.h"

#include "distributed/transport_communicator.h"
#include "mpi_transport.h"

namespace lse::distributed {

std::unique_ptr<Communicator> makeMpiCommunicator()
{
    // The transport is destroyed (MPI finalised) only after the communication thread has joined.
    return std::make_unique<TransportCommunicator>(std::make_unique<MpiTransport>());
}

}  // namespace lse::distributed
