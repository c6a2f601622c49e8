// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_data.h"
#include "validation/validation_table.h"

#include <QCoreApplication>

#include <string>

namespace lse::gui {

// The Validation page's charts, formatted from core/validation/validation_table.h and
// core/performance/step_prediction.h (no figure is computed here).
class ValidationCharts {
    Q_DECLARE_TR_FUNCTIONS(ValidationCharts)
public:
    // Predicted against published step time per run on log–log axes, one colour per paper, with
    // y = x and ±10 % lines; the run `selected_id` is ringed.
    static ChartData predictedVsPublished(const ValidationTable &table, const std::string &selected_id);
    // One run's predicted step split into performance::stepParts (they add up to the step).
    static ChartData stepBreakdown(const ValidationRow &row);
    // A step part's id ("compute_gemm", "exposed_tp", "bubble", ...) as a short label.
    static QString partLabel(const std::string &id);
    // The model in one line, and where each term comes from (the formula panel of both charts).
    static QString formulaText();
    static QString sourceText();
};

}  // namespace lse::gui
