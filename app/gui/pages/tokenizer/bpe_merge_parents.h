// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace lse::gui {

// merged bytes → (left, right): the first merge that formed each token (for tooltips), and in
// `rank` the index of that merge.
inline std::map<std::string, std::pair<std::string, std::string>> bpeMergeParents(
    const std::vector<std::pair<std::string, std::string>> &merges, std::map<std::string, std::size_t> &rank)
{
    std::map<std::string, std::pair<std::string, std::string>> parents;
    rank.clear();
    for (std::size_t i = 0; i < merges.size(); ++i) {
        const std::string merged = merges[i].first + merges[i].second;
        if (parents.emplace(merged, merges[i]).second)
            rank.emplace(merged, i);
    }
    return parents;
}

}  // namespace lse::gui
