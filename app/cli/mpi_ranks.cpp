// SPDX-License-Identifier: GPL-3.0-or-later
#include "mpi_ranks.h"

#include "commands.h"
#include "output.h"

#ifdef LSE_WITH_MPI
#include "mpi_communicator.h"
#endif

namespace lse::cli {

std::unique_ptr<distributed::Communicator> mpiWorldFor(const std::string &flag, int ranks, int *exit_status,
                                                       const std::string &mismatch_note)
{
    const std::string asked = flag + " " + std::to_string(ranks);
#ifndef LSE_WITH_MPI
    (void)mismatch_note;
    *exit_status = reportProblems(
        {Problem{flag, "unavailable", asked + ": this build has no MPI (install libopenmpi-dev openmpi-bin and rebuild)"}});
    return nullptr;
#else
    std::unique_ptr<distributed::Communicator> communicator = distributed::makeMpiCommunicator();
    if (communicator->size() == ranks)
        return communicator;
    // Every rank sees the same mismatch; one message is enough.
    *exit_status = kExitBadInput;
    if (communicator->rank() == 0)
        *exit_status = reportProblems(
            {Problem{flag, "mismatch",
                     asked + " but mpirun started " + std::to_string(communicator->size()) + " process(es)" + mismatch_note
                         + ": run it as mpirun -np " + std::to_string(ranks) + " llm-explorer-cli train ... " + asked}});
    return nullptr;
#endif
}

}  // namespace lse::cli
