// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernels/flash_attention_io.h"

#include "hardware/memory_hierarchy.h"
#include "ops/flop_rules.h"
#include "roofline/roofline.h"

#include <algorithm>
#include <string>

namespace lse::kernels {

namespace {

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// ops/flop_rules.h's matmul (2·m·n·k, a multiply-add is 2 FLOPs) in integers, so counts stay exact.
std::int64_t matmulFlops(std::int64_t m, std::int64_t n, std::int64_t k) { return 2 * m * n * k; }

void checkRange(Problems &problems, const char *field, std::int64_t value, std::int64_t minimum, std::int64_t maximum,
                const char *what)
{
    if (value >= minimum && value <= maximum)
        return;
    problems.push_back(Problem{field, "range",
                               std::string(field) + " (" + what + ") is " + std::to_string(value) + "; it must be from "
                                   + std::to_string(minimum) + " to " + std::to_string(maximum)});
}

// Queries the causal forward visits in K/V block j: from the first Q block not wholly above the
// diagonal, floor(j·B_c / B_r), to the end (block (i, j) is masked iff j·B_c ≥ (i+1)·B_r).
std::int64_t firstComputedRowBlock(const AttentionConfig &config, const AttentionBlocks &blocks, std::int64_t j)
{
    return config.causal ? j * blocks.block_columns / blocks.block_rows : 0;
}

std::int64_t rowsVisitedBefore(const AttentionConfig &config, const AttentionBlocks &blocks, std::int64_t j,
                               std::int64_t i)
{
    const std::int64_t first_row = firstComputedRowBlock(config, blocks, j) * blocks.block_rows;
    return std::max<std::int64_t>(0, std::min(i * blocks.block_rows, config.sequence_length) - first_row);
}

// Keys the causal FlashAttention-2 forward visits for Q block i, before K/V block j: its K/V
// blocks run up to the one holding its last query, ⌈min((i+1)·B_r, N) / B_c⌉ of them.
std::int64_t columnBlocksComputed(const AttentionConfig &config, const AttentionBlocks &blocks, std::int64_t i)
{
    if (!config.causal)
        return blocks.column_blocks;
    const std::int64_t last_query_end = std::min((i + 1) * blocks.block_rows, config.sequence_length);
    return ceilDiv(last_query_end, blocks.block_columns);
}

}  // namespace

Problems validateAttentionConfig(const AttentionConfig &config)
{
    Problems problems;
    checkRange(problems, "sequence_length", config.sequence_length, 1, kMaxSequenceLength, "N");
    checkRange(problems, "head_dim", config.head_dim, 1, kMaxHeadDim, "d");
    checkRange(problems, "element_bytes", config.element_bytes, 1, kMaxElementBytes, "E");
    checkRange(problems, "sram_bytes", config.sram_bytes, 1, kMaxSramBytes, "M");
    checkRange(problems, "block_rows", config.block_rows, 0, kMaxSequenceLength, "B_r, 0 = from M");
    checkRange(problems, "block_columns", config.block_columns, 0, kMaxSequenceLength, "B_c, 0 = from M");
    if (problems.empty() && (config.block_rows > 0 || config.block_columns > 0)) {
        const AttentionBlocks blocks = attentionBlocks(config);
        const std::int64_t tiles = (2 * blocks.block_rows + 2 * blocks.block_columns) * config.head_dim * config.element_bytes;
        if (tiles > config.sram_bytes)
            problems.push_back(Problem{config.block_rows > 0 ? "block_rows" : "block_columns", "fits",
                                       "block_rows " + std::to_string(blocks.block_rows) + " and block_columns "
                                           + std::to_string(blocks.block_columns) + ": Q_i, O_i, K_j and V_j take "
                                           + std::to_string(tiles) + " bytes, more than sram_bytes (M) "
                                           + std::to_string(config.sram_bytes),
                                       {"sram_bytes", "head_dim", "block_rows", "block_columns"}});
        return problems;
    }
    if (problems.empty() && config.sram_bytes < 4 * config.head_dim * config.element_bytes)
        problems.push_back(Problem{"sram_bytes", "fits",
                                   "sram_bytes (M) is " + std::to_string(config.sram_bytes)
                                       + "; it must hold one row each of Q, K, V and O, 4·d·E = "
                                       + std::to_string(4 * config.head_dim * config.element_bytes) + " bytes",
                                   {"head_dim", "element_bytes"}});
    return problems;
}

AttentionBlocks attentionBlocks(const AttentionConfig &config)
{
    AttentionBlocks blocks;
    const std::int64_t n = config.sequence_length;
    // Dao et al. 2022 Algorithm 1 line 1, computed where the roofline's FlashAttention operator takes
    // its tiles (roofline.h flashTileColumns/flashTileRows), so the two never disagree.
    const int element_bytes = int(config.element_bytes);
    blocks.block_columns = std::min(n, config.block_columns > 0 ? config.block_columns
                                                              : flashTileColumns(config.sram_bytes, element_bytes, config.head_dim));
    blocks.block_rows = std::min(n, config.block_rows > 0 ? config.block_rows
                                                        : flashTileRows(config.sram_bytes, element_bytes, config.head_dim));
    blocks.row_blocks = ceilDiv(n, blocks.block_rows);
    blocks.column_blocks = ceilDiv(n, blocks.block_columns);
    return blocks;
}

std::int64_t rowsInBlock(const AttentionConfig &config, const AttentionBlocks &blocks, std::int64_t i)
{
    return std::min(blocks.block_rows, config.sequence_length - i * blocks.block_rows);
}

std::int64_t columnsInBlock(const AttentionConfig &config, const AttentionBlocks &blocks, std::int64_t j)
{
    return std::min(blocks.block_columns, config.sequence_length - j * blocks.block_columns);
}

bool blockFullyMasked(const AttentionConfig &config, const AttentionBlocks &blocks, std::int64_t i, std::int64_t j)
{
    if (!config.causal)
        return false;
    return j * blocks.block_columns >= std::min((i + 1) * blocks.block_rows, config.sequence_length);
}

std::int64_t flashForwardBlockFlops(std::int64_t rows, std::int64_t columns, std::int64_t head_dim)
{
    return 2 * matmulFlops(rows, columns, head_dim)  // S = QKᵀ, P̃V
         + kFlashScoreFlops * rows * columns + kFlashRowFlops * rows + kFlashOutputFlops * rows * head_dim;
}

std::int64_t flash2ForwardBlockFlops(std::int64_t rows, std::int64_t columns, std::int64_t head_dim)
{
    return 2 * matmulFlops(rows, columns, head_dim) + kFlashScoreFlops * rows * columns + kFlash2RowFlops * rows
         + kFlash2OutputFlops * rows * head_dim;
}

std::int64_t flashBackwardBlockFlops(std::int64_t rows, std::int64_t columns, std::int64_t head_dim)
{
    return 5 * matmulFlops(rows, columns, head_dim) + kFlashBackwardScoreFlops * rows * columns
         + kFlashBackwardRowStatFlopsPerElement * rows * head_dim;
}

std::int64_t flash2BackwardBlockFlops(std::int64_t rows, std::int64_t columns, std::int64_t head_dim)
{
    // S, dV += PᵀdO, dP = dO·Vᵀ, dQ += dS·K, dK += dSᵀQ (lines 10, 12, 13, 15, 16).
    return 5 * matmulFlops(rows, columns, head_dim) + kFlash2BackwardScoreFlops * rows * columns;
}

Result<std::int64_t> defaultSramBytes(const Accelerator &accelerator)
{
    const std::int64_t per_sm = anatomyOf(accelerator).sram_bytes_per_sm;
    if (per_sm <= 0)
        return Result<std::int64_t>::failure("sram_bytes", "unknown",
                                             "sram_bytes: " + accelerator.id + " publishes no shared memory per SM; give the SRAM size");
    return per_sm;
}

IoCounts flashForwardPrefix(const AttentionConfig &config, const AttentionBlocks &blocks, std::int64_t j,
                            bool key_value_loaded, std::int64_t i)
{
    const std::int64_t n = config.sequence_length, d = config.head_dim, e = config.element_bytes;
    IoCounts counts;
    counts.written_bytes = (n * d + 2 * n) * e;  // line 2: O = 0, ℓ = 0, m = −∞ in HBM
    const auto visit = [&](std::int64_t column_block, std::int64_t rows) {
        const std::int64_t columns = columnsInBlock(config, blocks, column_block);
        counts.read_bytes += rows * (2 * d + 2) * e;  // line 8: Q_i, O_i, ℓ_i, m_i
        counts.written_bytes += rows * (d + 2) * e;   // lines 12-13: O_i, ℓ_i, m_i
        counts.flops += flashForwardBlockFlops(rows, columns, d);  // linear in the rows
    };
    for (std::int64_t column_block = 0; column_block < j; ++column_block) {
        counts.read_bytes += 2 * columnsInBlock(config, blocks, column_block) * d * e;  // line 6: K_j, V_j
        visit(column_block, rowsVisitedBefore(config, blocks, column_block, blocks.row_blocks));
    }
    if (j < blocks.column_blocks && key_value_loaded) {
        counts.read_bytes += 2 * columnsInBlock(config, blocks, j) * d * e;
        visit(j, rowsVisitedBefore(config, blocks, j, i));
    }
    return counts;
}

IoCounts flash2ForwardPrefix(const AttentionConfig &config, const AttentionBlocks &blocks, std::int64_t i,
                             bool query_loaded, std::int64_t j)
{
    const std::int64_t n = config.sequence_length, d = config.head_dim, e = config.element_bytes;
    IoCounts counts;
    // K/V blocks 0..count−1 of Q block `row_block`: K_j, V_j read (line 7) and the block computed.
    const auto visit = [&](std::int64_t row_block, std::int64_t count) {
        const std::int64_t rows = rowsInBlock(config, blocks, row_block);
        const std::int64_t keys = std::min(count * blocks.block_columns, n);
        counts.read_bytes += 2 * keys * d * e;
        counts.flops += 2 * matmulFlops(rows, keys, d) + kFlashScoreFlops * rows * keys
                      + count * (kFlash2RowFlops * rows + kFlash2OutputFlops * rows * d);
    };
    for (std::int64_t row_block = 0; row_block < i; ++row_block) {
        const std::int64_t rows = rowsInBlock(config, blocks, row_block);
        counts.read_bytes += rows * d * e;  // line 4: Q_i
        visit(row_block, columnBlocksComputed(config, blocks, row_block));
        counts.flops += kFlash2FinalOutputFlops * rows * d + kFlash2FinalRowFlops * rows;  // lines 12-13
        counts.written_bytes += rows * (d + 1) * e;  // lines 14-15: O_i, L_i
    }
    if (i < blocks.row_blocks && query_loaded) {
        counts.read_bytes += rowsInBlock(config, blocks, i) * d * e;
        visit(i, std::min(j, columnBlocksComputed(config, blocks, i)));
    }
    return counts;
}

Result<AttentionIo> attentionIo(const AttentionConfig &config)
{
    if (Problems problems = validateAttentionConfig(config); !problems.empty())
        return problems;
    const std::int64_t n = config.sequence_length, d = config.head_dim, e = config.element_bytes;
    AttentionIo io;
    io.blocks = attentionBlocks(config);
    const AttentionBlocks &b = io.blocks;

    // Algorithm 0: S = QKᵀ (read Q, K; write S), P = softmax(S) (read S; write P), O = PV (read P, V; write O).
    io.standard_forward.read_bytes = (2 * n * d + n * n + n * n + n * d) * e;
    io.standard_forward.written_bytes = (n * n + n * n + n * d) * e;
    io.standard_forward.flops = 2 * matmulFlops(n, n, d) + std::int64_t(flop_rules::kSoftmax) * n * n;

    io.flash_forward = flashForwardPrefix(config, b, b.column_blocks, false, 0);
    io.flash2_forward = flash2ForwardPrefix(config, b, b.row_blocks, false, 0);

    // Algorithm 3: dV = PᵀdO, dP = dO·Vᵀ, dS, dQ = dS·K, dK = dSᵀQ.
    io.standard_backward.read_bytes = ((n * n + n * d) + 2 * n * d + 2 * n * n + (n * n + n * d) + (n * n + n * d)) * e;
    io.standard_backward.written_bytes = (n * d + n * n + n * n + n * d + n * d) * e;
    io.standard_backward.flops = 4 * matmulFlops(n, n, d) + kStandardBackwardScoreFlops * n * n;

    // Algorithm 4, summed per K/V block j over the R(j) queries it visits.
    io.flash_backward.written_bytes = 3 * n * d * e;  // line 5: dQ, dK, dV = 0 in HBM
    for (std::int64_t j = 0; j < b.column_blocks; ++j) {
        const std::int64_t columns = columnsInBlock(config, b, j);
        const std::int64_t rows = rowsVisitedBefore(config, b, j, b.row_blocks);
        io.flash_backward.read_bytes += 2 * columns * d * e;               // line 7: K_j, V_j
        io.flash_backward.written_bytes += 2 * columns * d * e;            // line 24: dK_j, dV_j
        io.flash_backward.read_bytes += rows * (4 * d + 2) * e;            // line 10: Q_i, O_i, dO_i, dQ_i, ℓ_i, m_i
        io.flash_backward.written_bytes += rows * d * e;                   // line 21: dQ_i
        io.flash_backward.flops += flashBackwardBlockFlops(rows, columns, d);  // linear in the rows
        io.computed_blocks += b.row_blocks - firstComputedRowBlock(config, b, j);
    }
    io.skipped_blocks = b.row_blocks * b.column_blocks - io.computed_blocks;

    // Dao 2023 Algorithm 2, summed per K/V block the same way.
    io.flash2_backward.written_bytes = n * d * e;                     // line 3: dQ = 0 in HBM
    io.flash2_backward.read_bytes = 2 * n * d * e;                    // line 4: dO, O
    io.flash2_backward.written_bytes += n * e;                        //         D
    io.flash2_backward.flops = kFlashBackwardRowStatFlopsPerElement * n * d;
    for (std::int64_t j = 0; j < b.column_blocks; ++j) {
        const std::int64_t columns = columnsInBlock(config, b, j);
        const std::int64_t rows = rowsVisitedBefore(config, b, j, b.row_blocks);
        io.flash2_backward.read_bytes += 2 * columns * d * e;     // line 6: K_j, V_j
        io.flash2_backward.written_bytes += 2 * columns * d * e;  // line 18: dK_j, dV_j
        io.flash2_backward.read_bytes += rows * (4 * d + 2) * e;  // line 9: Q_i, O_i, dO_i, dQ_i, L_i, D_i
        io.flash2_backward.written_bytes += rows * d * e;         // line 15: dQ_i
        io.flash2_backward.flops += flash2BackwardBlockFlops(rows, columns, d);
    }
    io.standard_extra_memory_bytes = 2 * n * n * e;
    io.flash_extra_memory_bytes = 2 * n * e;
    return io;
}

}  // namespace lse::kernels
