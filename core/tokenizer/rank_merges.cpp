// SPDX-License-Identifier: GPL-3.0-or-later
#include "tokenizer/rank_merges.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace lse {
namespace {

// Polynomial hashing modulo the Mersenne prime 2^61 - 1 (Karp–Rabin; the reduction is the usual
// one for Mersenne moduli): the hash of any substring follows from two prefix hashes in O(1).
constexpr std::uint64_t kModulus = (std::uint64_t(1) << 61) - 1;
__extension__ typedef unsigned __int128 Product;

std::uint64_t mulMod(std::uint64_t a, std::uint64_t b)
{
    const Product p = static_cast<Product>(a) * b;  // < 2^122
    const std::uint64_t r = static_cast<std::uint64_t>(p & kModulus) + static_cast<std::uint64_t>(p >> 61);
    return r >= kModulus ? r - kModulus : r;
}

std::uint64_t addMod(std::uint64_t a, std::uint64_t b)
{
    const std::uint64_t r = a + b;
    return r >= kModulus ? r - kModulus : r;
}

std::uint64_t subMod(std::uint64_t a, std::uint64_t b) { return a >= b ? a - b : a + kModulus - b; }

// A base drawn per call. Results never depend on it (every hash match is confirmed byte by byte),
// but a file cannot be crafted for a known base to make its tokens collide and slow look-ups down.
std::uint64_t drawBase()
{
    std::uint64_t x = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    x ^= static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(&x));
    // splitmix64's finaliser (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014)
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    return 256 + x % (kModulus - 257);  // in [256, kModulus - 2]: above every byte value
}

// Hashes of every prefix of one string, and the base's powers they need.
class PrefixHashes {
public:
    explicit PrefixHashes(std::uint64_t base) : base_(base) {}
    void assign(std::string_view text)
    {
        prefix_.resize(text.size() + 1);
        prefix_[0] = 0;
        for (std::size_t i = 0; i < text.size(); ++i)
            prefix_[i + 1] = addMod(mulMod(prefix_[i], base_), static_cast<unsigned char>(text[i]) + 1u);
        while (power_.size() <= text.size())
            power_.push_back(power_.empty() ? 1 : mulMod(power_.back(), base_));
    }
    // Hash of text[begin, end): equal to whole(text.substr(begin, end - begin)).
    std::uint64_t of(std::size_t begin, std::size_t end) const
    {
        return subMod(prefix_[end], mulMod(prefix_[begin], power_[end - begin]));
    }
    std::uint64_t whole() const { return prefix_.back(); }

private:
    std::uint64_t base_;
    std::vector<std::uint64_t> prefix_;
    std::vector<std::uint64_t> power_;
};

std::uint64_t keyOf(std::uint64_t hash, std::size_t length)
{
    return hash ^ (static_cast<std::uint64_t>(length) * 0x9E3779B97F4A7C15ull);  // length mixed in: fewer false matches
}

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

// Lowest rank of each token, found from a substring's hash: ranks sharing a key are chained in
// ascending order, and a candidate is confirmed by comparing bytes.
class RankIndex {
public:
    RankIndex(const std::vector<std::string> &tokens, std::uint64_t base, MergeRecoveryWork &work)
        : tokens_(tokens), work_(work)
    {
        headOfKey_.reserve(tokens.size());
        nextWithKey_.assign(tokens.size(), kNone);
        PrefixHashes hashes(base);
        for (std::size_t r = tokens.size(); r-- > 0;) {  // prepending in descending order leaves chains ascending
            hashes.assign(tokens[r]);
            const auto [it, fresh] = headOfKey_.try_emplace(keyOf(hashes.whole(), tokens[r].size()), std::uint32_t(r));
            if (!fresh) {
                nextWithKey_[r] = it->second;
                it->second = static_cast<std::uint32_t>(r);
            }
        }
    }

    // The lowest rank whose token is `text` (hashed as `hash`) if that rank is below `below`, else kNone.
    std::uint32_t find(std::string_view text, std::uint64_t hash, std::size_t below) const
    {
        ++work_.pairLookups;
        const auto it = headOfKey_.find(keyOf(hash, text.size()));
        if (it == headOfKey_.end())
            return kNone;
        for (std::uint32_t r = it->second; r != kNone && r < below; r = nextWithKey_[r]) {
            const std::string &candidate = tokens_[r];
            if (candidate.size() != text.size())
                continue;
            work_.bytesCompared += text.size();
            if (std::memcmp(candidate.data(), text.data(), text.size()) == 0)
                return r;
        }
        return kNone;  // no such token, or its lowest rank is not below `below`
    }

private:
    const std::vector<std::string> &tokens_;
    MergeRecoveryWork &work_;
    std::unordered_map<std::uint64_t, std::uint32_t> headOfKey_;
    std::vector<std::uint32_t> nextWithKey_;
};

// Rank-BPE on one token's bytes with ranks below its own, stopped at two parts. Parts are spans
// [start, next[start]) in a linked list indexed by start; candidates are (rank, left start, right
// end) in a min-heap, so popping merges in the order of the rescanning definition (lowest rank,
// then leftmost). An entry whose span no longer is two adjacent parts is stale and skipped.
class TokenSplitter {
public:
    TokenSplitter(const RankIndex &index, std::uint64_t base) : index_(index), hashes_(base) {}

    // Length of the left part of the token's merge, or nothing when BPE leaves more than two parts.
    std::optional<std::size_t> split(std::string_view token, std::size_t rank)
    {
        const auto n = static_cast<std::uint32_t>(token.size());
        token_ = token;
        rank_ = rank;
        hashes_.assign(token);
        next_.resize(n);
        prev_.resize(n);
        alive_.assign(n, true);
        for (std::uint32_t i = 0; i < n; ++i) {
            next_[i] = i + 1;
            prev_[i] = i == 0 ? kNone : i - 1;
        }
        heap_.clear();
        for (std::uint32_t i = 0; i + 1 < n; ++i)
            push(i);
        std::size_t parts = n;
        while (parts > 2 && !heap_.empty()) {
            std::pop_heap(heap_.begin(), heap_.end(), std::greater<>{});
            const Candidate c = heap_.back();
            heap_.pop_back();
            if (!alive_[c.left] || next_[c.left] >= n || next_[next_[c.left]] != c.end)
                continue;  // stale: one side was merged into something else
            const std::uint32_t right = next_[c.left];
            next_[c.left] = next_[right];
            if (next_[right] < n)
                prev_[next_[right]] = c.left;
            alive_[right] = false;
            --parts;
            if (parts == 2)
                break;
            if (prev_[c.left] != kNone)
                push(prev_[c.left]);
            push(c.left);
        }
        if (parts != 2)
            return std::nullopt;
        return next_[0];
    }

private:
    struct Candidate {
        std::uint32_t rank, left, end;
        bool operator>(const Candidate &o) const { return rank != o.rank ? rank > o.rank : left > o.left; }
    };

    // Queues the pair starting at part `left` when its concatenation has a rank below the token's.
    void push(std::uint32_t left)
    {
        const auto n = static_cast<std::uint32_t>(token_.size());
        const std::uint32_t middle = next_[left];
        if (middle >= n)
            return;
        const std::uint32_t end = next_[middle];
        if (left == 0 && end == token_.size())
            return;  // two parts are the answer, never merged (a duplicate of the token may rank lower)
        const std::uint32_t r = index_.find(token_.substr(left, end - left), hashes_.of(left, end), rank_);
        if (r == kNone)
            return;
        heap_.push_back({r, left, end});
        std::push_heap(heap_.begin(), heap_.end(), std::greater<>{});
    }

    const RankIndex &index_;
    std::string_view token_;
    std::size_t rank_ = 0;
    PrefixHashes hashes_;
    std::vector<std::uint32_t> next_, prev_;  // part starting at i spans [i, next_[i]); prev_ links back
    std::vector<bool> alive_;                 // whether a part starts at i
    std::vector<Candidate> heap_;
};

}  // namespace

std::vector<std::pair<std::string, std::string>> mergesFromRanks(const std::vector<std::string> &tokens,
                                                                 std::size_t *unreachable, MergeRecoveryWork *work)
{
    MergeRecoveryWork counted;
    const std::uint64_t base = drawBase();
    const RankIndex index(tokens, base, counted);
    TokenSplitter splitter(index, base);
    std::vector<std::pair<std::string, std::string>> merges;
    merges.reserve(tokens.size());
    std::size_t missing = 0;
    for (std::size_t r = 0; r < tokens.size(); ++r) {
        const std::string_view token = tokens[r];
        if (token.size() < 2)
            continue;
        if (token.size() >= kNone) {  // parts are indexed by 32-bit offsets; no loadable file gets here
            ++missing;
            continue;
        }
        const std::optional<std::size_t> leftLength = splitter.split(token, r);
        if (!leftLength) {
            ++missing;
            continue;
        }
        merges.emplace_back(std::string(token.substr(0, *leftLength)), std::string(token.substr(*leftLength)));
    }
    if (unreachable)
        *unreachable = missing;
    if (work)
        *work = counted;
    return merges;
}

}  // namespace lse
