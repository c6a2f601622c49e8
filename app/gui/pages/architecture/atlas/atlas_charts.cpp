// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/architecture/atlas/atlas_charts.h"

#include "architecture/atlas_statistics.h"
#include "pages/page_format.h"

#include <algorithm>
#include <map>

namespace lse::gui {

namespace {

QString choiceName(DesignChoice choice)
{
    switch (choice) {
    case DesignChoice::RMSNorm: return AtlasCharts::tr("RMSNorm");
    case DesignChoice::GatedFfn: return AtlasCharts::tr("Gated FFN (SwiGLU/GeGLU)");
    case DesignChoice::RoPE: return AtlasCharts::tr("RoPE");
    case DesignChoice::PreNorm: return AtlasCharts::tr("Pre-norm");
    case DesignChoice::SharedKvHeads: return AtlasCharts::tr("GQA or MQA");
    case DesignChoice::MixtureOfExperts: return AtlasCharts::tr("Mixture of experts");
    case DesignChoice::ParallelBlock: return AtlasCharts::tr("Parallel block");
    case DesignChoice::TiedEmbeddings: return AtlasCharts::tr("Tied embeddings");
    }
    return {};
}

QString yearSpan(const std::vector<AtlasEntry> &atlas)
{
    if (atlas.empty())
        return {};
    const auto [first, last] = std::minmax_element(atlas.begin(), atlas.end(),
                                                   [](const AtlasEntry &a, const AtlasEntry &b) { return a.year < b.year; });
    return first->year == last->year ? QString::number(first->year)
                                     : QStringLiteral("%1–%2").arg(first->year).arg(last->year);
}

}  // namespace

FormulaInfo AtlasCharts::atlasFormula(const std::vector<AtlasEntry> &atlas, const QString &formula)
{
    FormulaInfo info;
    info.inputs = tr("%n model(s) of the atlas shown (%1); the table's filters apply", nullptr, int(atlas.size()))
                      .arg(yearSpan(atlas));
    info.formula = formula;
    info.source = tr("resources/atlas/models.json: each row's paper table or released config (hover a table row)");
    return info;
}

ChartData AtlasCharts::choiceShares(const std::vector<AtlasEntry> &atlas)
{
    ChartData chart;
    chart.title = tr("Share of the atlas's models using each choice, per year");
    chart.x_label = tr("Year");
    chart.x_unit = QStringLiteral("year");
    chart.y_label = tr("Share of models (%)");
    chart.y_unit = QStringLiteral("fraction");
    chart.y_display_scale = 100;
    const std::vector<YearShares> years = sharesByYear(atlas);
    // Years as categories: a numeric axis would print them with group separators ("2,017").
    for (const YearShares &year : years)
        chart.categories << QString::number(year.year);
    for (const DesignChoice choice : {DesignChoice::RMSNorm, DesignChoice::GatedFfn, DesignChoice::RoPE,
                                      DesignChoice::PreNorm, DesignChoice::SharedKvHeads, DesignChoice::MixtureOfExperts}) {
        ChartSeries series;
        series.name = choiceName(choice);
        for (const YearShares &year : years) {
            series.x << double(series.x.size());
            series.y << year.share(choice);
            series.point_tooltips << tr("<b>%1, %2</b>: %3 of %n model(s) (%4)", nullptr, year.model_count)
                                         .arg(series.name)
                                         .arg(year.year)
                                         .arg(year.usersOf(choice))
                                         .arg(format::percent(year.share(choice), 0));
        }
        chart.series << series;
    }
    chart.formula = atlasFormula(atlas, tr("share = models of that year using the choice / models of that year (a "
                                           "year has 1–9 models: read the trend, not single points); pre-norm "
                                           "includes the sandwich (norms before and after)"));
    return chart;
}

ChartData AtlasCharts::ffnRatios(const std::vector<AtlasEntry> &atlas)
{
    ChartData chart;
    chart.title = tr("FFN width d_ff / d_model over time");
    chart.x_label = tr("Publication date");
    chart.y_label = tr("d_ff / d_model (log scale)");
    chart.y_unit = QStringLiteral("ratio");
    chart.log_y = true;  // from 0.3 (one fine-grained expert) to 64 (T5 11B)
    // Years as category ticks (a numeric axis would print "2,017"); a model sits at its year's
    // tick plus (month - 1) / 12, so x counts years since the first year shown.
    const int first_year = atlas.empty() ? 0 : std::min_element(atlas.begin(), atlas.end(), [](const AtlasEntry &a, const AtlasEntry &b) {
                                                   return a.year < b.year;
                                               })->year;
    const int last_year = atlas.empty() ? -1 : std::max_element(atlas.begin(), atlas.end(), [](const AtlasEntry &a, const AtlasEntry &b) {
                                                   return a.year < b.year;
                                               })->year;
    for (int year = first_year; year <= last_year; ++year)
        chart.categories << QString::number(year);
    chart.x_unit = QStringLiteral("years since %1").arg(first_year);  // CSV headers stay English, as elsewhere
    ChartSeries ungated;
    ungated.name = tr("Ungated (ReLU/GeLU)");
    ChartSeries gated;
    gated.name = tr("Gated (SwiGLU/GeGLU)");
    ChartSeries experts;
    experts.name = tr("MoE: one routed expert");
    for (ChartSeries *series : {&ungated, &gated, &experts})
        series->kind = ChartSeries::Kind::Marker;
    for (const FfnRatioPoint &point : lse::ffnRatios(atlas)) {
        ChartSeries &series = point.mixture_of_experts ? experts : point.gated ? gated : ungated;
        series.x << point.fractional_year - first_year;
        series.y << point.ratio;
        series.point_labels << format::fromStd(point.name);
        series.point_tooltips << tr("<b>%1</b>: d_ff / d_model = %2%3; as parameters, an ungated %4")
                                     .arg(format::fromStd(point.name).toHtmlEscaped(), format::decimal(point.ratio, 2),
                                          point.mixture_of_experts ? tr(" per routed expert") : QString(),
                                          format::decimal(point.parameterEquivalentRatio(), 2));
    }
    for (ChartSeries *series : {&ungated, &gated, &experts})
        if (!series->x.isEmpty())
            chart.series << *series;
    chart.reference_lines << ReferenceLine{4.0, tr("4 (ungated, Vaswani et al. 2017)"), QColor()}
                          << ReferenceLine{8.0 / 3.0, tr("8/3 ≈ 2.67 (gated, same parameters as 4)"), QColor()};
    chart.formula = atlasFormula(atlas, tr("ratio = d_ff / d_model; a gated FFN has 3 matrices of d_model × d_ff instead "
                                           "of 2, so gated 8/3 costs what ungated 4 costs (Shazeer 2020, \"GLU Variants "
                                           "Improve Transformer\"); MoE: one expert's width"));
    return chart;
}

ChartData AtlasCharts::headDimensions(const std::vector<AtlasEntry> &atlas)
{
    ChartData chart;
    chart.title = tr("Head dimension across the atlas");
    chart.x_label = tr("Head dimension");
    chart.x_unit = QStringLiteral("elements");
    chart.y_label = tr("Models");
    chart.y_unit = QStringLiteral("models");
    const std::map<int, int> counts = headDimensionCounts(atlas);
    ChartSeries bars;
    bars.name = tr("Models");
    bars.kind = ChartSeries::Kind::Bar;
    for (const auto &[dimension, count] : counts) {
        QStringList names;
        for (const AtlasEntry &entry : atlas)
            if (entry.model.head_dim == dimension)
                names << format::fromStd(entry.model.name).toHtmlEscaped();
        chart.categories << QString::number(dimension);
        bars.x << double(bars.x.size());
        bars.y << count;
        bars.point_labels << QString::number(count);
        bars.point_tooltips << tr("<b>head dim %1</b>: %n model(s)<br>%2", nullptr, count)
                                   .arg(dimension)
                                   .arg(names.join(QStringLiteral(", ")));
    }
    chart.series << bars;
    chart.formula = atlasFormula(atlas, tr("head dim = the width of one attention head (usually d_model / heads; "
                                           "Gemma and PaLM choose 256, T5 128 with d_model 1024)"));
    return chart;
}

}  // namespace lse::gui
