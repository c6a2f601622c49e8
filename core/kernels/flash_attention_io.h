// SPDX-License-Identifier: GPL-3.0-or-later
// HBM traffic and FLOPs of one attention head (one sequence of N tokens, head dimension d), counted
// exactly as the algorithms run, not only to their order:
//  - standard attention (Dao et al. 2022, "FlashAttention", Algorithm 0 forward, Algorithm 3 backward):
//    S = QKᵀ and P = softmax(S) are written to and read back from HBM;
//  - FlashAttention (Dao et al. 2022, Algorithm 1 forward, Algorithm 4 backward without dropout):
//    outer loop over K/V blocks, inner loop over Q blocks, O, ℓ and m read and written per block;
//  - FlashAttention-2's loop order (Dao 2023, Algorithm 1): outer loop over Q blocks, O, ℓ, m kept
//    in SRAM and written once (O and the log-sum-exp L).
// With a causal mask, blocks whose every entry is masked are neither loaded nor computed (Dao 2023
// §3.1.1); a partly masked block is computed whole and masked. Standard attention materialises and
// masks the whole N×N matrix (as a naive implementation does), so its counts do not change.
//
// Counting conventions (the same as ops/flop_rules.h): a multiply-add is 2 FLOPs, an exp, max or
// compare 1. An accumulating product C += A·B counts 2mnk like a GEMM with β = 1. The softmax scale
// τ = 1/√d is folded into Q (as implementations do), so it costs nothing here. ℓ and m are stored at
// the element size E, like the matrices (the paper counts elements).
#pragma once

#include "common/problem.h"
#include "hardware/accelerator.h"

#include <cstdint>

namespace lse::kernels {

struct AttentionConfig {
    std::int64_t sequence_length = 0;  // N
    std::int64_t head_dim = 0;         // d
    std::int64_t sram_bytes = 0;       // M, on-chip memory of one SM in bytes
    std::int64_t element_bytes = 2;    // E, bytes per element (2 for bf16/fp16)
    bool causal = false;
    // Chosen block sizes instead of Algorithm 1's (0 = from M): e.g. FlashAttention-2's 128 query
    // rows × 64 keys. The tiles Q_i, O_i, K_j, V_j must fit: (2·B_r + 2·B_c)·d·E ≤ M.
    std::int64_t block_rows = 0;
    std::int64_t block_columns = 0;
};

// Bounds that keep every count exact in 64 bits (N²·d·E < 2^63) and a configuration meaningful.
inline constexpr std::int64_t kMaxSequenceLength = 1 << 20;
inline constexpr std::int64_t kMaxHeadDim = 1024;
inline constexpr std::int64_t kMaxElementBytes = 8;
inline constexpr std::int64_t kMaxSramBytes = std::int64_t(1) << 30;

// Every problem at once; fields "sequence_length", "head_dim", "sram_bytes", "element_bytes",
// "block_rows", "block_columns".
// SRAM must hold one row each of Q, K, V and O (M ≥ 4·d·E), else B_c = ⌈M/(4dE)⌉ would not fit.
Problems validateAttentionConfig(const AttentionConfig &config);

// The model's default M for an accelerator: the shared memory one SM can give its thread blocks
// (hardware/memory_hierarchy.h anatomyOf: the catalog's sram_bytes / sm_count, e.g. 164 KiB on the
// A100, 228 KiB on the H100, H200 and B200; CUDA C++ Programming Guide, compute capabilities 8.0,
// 9.0, 10.0). Problem "sram_bytes" {rule "unknown"} when the catalog has none (TPU).
Result<std::int64_t> defaultSramBytes(const Accelerator &accelerator);

// Block sizes of Dao et al. 2022 Algorithm 1 line 1 with M in bytes: B_c = ⌈M/(4dE)⌉ columns (keys)
// per K/V block, B_r = min(B_c, d) rows (queries) per Q block, T_r = ⌈N/B_r⌉, T_c = ⌈N/B_c⌉ blocks.
// (⌈⌊M/E⌋/(4d)⌉ exactly, as roofline.h flashTileColumns counts M in whole elements.) B_c and B_r
// are capped at N (a block larger than the sequence holds the whole sequence). Chosen sizes replace them.
struct AttentionBlocks {
    std::int64_t block_rows = 0;     // B_r
    std::int64_t block_columns = 0;  // B_c
    std::int64_t row_blocks = 0;     // T_r
    std::int64_t column_blocks = 0;  // T_c
};
AttentionBlocks attentionBlocks(const AttentionConfig &config);  // expects a valid config

// Rows of Q block i (0-based) and columns of K/V block j: B_r and B_c except a shorter last block.
std::int64_t rowsInBlock(const AttentionConfig &config, const AttentionBlocks &blocks, std::int64_t i);
std::int64_t columnsInBlock(const AttentionConfig &config, const AttentionBlocks &blocks, std::int64_t j);
// Causal mask: block (i, j) is skipped when its first key comes after its last query
// (j·B_c ≥ min((i+1)·B_r, N)); every entry of it would be masked.
bool blockFullyMasked(const AttentionConfig &config, const AttentionBlocks &blocks, std::int64_t i, std::int64_t j);

// HBM bytes read and written and FLOPs; arithmetic intensity = FLOPs / HBM bytes.
struct IoCounts {
    std::int64_t read_bytes = 0;
    std::int64_t written_bytes = 0;
    std::int64_t flops = 0;
    std::int64_t hbmBytes() const { return read_bytes + written_bytes; }
    double arithmeticIntensity() const { return hbmBytes() > 0 ? double(flops) / double(hbmBytes()) : 0.0; }
    IoCounts &operator+=(const IoCounts &other)
    {
        read_bytes += other.read_bytes;
        written_bytes += other.written_bytes;
        flops += other.flops;
        return *this;
    }
    friend IoCounts operator+(IoCounts a, const IoCounts &b) { return a += b; }
    bool operator==(const IoCounts &) const = default;
};

// Per-element and per-row FLOPs of the tiled algorithms, by the conventions above.
// Forward, per score of a computed block: rowmax, subtract the max, exp, rowsum.
inline constexpr std::int64_t kFlashScoreFlops = 4;
// FlashAttention forward, per row and block (Algorithm 1 lines 11-12): m_new = max(m, m̃) 1,
// e^{m−m_new} 2, e^{m̃−m_new} 2, ℓ_new = e^{..}ℓ + e^{..}ℓ̃ 3, the coefficient ℓ·e^{m−m_new} of O 1.
inline constexpr std::int64_t kFlashRowFlops = 9;
// … and per output element: scale O, scale P̃V, add, divide by ℓ_new (Algorithm 1 line 12).
inline constexpr std::int64_t kFlashOutputFlops = 4;
// FlashAttention-2 forward, per row and block: max 1, m−m_new 1, exp 1, ×ℓ 1, +rowsum 1 (Dao 2023
// Algorithm 1 line 9); per output element and block (line 10): diag(e^{m−m_new})·O + P̃V, 2.
inline constexpr std::int64_t kFlash2RowFlops = 5;
inline constexpr std::int64_t kFlash2OutputFlops = 2;
// FlashAttention-2 forward, once per row block (lines 12-13): O ← diag(ℓ)⁻¹O per element 1, and
// L = m + log ℓ per row 2.
inline constexpr std::int64_t kFlash2FinalOutputFlops = 1;
inline constexpr std::int64_t kFlash2FinalRowFlops = 2;
// Backward, per score: recompute P = diag(ℓ)⁻¹exp(S − m) 3, dS = P∘(dP − D) 2 (Algorithm 4 lines
// 13 and 20); standard backward's dS = P∘(dP − rowsum(P∘dP)) 4 per score (Algorithm 3 line 3).
inline constexpr std::int64_t kFlashBackwardScoreFlops = 5;
inline constexpr std::int64_t kStandardBackwardScoreFlops = 4;
// Flash backward per row and block: D_i = rowsum(dO_i∘O_i), 2 per element of the d-wide row,
// recomputed in every inner iteration as Algorithm 4 line 19 is written.
inline constexpr std::int64_t kFlashBackwardRowStatFlopsPerElement = 2;
// FlashAttention-2 backward (Dao 2023 Algorithm 2), per score: P = exp(S − L) 2 (line 11), dS =
// P∘(dP − D) 2 (line 14); D = rowsum(dO∘O) is computed once before the loop (line 4), 2 per
// element of dO.
inline constexpr std::int64_t kFlash2BackwardScoreFlops = 4;

// The FLOPs of one computed block of `rows` queries × `columns` keys in the FlashAttention
// (Algorithm 1) and FlashAttention-2 forward, and the FlashAttention backward (Algorithm 4):
// forward: S = QKᵀ and P̃V, 2·2·r·c·d; backward: S, dV += PᵀdO, dP = dO·Vᵀ, dQ += dS·K,
// dK += dSᵀQ, 5·2·r·c·d.
std::int64_t flashForwardBlockFlops(std::int64_t rows, std::int64_t columns, std::int64_t head_dim);
std::int64_t flash2ForwardBlockFlops(std::int64_t rows, std::int64_t columns, std::int64_t head_dim);
std::int64_t flashBackwardBlockFlops(std::int64_t rows, std::int64_t columns, std::int64_t head_dim);
std::int64_t flash2BackwardBlockFlops(std::int64_t rows, std::int64_t columns, std::int64_t head_dim);

struct AttentionIo {
    AttentionBlocks blocks;
    std::int64_t computed_blocks = 0;  // (i, j) blocks the tiled forward computes
    std::int64_t skipped_blocks = 0;   // fully masked (causal only)
    // Dao et al. 2022 Algorithm 0: reads 3Nd + 2N², writes Nd + 2N², i.e. (4Nd + 4N²)·E bytes;
    // FLOPs 4N²d (QKᵀ, PV) + 5N² (softmax, ops/flop_rules.h kSoftmax).
    IoCounts standard_forward;
    // Algorithm 1 as written: O = 0, ℓ = 0, m = −∞ initialised in HBM (Nd + 2N written), per K/V
    // block K_j, V_j loaded once (2Nd over the loop), per computed block Q_i, O_i, ℓ_i, m_i read and
    // O_i, ℓ_i, m_i written. Without the mask: reads 2Nd + T_c(2Nd + 2N), writes Nd + 2N + T_c(Nd + 2N)
    // elements — Θ(N²d²/M) (Theorem 2) since T_c ≈ 4NdE/M.
    IoCounts flash_forward;
    // Dao 2023 Algorithm 1: Q_i read once per row block, K_j, V_j per computed block, O_i and
    // L_i = m_i + log ℓ_i written once: reads Nd + T_r·2Nd, writes Nd + N without the mask.
    IoCounts flash2_forward;
    // Dao et al. 2022 Algorithm 3 (appendix B.1): reads P and dO, writes dV; reads dO, V, writes dP;
    // reads P, dP, writes dS; reads dS, K, writes dQ; reads dS, Q, writes dK: reads 5N² + 5Nd,
    // writes 2N² + 3Nd; FLOPs 8N²d + 4N².
    IoCounts standard_backward;
    // Algorithm 4 as written: dQ, dK, dV = 0 initialised in HBM (3Nd), per K/V block K_j, V_j read
    // and dK_j, dV_j written, per computed block Q_i, O_i, dO_i, dQ_i, ℓ_i, m_i read and dQ_i
    // written; S and P recomputed from Q, K, ℓ, m instead of read.
    IoCounts flash_backward;
    // Dao 2023 Algorithm 2 (FlashAttention-2's backward, the same outer loop over K/V blocks): dQ = 0
    // initialised in HBM (line 3, Nd); D = rowsum(dO∘O) read and written once (line 4: reads 2Nd,
    // writes N); per K/V block K_j, V_j read (line 6) and dK_j, dV_j written once (line 18, they start
    // on chip: line 7); per computed block Q_i, O_i, dO_i, dQ_i, L_i, D_i read (line 9) and dQ_i written
    // (line 15). Line 15's "load dQ_i" is the same read as line 9's, counted once. The one statistic
    // L = m + log ℓ replaces ℓ and m, and P = exp(S − L) needs no division.
    IoCounts flash2_backward;
    // HBM the algorithm needs beyond Q, K, V, O: S and P (2N²·E) vs ℓ and m (2N·E).
    std::int64_t standard_extra_memory_bytes = 0;
    std::int64_t flash_extra_memory_bytes = 0;
};

// The closed forms above, summed per K/V block (FlashAttention, backward) or per Q block
// (FlashAttention-2) — O(T_r + T_c), never per block. Problems from validateAttentionConfig.
Result<AttentionIo> attentionIo(const AttentionConfig &config);

// Closed forms of a prefix of the tiled forward passes (what the step animation has counted):
// FlashAttention after initialisation, K/V blocks 0..j−1 complete and, in K/V block j (whose K_j,
// V_j are loaded when `key_value_loaded`), Q blocks 0..i−1 visited.
IoCounts flashForwardPrefix(const AttentionConfig &config, const AttentionBlocks &blocks, std::int64_t j,
                            bool key_value_loaded, std::int64_t i);
// FlashAttention-2 after Q blocks 0..i−1 complete and, in Q block i (Q_i loaded when
// `query_loaded`), K/V blocks 0..j−1 visited (not yet written out).
IoCounts flash2ForwardPrefix(const AttentionConfig &config, const AttentionBlocks &blocks, std::int64_t i,
                             bool query_loaded, std::int64_t j);

}  // namespace lse::kernels
