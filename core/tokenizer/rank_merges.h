// SPDX-License-Identifier: GPL-3.0-or-later
// Merge recovery for rank vocabularies (tiktoken .tiktoken files hold "token bytes → rank" and no
// merges). For each multi-byte token, in rank order, rank-BPE restricted to lower ranks is run on
// the token's own bytes (repeatedly merge the adjacent pair whose concatenation has the lowest rank
// below the token's, leftmost first among equal ranks) until two parts remain; those two parts are
// the token's merge. This is the definition Hugging Face's TikTokenConverter and minbpe use; for a
// BPE-trained rank file (r50k/"gpt2", cl100k, o200k) it reproduces the original merges.
//
// Cost: near-linear in the token's length L (O(L log L) with O(1) expected look-ups): candidate
// pairs sit in a min-heap keyed by (rank, position) over a linked list of parts, and a pair's
// concatenation is looked up by a rolling hash of the token's prefixes, so neither the pairs nor
// their bytes are rescanned after each merge. Every hash match is confirmed byte by byte, so the
// result is exact; the hash base is drawn per call, so a file cannot be made to collide on purpose.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace lse {

// Work done by mergesFromRanks, counted so that tests can bound its growth without timing it.
struct MergeRecoveryWork {
    std::size_t pairLookups = 0;    // adjacent-pair vocabulary look-ups
    std::size_t bytesCompared = 0;  // bytes compared to confirm hash matches
};

// Recovers the merge list of a rank vocabulary (tokens[rank] = bytes), in rank order, one merge per
// multi-byte token that rank-BPE reduces to two parts. unreachable (optional) receives the number
// of multi-byte tokens without a merge (BPE never produces them); work (optional) the effort spent.
std::vector<std::pair<std::string, std::string>> mergesFromRanks(const std::vector<std::string> &tokens,
                                                                 std::size_t *unreachable = nullptr,
                                                                 MergeRecoveryWork *work = nullptr);

}  // namespace lse
