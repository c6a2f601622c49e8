// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Scaling page's charts, built from core/scaling: iso-FLOP profiles of the Chinchilla loss,
// the loss surface as iso-loss contours over (N, D), and over-training at the scenario's compute.
// Formatting only: every point is a core figure.

#include "charts/chart_data.h"
#include "scaling/scenario_scaling.h"

#include <QCoreApplication>
#include <QPalette>

namespace lse::gui {

class ScalingCharts {
    Q_DECLARE_TR_FUNCTIONS(lse::gui::ScalingCharts)
public:
    // Series of the iso-FLOP chart after the curves (one per budget, smallest first).
    enum IsoFlopMarker { OptimaMarkers, RuleMarkers, ScenarioMarker, IsoFlopMarkerCount };

    // The budgets the iso-FLOP chart draws: 1e19, 1e21, 1e23, 1e25 FLOPs and the scenario's C
    // (a decade within a factor 3 of C is left out so the curves do not overlap).
    static QVector<double> isoFlopBudgets(double scenario_compute);

    static ChartData isoFlop(const scaling::ScenarioScaling &scaling);
    static ChartData lossContours(const scaling::ScenarioScaling &scaling, const QPalette &palette);
    static ChartData overTraining(const scaling::ScenarioScaling &scaling);

    // Approach 3's closed form and Table 3 (approach 1) at the Gopher budget, from core.
    static QString gopherComparison();
    // Why the two answers differ (Table 2's exponents).
    static QString approachDifference();
    static QString lawFormula();
    static QString lawSource();
};

}  // namespace lse::gui
