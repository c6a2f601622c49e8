// SPDX-License-Identifier: GPL-3.0-or-later
// The allocator of the reference model's arenas: 64-byte aligned storage (see AlignedVector in
// model.h for why), and optionally transparent huge pages for the large ones.
//
// Huge pages: the first touch of a fresh 4 KiB page costs a page fault, and an inference-only
// model's ~150 MB of arenas are touched once at start-up (issue 35: `generate --max-tokens 0` was
// to take under 0.3 s). Measured here, touching 92 MB took 47–54 ms in 4 KiB pages and 15–26 ms
// with madvise(MADV_HUGEPAGE) on 2 MiB-aligned storage (this kernel's THP mode is "madvise").
// Only the inference-only model asks for them: ZeRO-3 hands 4 KiB pages of the training arenas back
// to the kernel (distributed/released_pages.h), which huge pages would fight.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <type_traits>

namespace lse::reference {

template <typename S>
class ArenaAllocator {
public:
    using value_type = S;
    using propagate_on_container_copy_assignment = std::true_type;
    using propagate_on_container_move_assignment = std::true_type;
    using propagate_on_container_swap = std::true_type;
    using is_always_equal = std::false_type;

    static constexpr std::size_t kAlignment = 64;
    static constexpr std::size_t kHugePage = std::size_t(2) << 20;

    ArenaAllocator() = default;
    explicit ArenaAllocator(bool huge_pages) : huge_pages_(huge_pages) {}
    template <typename U>
    ArenaAllocator(const ArenaAllocator<U> &other) : huge_pages_(other.hugePages())  // NOLINT: rebinding converts implicitly
    {
    }

    bool hugePages() const { return huge_pages_; }

    S *allocate(std::size_t n)
    {
        if (n > std::size_t(-1) / sizeof(S))
            throw std::bad_alloc();
        const std::size_t bytes = n * sizeof(S);
        const bool huge = huge_pages_ && bytes >= kHugePage;
        const std::size_t alignment = huge ? kHugePage : kAlignment;
        const std::size_t size = (bytes + alignment - 1) / alignment * alignment;
        void *p = std::aligned_alloc(alignment, size == 0 ? alignment : size);
        if (!p)
            throw std::bad_alloc();
        if (huge)
            madvise(p, size, MADV_HUGEPAGE);  // advice only: without THP the pages stay 4 KiB
        return static_cast<S *>(p);
    }
    void deallocate(S *p, std::size_t) noexcept { std::free(p); }

    friend bool operator==(const ArenaAllocator &a, const ArenaAllocator &b) { return a.huge_pages_ == b.huge_pages_; }
    friend bool operator!=(const ArenaAllocator &a, const ArenaAllocator &b) { return !(a == b); }

private:
    bool huge_pages_ = false;
};

}  // namespace lse::reference
