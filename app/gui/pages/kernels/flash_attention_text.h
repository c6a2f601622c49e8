// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kernels/flash_attention_steps.h"

#include <QCoreApplication>
#include <QString>

#include <cstdint>
#include <string_view>

namespace lse::gui {

// The FlashAttention tab's words: the algorithms' names and sources, what each step of the
// animation does (with the line of the paper's algorithm it is), and the input fields' names for
// problem messages. Text only; every number passed in comes from core/kernels.
class FlashAttentionText {
    Q_DECLARE_TR_FUNCTIONS(FlashAttentionText)
public:
    static QString algorithmName(kernels::AttentionAlgorithm algorithm);
    // "Dao et al. 2022, Algorithm 1" and the like.
    static QString algorithmSource(kernels::AttentionAlgorithm algorithm);
    // Rich text: what step `step` (1-based; 0 = before the first) of `steps` does.
    static QString stepCaption(const kernels::AttentionSteps &steps, int step);
    // The input's label for a core field name ("sequence_length" → "N (sequence length)").
    static QString fieldLabel(std::string_view field);
    // 12 → "₁₂": block indices in painted labels (Q₂, K₁).
    static QString subscript(std::int64_t value);
    // Bytes in KiB as the CUDA guide quotes shared memory ("164 KiB").
    static QString kibibytes(std::int64_t bytes);
};

}  // namespace lse::gui
