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

    static std::size_t capacityFor(std::size_t expected)
    {
        std::size_t capacity = 16;
        while (capacity * 7 < expected * 8 + 8)
            capacity *= 2;
        return capacity;
    }

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
class PairRankTable {
public:
    struct Entry {
        std::uint64_t key = kEmptyKey;
        std::uint32_t rank = 0;
        std::uint32_t id = 0;
    };
    // Keys are stored complemented so that a free entry is all-zero bytes: key 0 would be the pair
    // (0xFFFFFFFF, 0xFFFFFFFF), which no vocabulary of 32-bit ids reaches.
    static constexpr std::uint64_t kEmptyKey = 0;

    static std::uint64_t keyOf(std::uint32_t left, std::uint32_t right)
    {
        return ~((std::uint64_t(left) << 32) | right);
    }

    void reserve(std::size_t expected)
    {
        std::size_t capacity = 16;
        while (capacity * 7 < expected * 8 + 8)  // load factor at most 7/8, as ByteStringTable
            capacity *= 2;
        entries_ = ZeroedArray<Entry>(capacity);
        mask_ = capacity - 1;
    }

    // Keeps the first (lowest-rank) entry of a pair given twice.
    void insert(std::uint32_t left, std::uint32_t right, std::uint32_t rank, std::uint32_t id)
    {
        if (entries_.empty() || (size_ + 1) * 8 > entries_.size() * 7) {
            ZeroedArray<Entry> old = std::move(entries_);
            reserve(std::max<std::size_t>(size_ + 1, old.size()) * 2);
            size_ = 0;
            for (const Entry &e : old)
                if (e.key != kEmptyKey)
                    place(e);
        }
        place({keyOf(left, right), rank, id});
    }

    const Entry *find(std::uint32_t left, std::uint32_t right) const
    {
        if (entries_.empty())
            return nullptr;
        const std::uint64_t key = keyOf(left, right);
        for (std::size_t i = mix(key) & mask_;; i = (i + 1) & mask_) {
            const Entry &e = entries_[i];
            if (e.key == key)
                return &e;
            if (e.key == kEmptyKey)
                return nullptr;
        }
    }

    std::size_t size() const { return size_; }

private:
    static std::uint64_t mix(std::uint64_t x)
    {
        x ^= x >> 31;
        x *= 0x9E3779B97F4A7C15ull;
        x ^= x >> 29;
        return x;
    }

    void place(const Entry &entry)
    {
        for (std::size_t i = mix(entry.key) & mask_;; i = (i + 1) & mask_) {
            Entry &e = entries_[i];
            if (e.key == entry.key)
                return;
            if (e.key == kEmptyKey) {
                e = entry;
                ++size_;
                return;
            }
        }
    }

    ZeroedArray<Entry> entries_;
    std::size_t mask_ = 0;
    std::size_t size_ = 0;
};

}  // namespace lse
