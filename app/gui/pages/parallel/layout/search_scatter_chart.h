// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The layout search as a scatter: memory per GPU against throughput for a sample of every valid
// layout (fitting and not fitting), the top layouts highlighted, the current layout marked and the
// GPU's capacity as a reference line. Formatting only: every point is a core LayoutCandidate.

#include "charts/chart_data.h"
#include "parallel/layout_search.h"

#include <QCoreApplication>
#include <QPalette>

#include <optional>

namespace lse::gui {

// "dp 128 · tp 4 · pp 2 · v 5 · sp · ZeRO 3 · mb 2 · selective": one line naming a layout.
QString layoutSummary(const ParallelConfig &parallel, std::int64_t micro_batch, Recomputation recomputation);

class SearchScatterChart {
    Q_DECLARE_TR_FUNCTIONS(lse::gui::SearchScatterChart)
public:
    // Series names, in the order they are added (tests find them by index).
    // WithinBand rings the top layouts whose predicted step is within the accelerator's error band
    // of the best (LayoutCandidate::within_band_of_best): the prediction cannot rank them apart.
    enum SeriesIndex { NotFitting, Fitting, Top, Current, WithinBand, SeriesCount };

    // `result` may be null (no search yet); `current` is the current scenario's own layout;
    // `capacity_bytes` is the engine's MemoryEstimate::capacity.
    static ChartData build(const Scenario &scenario, double capacity_bytes, const parallel::SearchResult *result,
                           const std::optional<parallel::LayoutCandidate> &current, const QPalette &palette);
    // `band_fraction` ≥ 0: the step carries its band ("4.36 s (± 15%)") and a top layout says
    // whether it is within the band of the best; < 0: no band shown (the cloud's layouts).
    static QString candidateTooltip(const parallel::LayoutCandidate &candidate, const QString &heading,
                                    double band_fraction = -1);
};

}  // namespace lse::gui
