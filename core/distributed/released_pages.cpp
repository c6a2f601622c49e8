// SPDX-License-Identifier: GPL-3.0-or-later
#include "distributed/released_pages.h"

#include <sys/mman.h>
#include <unistd.h>

#include <vector>

namespace lse::distributed {

namespace {

std::uintptr_t pageBytes()
{
    static const std::uintptr_t bytes = std::uintptr_t(sysconf(_SC_PAGESIZE));
    return bytes;
}

}  // namespace

DroppedRange dropWholePages(float *data, std::int64_t count)
{
    if (!data || count <= 0)
        return {data, data};
    const std::uintptr_t page = pageBytes();
    const std::uintptr_t from = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t to = from + std::uintptr_t(count) * sizeof(float);
    const std::uintptr_t first = (from + page - 1) / page * page;
    const std::uintptr_t last = to / page * page;
    if (first >= last)
        return {data, data};
    // A failure (not a private anonymous mapping) leaves the pages as they were: still correct, only
    // not released; the resident measurement then shows it.
    if (madvise(reinterpret_cast<void *>(first), last - first, MADV_DONTNEED) != 0)
        return {data, data};
    return {reinterpret_cast<float *>(first), reinterpret_cast<float *>(last)};
}

std::int64_t residentBytes(const void *data, std::int64_t bytes)
{
    if (!data || bytes <= 0)
        return 0;
    const std::uintptr_t page = pageBytes();
    const std::uintptr_t from = reinterpret_cast<std::uintptr_t>(data) / page * page;
    const std::uintptr_t to = reinterpret_cast<std::uintptr_t>(data) + std::uintptr_t(bytes);
    const std::size_t pages = std::size_t((to - from + page - 1) / page);
    std::vector<unsigned char> resident(pages);
    if (mincore(reinterpret_cast<void *>(from), pages * page, resident.data()) != 0)
        return -1;
    std::int64_t count = 0;
    for (unsigned char flag : resident)
        count += flag & 1;
    return count * std::int64_t(page);
}

}  // namespace lse::distributed
