// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/validation/validation_charts.h"

#include "pages/page_format.h"

#include <QMap>

#include <algorithm>
#include <cmath>

namespace lse::gui {

namespace {

// The band drawn around y = x: the bound for the worst run.
constexpr double kErrorBand = 0.10;
// Factor of headroom around the data on the log axes.
constexpr double kLogMargin = 1.3;

}  // namespace

QString ValidationCharts::partLabel(const std::string &id)
{
    static const QMap<QString, const char *> labels = {
        {QStringLiteral("compute_gemm"), QT_TRANSLATE_NOOP("ValidationCharts", "GEMM")},
        {QStringLiteral("compute_attention"), QT_TRANSLATE_NOOP("ValidationCharts", "Attention")},
        {QStringLiteral("compute_memory_bound"), QT_TRANSLATE_NOOP("ValidationCharts", "Memory-bound")},
        {QStringLiteral("optimizer"), QT_TRANSLATE_NOOP("ValidationCharts", "Optimizer")},
        {QStringLiteral("exposed_tp"), QT_TRANSLATE_NOOP("ValidationCharts", "TP comm.")},
        {QStringLiteral("exposed_cp"), QT_TRANSLATE_NOOP("ValidationCharts", "CP comm.")},
        {QStringLiteral("exposed_ep"), QT_TRANSLATE_NOOP("ValidationCharts", "EP comm.")},
        {QStringLiteral("exposed_pp"), QT_TRANSLATE_NOOP("ValidationCharts", "PP comm.")},
        {QStringLiteral("exposed_dp"), QT_TRANSLATE_NOOP("ValidationCharts", "DP comm.")},
        {QStringLiteral("bubble"), QT_TRANSLATE_NOOP("ValidationCharts", "Bubble")},
    };
    const QString key = format::fromStd(id);
    const auto found = labels.constFind(key);
    return found == labels.constEnd() ? key : tr(found.value());
}

QString ValidationCharts::formulaText()
{
    return tr("step = Σ kernels (forward, backward, recomputation of the busiest stage) + optimizer + exposed "
              "communication + bubble; GEMM efficiency = peak fraction × tile × wave quantisation × k / (k + k₀); "
              "streaming kernels at a fraction of HBM bandwidth; bubble = (pp − 1) / v micro-batch times");
}

QString ValidationCharts::sourceText()
{
    return tr("Kernel shapes: Shoeybi et al. 2019 §3; tile and wave quantisation: NVIDIA Deep Learning Performance "
              "Guide, \"Matrix Multiplication Background\"; bubble: Narayanan et al. 2021 §2.2; communication: "
              "alpha-beta collectives over NVLink / InfiniBand; MFU and HFU: PaLM (Chowdhery et al. 2022), App. B; "
              "factors: the hardware catalog's efficiency entry per accelerator (not fitted per run)");
}

ChartData ValidationCharts::predictedVsPublished(const ValidationTable &table, const std::string &selected_id)
{
    ChartData chart;
    chart.title = tr("Predicted vs published step time");
    chart.x_label = tr("Published step (s, log scale)");
    chart.x_unit = QStringLiteral("s");
    chart.y_label = tr("Predicted step (s, log scale)");
    chart.y_unit = QStringLiteral("s");
    chart.log_x = true;
    chart.log_y = true;
    if (table.rows.empty()) {
        chart.title = tr("Predicted vs published step time: no runs");
        return chart;
    }

    double low = table.rows.front().published_seconds;
    double high = low;
    QStringList papers;
    for (const ValidationRow &row : table.rows) {
        low = std::min({low, row.published_seconds, row.predicted_seconds});
        high = std::max({high, row.published_seconds, row.predicted_seconds});
        if (!papers.contains(format::fromStd(row.paper)))
            papers << format::fromStd(row.paper);
    }
    low /= kLogMargin;
    high *= kLogMargin;

    // Reference lines first, so the runs are drawn over them.
    const auto diagonal = [&](const QString &name, double factor, bool dashed) {
        ChartSeries line;
        line.name = name;
        line.dashed = dashed;
        line.x << low << high;
        line.y << low * factor << high * factor;
        return line;
    };
    chart.series << diagonal(tr("Predicted = published"), 1.0, false);
    chart.series << diagonal(tr("+%1").arg(format::percent(kErrorBand, 0)), 1.0 + kErrorBand, true);
    chart.series << diagonal(tr("−%1").arg(format::percent(kErrorBand, 0)), 1.0 - kErrorBand, true);

    // The selected run's ring goes under its point (series are drawn in order).
    const auto selected = std::find_if(table.rows.begin(), table.rows.end(),
                                       [&](const ValidationRow &row) { return row.id == selected_id; });
    if (selected != table.rows.end()) {
        ChartSeries ring;
        ring.name = tr("Selected run");
        ring.kind = ChartSeries::Kind::Marker;
        ring.marker_size = 20;
        ring.color = QColor(128, 128, 128, 120);  // a translucent halo reads on light and dark plots
        ring.x << selected->published_seconds;
        ring.y << selected->predicted_seconds;
        ring.point_tooltips << tr("%1: error %2").arg(format::fromStd(selected->id).toHtmlEscaped(),
                                                       format::percent(selected->error, 1));
        chart.series << ring;
    }
    for (const QString &paper : papers) {
        ChartSeries runs;
        runs.name = paper;
        runs.kind = ChartSeries::Kind::Marker;
        for (const ValidationRow &row : table.rows) {
            if (format::fromStd(row.paper) != paper)
                continue;
            const QString error = (row.error > 0 ? QStringLiteral("+") : QString()) + format::percent(row.error, 1);
            runs.x << row.published_seconds;
            runs.y << row.predicted_seconds;
            // Eighteen ids would cover each other: only the selected run and those outside the band
            // are named on the plot; every point has its tooltip.
            const bool named = row.id == selected_id || std::abs(row.error) > kErrorBand;
            runs.point_labels << (named ? QStringLiteral("%1 (%2)").arg(format::fromStd(row.id), error) : QString());
            runs.point_tooltips << tr("<b>%1</b> (%2)<br>published %3 s, predicted %4 s, error %5<br>predicted MFU %6, "
                                      "HFU %7")
                                       .arg(format::fromStd(row.id).toHtmlEscaped(), paper.toHtmlEscaped(),
                                            format::decimal(row.published_seconds, 2),
                                            format::decimal(row.predicted_seconds, 2), error,
                                            format::percent(row.predicted_mfu, 1), format::percent(row.predicted_hfu, 1));
        }
        chart.series << runs;
    }

    chart.formula.inputs = tr("%n run(s); mean |error| %1, worst %2 (%3)", nullptr, int(table.rows.size()))
                               .arg(format::percent(table.mean_absolute_error, 1),
                                    format::percent(table.worst_absolute_error, 1), format::fromStd(table.worst_id));
    chart.formula.formula = formulaText();
    chart.formula.source = sourceText();
    return chart;
}

ChartData ValidationCharts::stepBreakdown(const ValidationRow &row)
{
    const performance::StepPrediction &prediction = row.prediction;
    ChartData chart;
    chart.title = tr("Predicted step of %1: %2 s").arg(format::fromStd(row.id), format::decimal(prediction.total_seconds, 2));
    chart.x_label = tr("Part of the step");
    chart.y_label = tr("Seconds per step");
    chart.y_unit = QStringLiteral("s");
    ChartSeries bars;
    bars.name = tr("Predicted seconds");
    bars.kind = ChartSeries::Kind::Bar;
    for (const performance::StepPart &part : performance::stepParts(prediction)) {
        if (part.seconds <= 0)
            continue;  // parts the layout does not have (no cp, no ep, ...)
        const QString label = partLabel(part.id);
        bars.x << double(chart.categories.size());
        bars.y << part.seconds;
        bars.point_tooltips << tr("%1: %2 s (%3 of the step)")
                                   .arg(label, format::decimal(part.seconds, 3),
                                        format::percent(prediction.total_seconds > 0 ? part.seconds / prediction.total_seconds : 0));
        bars.point_labels << format::decimal(part.seconds, 2);
        chart.categories << label;
    }
    chart.series << bars;
    chart.formula.inputs =
        tr("busiest stage %1 (%n layer(s)), micro-batches per step %2; compute %3 s, exposed communication %4 s, bubble %5 s, "
           "optimizer %6 s; MFU %7, HFU %8",
           nullptr, prediction.busiest_stage_layers)
            .arg(prediction.busiest_stage)
            .arg(format::decimal(prediction.micro_batches, 0), format::decimal(prediction.compute_seconds, 3),
                 format::decimal(prediction.exposed_communication_seconds, 3),
                 format::decimal(prediction.bubble_seconds, 3), format::decimal(prediction.optimizer_seconds, 3),
                 format::percent(prediction.mfu, 1), format::percent(prediction.hfu, 1));
    chart.formula.formula = formulaText();
    chart.formula.source = sourceText();
    return chart;
}

}  // namespace lse::gui
