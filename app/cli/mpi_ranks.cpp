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

std::unique_ptr<distributed::Communicator> mpiWorldForLayout(const std::vector<std::pair<std::string, int>> &degrees,
                                                             int *exit_status)
{
    std::string asked, product_name;
    std::vector<std::string> related;
    int ranks = 1;
    for (const auto &[flag, degree] : degrees) {
        asked += (asked.empty() ? "" : " ") + flag + " " + std::to_string(degree);
        product_name += (product_name.empty() ? "" : "·") + flag.substr(2);
        ranks *= degree;
        if (&flag != &degrees.front().first)
            related.push_back(flag);
    }
    const std::string flag = degrees.front().first;
#ifndef LSE_WITH_MPI
    *exit_status = reportProblems(
        {Problem{flag, "unavailable", asked + ": this build has no MPI (install libopenmpi-dev openmpi-bin and rebuild)", related}});
    return nullptr;
#else
    std::unique_ptr<distributed::Communicator> communicator = distributed::makeMpiCommunicator();
    if (communicator->size() == ranks)
        return communicator;
    *exit_status = kExitBadInput;
    if (communicator->rank() == 0)
        *exit_status = reportProblems(
            {Problem{flag, "mismatch",
                     asked + ": " + product_name + " = " + std::to_string(ranks) + " must equal the mpirun ranks, but mpirun started "
                         + std::to_string(communicator->size()) + " process(es): run it as mpirun -np " + std::to_string(ranks)
                         + " llm-explorer-cli train ... " + asked,
                     related}});
    return nullptr;
#endif
}

}  // namespace lse::cli
