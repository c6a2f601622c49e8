// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/kernels/flash_attention_text.h"

#include "pages/page_format.h"

#include <QLocale>

namespace lse::gui {

using kernels::AttentionAlgorithm;
using kernels::AttentionStepKind;

QString FlashAttentionText::algorithmName(AttentionAlgorithm algorithm)
{
    switch (algorithm) {
    case AttentionAlgorithm::Standard: return tr("Standard attention");
    case AttentionAlgorithm::Flash: return tr("FlashAttention");
    case AttentionAlgorithm::Flash2: return tr("FlashAttention-2 loop order");
    }
    return {};
}

QString FlashAttentionText::algorithmSource(AttentionAlgorithm algorithm)
{
    switch (algorithm) {
    case AttentionAlgorithm::Standard: return tr("Dao et al. 2022, Algorithm 0");
    case AttentionAlgorithm::Flash: return tr("Dao et al. 2022, Algorithm 1");
    case AttentionAlgorithm::Flash2: return tr("Dao 2023, Algorithm 1");
    }
    return {};
}

QString FlashAttentionText::subscript(std::int64_t value)
{
    static const char16_t kDigits[] = u"₀₁₂₃₄₅₆₇₈₉";
    QString text;
    for (QChar digit : QString::number(value))
        text += digit.isDigit() ? QChar(kDigits[digit.digitValue()]) : digit;
    return text;
}

QString FlashAttentionText::kibibytes(std::int64_t bytes)
{
    // Whole KiB as the CUDA guide quotes them; a fraction only when M is not a whole number of KiB.
    return bytes % 1024 == 0 ? tr("%1 KiB").arg(QLocale().toString(qlonglong(bytes / 1024)))
                             : tr("%1 KiB").arg(format::decimal(double(bytes) / 1024.0, 2));
}

QString FlashAttentionText::fieldLabel(std::string_view field)
{
    if (field == "sequence_length")
        return tr("N (sequence length)");
    if (field == "head_dim")
        return tr("d (head dimension)");
    if (field == "sram_bytes")
        return tr("M (SRAM bytes)");
    if (field == "element_bytes")
        return tr("element size");
    if (field == "block_rows")
        return tr("B_r (query rows per block)");
    if (field == "block_columns")
        return tr("B_c (keys per block)");
    return format::fromStd(field);
}

QString FlashAttentionText::stepCaption(const kernels::AttentionSteps &steps, int step)
{
    const int count = int(steps.steps.size());
    if (step <= 0)
        return tr("<b>Before the first step</b>: Q, K and V are in HBM, SRAM is empty and nothing has been "
                  "read or written.");
    const kernels::AttentionStep &s = steps.steps.at(std::size_t(step - 1));
    const QString head = tr("<b>Step %1 of %2</b>: ").arg(step).arg(count);
    const QString i = QString::number(s.row_block);
    const QString j = QString::number(s.column_block);
    const bool flash2 = steps.algorithm == AttentionAlgorithm::Flash2;
    switch (s.kind) {
    case AttentionStepKind::ComputeScores:
        return head + tr("read Q and K from HBM, compute S = QKᵀ and write the whole N×N matrix S to HBM "
                         "(Algorithm 0 line 1).");
    case AttentionStepKind::ComputeSoftmax:
        return head + tr("read S back, compute P = softmax(S) row by row and write the N×N matrix P to HBM "
                         "(line 2).");
    case AttentionStepKind::ComputeOutput:
        return head + tr("read P and V, compute O = PV and write O (line 3).");
    case AttentionStepKind::Initialise:
        return head + tr("initialise O = 0, ℓ = 0 and m = −∞ in HBM (Algorithm 1 line 2).");
    case AttentionStepKind::LoadKeyValueBlock:
        return head + tr("load K<sub>%1</sub> and V<sub>%1</sub> into SRAM; they stay there while the inner loop "
                         "visits every Q block (line 6).")
                          .arg(j);
    case AttentionStepKind::ComputeBlock:
        if (flash2)
            return head + tr("block (%1, %2): load K<sub>%2</sub> and V<sub>%2</sub>; on chip S = Q<sub>%1</sub>"
                             "K<sub>%2</sub>ᵀ, update m and ℓ, O<sub>%1</sub> ← diag(e<sup>m_old − m_new</sup>)"
                             "O<sub>%1</sub> + P̃V<sub>%2</sub>; O<sub>%1</sub> stays in SRAM (Dao 2023 Algorithm 1 "
                             "lines 6–10).")
                              .arg(i, j);
        return head + tr("block (%1, %2): load Q<sub>%1</sub>, O<sub>%1</sub>, ℓ<sub>%1</sub>, m<sub>%1</sub>; on "
                         "chip S = Q<sub>%1</sub>K<sub>%2</sub>ᵀ, the block's row max and sum, new m and ℓ, "
                         "O<sub>%1</sub> rescaled and P̃V<sub>%2</sub> added; write O<sub>%1</sub>, ℓ<sub>%1</sub>, "
                         "m<sub>%1</sub> back (lines 8–13).")
                          .arg(i, j);
    case AttentionStepKind::SkipBlock:
        return head + tr("block (%1, %2) lies wholly above the diagonal: its first key comes after its last "
                         "query, so the causal mask hides all of it. Nothing is loaded or computed.")
                          .arg(i, j);
    case AttentionStepKind::LoadQueryBlock:
        return head + tr("load Q<sub>%1</sub> into SRAM; O<sub>%1</sub>, ℓ<sub>%1</sub> and m<sub>%1</sub> start on "
                         "chip as 0, 0 and −∞ (Dao 2023 Algorithm 1 line 4).")
                          .arg(i);
    case AttentionStepKind::WriteOutputBlock:
        return head + tr("O<sub>%1</sub> ← diag(ℓ<sub>%1</sub>)⁻¹O<sub>%1</sub> and L<sub>%1</sub> = m<sub>%1</sub> "
                         "+ log ℓ<sub>%1</sub>, each written to HBM once (lines 12–15).")
                          .arg(i);
    }
    return head;
}

}  // namespace lse::gui
