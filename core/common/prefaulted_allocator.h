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
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

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
            void *p = ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
                             -1, 0);
            if (p == MAP_FAILED)
                throw std::bad_alloc();
            return p;
        }
        // Over-map by one huge page, then trim to a 2 MiB-aligned range of `length` bytes.
        void *raw =
            ::mmap(nullptr, length + kHugePageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
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

// Fixed-size array of a trivially copyable T whose bytes start as zero, for hash tables whose free
// slots are all-zero bytes. A large array is fresh anonymous memory from allocatePrefaulted, which
// the kernel hands out zeroed, so clearing it costs no writes (on the development VM a first write
// pass over fresh memory ran at 0.5–2 GB/s); a small one comes from calloc.
template <typename T>
class ZeroedArray {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

public:
    ZeroedArray() = default;
    explicit ZeroedArray(std::size_t size) : size_(size)
    {
        if (size == 0)
            return;
        const std::size_t bytes = size * sizeof(T);
        void *p = bytes >= detail::kPrefaultMinBytes ? detail::allocatePrefaulted(bytes) : std::calloc(size, sizeof(T));
        if (!p)
            throw std::bad_alloc();
        data_ = static_cast<T *>(p);
    }
    ZeroedArray(const ZeroedArray &other) : ZeroedArray(other.size_)
    {
        if (size_ > 0)
            std::memcpy(static_cast<void *>(data_), other.data_, size_ * sizeof(T));
    }
    ZeroedArray(ZeroedArray &&other) noexcept
        : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0))
    {
    }
    ZeroedArray &operator=(ZeroedArray other) noexcept
    {
        std::swap(data_, other.data_);
        std::swap(size_, other.size_);
        return *this;
    }
    ~ZeroedArray()
    {
        if (!data_)
            return;
        const std::size_t bytes = size_ * sizeof(T);
        if (bytes >= detail::kPrefaultMinBytes)
            detail::freePrefaulted(data_, bytes);
        else
            std::free(data_);
    }

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    T *data() { return data_; }
    const T *data() const { return data_; }
    T &operator[](std::size_t i) { return data_[i]; }
    const T &operator[](std::size_t i) const { return data_[i]; }
    T *begin() { return data_; }
    T *end() { return data_ + size_; }
    const T *begin() const { return data_; }
    const T *end() const { return data_ + size_; }
    // Back to all zero bytes.
    void clear()
    {
        if (size_ > 0)
            std::memset(static_cast<void *>(data_), 0, size_ * sizeof(T));
    }

private:
    T *data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace lse
