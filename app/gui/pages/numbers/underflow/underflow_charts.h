// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Charts of the Underflow section, formatting only (every number comes from core/numbers): the
// log2 histogram of gradient magnitudes with FP16 and BF16 ranges shaded, and the dynamic
// loss-scaling simulation (scale over steps with the overflow steps marked, the loss, and the
// fraction of gradients flushed to zero in FP16 with and without the scale).

#include "charts/chart_data.h"
#include "numbers/gradient_histogram.h"
#include "numbers/loss_scaling.h"

#include <QCoreApplication>
#include <QPalette>

#include <vector>

namespace lse::gui {

class UnderflowCharts {
    Q_DECLARE_TR_FUNCTIONS(UnderflowCharts)
public:
    // `histogram` is of the gradients × scale; fp16/bf16 from numbers::formatRange.
    static ChartData histogram(const numbers::Log2Histogram &histogram, double scale, const numbers::FormatRange &fp16,
                               const numbers::FormatRange &bf16, const QPalette &palette);
    static ChartData lossScale(const std::vector<numbers::LossScalingStep> &steps, const QPalette &palette);
    static ChartData loss(const std::vector<numbers::LossScalingStep> &steps, const QPalette &palette);
    static ChartData flushed(const std::vector<numbers::LossScalingStep> &steps, const QPalette &palette);
    // "2^16 = 65,536" for a power of two, else the value in scientific notation.
    static QString scaleText(double scale);
};

}  // namespace lse::gui
