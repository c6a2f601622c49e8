// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/numbers/underflow/underflow_charts.h"

#include "charts/chart_palette.h"
#include "pages/page_format.h"

#include <algorithm>
#include <cmath>

namespace lse::gui {

namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

// Colours of the zones: pale (mixed with the background, so the zone's label is drawn in the text
// colour that suits the background) and translucent, so the bars behind stay readable.
QColor zone(const QColor &color, const QPalette &palette)
{
    QColor c = blendColors(color, palette.color(QPalette::Base), 0.6);
    c.setAlpha(150);
    return c;
}

const QColor kFlushColor(213, 94, 0);       // Okabe–Ito vermillion
const QColor kSubnormalColor(230, 159, 0);  // orange
const QColor kNormalColor(0, 158, 115);     // bluish green
const QColor kBf16Color(86, 180, 233);      // sky blue

FormulaInfo simulationFormula(const std::vector<numbers::LossScalingStep> &steps)
{
    FormulaInfo f;
    f.inputs = UnderflowCharts::tr("%n step(s) of the reference transformer trained in FP32; each step's real gradients "
                                   "multiplied by the scale and cast to FP16 (simulated, round to nearest even)",
                                   nullptr, int(steps.size()));
    f.formula = UnderflowCharts::tr("overflow (any scaled gradient inf/NaN in FP16): skip the step, scale × 0.5; "
                                    "after N good steps in a row: scale × 2");
    f.source = UnderflowCharts::tr("Micikevicius et al. 2018, Mixed Precision Training, §3.2; PyTorch GradScaler");
    return f;
}

}  // namespace

QString UnderflowCharts::scaleText(double scale)
{
    int exponent = 0;
    const double mantissa = std::frexp(scale, &exponent);
    if (mantissa == 0.5)
        return tr("2^%1 = %2").arg(exponent - 1).arg(format::decimal(scale, 0));
    return QString::number(scale, 'g', 4);
}

ChartData UnderflowCharts::histogram(const numbers::Log2Histogram &h, double scale, const numbers::FormatRange &fp16,
                                     const numbers::FormatRange &bf16, const QPalette &palette)
{
    ChartData chart;
    chart.title = tr("Gradients × S (S = %1) in log2 buckets").arg(scaleText(scale));
    chart.x_label = tr("k = floor(log2 |g × S|)");
    chart.y_label = tr("Gradient elements");
    chart.x_unit = tr("log2");
    chart.y_unit = tr("elements");
    chart.log_y = true;

    const double fp16_sub = std::log2(fp16.min_subnormal);
    const double fp16_normal = std::log2(fp16.min_normal);
    const double fp16_max = std::log2(fp16.max);
    // A value below half the smallest subnormal rounds to zero (the half itself is a tie to even 0).
    const double fp16_flush = fp16_sub - 1;
    const double x_lo = std::min(double(h.counts.empty() ? 0 : h.min_exponent), fp16_flush - 2) - 3;
    const double x_hi = std::max(double(h.counts.empty() ? 0 : h.max_exponent + 1), fp16_max + 1) + 1;
    std::int64_t max_count = std::max<std::int64_t>(h.zero_count, 1);
    for (std::int64_t c : h.counts)
        max_count = std::max(max_count, c);
    const double y_lo = 1e-3;  // below the bars' base on the log axis, so zones cover whole bars
    const double y_zone = double(max_count) * 3;  // FP16 zones: up to here
    const double y_top = double(max_count) * 40;  // BF16 strip above them

    auto rect = [&](double x0, double x1, double y0, double y1, const QColor &color, const QString &label,
                    const QString &group, const QString &tooltip) {
        chart.rects << ChartRect{std::max(x0, x_lo), std::min(x1, x_hi), y0, y1, zone(color, palette), label, tooltip,
                                 group};
    };
    const QString fp16_name = qs(fp16.name).toUpper();
    const QString bf16_name = qs(bf16.name).toUpper();
    rect(x_lo + 1.5, fp16_flush, y_lo, y_zone, kFlushColor, tr("→ 0 in %1").arg(fp16_name),
         tr("%1 flushes to zero").arg(fp16_name),
         tr("|x| < 2^%1 (half of %2's smallest subnormal 2^%3) rounds to zero")
             .arg(fp16_flush).arg(fp16_name).arg(fp16_sub));
    rect(fp16_sub, fp16_normal, y_lo, y_zone, kSubnormalColor, tr("%1 subnormal").arg(fp16_name),
         tr("%1 subnormal").arg(fp16_name),
         tr("2^%1 ≤ |x| < 2^%2: %3 subnormals, fewer significant bits").arg(fp16_sub).arg(fp16_normal).arg(fp16_name));
    rect(fp16_normal, fp16_max, y_lo, y_zone, kNormalColor, tr("%1 normal").arg(fp16_name),
         tr("%1 normal").arg(fp16_name),
         tr("2^%1 ≤ |x| ≤ %2: %3 normal numbers").arg(fp16_normal).arg(format::decimal(fp16.max, 0)).arg(fp16_name));
    const double bf16_sub = std::log2(bf16.min_subnormal);
    const double bf16_normal = std::log2(bf16.min_normal);
    const double bf16_max = std::log2(bf16.max);
    rect(bf16_normal, bf16_max, y_zone * 1.5, y_top, kBf16Color,
         tr("%1 normal from 2^%2, beyond the left edge").arg(bf16_name).arg(bf16_normal),
         tr("%1 normal").arg(bf16_name),
         tr("%1 keeps FP32's 8 exponent bits: normal from 2^%2 to %3, subnormal down to 2^%4")
             .arg(bf16_name).arg(bf16_normal).arg(format::scientific(bf16.max)).arg(bf16_sub));

    ChartSeries bars;
    bars.name = tr("Gradient elements");
    bars.kind = ChartSeries::Kind::Bar;
    bars.color = chartSeriesColor(0, palette);
    for (int k = h.min_exponent; k <= h.max_exponent; ++k) {
        const std::int64_t count = h.countAt(k);
        if (count == 0)
            continue;
        bars.x << k + 0.5;
        bars.y << double(count);
        bars.point_tooltips << tr("2^%1 ≤ |g × S| < 2^%2: %3 elements").arg(k).arg(k + 1).arg(format::integer(count));
    }
    chart.series << bars;
    if (h.zero_count > 0) {
        ChartSeries zeros;
        zeros.name = tr("Exactly zero (any format keeps it)");
        zeros.kind = ChartSeries::Kind::Bar;
        zeros.color = chartSeriesColor(2, palette);
        zeros.x << x_lo + 0.5;
        zeros.y << double(h.zero_count);
        zeros.point_tooltips << tr("g = 0: %1 elements").arg(format::integer(h.zero_count));
        zeros.point_labels << tr("= 0");
        chart.series << zeros;
    }
    ChartSeries overflow;
    overflow.name = tr("%1 max %2: larger values overflow").arg(fp16_name, format::decimal(fp16.max, 0));
    overflow.color = kFlushColor;
    overflow.dashed = true;
    overflow.x << fp16_max << fp16_max;
    overflow.y << y_lo << y_top;
    chart.series << overflow;

    chart.formula.inputs = tr("%1 gradient elements of the reference transformer after FP32 training steps, "
                              "multiplied by the loss scale S = %2")
                               .arg(format::integer(h.total()), scaleText(scale));
    chart.formula.formula = tr("bucket k = floor(log2 |g·S|); %1: subnormal from 2^%2, normal from 2^%3, max %4; "
                               "%5: normal from 2^%6")
                                .arg(fp16_name).arg(fp16_sub).arg(fp16_normal).arg(format::decimal(fp16.max, 0))
                                .arg(bf16_name).arg(bf16_normal);
    chart.formula.source = tr("IEEE 754-2019 binary16; bfloat16; Micikevicius et al. 2018, Mixed Precision Training, "
                              "Fig. 3 (the same histogram for an SSD network)");
    return chart;
}

ChartData UnderflowCharts::lossScale(const std::vector<numbers::LossScalingStep> &steps, const QPalette &palette)
{
    ChartData chart;
    chart.title = tr("Dynamic loss scale (FP16 simulated on real gradients)");
    chart.x_label = tr("Step");
    chart.y_label = tr("Loss scale");
    chart.x_unit = tr("steps");
    chart.log_y = true;
    ChartSeries scale;
    scale.name = tr("Loss scale used");
    scale.color = chartSeriesColor(0, palette);
    ChartSeries overflow;
    overflow.name = tr("Overflow: step skipped, scale halved");
    overflow.kind = ChartSeries::Kind::Marker;
    overflow.color = kFlushColor;
    for (const numbers::LossScalingStep &s : steps) {
        const QString tip = tr("step %1: scale %2, %3 of non-zero gradients flushed to zero in FP16 (%4 without "
                               "scaling)")
                                .arg(s.step)
                                .arg(scaleText(s.scale), format::percent(s.flushed_fraction, 3),
                                     format::percent(s.unscaled_flushed_fraction, 3));
        scale.x << s.step;
        scale.y << s.scale;
        scale.point_tooltips << tip;
        if (s.overflow) {
            overflow.x << s.step;
            overflow.y << s.scale;
            overflow.point_tooltips << tr("step %1: overflow at scale %2 (%3 of gradients inf in FP16); the step is "
                                          "skipped")
                                           .arg(s.step)
                                           .arg(scaleText(s.scale), format::percent(s.overflow_fraction, 4));
        }
    }
    chart.series << scale << overflow;
    chart.formula = simulationFormula(steps);
    return chart;
}

ChartData UnderflowCharts::loss(const std::vector<numbers::LossScalingStep> &steps, const QPalette &palette)
{
    ChartData chart;
    chart.title = tr("Training loss (FP32 reference run)");
    chart.x_label = tr("Step");
    chart.y_label = tr("Loss (nats/token)");
    chart.x_unit = tr("steps");
    chart.y_unit = tr("nats/token");
    ChartSeries loss;
    loss.name = tr("Training loss");
    loss.color = chartSeriesColor(1, palette);
    ChartSeries skipped;
    skipped.name = tr("Steps FP16 training would skip");
    skipped.kind = ChartSeries::Kind::Marker;
    skipped.color = kFlushColor;
    for (const numbers::LossScalingStep &s : steps) {
        loss.x << s.step;
        loss.y << s.loss;
        loss.point_tooltips << tr("step %1: loss %2").arg(s.step).arg(format::decimal(s.loss, 4));
        if (s.skipped) {
            skipped.x << s.step;
            skipped.y << s.loss;
            skipped.point_tooltips << tr("step %1: skipped in FP16 training (the FP32 reference takes it)").arg(s.step);
        }
    }
    chart.series << loss << skipped;
    chart.formula = simulationFormula(steps);
    return chart;
}

ChartData UnderflowCharts::flushed(const std::vector<numbers::LossScalingStep> &steps, const QPalette &palette)
{
    ChartData chart;
    chart.title = tr("Gradients flushed to zero by the FP16 cast");
    chart.x_label = tr("Step");
    chart.y_label = tr("Non-zero gradients flushed (%)");
    chart.x_unit = tr("steps");
    chart.y_unit = tr("%");
    ChartSeries scaled;
    scaled.name = tr("With the dynamic loss scale");
    scaled.color = chartSeriesColor(0, palette);
    ChartSeries unscaled;
    unscaled.name = tr("Without scaling");
    unscaled.color = kFlushColor;
    unscaled.dashed = true;
    for (const numbers::LossScalingStep &s : steps) {
        scaled.x << s.step;
        scaled.y << 100 * s.flushed_fraction;
        scaled.point_tooltips << tr("step %1, scale %2: %3 flushed").arg(s.step).arg(scaleText(s.scale),
                                                                                   format::percent(s.flushed_fraction, 3));
        unscaled.x << s.step;
        unscaled.y << 100 * s.unscaled_flushed_fraction;
        unscaled.point_tooltips << tr("step %1, no scaling: %2 flushed")
                                       .arg(s.step)
                                       .arg(format::percent(s.unscaled_flushed_fraction, 3));
    }
    chart.series << scaled << unscaled;
    chart.formula = simulationFormula(steps);
    return chart;
}

}  // namespace lse::gui
