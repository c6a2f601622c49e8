// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Charts of an ablation run, formatting only (the numbers are the runner's): the loss curves of
// every variant overlaid (training loss solid, validation loss dashed, one colour per variant) and
// the final validation loss per variant.

#include "charts/chart_data.h"
#include "reference/ablation/ablation_result.h"

#include <QCoreApplication>
#include <QPalette>

#include <vector>

namespace lse::gui {

class AblationCharts {
    Q_DECLARE_TR_FUNCTIONS(AblationCharts)
public:
    // `variants` may be a run in progress (curves cut short); `results` supplies the setup text.
    static ChartData lossCurves(const reference::AblationResults &results, const QPalette &palette);
    static ChartData finalValidationLoss(const reference::AblationResults &results, const QPalette &palette);
    // "2 layers, d_model 64, 4 heads, d_ff 171, context 64; 300 steps × 16 sequences, seed 0"
    static QString setupText(const reference::AblationResults &results);
    static QString statusText(reference::VariantStatus status);
    // A variant's name in the user's language: the standard studies' words ("No norm", "Post-norm",
    // "Serial", …) are translated; names of methods (RMSNorm, RoPE, SwiGLU) and of variants from
    // a study file stay as they are.
    static QString variantName(const std::string &name);
};

}  // namespace lse::gui
