// SPDX-License-Identifier: GPL-3.0-or-later
// Open-addressing hash tables for the encoder's hot path. std::unordered_map costs a pointer
// chase per node and an allocation per key; these keep keys in one byte arena and slots in one
// flat array with linear probing, so a lookup of a short pre-token is a hash, one or two cache
// lines and a memcmp.
#pragma once

#include "common/prefaulted_allocator.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace lse {

namespace detail {

inline std::uint64_t load64(const char *p)
{
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
}

inline std::uint32_t load32(const char *p)
{
    std::uint32_t w;
    std::memcpy(&w, p, 4);
    return w;
}

// The n < 8 bytes at p as one word without reading past them. A variable-length memcpy would be a
// library call, which costs more than the rest of the hash of a short pre-token. For n >= 4 two
// overlapping 4-byte loads cover every byte; for n <= 3 the first, middle and last bytes do.
inline std::uint64_t loadShort(const char *p, std::size_t n)
{
    if (n >= 4)
        return (std::uint64_t(load32(p)) << 32) | load32(p + n - 4);
    if (n == 0)
        return 0;
    return (std::uint64_t(static_cast<unsigned char>(p[0])) << 16) |
           (std::uint64_t(static_cast<unsigned char>(p[n / 2])) << 8) | static_cast<unsigned char>(p[n - 1]);
}

}  // namespace detail

// Exact equality of two n-byte strings, inlined for the short keys of the tokenizer's tables.
inline bool equalBytes(const char *a, const char *b, std::size_t n)
{
    if (n <= 16) {
        if (n >= 8)
            return detail::load64(a) == detail::load64(b) && detail::load64(a + n - 8) == detail::load64(b + n - 8);
        return detail::loadShort(a, n) == detail::loadShort(b, n);
    }
    return std::memcmp(a, b, n) == 0;
}

// 64-bit hash of a short byte string: 8-byte words folded by multiply-xorshift, then the
// MurmurHash3 fmix64 finaliser so that linear probing sees well-spread low bits.
inline std::uint64_t hashBytes(std::string_view s)
{
    constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ull;
    std::uint64_t h = 0x243F6A8885A308D3ull ^ (std::uint64_t(s.size()) * kMul);
    const char *p = s.data();
    std::size_t n = s.size();
    while (n >= 8) {
        h = (h ^ detail::load64(p)) * kMul;
        h ^= h >> 29;
        p += 8;
        n -= 8;
    }
    h = (h ^ detail::loadShort(p, n)) * kMul;
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ull;
    h ^= h >> 33;
    return h;
}

// Smallest power of two, at least 16, that holds `expected` keys (plus one) at a load factor of at
// most numerator/denominator: open addressing with linear probing keeps its probes short below it.
inline std::size_t tableCapacityFor(std::size_t expected, std::size_t numerator, std::size_t denominator)
{
    std::size_t capacity = 16;
    while (capacity * numerator < (expected + 1) * denominator)
        capacity *= 2;
    return capacity;
}

// Byte string → two 32-bit values. Keys are copied into an arena; the table never shrinks except
// by clear().
class ByteStringTable {
public:
    struct Slot {
        std::uint64_t hash = 0;
        std::uint32_t keyOffset = 0;
        std::uint32_t lengthPlusOne = 0;  // key length + 1; 0 marks a free slot (all-zero bytes)
        std::uint32_t first = 0;
        std::uint32_t second = 0;
    };

    explicit ByteStringTable(std::size_t expected = 1024) { rehash(capacityFor(expected)); }

    std::size_t size() const { return size_; }
    // Grows the slot array (never shrinks) so that `expected` keys fit without rehashing.
    void reserve(std::size_t expected, std::size_t expectedKeyBytes = 0)
    {
        if (capacityFor(expected) > slots_.size())
            rehash(capacityFor(expected));
        arena_.reserve(expectedKeyBytes);
    }
    std::size_t arenaBytes() const { return arena_.size(); }

    const Slot *find(std::string_view key) const { return find(key, hashBytes(key)); }
    const Slot *find(std::string_view key, std::uint64_t hash) const
    {
        for (std::size_t i = hash & mask_;; i = (i + 1) & mask_) {
            const Slot &slot = slots_[i];
            if (slot.lengthPlusOne == 0)
                return nullptr;
            if (slot.hash == hash && slot.lengthPlusOne == key.size() + 1 &&
                equalBytes(arena_.data() + slot.keyOffset, key.data(), key.size()))
                return &slot;
        }
    }

    // Inserts or overwrites; returns the slot.
    Slot &insert(std::string_view key, std::uint32_t first, std::uint32_t second)
    {
        return insert(key, hashBytes(key), first, second);
    }
    Slot &insert(std::string_view key, std::uint64_t hash, std::uint32_t first, std::uint32_t second)
    {
        bool added = false;
        Slot &slot = findOrAdd(key, hash, added);
        slot.first = first;
        slot.second = second;
        return slot;
    }
    // Inserts unless the key is present (one probe sequence either way); true when inserted.
    bool insertIfAbsent(std::string_view key, std::uint32_t first, std::uint32_t second)
    {
        bool added = false;
        Slot &slot = findOrAdd(key, hashBytes(key), added);
        if (added) {
            slot.first = first;
            slot.second = second;
        }
        return added;
    }

    void clear()
    {
        slots_.clear();
        arena_.clear();
        size_ = 0;
    }

private:
    Slot &findOrAdd(std::string_view key, std::uint64_t hash, bool &added)
    {
        if ((size_ + 1) * 8 > slots_.size() * 7)  // load factor 7/8: linear probing stays short
            rehash(slots_.size() * 2);
        std::size_t i = hash & mask_;
        for (;; i = (i + 1) & mask_) {
            Slot &slot = slots_[i];
            if (slot.lengthPlusOne == 0)
                break;
            if (slot.hash == hash && slot.lengthPlusOne == key.size() + 1 &&
                equalBytes(arena_.data() + slot.keyOffset, key.data(), key.size()))
                return slot;
        }
        Slot &slot = slots_[i];
        slot.hash = hash;
        slot.keyOffset = static_cast<std::uint32_t>(arena_.size());
        slot.lengthPlusOne = static_cast<std::uint32_t>(key.size() + 1);
        arena_.insert(arena_.end(), key.begin(), key.end());
        ++size_;
        added = true;
        return slot;
    }

    static std::size_t capacityFor(std::size_t expected) { return tableCapacityFor(expected, 7, 8); }  // load 7/8

    void rehash(std::size_t capacity)
    {
        ZeroedArray<Slot> old = std::move(slots_);
        slots_ = ZeroedArray<Slot>(capacity);
        mask_ = capacity - 1;
        for (const Slot &slot : old) {
            if (slot.lengthPlusOne == 0)
                continue;
            std::size_t i = slot.hash & mask_;
            while (slots_[i].lengthPlusOne != 0)
                i = (i + 1) & mask_;
            slots_[i] = slot;
        }
    }

    ZeroedArray<Slot> slots_;
    std::size_t mask_ = 0;
    std::size_t size_ = 0;
    std::vector<char, PrefaultedAllocator<char>> arena_;
};

// Id → byte string, every string in one byte arena: a 50k-token vocabulary as 50k std::string
// objects would be 1.6 MB of headers (each page of it a page fault to fill) plus an allocation
// per token longer than the small-string buffer.
class ByteStringList {
public:
    std::size_t size() const { return spans_.size(); }
    bool empty() const { return spans_.empty(); }
    std::string_view operator[](std::size_t i) const
    {
        const Span span = spans_[i];
        return {arena_.data() + span.offset, span.length};
    }
    std::string_view at(std::size_t i) const
    {
        if (i >= spans_.size())
            throw std::out_of_range("ByteStringList::at");
        return (*this)[i];
    }
    void reserve(std::size_t count, std::size_t bytes)
    {
        spans_.reserve(count);
        arena_.reserve(bytes);
    }
    void push_back(std::string_view bytes) { set(spans_.size(), bytes); }
    void clear()
    {
        spans_.clear();
        arena_.clear();
    }
    // Sets string i, growing the list with empty strings as needed. A replaced string's old bytes
    // stay in the arena (replacing is rare: loaders fill each id once).
    void set(std::size_t i, std::string_view bytes)
    {
        if (arena_.size() + bytes.size() > std::numeric_limits<std::uint32_t>::max())
            throw std::length_error("ByteStringList: more than 4 GiB of strings");
        if (i >= spans_.size())
            spans_.resize(i + 1, Span{});
        spans_[i] = {static_cast<std::uint32_t>(arena_.size()), static_cast<std::uint32_t>(bytes.size())};
        arena_.insert(arena_.end(), bytes.begin(), bytes.end());
    }

private:
    struct Span {
        std::uint32_t offset = 0;
        std::uint32_t length = 0;
    };
    std::vector<Span, PrefaultedAllocator<Span>> spans_;
    std::vector<char, PrefaultedAllocator<char>> arena_;
};

// Pair of token ids → (merge rank, merged id). Built once; lookups only.
//
// The encoder looks a pair up for every merge it tries, on random addresses, so the table's size
// decides how many lookups miss the cache. When every id and rank stays below 65535 (GPT-2: 50,257
// ids, 50,000 merges) an entry is 8 bytes (32-bit key, 16-bit rank and id) instead of 16, and a
// 50k-merge table is 512 KiB instead of 1 MiB. A larger value arriving later widens the table.
class PairRankTable {
public:
    static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
    struct Merge {
        std::uint32_t rank = kNone;  // kNone: the pair has no merge
        std::uint32_t id = 0;
        explicit operator bool() const { return rank != kNone; }
    };

    // Room for `expected` pairs; compact entries when idLimit (one past the largest id) and
    // `expected` ranks fit 16 bits.
    void reserve(std::size_t expected, std::size_t idLimit = kNone)
    {
        compact_ = idLimit < kCompactLimit && expected < kCompactLimit;
        allocate(capacityFor(expected));
    }

    // Keeps the first (lowest-rank) merge of a pair given twice.
    void insert(std::uint32_t left, std::uint32_t right, std::uint32_t rank, std::uint32_t id)
    {
        if (compact_ && std::max({left, right, rank, id}) >= kCompactLimit)
            rebuild(false, capacity());
        if (capacity() == 0 || (size_ + 1) * 8 > capacity() * 7)
            rebuild(compact_, std::max<std::size_t>(capacityFor(size_ + 1), capacity() * 2));
        place(left, right, rank, id);
    }

    [[gnu::always_inline]] Merge find(std::uint32_t left, std::uint32_t right) const
    {
        // Most pairs an encoder tries have no merge; the filter (in L1) turns most of those away
        // before the table (which misses the caches) is read.
        if (!mayContain(left, right))
            return {};
        if (compact_) {
            if (left >= kCompactLimit || right >= kCompactLimit)  // outside the 16-bit keys: not here
                return {};
            const std::uint32_t key = compactKey(left, right);
            for (std::size_t i = compactSlot(key);; i = (i + 1) & mask_) {
                const CompactEntry &e = compactEntries_[i];
                if (e.key == key)
                    return {e.rank, e.id};
                if (e.key == 0)
                    return {};
            }
        }
        if (wideEntries_.empty())
            return {};
        const std::uint64_t key = wideKey(left, right);
        for (std::size_t i = mix(key) & mask_;; i = (i + 1) & mask_) {
            const WideEntry &e = wideEntries_[i];
            if (e.key == key)
                return {e.rank, e.id};
            if (e.key == 0)
                return {};
        }
    }

    std::size_t size() const { return size_; }
    bool isCompact() const { return compact_; }

private:
    // Keys are stored complemented so that a free entry is all-zero bytes: key 0 would be the pair
    // of the largest ids, which the limits exclude (32-bit ids never reach 0xFFFFFFFF twice over;
    // compact ids stay below 0xFFFF).
    static constexpr std::uint32_t kCompactLimit = 0xFFFFu;
    struct WideEntry {
        std::uint64_t key;
        std::uint32_t rank;
        std::uint32_t id;
    };
    struct CompactEntry {
        std::uint32_t key;
        std::uint16_t rank;
        std::uint16_t id;
    };
    static std::uint64_t wideKey(std::uint32_t left, std::uint32_t right)
    {
        return ~((std::uint64_t(left) << 32) | right);
    }
    static std::uint32_t compactKey(std::uint32_t left, std::uint32_t right) { return ~((left << 16) | right); }
    static std::uint64_t mix(std::uint64_t x)
    {
        x ^= x >> 31;
        x *= 0x9E3779B97F4A7C15ull;
        x ^= x >> 29;
        return x;
    }
    std::size_t compactSlot(std::uint32_t key) const
    {
        // Multiplicative hashing: the product's high bits index the table.
        return static_cast<std::size_t>((std::uint64_t(key) * 0x9E3779B97F4A7C15ull) >> 32) & mask_;
    }
    static std::size_t capacityFor(std::size_t expected) { return tableCapacityFor(expected, 7, 8); }  // load 7/8
    std::size_t capacity() const { return compact_ ? compactEntries_.size() : wideEntries_.size(); }

    // A one-word-blocked Bloom filter over the pairs: two bits in one 64-bit word per pair and at
    // most 12 pairs per word, so at most about 1 in 10 absent pairs gets through (GPT-2's 50k
    // merges: 64 KiB, 6 pairs per word, about 1 in 30).
    static std::uint64_t filterHash(std::uint32_t left, std::uint32_t right)
    {
        return mix((std::uint64_t(left) << 32 | right) + 0x632BE59BD9B4E019ull);
    }
    bool mayContain(std::uint32_t left, std::uint32_t right) const
    {
        const std::uint64_t h = filterHash(left, right);
        const std::uint64_t bits = (std::uint64_t(1) << (h & 63)) | (std::uint64_t(1) << ((h >> 6) & 63));
        return (filter_[(h >> 12) & filterMask_] & bits) == bits;
    }
    void addToFilter(std::uint32_t left, std::uint32_t right)
    {
        const std::uint64_t h = filterHash(left, right);
        filter_[(h >> 12) & filterMask_] |= (std::uint64_t(1) << (h & 63)) | (std::uint64_t(1) << ((h >> 6) & 63));
    }

    void allocate(std::size_t capacity)
    {
        std::size_t words = 64;
        while (words * 12 < capacity * 7 / 8)  // the pairs a table of this capacity holds at most
            words *= 2;
        filter_ = ZeroedArray<std::uint64_t>(words);
        filterMask_ = words - 1;
        compactEntries_ = compact_ ? ZeroedArray<CompactEntry>(capacity) : ZeroedArray<CompactEntry>();
        wideEntries_ = compact_ ? ZeroedArray<WideEntry>() : ZeroedArray<WideEntry>(capacity);
        mask_ = capacity - 1;
        size_ = 0;
    }

    void rebuild(bool compact, std::size_t capacity)
    {
        const ZeroedArray<CompactEntry> oldCompact = std::move(compactEntries_);
        const ZeroedArray<WideEntry> oldWide = std::move(wideEntries_);
        compact_ = compact;
        allocate(capacity);
        for (const CompactEntry &e : oldCompact)
            if (e.key != 0) {
                const std::uint32_t pair = ~e.key;
                place(pair >> 16, pair & 0xFFFFu, e.rank, e.id);
            }
        for (const WideEntry &e : oldWide)
            if (e.key != 0) {
                const std::uint64_t pair = ~e.key;
                place(static_cast<std::uint32_t>(pair >> 32), static_cast<std::uint32_t>(pair), e.rank, e.id);
            }
    }

    void place(std::uint32_t left, std::uint32_t right, std::uint32_t rank, std::uint32_t id)
    {
        if (compact_) {
            const std::uint32_t key = compactKey(left, right);
            for (std::size_t i = compactSlot(key);; i = (i + 1) & mask_) {
                CompactEntry &e = compactEntries_[i];
                if (e.key == key)
                    return;
                if (e.key == 0) {
                    e = {key, static_cast<std::uint16_t>(rank), static_cast<std::uint16_t>(id)};
                    addToFilter(left, right);
                    ++size_;
                    return;
                }
            }
        }
        const std::uint64_t key = wideKey(left, right);
        for (std::size_t i = mix(key) & mask_;; i = (i + 1) & mask_) {
            WideEntry &e = wideEntries_[i];
            if (e.key == key)
                return;
            if (e.key == 0) {
                e = {key, rank, id};
                addToFilter(left, right);
                ++size_;
                return;
            }
        }
    }

    bool compact_ = false;
    ZeroedArray<CompactEntry> compactEntries_;
    ZeroedArray<WideEntry> wideEntries_;
    ZeroedArray<std::uint64_t> filter_{64};
    std::size_t filterMask_ = 63;
    std::size_t mask_ = 0;
    std::size_t size_ = 0;
};

}  // namespace lse
