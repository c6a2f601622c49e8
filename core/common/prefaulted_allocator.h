// SPDX-License-Identifier: GPL-3.0-or-later
// Allocator for large arrays that are filled right away (hash tables, id buffers): the memory is
// mapped in one system call instead of one page fault per 4 KiB page on first touch.
//
// Why: a page fault is a trap into the kernel, and in a virtual machine an expensive one. Measured
// on the 2-core development VM (kernel 6.18): 13–18 µs per first touch of a 4 KiB page, so a 4 MiB
// table cost 14 ms to touch, against 0.3–0.9 ms when it is mapped as 2 MiB transparent huge pages
// and populated with madvise(MADV_POPULATE_WRITE), and 1.3 ms with mmap(MAP_POPULATE) in 4 KiB
// pages. Huge pages also keep random lookups in a multi-megabyte table from missing the TLB.
//
// Arrays below 64 KiB use operator new. Up to 2 MiB: mmap(MAP_POPULATE). From 2 MiB: 2 MiB-aligned
// mapping offered for huge pages, then populated. Every call degrades gracefully: where THP or
// MADV_POPULATE_WRITE is unavailable the pages simply fault in on first use as usual. Outside Linux
// this is operator new.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace lse {

namespace detail {

inline constexpr std::size_t kPrefaultMinBytes = std::size_t(64) << 10;
inline constexpr std::size_t kHugePageBytes = std::size_t(2) << 20;

inline std::size_t roundUp(std::size_t bytes, std::size_t unit)
{
    return (bytes + unit - 1) / unit * unit;
}

inline std::size_t prefaultedMappingBytes(std::size_t bytes)
{
    return roundUp(bytes, bytes >= kHugePageBytes ? kHugePageBytes : std::size_t(4096));
}

inline void *allocatePrefaulted(std::size_t bytes)
{
#if defined(__linux__)
    if (bytes >= kPrefaultMinBytes) {
        const std::size_t length = prefaultedMappingBytes(bytes);
        if (length < kHugePageBytes) {
            void *p = ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
            if (p == MAP_FAILED)
                throw std::bad_alloc();
            return p;
        }
        // Over-map by one huge page, then trim to a 2 MiB-aligned range of `length` bytes.
        void *raw = ::mmap(nullptr, length + kHugePageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == MAP_FAILED)
            throw std::bad_alloc();
        const auto start = reinterpret_cast<std::uintptr_t>(raw);
        const std::uintptr_t aligned = roundUp(start, kHugePageBytes);
        if (aligned > start)
            ::munmap(raw, aligned - start);
        if (const std::size_t tail = start + kHugePageBytes - aligned; tail > 0)
            ::munmap(reinterpret_cast<void *>(aligned + length), tail);
        void *p = reinterpret_cast<void *>(aligned);
#if defined(MADV_HUGEPAGE)
        ::madvise(p, length, MADV_HUGEPAGE);
#endif
#if defined(MADV_POPULATE_WRITE)
        ::madvise(p, length, MADV_POPULATE_WRITE);
#endif
        return p;
    }
#endif
    return ::operator new(bytes);
}

inline void freePrefaulted(void *p, std::size_t bytes) noexcept
{
#if defined(__linux__)
    if (bytes >= kPrefaultMinBytes) {
        ::munmap(p, prefaultedMappingBytes(bytes));
        return;
    }
#endif
    ::operator delete(p);
}

}  // namespace detail

template <typename T>
struct PrefaultedAllocator {
    using value_type = T;
    PrefaultedAllocator() = default;
    template <typename U>
    PrefaultedAllocator(const PrefaultedAllocator<U> &) noexcept
    {
    }
    T *allocate(std::size_t n) { return static_cast<T *>(detail::allocatePrefaulted(n * sizeof(T))); }
    void deallocate(T *p, std::size_t n) noexcept { detail::freePrefaulted(p, n * sizeof(T)); }
    template <typename U>
    friend bool operator==(const PrefaultedAllocator &, const PrefaultedAllocator<U> &)
    {
        return true;
    }
};

}  // namespace lse
