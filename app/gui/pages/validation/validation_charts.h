// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_data.h"
#include "validation/validation_table.h"

#include <QCoreApplication>

#include <map>
#include <string>
#include <vector>

namespace lse::gui {

// The Validation page's charts, formatted from core/validation/validation_table.h and
// core/performance/step_prediction.h (no figure is computed here).
class ValidationCharts {
    Q_DECLARE_TR_FUNCTIONS(ValidationCharts)
public:
    // Predicted against published step time per run on log–log axes, one colour (series, in the
    // legend) per accelerator, `accelerators[i]` naming row i's; y = x and ±10 % lines; the run
    // `selected_id` is ringed; a run's tooltip gives its held-out error when `held_out` has it.
    static ChartData predictedVsPublished(const ValidationTable &table, const std::vector<QString> &accelerators,
                                          const std::map<std::string, double> &held_out,
                                          const std::string &selected_id);
    // One run's predicted step split into performance::stepParts (they add up to the step).
    static ChartData stepBreakdown(const ValidationRow &row);
    // A step part's id ("compute_gemm", "exposed_tp", "bubble", ...) as a short label.
    static QString partLabel(const std::string &id);
    // A step part's formula and source, one or two sentences (HTML) for its tooltip.
    static QString partExplanation(const std::string &id);
    // The model in one line, and where each term comes from (the formula panel of both charts).
    static QString formulaText();
    static QString sourceText();
};

}  // namespace lse::gui
