// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_data.h"
#include "inference/serving_model.h"

#include <QCoreApplication>
#include <QPalette>

namespace lse::gui {

// The Serving page's charts, formatted from core/inference's reports (no figure is computed here).
class ServingCharts {
    Q_DECLARE_TR_FUNCTIONS(ServingCharts)
public:
    // Memory per GPU as stacked bars — weights, KV cache, workspace, framework reserve — at the
    // chosen batch and at the largest batch that fits (when given), against the capacity.
    static ChartData memory(const inference::ServingReport &report, const inference::ServingReport *at_max_batch);
    // TPOT against output tokens/s per GPU, one point per batch of the sweep (1, 2, 4, … max batch),
    // memory-bound and compute-bound decode in two colours; the chosen batch and the decode
    // crossover (when it fits) marked.
    static ChartData latencyThroughput(const inference::BatchSweep &sweep, const inference::ServingReport &current,
                                       const inference::ServingReport *at_crossover);
    // One pass's operators on the accelerator's roofline at the serving formats (the weight
    // matmuls' peak and, when it differs, the 16-bit peak the rest runs at).
    static ChartData roofline(const inference::ServingReport &report, bool prefill, const QPalette &palette);
    // The speculative speedup over α for the chosen γ (and γ = 1, 2, 8 beside it) at the draft's c;
    // the chosen α marked.
    static ChartData speculativeSpeedup(const inference::ServingReport &report);
    // A chart without data: only a title saying why (formula and source kept for the panel).
    static ChartData empty(const QString &title, const QString &formula, const QString &source);

    static QString memoryFormula();
    static QString memorySource();
    static QString latencyFormula();
    static QString latencySource();
    static QString rooflineFormula();
    static QString rooflineSource();
    static QString speculativeFormula();
    static QString speculativeSource();
};

}  // namespace lse::gui
