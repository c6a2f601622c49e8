// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_data.h"
#include "tensors/tensor_chain.h"

#include <QCoreApplication>
#include <QPalette>

namespace lse::gui {

// The Tensors page's drawing of one step of a chain, as ChartData rectangles (so ChartView exports it):
// the logical n-d array as a grid of 2-D slices (last two dimensions), each cell labelled with the value
// it holds and its address on hover, and below it the 1-D storage with the cells the view uses in colour.
// When the step copied, the original storage is drawn too, greyed: the view no longer uses it.
class TensorLayoutChart {
    Q_DECLARE_TR_FUNCTIONS(lse::gui::TensorLayoutChart)
public:
    // Views larger than this are listed in the table but not drawn.
    static constexpr std::int64_t kMaxDrawnElements = 512;

    // `step` 0 is the starting tensor, k the result of op k; a failed op draws the view it was applied to.
    static ChartData build(const tensors::TensorChain &chain, int step, const QPalette &palette);
    // The view drawn for `step` (the last successful one at or before it) and the storage values it reads.
    static const tensors::TensorView &viewAt(const tensors::TensorChain &chain, int step);
    static const std::vector<std::int64_t> &valuesAt(const tensors::TensorChain &chain, int step);
    // "x[1, 0, 2] → storage index = 0 + 1·4 + 0·12 + 2·1 = 6": the hover text of a logical cell.
    static QString addressText(const tensors::TensorView &view, const tensors::Sizes &indices);
};

}  // namespace lse::gui
