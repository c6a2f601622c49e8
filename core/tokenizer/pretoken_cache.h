// SPDX-License-Identifier: GPL-3.0-or-later
// Cache of short pre-tokens (2..16 bytes) → their token ids, for the encoder's hot path.
//
// Real text is mostly short pre-tokens seen many times (8.5 MB of mixed text: 1.5 M pre-tokens,
// 70 k distinct, 98.6% of them at most 16 bytes, 86% encoding to at most 3 ids). An entry keeps
// the key's bytes and up to three ids inline in 32 bytes, so a hit reads one cache line: no
// separate key arena to compare against and no id array to follow, the two extra cache misses per
// lookup of a general byte-string table. Keys are compared as two 64-bit words.
#pragma once

#include "common/prefaulted_allocator.h"
#include "tokenizer/flat_tables.h"

#if defined(__AVX512BW__) && defined(__AVX512VL__) && defined(__BMI2__)
#include <immintrin.h>
#endif

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace lse {

class PretokenCache {
public:
    static constexpr std::size_t kMinKeyBytes = 2;
    static constexpr std::size_t kMaxKeyBytes = 16;
    static constexpr std::uint32_t kInlineIds = 3;

    // The key as two words that, together with its length, identify it exactly. Reads only the
    // key's own bytes. With AVX-512 the words are bytes 0..7 and 8..15 of one masked 16-byte load
    // (bytes past the key read as zero, and a masked-off byte is never touched, so a key at the
    // end of a mapping cannot fault): no branch on the length, which varies from one pre-token to
    // the next and so was mispredicted about once a lookup. Otherwise, for 8..16 bytes the first
    // and the last 8 bytes (overlapping when shorter than 16); below 8 the bytes packed into the
    // first word.
    struct Key {
        std::uint64_t first = 0;
        std::uint64_t last = 0;
        std::uint32_t length = 0;
        std::uint64_t hash = 0;
    };
    [[gnu::always_inline]] static Key keyOf(std::string_view bytes)
    {
        Key key;
        const char *p = bytes.data();
        const std::size_t n = bytes.size();
        key.length = static_cast<std::uint32_t>(n);
#if defined(__AVX512BW__) && defined(__AVX512VL__) && defined(__BMI2__)
        const __m128i words = _mm_maskz_loadu_epi8(static_cast<__mmask16>(_bzhi_u32(0xFFFFu, static_cast<unsigned>(n))), p);
        key.first = static_cast<std::uint64_t>(_mm_cvtsi128_si64(words));
        key.last = static_cast<std::uint64_t>(_mm_extract_epi64(words, 1));
#else
        if (n >= 8) {
            key.first = detail::load64(p);
            key.last = detail::load64(p + n - 8);
        } else {
            key.first = detail::loadShort(p, n);
        }
#endif
        key.hash = hashWords(key.first, key.last, n);
        return key;
    }

    // One multiply mixes both words and the length; folding the high half down spreads the low
    // bits that index the table.
    static std::uint64_t hashWords(std::uint64_t first, std::uint64_t last, std::uint64_t length)
    {
        std::uint64_t h = (first ^ (last << 29 | last >> 35) ^ (length << 56)) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 32;
        h *= 0xD6E8FEB86659FD93ull;
        h ^= h >> 29;
        return h;
    }

    struct Entry {
        std::uint64_t first = 0;
        std::uint64_t last = 0;
        std::uint32_t ids[kInlineIds] = {};  // the ids, or ids[0] = offset in overflowIds when count > 3
        std::uint8_t length = 0;             // 0: free entry
        std::uint8_t count = 0;
        std::uint16_t unused = 0;
    };
    static_assert(sizeof(Entry) == 32, "two entries per 64-byte cache line");

    explicit PretokenCache(std::size_t expected = 256) { rehash(capacityFor(expected)); }

    std::size_t size() const { return size_; }
    // Room for `expected` keys without growing.
    void reserve(std::size_t expected)
    {
        if (capacityFor(expected) > entries_.size())
            rehash(capacityFor(expected));
    }

    // The ids of a cached key (count ids from `ids`), or nullptr.
    const std::uint32_t *find(const Key &key, std::uint32_t &count) const
    {
        for (std::size_t i = key.hash & mask_;; i = (i + 1) & mask_) {
            const Entry &e = entries_[i];
            if (e.first == key.first && e.last == key.last && e.length == key.length) {
                count = e.count;
                return e.count <= kInlineIds ? e.ids : overflowIds_.data() + e.ids[0];
            }
            if (e.length == 0)
                return nullptr;
        }
    }

    // Starts loading the cache line a lookup of key will read.
    void prefetch(const Key &key) const { __builtin_prefetch(&entries_[key.hash & mask_]); }

    // Adds a key that is not in the cache. count >= 1.
    void insert(const Key &key, const std::uint32_t *ids, std::uint32_t count)
    {
        if ((size_ + 1) * 4 > entries_.size() * 3)  // load factor 3/4
            rehash(entries_.size() * 2);
        Entry e;
        e.first = key.first;
        e.last = key.last;
        e.length = static_cast<std::uint8_t>(key.length);
        e.count = static_cast<std::uint8_t>(count);  // at most 16: one id per byte at most
        if (count <= kInlineIds) {
            for (std::uint32_t k = 0; k < count; ++k)
                e.ids[k] = ids[k];
        } else {
            e.ids[0] = static_cast<std::uint32_t>(overflowIds_.size());
            overflowIds_.insert(overflowIds_.end(), ids, ids + count);
        }
        place(e, key.hash);
        ++size_;
    }

    void clear()
    {
        entries_.clear();
        overflowIds_.clear();
        size_ = 0;
    }

private:
    // Load factor 3/4: an entry holds a whole key, so a second probe is a second cache line.
    static std::size_t capacityFor(std::size_t expected) { return tableCapacityFor(expected, 3, 4); }

    void place(const Entry &e, std::uint64_t hash)
    {
        std::size_t i = hash & mask_;
        while (entries_[i].length != 0)
            i = (i + 1) & mask_;
        entries_[i] = e;
    }

    void rehash(std::size_t capacity)
    {
        ZeroedArray<Entry> old = std::move(entries_);
        entries_ = ZeroedArray<Entry>(capacity);
        mask_ = capacity - 1;
        for (const Entry &e : old) {
            if (e.length == 0)
                continue;
            place(e, hashWords(e.first, e.last, e.length));
        }
    }

    ZeroedArray<Entry> entries_;  // a free entry is all-zero bytes (length 0)
    std::vector<std::uint32_t, PrefaultedAllocator<std::uint32_t>> overflowIds_;
    std::size_t mask_ = 0;
    std::size_t size_ = 0;
};

}  // namespace lse
