// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/parallel/layout/search_scatter_chart.h"

#include "charts/chart_palette.h"
#include "enum_labels.h"
#include "pages/page_format.h"
#include "pages/parallel/layout/duration_format.h"
#include "pages/prediction_band_text.h"

namespace lse::gui {

namespace {

constexpr double kGigabyte = 1e-9;
// The first few top layouts get their rank drawn beside the point; more would overlap.
constexpr int kLabelledTop = 3;

}  // namespace

QString layoutSummary(const ParallelConfig &parallel, std::int64_t micro_batch, Recomputation recomputation)
{
    QStringList parts;
    parts << QStringLiteral("dp %1").arg(parallel.dp) << QStringLiteral("tp %1").arg(parallel.tp)
          << QStringLiteral("pp %1").arg(parallel.pp);
    if (parallel.cp > 1)
        parts << QStringLiteral("cp %1").arg(parallel.cp);
    if (parallel.ep > 1)
        parts << QStringLiteral("ep %1").arg(parallel.ep);
    if (parallel.virtual_stages > 1)
        parts << QStringLiteral("v %1").arg(parallel.virtual_stages);
    if (parallel.sequence_parallel)
        parts << QStringLiteral("sp");
    parts << QStringLiteral("ZeRO %1").arg(parallel.zero_stage) << QStringLiteral("mb %1").arg(micro_batch);
    if (recomputation != Recomputation::None)
        parts << displayName(recomputation);
    return parts.join(QStringLiteral(" · "));
}

QString SearchScatterChart::candidateTooltip(const parallel::LayoutCandidate &candidate, const QString &heading,
                                            double band_fraction)
{
    const parallel::StepTimeBreakdown &b = candidate.breakdown;
    const QString step = band_fraction >= 0 ? PredictionBandText::withBand(format::duration(b.total_seconds), band_fraction)
                                            : format::duration(b.total_seconds);
    QString band;
    if (band_fraction >= 0 && candidate.within_band_of_best)
        band = QStringLiteral("<br>")
            + tr("<b>Within the band of the best</b>: its predicted step is at most %1 slower than the best layout's, "
                 "less than the prediction's error band, so the prediction cannot rank the two apart.")
                  .arg(format::percent(band_fraction, 0));
    return tr("<b>%1</b><br>%2<br>predicted step %3 = compute %4 + optimizer %11 + exposed communication %5 + "
              "bubble %6 + stragglers %12<br>%7 tokens/s, predicted MFU %8<br>memory %9 per GPU (%10)")
        .arg(heading, layoutSummary(candidate.parallel, candidate.micro_batch, candidate.recomputation).toHtmlEscaped(),
             step, format::duration(b.compute_seconds),
             format::duration(b.exposed_communication_seconds), format::duration(b.bubble_seconds),
             format::si(b.tokens_per_second, QString()), format::percent(b.mfu), format::bytes(b.memory_bytes_per_gpu))
        .arg(b.fits ? tr("fits") : tr("does not fit"), format::duration(b.optimizer_seconds),
             format::duration(b.straggler_seconds))
        + band;
}

ChartData SearchScatterChart::build(const Scenario &scenario, double capacity_bytes, const parallel::SearchResult *result,
                                    const std::optional<parallel::LayoutCandidate> &current, const QPalette &palette)
{
    ChartData chart;
    chart.x_label = tr("Throughput (tokens/s)");
    chart.x_unit = QStringLiteral("tokens/s");
    chart.y_label = tr("Memory per GPU (GB, log scale)");
    chart.y_unit = QStringLiteral("bytes");
    chart.y_display_scale = kGigabyte;
    // Linear throughput spreads out the fast layouts worth choosing between; memory spans orders of
    // magnitude (a replicated 70B model needs a terabyte per GPU), so its axis is logarithmic.
    chart.log_y = true;

    ChartSeries not_fitting;
    not_fitting.name = tr("Does not fit");
    not_fitting.kind = ChartSeries::Kind::Marker;
    not_fitting.marker_size = 6;  // thousands of layouts: small dots keep the cloud's shape readable
    // Colours by meaning, the same in light and dark themes: over the capacity line in the line's
    // colour (softened, there are many), fitting ones softened blue, the top layouts solid green.
    const QColor background = palette.color(QPalette::Base);
    not_fitting.color = blendColors(chartReferenceColor(palette), background, 0.35);
    ChartSeries fitting;
    fitting.name = tr("Fits");
    fitting.kind = ChartSeries::Kind::Marker;
    fitting.marker_size = 6;
    fitting.color = blendColors(chartSeriesColor(0, palette), background, 0.35);
    ChartSeries top;
    top.kind = ChartSeries::Kind::Marker;
    top.color = chartSeriesColor(2, palette);
    ChartSeries within;
    within.kind = ChartSeries::Kind::Marker;
    within.marker_size = 16;  // a translucent ring around the top layout's point
    within.color = chartSeriesColor(1, palette);
    within.color.setAlpha(120);
    ChartSeries marker;
    marker.name = tr("Current layout");
    marker.kind = ChartSeries::Kind::Marker;
    marker.color = palette.color(QPalette::Text);

    // Every point names its layout on hover (the cloud is capped by SearchOptions::max_cloud_points).
    const auto add = [](ChartSeries &series, const parallel::LayoutCandidate &candidate, const QString &heading) {
        series.x << candidate.breakdown.tokens_per_second;
        series.y << candidate.breakdown.memory_bytes_per_gpu;
        series.point_tooltips << candidateTooltip(candidate, heading);
    };
    if (result) {
        for (const parallel::LayoutCandidate &candidate : result->cloud)
            add(candidate.breakdown.fits ? fitting : not_fitting, candidate,
                candidate.breakdown.fits ? tr("Fits") : tr("Does not fit"));
        for (std::size_t i = 0; i < result->top.size(); ++i) {
            const parallel::LayoutCandidate &candidate = result->top[i];
            const QString heading = tr("#%1 fastest fitting layout").arg(i + 1);
            top.x << candidate.breakdown.tokens_per_second;
            top.y << candidate.breakdown.memory_bytes_per_gpu;
            top.point_tooltips << candidateTooltip(candidate, heading, result->band_fraction);
            top.point_labels << (i < std::size_t(kLabelledTop) ? QStringLiteral("#%1").arg(i + 1) : QString());
            if (candidate.within_band_of_best) {
                within.x << candidate.breakdown.tokens_per_second;
                within.y << candidate.breakdown.memory_bytes_per_gpu;
                within.point_tooltips << candidateTooltip(candidate, heading, result->band_fraction);
            }
        }
    }
    top.name = tr("Top %1").arg(top.x.size());
    within.name = result && result->band_fraction > 0
        ? tr("Within ± %1 of the best (%2)").arg(format::percent(result->band_fraction, 0)).arg(within.x.size())
        : tr("Ties with the best (no error band) (%1)").arg(within.x.size());
    if (current)
        add(marker, *current, tr("Current layout"));

    chart.series << not_fitting << fitting << top << marker << within;
    chart.reference_lines << ReferenceLine{capacity_bytes, tr("capacity %1").arg(format::bytes(capacity_bytes)),
                                          QColor()};

    if (!result) {
        chart.title = tr("Memory per GPU vs throughput: the search has not run yet (current layout only)");
    } else {
        chart.title = tr("Memory per GPU vs throughput: %1 of %2 valid layouts fit; %3 sampled points")
                          .arg(format::integer(result->fitting), format::integer(result->valid),
                               format::integer(std::int64_t(result->cloud.size())));
        if (result->cancelled)
            chart.title += tr(" (cancelled: partial)");
    }
    chart.formula.inputs = tr("%Ln GPU(s), global batch %1 × %2 tokens, efficiency factors of %3 (hardware catalog)",
                              nullptr, scenario.cluster.gpus)
                               .arg(format::integer(scenario.training.global_batch),
                                    format::integer(scenario.training.seq_len),
                                    QString::fromStdString(scenario.cluster.accelerator.name));
    chart.formula.formula = tr("predicted step = Σ kernel times of the busiest stage (forward, backward, "
                               "recomputation) + optimizer + exposed communication + bubble (p − 1)/v · one "
                               "micro-batch; tokens/s = global batch · s / step; memory = the engine's per-GPU total");
    chart.formula.source = tr("operator-level model, checked on published runs (Validation page); Narayanan et al. "
                              "2021 §2.2 (interleaved 1F1B bubble); Korthikanti et al. 2022 (activations, sequence "
                              "parallelism); Rajbhandari et al. 2020 (ZeRO)");
    return chart;
}

}  // namespace lse::gui
