// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/ops/attention.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lse::reference {

namespace {

template <typename S>
S inverseSqrt(Index head_dim)
{
    return S(1) / std::sqrt(S(head_dim));
}

// Views of one head: Q (T, Dh) of sequence b, head h; K/V (T, Dh) of kv head g.
template <typename P>
auto headView(P *base, const AttentionDims &dims, Index ld, Index b, Index head)
{
    return viewOf(base + b * dims.seq * ld + head * dims.head_dim, dims.seq, dims.head_dim, ld);
}

}  // namespace

// Eigen runs each small GEMM on the calling thread when it is already inside an OpenMP parallel
// region, so parallelism comes from the (sequence, head) loops.

template <typename S>
void attentionScoresForward(const S *q, const S *k, S *scores, const AttentionDims &dims)
{
    const Index T = dims.seq, H = dims.heads, group = dims.heads / dims.kv_heads;
#pragma omp parallel for schedule(static) if (dims.batch * H * T * T * dims.head_dim >= kParallelMinWork)
    for (Index bh = 0; bh < dims.batch * H; ++bh) {
        const Index b = bh / H, h = bh % H;
        auto Sc = viewOf(scores + bh * T * T, T, T);  // (T, T)
        Sc.noalias() = headView(q, dims, dims.ld_q, b, h) * headView(k, dims, dims.ld_k, b, h / group).transpose();
    }
}

template <typename S>
void causalSoftmaxForward(S *scores, const AttentionDims &dims)
{
    const Index T = dims.seq;
    const S scale = inverseSqrt<S>(dims.head_dim);
#pragma omp parallel for schedule(static) if (dims.batch * dims.heads * T * T >= kParallelMinWork)
    for (Index r = 0; r < dims.batch * dims.heads * T; ++r) {
        const Index i = r % T;  // query position within its sequence
        S *row = scores + r * T;  // (T)
        ArrayView<S> visible(row, i + 1);  // keys 0..i
        const S row_max = visible.maxCoeff() * scale;  // scale > 0, so max(scale·s) = scale·max(s)
        visible = (visible * scale - row_max).exp();
        visible *= S(1) / visible.sum();
        std::fill(row + i + 1, row + T, S(0));
    }
}

template <typename S>
void attentionValuesForward(const S *probs, const S *v, S *out, const AttentionDims &dims)
{
    const Index T = dims.seq, H = dims.heads, group = dims.heads / dims.kv_heads;
#pragma omp parallel for schedule(static) if (dims.batch * H * T * T * dims.head_dim >= kParallelMinWork)
    for (Index bh = 0; bh < dims.batch * H; ++bh) {
        const Index b = bh / H, h = bh % H;
        auto O = headView(out, dims, dims.ld_out, b, h);  // (T, Dh)
        O.noalias() = viewOf(probs + bh * T * T, T, T) * headView(v, dims, dims.ld_v, b, h / group);
    }
}

template <typename S>
void attentionValuesBackward(const S *probs, const S *v, const S *dout, S *dv, S *dprobs, const AttentionDims &dims)
{
    const Index T = dims.seq, H = dims.heads, G = dims.kv_heads, group = H / G;
    // One (sequence, kv head) per iteration: the query heads sharing a V add to its dV on one thread.
#pragma omp parallel for schedule(static) if (dims.batch * H * T * T * dims.head_dim >= kParallelMinWork)
    for (Index bg = 0; bg < dims.batch * G; ++bg) {
        const Index b = bg / G, g = bg % G;
        const auto V = headView(v, dims, dims.ld_v, b, g);  // (T, Dh)
        auto dV = headView(dv, dims, dims.ld_v, b, g);      // (T, Dh)
        for (Index h = g * group; h < (g + 1) * group; ++h) {
            const Index bh = b * H + h;
            const auto P = viewOf(probs + bh * T * T, T, T);          // (T, T)
            const auto dO = headView(dout, dims, dims.ld_out, b, h);  // (T, Dh)
            if (h == g * group)
                dV.noalias() = P.transpose() * dO;
            else
                dV.noalias() += P.transpose() * dO;
            viewOf(dprobs + bh * T * T, T, T).noalias() = dO * V.transpose();
        }
    }
}

template <typename S>
void causalSoftmaxBackward(const S *probs, S *dprobs, const AttentionDims &dims)
{
    const Index T = dims.seq;
    const S scale = inverseSqrt<S>(dims.head_dim);
#pragma omp parallel for schedule(static) if (dims.batch * dims.heads * T * T >= kParallelMinWork)
    for (Index r = 0; r < dims.batch * dims.heads * T; ++r) {
        const Index i = r % T;
        const S *p = probs + r * T;  // (T)
        S *d = dprobs + r * T;       // (T)
        S dot = 0;
        for (Index j = 0; j <= i; ++j)
            dot += p[j] * d[j];
        for (Index j = 0; j <= i; ++j)
            d[j] = p[j] * (d[j] - dot) * scale;
        for (Index j = i + 1; j < T; ++j)
            d[j] = 0;
    }
}

template <typename S>
void attentionScoresBackward(const S *q, const S *k, const S *dscores, S *dq, S *dk, const AttentionDims &dims)
{
    const Index T = dims.seq, H = dims.heads, G = dims.kv_heads, group = H / G;
#pragma omp parallel for schedule(static) if (dims.batch * H * T * T * dims.head_dim >= kParallelMinWork)
    for (Index bg = 0; bg < dims.batch * G; ++bg) {
        const Index b = bg / G, g = bg % G;
        const auto K = headView(k, dims, dims.ld_k, b, g);  // (T, Dh)
        auto dK = headView(dk, dims, dims.ld_k, b, g);      // (T, Dh)
        for (Index h = g * group; h < (g + 1) * group; ++h) {
            const auto dS = viewOf(dscores + (b * H + h) * T * T, T, T);  // (T, T)
            headView(dq, dims, dims.ld_q, b, h).noalias() = dS * K;
            const auto Q = headView(q, dims, dims.ld_q, b, h);
            if (h == g * group)
                dK.noalias() = dS.transpose() * Q;
            else
                dK.noalias() += dS.transpose() * Q;
        }
    }
}

template <typename S>
void causalAttentionForward(const S *q, const S *k, const S *v, S *probs, S *out, const AttentionDims &dims)
{
    attentionScoresForward(q, k, probs, dims);
    causalSoftmaxForward(probs, dims);
    attentionValuesForward(probs, v, out, dims);
}

template <typename S>
void causalAttentionBackward(const S *q, const S *k, const S *v, const S *probs, const S *dout, S *dq, S *dk,
                             S *dv, S *dprobs, const AttentionDims &dims)
{
    attentionValuesBackward(probs, v, dout, dv, dprobs, dims);
    causalSoftmaxBackward(probs, dprobs, dims);
    attentionScoresBackward(q, k, dprobs, dq, dk, dims);
}

namespace {

// Keys per block of the decode kernel's online softmax: 128 positions of K and V for one KV head
// (2 × 128 × Dh floats, 32 KiB at Dh = 32) stay in the L1/L2 cache while every query head of the
// group uses them.
constexpr Index kDecodeBlock = 128;

// The query heads [first_head, first_head + group) of KV head g against positions 0..length-1, in
// blocks of keys with FlashAttention's online softmax (Dao et al. 2022, Algorithm 1; Milakov &
// Gimelshein 2018): per block, S = K_blk·Q_gᵀ·scale, the running maximum m and sum l rescaled by
// exp(m_old − m_new), and the output accumulated as Σ exp(S − m)·V_blk, divided by l at the end.
// K and V are read once per group (not once per query head) and every product is an Eigen GEMM.
template <typename S>
void decodeGroup(const S *q, const S *kcache, const S *vcache, Index ld, Index length, Index g, Index first_head,
                 Index group, Index head_dim, S scale, S *out)
{
    using Array = Eigen::Array<S, Eigen::Dynamic, 1>;
    const auto queries = viewOf(q + first_head * head_dim, group, head_dim, head_dim);  // (group, Dh)
    RowMatrix<S> acc = RowMatrix<S>::Zero(group, head_dim);                              // (group, Dh)
    Array running_max = Array::Constant(group, -std::numeric_limits<S>::infinity());
    Array running_sum = Array::Zero(group);
    RowMatrix<S> scores(kDecodeBlock, group);  // (block, group)
    for (Index j0 = 0; j0 < length; j0 += kDecodeBlock) {
        const Index n = std::min(kDecodeBlock, length - j0);
        const auto keys = viewOf(kcache + j0 * ld + g * head_dim, n, head_dim, ld);    // (n, Dh)
        const auto values = viewOf(vcache + j0 * ld + g * head_dim, n, head_dim, ld);  // (n, Dh)
        auto block = scores.topRows(n);
        block.noalias() = keys * queries.transpose();
        block *= scale;
        const Array block_max = block.colwise().maxCoeff().transpose().array();
        const Array new_max = running_max.max(block_max);
        const Array correction = (running_max - new_max).exp();
        block.array().rowwise() -= new_max.transpose();
        block = block.array().exp().matrix();
        running_sum = running_sum * correction + block.colwise().sum().transpose().array();
        acc = correction.matrix().asDiagonal() * acc;
        acc.noalias() += block.transpose() * values;
        running_max = new_max;
    }
    auto result = viewOf(out + first_head * head_dim, group, head_dim, head_dim);
    result = (running_sum.inverse().matrix().asDiagonal() * acc);
}

}  // namespace

template <typename S>
void decodeAttention(const S *q, const S *kcache, const S *vcache, Index ld, Index length, Index heads,
                     Index kv_heads, Index head_dim, S *out)
{
    const Index group = heads / kv_heads;
    const S scale = inverseSqrt<S>(head_dim);
    // One KV head's group per iteration; parallel over the groups when the cache is long enough
    // to pay for the team (inside decodeAttentionBatch's parallel loop this runs on its thread).
#pragma omp parallel for schedule(static) if (kv_heads > 1 && length * heads * head_dim >= kParallelMinWork)
    for (Index g = 0; g < kv_heads; ++g)
        decodeGroup(q, kcache, vcache, ld, length, g, g * group, group, head_dim, scale, out);
}

template <typename S>
void decodeAttentionBatch(const S *q, Index ld_q, const S *kcache, const S *vcache, Index ld_kv, Index sequence_stride,
                          const int *positions, Index batch, Index heads, Index kv_heads, Index head_dim, S *out,
                          Index ld_out)
{
    if (batch == 1) {  // the threads split the KV heads instead
        decodeAttention(q, kcache, vcache, ld_kv, Index(positions[0]) + 1, heads, kv_heads, head_dim, out);
        return;
    }
    Index work = 0;  // multiply-adds of the batch: keys · heads · head dim
    for (Index i = 0; i < batch; ++i)
        work += (Index(positions[i]) + 1) * heads * head_dim;
#pragma omp parallel for schedule(static) if (work >= kParallelMinWork)
    for (Index i = 0; i < batch; ++i)
        decodeAttention(q + i * ld_q, kcache + i * sequence_stride, vcache + i * sequence_stride, ld_kv,
                        Index(positions[i]) + 1, heads, kv_heads, head_dim, out + i * ld_out);
}

#define LSE_INSTANTIATE(S)                                                                                        \
    template void attentionScoresForward<S>(const S *, const S *, S *, const AttentionDims &);                      \
    template void causalSoftmaxForward<S>(S *, const AttentionDims &);                                            \
    template void attentionValuesForward<S>(const S *, const S *, S *, const AttentionDims &);                    \
    template void attentionValuesBackward<S>(const S *, const S *, const S *, S *, S *, const AttentionDims &);   \
    template void causalSoftmaxBackward<S>(const S *, S *, const AttentionDims &);                                \
    template void attentionScoresBackward<S>(const S *, const S *, const S *, S *, S *, const AttentionDims &);   \
    template void causalAttentionForward<S>(const S *, const S *, const S *, S *, S *, const AttentionDims &);     \
    template void causalAttentionBackward<S>(const S *, const S *, const S *, const S *, const S *, S *, S *, S *,  \
                                             S *, const AttentionDims &);                                         \
    template void decodeAttention<S>(const S *, const S *, const S *, Index, Index, Index, Index, Index, S *);      \
    template void decodeAttentionBatch<S>(const S *, Index, const S *, const S *, Index, Index, const int *, Index, Index, \
                                          Index, Index, S *, Index);
LSE_INSTANTIATE(float)
LSE_INSTANTIATE(double)
#undef LSE_INSTANTIATE

}  // namespace lse::reference
