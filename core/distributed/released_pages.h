// SPDX-License-Identifier: GPL-3.0-or-later
// Giving memory back to the kernel inside a buffer that stays allocated (ZeRO-3's release of a
// gathered layer, zero3_parameters.h), and measuring what is resident.
//
// madvise(MADV_DONTNEED) drops the whole pages of a private anonymous mapping: the resident set
// shrinks at once, the next read of such a page sees zeros and the next write gets a fresh page
// (Linux man-pages, madvise(2)). Only whole pages can go; the partial pages at each end of a range
// stay with the caller, who overwrites them as it likes.
#pragma once

#include <cstdint>

namespace lse::distributed {

// The whole pages of [data, data + count) dropped; returns [begin, end), the part that was dropped
// (begin == end when the range holds no whole page): the caller owns [data, begin) and
// [end, data + count).
struct DroppedRange {
    float *begin = nullptr;
    float *end = nullptr;
};
DroppedRange dropWholePages(float *data, std::int64_t count);

// Bytes of the pages covering [data, data + bytes) that are resident now (mincore(2)); the pages at
// the two ends count whole. −1 when the kernel cannot tell.
std::int64_t residentBytes(const void *data, std::int64_t bytes);

}  // namespace lse::distributed
