// SPDX-License-Identifier: GPL-3.0-or-later
// Every rank's text on every rank, through the collectives a Communicator offers (it moves floats
// only): the lengths by an all-reduce, then the bytes, one per float, by an all-gather of equal
// slots. For the few kilobytes to megabytes a data-parallel run's trace holds per rank (issue 31),
// not for bulk data. The traffic is taken from the communicator's records, so no step counts it.
#pragma once

#include "distributed/communicator.h"

#include <string>
#include <vector>

namespace lse::distributed {

// Every rank calls it; each receives the texts of ranks 0..n-1 in rank order.
std::vector<std::string> allGatherText(Communicator &communicator, const std::string &text);

}  // namespace lse::distributed
