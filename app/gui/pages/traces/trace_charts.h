// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_data.h"
#include "traces/trace_analysis.h"

#include <QCoreApplication>

namespace lse::gui {

// The Trace page's charts from core's analysis of one rank (trace_analysis.h).
class TraceCharts {
    Q_DECLARE_TR_FUNCTIONS(TraceCharts)
public:
    // Stacked bars per step: compute, exposed communication, memory copies, idle host-bound, idle
    // waiting (ms), each step's overlap % in its category label; the definitions (after HTA) in the
    // tooltips and the formula panel.
    static ChartData breakdown(const traces::TraceRankAnalysis &analysis);
    // Summed duration per kernel class (ms), the count and share in the tooltip.
    static ChartData classes(const traces::TraceRankAnalysis &analysis);
    // The series names of the breakdown, in stacking order (tests).
    static QStringList breakdownSeriesNames();
};

}  // namespace lse::gui
