// SPDX-License-Identifier: GPL-3.0-or-later
#include "distributed/text_gather.h"

#include <algorithm>
#include <cmath>

namespace lse::distributed {

namespace {
// A length as two floats below 2^20 each: floats hold integers exactly up to 2^24, so the sum over
// up to 16 ranks of each part stays exact, and lengths up to 2^40 bytes fit.
constexpr double kPart = double(1 << 20);
}  // namespace

std::vector<std::string> allGatherText(Communicator &communicator, const std::string &text)
{
    const int ranks = communicator.size();
    const int rank = communicator.rank();
    // Each rank fills only its own pair, so the sum is every rank's length.
    std::vector<float> lengths(std::size_t(2 * ranks), 0.0f);
    const double length = double(text.size());
    lengths[std::size_t(2 * rank)] = float(std::floor(length / kPart));
    lengths[std::size_t(2 * rank + 1)] = float(length - std::floor(length / kPart) * kPart);
    communicator.allReduceSum(lengths.data(), std::int64_t(lengths.size()));
    std::vector<std::size_t> sizes(static_cast<std::size_t>(ranks));
    std::size_t slot = 1;  // a slot of at least one element, so every shard has one
    for (int r = 0; r < ranks; ++r) {
        sizes[std::size_t(r)] = std::size_t(double(lengths[std::size_t(2 * r)]) * kPart + double(lengths[std::size_t(2 * r + 1)]));
        slot = std::max(slot, sizes[std::size_t(r)]);
    }
    // Equal slots: shardRange(slot·n, n, r) is exactly rank r's slot.
    std::vector<float> bytes(slot * std::size_t(ranks), 0.0f);
    float *own = bytes.data() + slot * std::size_t(rank);
    for (std::size_t i = 0; i < text.size(); ++i)
        own[i] = float(static_cast<unsigned char>(text[i]));
    communicator.allGather(bytes.data(), std::int64_t(bytes.size()));
    communicator.takeRecords();  // not a training step's communication
    std::vector<std::string> texts(static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r) {
        std::string &out = texts[std::size_t(r)];
        out.resize(sizes[std::size_t(r)]);
        const float *from = bytes.data() + slot * std::size_t(r);
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = char(static_cast<unsigned char>(from[i]));
    }
    return texts;
}

}  // namespace lse::distributed
