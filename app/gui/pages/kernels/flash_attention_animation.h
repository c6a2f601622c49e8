// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kernels/flash_attention_steps.h"

#include <QWidget>

#include <memory>
#include <vector>

namespace lse::gui {

// The FlashAttention tab's picture of one step (core/kernels/flash_attention_steps.h): HBM with
// Q, K, V, O (and S, P for standard attention; ℓ and m, or L for FlashAttention-2), the tiles the
// step reads or writes marked in them; the SRAM of one SM with its capacity M, the tiles resident
// after the step and the bytes in use; the T_r × T_c blocks of the score matrix, computed, current,
// skipped (causal) or still to come; and the step's HBM traffic between the two. Painted from the
// step's fields only: every number is core's.
class FlashAttentionAnimation : public QWidget {
    Q_OBJECT
public:
    enum class BlockState { Pending, Computed, Current, Skipped };

    explicit FlashAttentionAnimation(QWidget *parent = nullptr);

    // The steps to show (nullptr: none, e.g. while the inputs are refused); the step is reset to 0.
    void setSteps(std::shared_ptr<const kernels::AttentionSteps> steps);
    // 0 = before the first step, k = after steps[k − 1].
    void setStep(int step);
    int step() const { return step_; }
    // Block (i, j) of the score matrix at the current step; Pending outside the grid. Standard
    // attention computes every block in its first step.
    BlockState blockState(std::int64_t i, std::int64_t j) const;
    int blockCount(BlockState state) const;

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void updateBlockStates();
    BlockState standardState() const;  // every block's, for standard attention
    // Side by side (HBM | traffic | SRAM | blocks) when the widget is this wide, else in two rows.
    bool wideAt(int width) const;

    std::shared_ptr<const kernels::AttentionSteps> steps_;
    int step_ = 0;
    std::vector<BlockState> block_states_;  // row-major T_r × T_c at step_
};

}  // namespace lse::gui
