// SPDX-License-Identifier: GPL-3.0-or-later
// The MPI world of a distributed `train` run (--dp, --tp, --pp), checked against the ranks the
// flag asks for, so every parallelism reports a missing MPI or a wrong `mpirun -np` the same way.
#pragma once

#include "distributed/communicator.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace lse::cli {

// The world communicator when this build has MPI and mpirun started exactly `ranks` processes.
// Otherwise nullptr and *exit_status set: the problem is reported (on rank 0 only for a
// mismatch, since every rank sees it) naming `flag` ("--dp") and the mpirun command to use.
// `mismatch_note` is appended to the mismatch message (e.g. what the flag cannot combine with yet).
std::unique_ptr<distributed::Communicator> mpiWorldFor(const std::string &flag, int ranks, int *exit_status,
                                                       const std::string &mismatch_note = {});

// A combined layout (--dp D --tp T, --dp D --pp P): mpirun must start the product of the degrees.
// The problem names the first flag, lists the others as related and states the rule
// ("--dp 2 --tp 2: dp·tp = 4 must equal the mpirun ranks").
std::unique_ptr<distributed::Communicator> mpiWorldForLayout(const std::vector<std::pair<std::string, int>> &degrees,
                                                             int *exit_status);

}  // namespace lse::cli
