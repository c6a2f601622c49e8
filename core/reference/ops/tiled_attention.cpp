// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/ops/tiled_attention.h"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>

namespace lse::reference {

namespace {

std::string firstLine(const std::string &path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

// "48K", "2048K", "32M" (sysfs) → bytes; 0 when unreadable.
std::int64_t parseSize(const std::string &text)
{
    if (text.empty())
        return 0;
    char *end = nullptr;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (value <= 0)
        return 0;
    const char unit = end ? *end : '\0';
    const std::int64_t scale = unit == 'K' ? 1024 : unit == 'M' ? 1024 * 1024 : unit == 'G' ? 1024 * 1024 * 1024 : 1;
    return std::int64_t(value) * scale;
}

// Query block [q0, q0 + rows) against key block [k0, k0 + cols): how many keys row r may see.
Index visibleKeys(Index q0, Index r, Index k0, Index cols)
{
    return std::clamp<Index>(q0 + r - k0 + 1, 0, cols);
}

template <typename P>
auto headView(P *base, const AttentionDims &dims, Index ld, Index b, Index head, Index row0, Index rows)
{
    return viewOf(base + (b * dims.seq + row0) * ld + head * dims.head_dim, rows, dims.head_dim, ld);
}

int teamSize(int threads, double work)
{
    if (work < double(kParallelMinWork))
        return 1;
    return std::max(1, std::min(threads, omp_get_max_threads()));
}

}  // namespace

CpuCacheSizes detectCpuCacheSizes()
{
    CpuCacheSizes sizes;
    for (int index = 0; index < 16; ++index) {
        const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
        const std::string level = firstLine(dir + "level");
        if (level.empty())
            continue;
        if (firstLine(dir + "type") == "Instruction")
            continue;
        const std::int64_t size = parseSize(firstLine(dir + "size"));
        if (level == "1" && sizes.l1d_bytes == 0)
            sizes.l1d_bytes = size;
        else if (level == "2" && sizes.l2_bytes == 0)
            sizes.l2_bytes = size;
    }
    // Containers and some hypervisors hide that directory; glibc asks CPUID instead.
    if (sizes.l1d_bytes <= 0)
        sizes.l1d_bytes = std::max<long>(0, sysconf(_SC_LEVEL1_DCACHE_SIZE));
    if (sizes.l2_bytes <= 0)
        sizes.l2_bytes = std::max<long>(0, sysconf(_SC_LEVEL2_CACHE_SIZE));
    return sizes;
}

AttentionBlocks attentionBlocksForCache(std::int64_t l2_bytes, Index head_dim, int scalar_bytes)
{
    const std::int64_t cache = l2_bytes > 0 ? l2_bytes : kFallbackL2Bytes;
    const Index d = std::max<Index>(1, head_dim);
    const Index m_elements = Index(cache / 2 / std::max(1, scalar_bytes));
    Index cols = (m_elements + 4 * d - 1) / (4 * d);  // B_c = ⌈M / 4d⌉
    cols = std::min(cols, kMaxBlockCols);
    if (cols >= 16)
        cols -= cols % 16;
    cols = std::max<Index>(cols, 1);
    AttentionBlocks blocks;
    blocks.cols = cols;
    blocks.rows = std::min(cols, d);  // B_r = min(B_c, d)
    return blocks;
}

AttentionBlocks attentionBlocksForThisCpu(Index head_dim, int scalar_bytes)
{
    return attentionBlocksForCache(detectCpuCacheSizes().l2_bytes, head_dim, scalar_bytes);
}

double attentionWorkingSetBytes(const AttentionBlocks &blocks, Index head_dim, int scalar_bytes)
{
    const double r = double(blocks.rows), c = double(blocks.cols), d = double(head_dim);
    return ((2 * r + 2 * c) * d + r * c) * double(scalar_bytes);
}

Index tiledAttentionScratchPerThread(const AttentionBlocks &blocks)
{
    return 2 * blocks.rows * blocks.cols + 2 * blocks.rows;
}

// Dao et al. 2022 Algorithm 1 with FlashAttention-2's loop order (Dao 2023, Algorithm 1): each
// (sequence, head, query block) is one task that walks the key blocks left to right, so the output
// block stays in the thread's cache and is written once. Causal: key blocks entirely right of the
// block's last row are skipped; the diagonal block masks per row.
template <typename S>
void tiledAttentionForward(const S *q, const S *k, const S *v, S *out, S *lse, const AttentionDims &dims,
                           const AttentionBlocks &blocks, S *scratch, int threads)
{
    const Index T = dims.seq, H = dims.heads, group = dims.heads / dims.kv_heads, d = dims.head_dim;
    const Index Br = blocks.rows, Bc = blocks.cols;
    const Index q_blocks = (T + Br - 1) / Br;
    const Index tasks = dims.batch * H * q_blocks;
    const S scale = S(1) / std::sqrt(S(d));
    const Index per_thread = tiledAttentionScratchPerThread(blocks);
    const int team = teamSize(threads, double(dims.batch * H) * double(T) * double(T) * double(d));
#pragma omp parallel num_threads(team)
    {
        S *mine = scratch + Index(omp_get_thread_num()) * per_thread;
        S *s_block = mine;                        // (Br, Bc) scores, then probabilities
        S *row_max = mine + 2 * Br * Bc;          // m (Br)
        S *row_sum = row_max + Br;                // ℓ (Br)
        // Diagonal blocks cost more than the first ones: hand tasks out one at a time.
#pragma omp for schedule(dynamic, 1)
        for (Index task = 0; task < tasks; ++task) {
            const Index bh = task / q_blocks, qb = task % q_blocks;
            const Index b = bh / H, h = bh % H, g = h / group;
            const Index q0 = qb * Br, rows = std::min(Br, T - q0);
            const auto Qi = headView(q, dims, dims.ld_q, b, h, q0, rows);
            auto Oi = headView(out, dims, dims.ld_out, b, h, q0, rows);
            Oi.setZero();
            std::fill(row_max, row_max + rows, -std::numeric_limits<S>::infinity());
            std::fill(row_sum, row_sum + rows, S(0));
            const Index last_key = q0 + rows;  // keys [0, last_key) are visible to some row
            for (Index k0 = 0; k0 < last_key; k0 += Bc) {
                const Index cols = std::min(Bc, T - k0);
                auto Sij = viewOf(s_block, rows, cols, Bc);
                Sij.noalias() = Qi * headView(k, dims, dims.ld_k, b, g, k0, cols).transpose();
                for (Index r = 0; r < rows; ++r) {
                    S *row = s_block + r * Bc;
                    const Index visible = visibleKeys(q0, r, k0, cols);
                    if (visible == 0) {
                        std::fill(row, row + cols, S(0));
                        continue;
                    }
                    ArrayView<S> seen(row, visible);
                    const S m_new = std::max(row_max[r], seen.maxCoeff() * scale);
                    seen = (seen * scale - m_new).exp();
                    std::fill(row + visible, row + cols, S(0));
                    const S rescale = std::exp(row_max[r] - m_new);  // 0 on the first block (m = −∞)
                    row_sum[r] = rescale * row_sum[r] + seen.sum();
                    row_max[r] = m_new;
                    if (rescale != S(1))
                        Oi.row(r) *= rescale;
                }
                Oi.noalias() += Sij * headView(v, dims, dims.ld_v, b, g, k0, cols);
            }
            S *L = lse + bh * T + q0;
            for (Index r = 0; r < rows; ++r) {
                Oi.row(r) *= S(1) / row_sum[r];
                L[r] = row_max[r] + std::log(row_sum[r]);
            }
        }
    }
}

// Dao et al. 2022 Algorithm 4 (without dropout), with D = rowsum(dO ∘ O) precomputed as in
// FlashAttention-2 (Dao 2023, Algorithm 2): per key block j and query block i,
//   P_ij = exp(S_ij/√d − L_i), dV_j += P_ijᵀ dO_i, dP_ij = dO_i V_jᵀ,
//   dS_ij = P_ij ∘ (dP_ij − D_i) / √d, dQ_i += dS_ij K_j, dK_j += dS_ijᵀ Q_i.
template <typename S>
void tiledAttentionBackward(const S *q, const S *k, const S *v, const S *out, const S *lse, const S *dout, S *dq,
                            S *dk, S *dv, S *row_dot, const AttentionDims &dims, const AttentionBlocks &blocks,
                            S *scratch, int threads)
{
    const Index T = dims.seq, H = dims.heads, G = dims.kv_heads, group = H / G, d = dims.head_dim;
    const Index Br = blocks.rows, Bc = blocks.cols;
    const S scale = S(1) / std::sqrt(S(d));
    const Index per_thread = tiledAttentionScratchPerThread(blocks);
    const int team = teamSize(threads, double(dims.batch * H) * double(T) * double(T) * double(d));
#pragma omp parallel num_threads(team)
    {
        S *mine = scratch + Index(omp_get_thread_num()) * per_thread;
        S *p_block = mine;             // (Br, Bc) P
        S *dp_block = mine + Br * Bc;  // (Br, Bc) dP, then dS
#pragma omp for schedule(static)
        for (Index bh = 0; bh < dims.batch * H; ++bh) {
            const Index b = bh / H, h = bh % H;
            S *D = row_dot + bh * T;
            for (Index i = 0; i < T; ++i)
                D[i] = headView(dout, dims, dims.ld_out, b, h, i, 1).cwiseProduct(headView(out, dims, dims.ld_out, b, h, i, 1)).sum();
        }
#pragma omp for schedule(dynamic, 1)
        for (Index bg = 0; bg < dims.batch * G; ++bg) {
            const Index b = bg / G, g = bg % G;
            headView(dk, dims, dims.ld_k, b, g, 0, T).setZero();
            headView(dv, dims, dims.ld_v, b, g, 0, T).setZero();
            for (Index h = g * group; h < (g + 1) * group; ++h)
                headView(dq, dims, dims.ld_q, b, h, 0, T).setZero();
            for (Index k0 = 0; k0 < T; k0 += Bc) {
                const Index cols = std::min(Bc, T - k0);
                const auto Kj = headView(k, dims, dims.ld_k, b, g, k0, cols);
                const auto Vj = headView(v, dims, dims.ld_v, b, g, k0, cols);
                auto dKj = headView(dk, dims, dims.ld_k, b, g, k0, cols);
                auto dVj = headView(dv, dims, dims.ld_v, b, g, k0, cols);
                for (Index h = g * group; h < (g + 1) * group; ++h) {
                    const Index bh = b * H + h;
                    const S *L = lse + bh * T;
                    const S *D = row_dot + bh * T;
                    // Query rows above k0 see none of this block's keys.
                    for (Index q0 = k0 / Br * Br; q0 < T; q0 += Br) {
                        const Index rows = std::min(Br, T - q0);
                        const auto Qi = headView(q, dims, dims.ld_q, b, h, q0, rows);
                        const auto dOi = headView(dout, dims, dims.ld_out, b, h, q0, rows);
                        auto P = viewOf(p_block, rows, cols, Bc);
                        auto dP = viewOf(dp_block, rows, cols, Bc);
                        P.noalias() = Qi * Kj.transpose();
                        for (Index r = 0; r < rows; ++r) {
                            S *row = p_block + r * Bc;
                            const Index visible = visibleKeys(q0, r, k0, cols);
                            ArrayView<S> seen(row, visible);
                            seen = (seen * scale - L[q0 + r]).exp();
                            std::fill(row + visible, row + cols, S(0));
                        }
                        dVj.noalias() += P.transpose() * dOi;
                        dP.noalias() = dOi * Vj.transpose();
                        for (Index r = 0; r < rows; ++r) {
                            ArrayView<S> dp_row(dp_block + r * Bc, cols);
                            dp_row = ConstArrayView<S>(p_block + r * Bc, cols) * (dp_row - D[q0 + r]) * scale;
                        }
                        headView(dq, dims, dims.ld_q, b, h, q0, rows).noalias() += dP * Kj;
                        dKj.noalias() += dP.transpose() * Qi;
                    }
                }
            }
        }
    }
}

#define LSE_INSTANTIATE(S)                                                                                         \
    template void tiledAttentionForward<S>(const S *, const S *, const S *, S *, S *, const AttentionDims &,         \
                                           const AttentionBlocks &, S *, int);                                     \
    template void tiledAttentionBackward<S>(const S *, const S *, const S *, const S *, const S *, const S *, S *,  \
                                            S *, S *, S *, const AttentionDims &, const AttentionBlocks &, S *, int);
LSE_INSTANTIATE(float)
LSE_INSTANTIATE(double)
#undef LSE_INSTANTIATE

}  // namespace lse::reference
