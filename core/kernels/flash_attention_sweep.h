// SPDX-License-Identifier: GPL-3.0-or-later
// The series a chart of FlashAttention's IO plots: attentionIo (flash_attention_io.h) over sequence
// lengths N (standard grows with N², FlashAttention with N²d²/M, Dao et al. 2022 Theorem 2) or over
// SRAM sizes M (FlashAttention's traffic falls as 1/M until one block holds the whole sequence).
#pragma once

#include "common/problem.h"
#include "kernels/flash_attention_io.h"

#include <cstdint>
#include <vector>

namespace lse::kernels {

struct AttentionIoPoint {
    std::int64_t sequence_length = 0;
    std::int64_t sram_bytes = 0;
    AttentionIo io;
};

inline constexpr std::size_t kMaxAttentionSweepPoints = 1000;

// `base` with sequence_length (or sram_bytes) replaced by each value in turn. Problems: "values"
// when empty or longer than kMaxAttentionSweepPoints; a point's own problems with the field named
// and the value quoted ("sequence_length[3]: ...").
Result<std::vector<AttentionIoPoint>> attentionIoOverSequenceLength(const AttentionConfig &base,
                                                                    const std::vector<std::int64_t> &values);
Result<std::vector<AttentionIoPoint>> attentionIoOverSram(const AttentionConfig &base,
                                                          const std::vector<std::int64_t> &values);

// first, 2·first, 4·first, … up to last (inclusive when a power-of-two multiple); empty if first < 1.
std::vector<std::int64_t> doublingSeries(std::int64_t first, std::int64_t last);

}  // namespace lse::kernels
