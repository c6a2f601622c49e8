// SPDX-License-Identifier: GPL-3.0-or-later
// Causal scaled dot-product attention (Vaswani et al. 2017, Eq. 1): softmax(QKᵀ/√Dh + mask)·V, with
// grouped-query attention (Ainslie et al. 2023): query head h reads kv head h / (H/G).
// Shape legend: B batch, T sequence, H query heads, G kv heads, Dh head dim.
// Q, K, V are read in place from token rows (e.g. the fused Q|K|V projection output), so heads are
// strided column blocks; the per-head products are Eigen GEMMs on those views. The three stages
// (scores, softmax, values) are separate calls so the profiler can time each under the cost
// engine's operator name; each is parallel over (sequence, head).
#pragma once

#include "reference/ops/eigen_maps.h"

namespace lse::reference {

struct AttentionDims {
    Index batch = 0, seq = 0, heads = 0, kv_heads = 0, head_dim = 0;
    Index ld_q = 0, ld_k = 0, ld_v = 0;  // row strides of Q (B,T,H·Dh), K and V (B,T,G·Dh)
    Index ld_out = 0;                    // row stride of the output (B,T,H·Dh)
};

// scores (B, H, T, T) = Q·Kᵀ per head, unscaled (the full square: GEMMs do not skip the masked half).
template <typename S>
void attentionScoresForward(const S *q, const S *k, S *scores, const AttentionDims &dims);
// In place on (B·H) blocks of (T, T): p_ij = exp(s_ij/√Dh − m_i) / Σ_{j'≤i} exp(s_ij'/√Dh − m_i) for
// j ≤ i, 0 above the diagonal (the causal mask). m_i, the row maximum, keeps exponents ≤ 0.
template <typename S>
void causalSoftmaxForward(S *scores, const AttentionDims &dims);
// out (B, T, H·Dh) = P·V per head.
template <typename S>
void attentionValuesForward(const S *probs, const S *v, S *out, const AttentionDims &dims);

// From dout: dv (layout of v, overwritten) = Σ_heads in group Pᵀ·dO and dprobs (B,H,T,T) = dO·Vᵀ.
template <typename S>
void attentionValuesBackward(const S *probs, const S *v, const S *dout, S *dv, S *dprobs, const AttentionDims &dims);
// In place: dprobs → d(raw scores) = P ⊙ (dP − rowsum(P ⊙ dP)) / √Dh (zero where masked).
template <typename S>
void causalSoftmaxBackward(const S *probs, S *dprobs, const AttentionDims &dims);
// dq (layout of q) = dS·K, dk (layout of k) = Σ_heads in group dSᵀ·Q; both overwritten.
template <typename S>
void attentionScoresBackward(const S *q, const S *k, const S *dscores, S *dq, S *dk, const AttentionDims &dims);

// The three stages in sequence (for tests and callers that do not profile).
template <typename S>
void causalAttentionForward(const S *q, const S *k, const S *v, S *probs, S *out, const AttentionDims &dims);
// dprobs: (B, H, T, T) scratch.
template <typename S>
void causalAttentionBackward(const S *q, const S *k, const S *v, const S *probs, const S *dout, S *dq, S *dk,
                             S *dv, S *dprobs, const AttentionDims &dims);

// One new query token against a KV cache: q (H·Dh), kcache/vcache (L, G·Dh) rows `ld` apart holding
// positions 0..L-1 (the new token's own key last), out (H·Dh). Blocks of keys with the online
// softmax (FlashAttention's rule), each KV head's block read once for all its query heads;
// parallel over the KV heads when the cache is long enough (one thread inside a parallel region).
template <typename S>
void decodeAttention(const S *q, const S *kcache, const S *vcache, Index ld, Index length, Index heads,
                     Index kv_heads, Index head_dim, S *out);

// decodeAttention for `batch` sequences, one new query token each: parallel over the sequences
// (each sequence's decodeAttention on its thread), or for one sequence over its KV heads. Sequence
// i: query row q + i·ld_q (H·Dh), its cache at kcache/vcache + i·sequence_stride with rows ld_kv
// apart holding positions 0..positions[i] (its new key last), output out + i·ld_out.
template <typename S>
void decodeAttentionBatch(const S *q, Index ld_q, const S *kcache, const S *vcache, Index ld_kv, Index sequence_stride,
                          const int *positions, Index batch, Index heads, Index kv_heads, Index head_dim, S *out,
                          Index ld_out);

}  // namespace lse::reference
