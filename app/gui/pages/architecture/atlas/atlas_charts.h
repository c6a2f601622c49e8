// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "architecture/model_atlas.h"
#include "charts/chart_data.h"

#include <QCoreApplication>

#include <vector>

namespace lse::gui {

// The atlas's summary charts, built from core/architecture/atlas_statistics (formatting only).
// Each takes the rows to summarise: the section passes the rows its filters show.
class AtlasCharts {
    Q_DECLARE_TR_FUNCTIONS(AtlasCharts)
public:
    // Share of each year's models using RMSNorm, a gated FFN, RoPE, pre-norm, GQA/MQA and MoE.
    static ChartData choiceShares(const std::vector<AtlasEntry> &atlas);
    // d_ff / d_model against publication date, gated and ungated apart, with 4 and 8/3 marked.
    static ChartData ffnRatios(const std::vector<AtlasEntry> &atlas);
    // How many models use each head dimension.
    static ChartData headDimensions(const std::vector<AtlasEntry> &atlas);

    static FormulaInfo atlasFormula(const std::vector<AtlasEntry> &atlas, const QString &formula);
};

}  // namespace lse::gui
