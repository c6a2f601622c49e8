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
    enum SeriesIndex { NotFitting, Fitting, Top, Current, SeriesCount };

    // `result` may be null (no search yet); `current` is the current scenario's own layout;
    // `capacity_bytes` is the engine's MemoryEstimate::capacity.
    static ChartData build(const Scenario &scenario, double capacity_bytes, const parallel::SearchResult *result,
                           const std::optional<parallel::LayoutCandidate> &current, const QPalette &palette);
    static QString candidateTooltip(const parallel::LayoutCandidate &candidate, const QString &heading);
};

}  // namespace lse::gui
