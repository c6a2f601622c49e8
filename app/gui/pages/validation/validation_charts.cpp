// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/validation/validation_charts.h"

#include "pages/page_format.h"
#include "pages/prediction_band_text.h"

#include <QMap>

#include <algorithm>
#include <cmath>

namespace lse::gui {

namespace {

// The band drawn around y = x: the bound for the worst run.
constexpr double kErrorBand = 0.10;
// One colour per accelerator in the order they first appear (Tableau 10: distinct on light and
// dark plots, and the reference lines keep the palette's own colours).
const QColor kAcceleratorColors[] = {QColor(31, 119, 180), QColor(255, 127, 14), QColor(44, 160, 44),
                                     QColor(148, 103, 189), QColor(140, 86, 75), QColor(227, 119, 194),
                                     QColor(23, 190, 207), QColor(188, 189, 34)};
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
        {QStringLiteral("stragglers"), QT_TRANSLATE_NOOP("ValidationCharts", "Stragglers")},
    };
    const QString key = format::fromStd(id);
    const auto found = labels.constFind(key);
    return found == labels.constEnd() ? key : tr(found.value());
}

QString ValidationCharts::partExplanation(const std::string &id)
{
    if (id == "compute_gemm")
        return tr("Weight matmuls of the busiest stage (forward, backward, recomputation, every micro-batch): "
                  "2·m·n·k / (peak · peak fraction · tile × wave quantisation · k / (k + k₀)). Source: NVIDIA Deep "
                  "Learning Performance Guide, \"Matrix Multiplication Background\"; shapes: Shoeybi et al. 2019 §3.");
    if (id == "compute_attention")
        return tr("Attention core: FlashAttention-2/3 kernels at a fitted fraction of peak, with causal block "
                  "skipping and a key-length depth factor (Dao 2023; Shah et al. 2024), or the unfused score and "
                  "context matmuls.");
    if (id == "compute_memory_bound")
        return tr("Norms, softmax, activations, residuals, dropout, embedding and loss: bytes / (HBM bandwidth · "
                  "streaming fraction), fused element-wise chains counted once when training.fused_elementwise is on.");
    if (id == "optimizer")
        return tr("The optimizer step: a streaming kernel over the GPU's shard of weights, gradients and states.");
    if (id == "exposed_tp")
        return tr("TP/SP collectives compute cannot hide: all of them without tp_comm_overlap; with it each is split "
                  "into tp chunks pipelined with its GEMM, max(T / tp, T − GEMM time) stays exposed. Source: Wang "
                  "et al. 2023 (ASPLOS), Megatron-Core --tp-comm-overlap.");
    if (id == "exposed_cp")
        return tr("Ring attention: each KV block's transfer overlaps the attention on the previous block, max(T / cp, "
                  "T − attention) stays exposed. Source: Liu et al. 2023, Ring Attention §3.");
    if (id == "exposed_ep")
        return tr("Expert-parallel all-to-all: exposed (it feeds the experts directly).");
    if (id == "exposed_pp")
        return tr("Pipeline sends and receives: exposed; with pp_comm_overlap only the first and last of the step's "
                  "2·m·v transfers, T / (m·v). Source: Megatron-Core overlap_p2p_comm.");
    if (id == "exposed_dp")
        return tr("Gradient reduction in buckets during the last micro-batch's backward (the last bucket stays "
                  "exposed; hierarchical collectives over nodes, a latency per bucket); with ZeRO-1/2 the parameter "
                  "all-gather hides in the first forward when dp_param_gather_overlap is on. Source: Li et al. 2020 "
                  "§3.2.3 (PyTorch DDP); Megatron-Core overlap_grad_reduce / overlap_param_gather.");
    if (id == "bubble")
        return tr("Pipeline fill and drain: (pp − 1) / v busiest-stage micro-batch times. Source: Narayanan et al. "
                  "2021 §2.2.");
    if (id == "stragglers")
        return tr("Waiting for the slowest GPU: compute · σ · z(N), z(N) the expected largest of N standard normals, "
                  "Φ⁻¹((N − 0.375)/(N + 0.25)) (Blom 1958); σ = gpu_speed_spread, the spread of GPU speeds measured by "
                  "Sinha et al. 2022.");
    return {};
}

QString ValidationCharts::formulaText()
{
    return tr("step = Σ kernels (forward, backward, recomputation of the busiest stage) + optimizer + exposed "
              "communication + bubble + stragglers (compute · σ · z(N)); GEMM efficiency = peak fraction × tile × wave quantisation × k / (k + k₀); "
              "streaming kernels at a fraction of HBM bandwidth; bubble = (pp − 1) / v micro-batch times");
}

QString ValidationCharts::sourceText()
{
    return tr("Kernel shapes: Shoeybi et al. 2019 §3; tile and wave quantisation: NVIDIA Deep Learning Performance "
              "Guide, \"Matrix Multiplication Background\"; bubble: Narayanan et al. 2021 §2.2; communication: "
              "alpha-beta collectives over NVLink / InfiniBand; stragglers: Blom 1958, σ from Sinha et al. 2022; MFU and HFU: PaLM (Chowdhery et al. 2022), App. B; "
              "factors: the hardware catalog's efficiency entry per accelerator (not fitted per run)");
}

ChartData ValidationCharts::predictedVsPublished(const ValidationTable &table, const std::vector<QString> &accelerators,
                                                const std::map<std::string, double> &held_out,
                                                const std::string &selected_id)
{
    ChartData chart;
    chart.translation_context = QStringLiteral("ValidationCharts");
    chart.title = tr("Predicted vs published step time, by accelerator");
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
    const auto acceleratorOf = [&](std::size_t row) {
        return row < accelerators.size() ? accelerators[row] : tr("unknown accelerator");
    };

    double low = table.rows.front().published_seconds;
    double high = low;
    QStringList names;  // in the order the accelerators first appear
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
        const ValidationRow &row = table.rows[i];
        low = std::min({low, row.published_seconds, row.predicted_seconds});
        high = std::max({high, row.published_seconds, row.predicted_seconds});
        if (!names.contains(acceleratorOf(i)))
            names << acceleratorOf(i);
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
    const auto signedPercent = [](double value) {
        return (value > 0 ? QStringLiteral("+") : QString()) + format::percent(value, 1);
    };
    for (const QString &name : names) {
        ChartSeries runs;
        runs.kind = ChartSeries::Kind::Marker;
        runs.color = kAcceleratorColors[std::size_t(names.indexOf(name)) % std::size(kAcceleratorColors)];
        for (std::size_t i = 0; i < table.rows.size(); ++i) {
            if (acceleratorOf(i) != name)
                continue;
            const ValidationRow &row = table.rows[i];
            const QString error = signedPercent(row.error);
            runs.x << row.published_seconds;
            runs.y << row.predicted_seconds;
            // Fifty-seven ids would cover each other: only the selected run and those outside the
            // band are named on the plot; every point has its tooltip.
            const bool named = row.id == selected_id || std::abs(row.error) > kErrorBand;
            runs.point_labels << (named ? QStringLiteral("%1 (%2)").arg(format::fromStd(row.id), error) : QString());
            const auto held = held_out.find(row.id);
            const QString held_text = held == held_out.end() ? tr("–") : signedPercent(held->second);
            runs.point_tooltips << tr("<b>%1</b> (%2, %3)<br>published %4 s, predicted %5 s, error %6 (fitted), held "
                                      "out %7<br>predicted MFU %8, HFU %9")
                                       .arg(format::fromStd(row.id).toHtmlEscaped(), name.toHtmlEscaped(),
                                            format::fromStd(row.paper).toHtmlEscaped(),
                                            format::decimal(row.published_seconds, 2),
                                            format::decimal(row.predicted_seconds, 2), error, held_text,
                                            format::percent(row.predicted_mfu, 1), format::percent(row.predicted_hfu, 1));
        }
        runs.name = tr("%1 (%n run(s))", nullptr, int(runs.x.size())).arg(name);
        chart.series << runs;
    }

    chart.formula.inputs = tr("%n run(s); mean |error| %1, worst %2 (%3) with the catalog's factors, fitted to these "
                              "runs; the held-out errors are in the table and the summary above",
                              nullptr, int(table.rows.size()))
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
    chart.translation_context = QStringLiteral("ValidationCharts");
    chart.title = tr("Predicted step of %1: %2")
                      .arg(format::fromStd(row.id),
                           PredictionBandText::withBand(tr("%1 s").arg(format::decimal(prediction.total_seconds, 2)),
                                                        prediction.band_fraction));
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
        bars.point_tooltips << tr("<b>%1</b>: %2 s (%3 of the step)<br>%4")
                                   .arg(label.toHtmlEscaped(), format::decimal(part.seconds, 3),
                                        format::percent(prediction.total_seconds > 0 ? part.seconds / prediction.total_seconds : 0),
                                        partExplanation(part.id));
        bars.point_labels << format::decimal(part.seconds, 2);
        chart.categories << label;
    }
    chart.series << bars;
    chart.formula.inputs =
        tr("busiest stage %1 (%n layer(s)), micro-batches per step %2; compute %3 s, exposed communication %4 s, bubble %5 s, "
           "optimizer %6 s, stragglers %9 s; MFU %7, HFU %8",
           nullptr, prediction.busiest_stage_layers)
            .arg(prediction.busiest_stage)
            .arg(format::decimal(prediction.micro_batches, 0), format::decimal(prediction.compute_seconds, 3),
                 format::decimal(prediction.exposed_communication_seconds, 3),
                 format::decimal(prediction.bubble_seconds, 3), format::decimal(prediction.optimizer_seconds, 3),
                 format::percent(prediction.mfu, 1), format::percent(prediction.hfu, 1),
                 format::decimal(prediction.straggler_seconds, 3));
    chart.formula.formula = formulaText();
    chart.formula.source = sourceText();
    return chart;
}

}  // namespace lse::gui
