// SPDX-License-Identifier: GPL-3.0-or-later
// Tiled causal attention with an online softmax: the FlashAttention algorithm (Dao et al. 2022,
// Algorithms 1 and 4; the loop order of FlashAttention-2, Dao 2023) on this CPU, where the "SRAM"
// is a core's L2 cache. The (T, T) score and probability matrices of the naive kernel
// (attention.h) are never stored: a block of B_r query rows meets one block of B_c keys at a time
// in a per-thread scratch of B_r × B_c, the running row maximum m and sum ℓ rescale the output
// accumulator (online softmax, Milakov & Gimelshein 2018), and only the output O and the row
// log-sum-exp L = m + log ℓ are kept for the backward pass, which recomputes each block of
// probabilities from Q, K and L. Memory: O(T·Dh + B_r·B_c per thread) instead of O(T²).
//
// Same layout and conventions as attention.h (shape legend: B batch, T sequence, H query heads,
// G kv heads, Dh head dim; heads are strided column blocks of token rows; grouped-query attention:
// query head h reads kv head h / (H/G)); the result equals causalAttentionForward's within float
// round-off (the sums run in a different order).
#pragma once

#include "reference/ops/attention.h"

#include <cstdint>

namespace lse::reference {

// B_r query rows × B_c key columns per block.
struct AttentionBlocks {
    Index rows = 64;  // B_r
    Index cols = 64;  // B_c
};

// The cache sizes of this machine's cpu0 (bytes; 0 when unknown): /sys/devices/system/cpu/cpu0/
// cache/index*/ (data or unified caches by level), else sysconf(_SC_LEVEL1_DCACHE_SIZE /
// _SC_LEVEL2_CACHE_SIZE).
struct CpuCacheSizes {
    std::int64_t l1d_bytes = 0;
    std::int64_t l2_bytes = 0;
};
CpuCacheSizes detectCpuCacheSizes();

// When the L2 size is unknown: 1 MiB, a common per-core L2 of current x86 server cores.
inline constexpr std::int64_t kFallbackL2Bytes = std::int64_t(1) << 20;

// Dao et al. 2022 Algorithm 1's rule with this CPU's L2 as the on-chip memory: M = half the L2 in
// elements of `scalar_bytes` (the other half holds what streams past: the next K/V rows the
// prefetcher brings in, the output rows, Eigen's packing buffers), B_c = ⌈M / 4Dh⌉ (Q, K, V and O
// blocks of B_c × Dh each fit M), B_r = min(B_c, Dh). B_c is then rounded down to a multiple of 16
// (whole 64-byte lines of floats) and capped at kMaxBlockCols: beyond that a causal diagonal block
// computes mostly masked scores, and the online-softmax rescale per block is already negligible.
// The working set of one thread (attentionWorkingSetBytes: Q, K, V, O blocks, 4·B_c·d at most, and
// the S block, B_r·B_c ≤ B_c·d) is then at most 5M/4, within the L2.
inline constexpr Index kMaxBlockCols = 512;
// Largest B_r or B_c a caller may ask for (ReferenceOptions, `--attention-block`): a 4096 × 4096
// block is 64 MiB of float scratch per thread, already far beyond any cache.
inline constexpr int kMaxTiledAttentionBlock = 4096;
AttentionBlocks attentionBlocksForCache(std::int64_t l2_bytes, Index head_dim, int scalar_bytes);
AttentionBlocks attentionBlocksForThisCpu(Index head_dim, int scalar_bytes);
// Q, K, V, O blocks and the S block of one thread: (2·B_r + 2·B_c)·Dh + B_r·B_c elements.
double attentionWorkingSetBytes(const AttentionBlocks &blocks, Index head_dim, int scalar_bytes);

// Per-thread scratch of the forward and backward kernels, in elements: two B_r × B_c blocks (S or
// P, and dP) and the row statistics m and ℓ (B_r each).
Index tiledAttentionScratchPerThread(const AttentionBlocks &blocks);

// out (B, T, H·Dh) = softmax(QKᵀ/√Dh + causal mask)·V and lse (B, H, T) the natural log of each
// row's Σ exp(s/√Dh). scratch: `threads` × tiledAttentionScratchPerThread elements; the kernel
// runs at most `threads` OpenMP threads, parallel over (sequence, head, query block).
template <typename S>
void tiledAttentionForward(const S *q, const S *k, const S *v, S *out, S *lse, const AttentionDims &dims,
                           const AttentionBlocks &blocks, S *scratch, int threads);

// From dout (layout of out): dq, dk, dv (layouts of q, k, v; overwritten). `out` and `lse` are the
// forward's; row_dot (B, H, T) is scratch for D = rowsum(dO ∘ O) (Dao 2023, Algorithm 2). Loop
// order of Dao et al. 2022 Algorithm 4: per (sequence, kv head) the key blocks outside, the query
// blocks inside, so dK and dV of a key block accumulate on one thread and dQ of a query head is
// written by that thread alone; parallel over (sequence, kv head).
template <typename S>
void tiledAttentionBackward(const S *q, const S *k, const S *v, const S *out, const S *lse, const S *dout, S *dq,
                            S *dk, S *dv, S *row_dot, const AttentionDims &dims, const AttentionBlocks &blocks,
                            S *scratch, int threads);

}  // namespace lse::reference
