// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/kernels/flash_attention_charts.h"

#include "charts/chart_palette.h"
#include "kernels/flash_attention_sweep.h"
#include "kernels/kernel_roofline.h"
#include "pages/kernels/flash_attention_text.h"
#include "pages/page_format.h"

#include <algorithm>
#include <functional>

namespace lse::gui {

namespace {

using kernels::AttentionConfig;
using kernels::AttentionIo;
using kernels::AttentionIoPoint;
using kernels::IoCounts;

constexpr const char *kContext = "FlashAttentionCharts";

// One curve of the IO charts: which count of attentionIo it plots.
struct IoCurve {
    QString name;
    std::function<IoCounts(const AttentionIo &)> counts;
    int color;
    bool dashed;
    QString formula;  // the closed form, with its source
};

QList<IoCurve> ioCurves()
{
    return {
        {FlashAttentionCharts::tr("standard forward"), [](const AttentionIo &io) { return io.standard_forward; }, 3, false,
         FlashAttentionCharts::tr("(4Nd + 4N²)·E: S and P written to HBM and read back (Dao et al. 2022, Algorithm 0)")},
        {FlashAttentionCharts::tr("FlashAttention forward"), [](const AttentionIo &io) { return io.flash_forward; }, 0, false,
         FlashAttentionCharts::tr("[2Nd + T_c(2Nd + 2N)]·E read + [(Nd + 2N) + T_c(Nd + 2N)]·E written, T_c = ⌈N/B_c⌉, B_c = ⌈M/4dE⌉: "
               "Θ(N²d²/M) (Dao et al. 2022, Algorithm 1 and Theorem 2)")},
        {FlashAttentionCharts::tr("FlashAttention-2 order forward"), [](const AttentionIo &io) { return io.flash2_forward; }, 2, false,
         FlashAttentionCharts::tr("(Nd + T_r·2Nd)·E read + (Nd + N)·E written: K and V re-read once per Q block (Dao 2023, Algorithm 1)")},
        {FlashAttentionCharts::tr("standard backward"), [](const AttentionIo &io) { return io.standard_backward; }, 3, true,
         FlashAttentionCharts::tr("(5N² + 5Nd)·E read + (2N² + 3Nd)·E written: P, dP and dS through HBM (Dao et al. 2022, Algorithm 3)")},
        {FlashAttentionCharts::tr("FlashAttention backward"), [](const AttentionIo &io) { return io.flash_backward; }, 0, true,
         FlashAttentionCharts::tr("[2Nd + T_c(4Nd + 2N)]·E read + [5Nd + T_c·Nd]·E written: S and P recomputed from Q, K, ℓ, m (Dao et al. "
               "2022, Algorithm 4)")},
    };
}

QString inputsText(const AttentionConfig &config)
{
    return FlashAttentionCharts::tr("d = %1, M = %2 bytes, E = %3 bytes%4")
        .arg(config.head_dim)
        .arg(format::integer(config.sram_bytes))
        .arg(config.element_bytes)
        .arg(config.causal ? FlashAttentionCharts::tr(", causal") : QString());
}

// Curves over the points of a sweep; `x` picks N or M.
void addCurves(ChartData &chart, const std::vector<AttentionIoPoint> &points,
               const std::function<double(const AttentionIoPoint &)> &x, const QString &x_name, const QPalette &palette)
{
    for (const IoCurve &curve : ioCurves()) {
        ChartSeries series;
        series.name = curve.name;
        series.color = chartSeriesColor(curve.color, palette);
        series.dashed = curve.dashed;
        for (const AttentionIoPoint &point : points) {
            const IoCounts counts = curve.counts(point.io);
            series.x << x(point);
            series.y << double(counts.hbmBytes());
            series.point_tooltips << FlashAttentionCharts::tr("<b>%1</b>, %2 = %3<br>read %4 + written %5 = %6<br>%7")
                                         .arg(curve.name, x_name, format::integer(std::int64_t(x(point))),
                                              format::bytes(double(counts.read_bytes)),
                                              format::bytes(double(counts.written_bytes)),
                                              format::bytesExact(double(counts.hbmBytes())), curve.formula);
        }
        chart.series << series;
    }
}

}  // namespace

ChartData FlashAttentionCharts::refused(const QString &title, const QString &problem)
{
    ChartData chart;
    chart.translation_context = QString::fromLatin1(kContext);
    chart.title = tr("%1: %2").arg(title, problem);
    return chart;
}

ChartData FlashAttentionCharts::ioOverSequenceLength(const AttentionConfig &config, const QPalette &palette)
{
    ChartData chart;
    chart.translation_context = QString::fromLatin1(kContext);
    chart.title = tr("HBM traffic over the sequence length N (one head)");
    chart.x_label = tr("Sequence length N (log scale)");
    chart.x_unit = QStringLiteral("tokens");
    chart.y_label = tr("HBM bytes read + written (log scale)");
    chart.y_unit = QStringLiteral("bytes");
    chart.log_x = true;
    chart.log_y = true;
    chart.formula.inputs = inputsText(config);
    chart.formula.formula = tr("standard grows as N² (S and P in HBM); FlashAttention as N²d²/M (each of the T_c ≈ "
                               "4NdE/M K/V blocks re-reads Q and O); the backward passes likewise");
    chart.formula.source = tr("Dao et al. 2022, Algorithms 0, 1, 3, 4 and Theorem 2; Dao 2023, Algorithm 1");
    std::vector<std::int64_t> values = format::seqLenSweep(config.sequence_length);
    values.erase(std::remove_if(values.begin(), values.end(),
                                [](std::int64_t n) { return n > kernels::kMaxSequenceLength; }),
                 values.end());
    const Result<std::vector<AttentionIoPoint>> points = kernels::attentionIoOverSequenceLength(config, values);
    if (!points)
        return refused(chart.title, format::fromStd(points.problems().front().message));
    addCurves(chart, *points, [](const AttentionIoPoint &p) { return double(p.sequence_length); }, QStringLiteral("N"),
              palette);
    // The chosen N on the standard and FlashAttention forward curves.
    ChartSeries chosen;
    chosen.name = tr("chosen N");
    chosen.kind = ChartSeries::Kind::Marker;
    chosen.color = palette.color(QPalette::WindowText);
    for (const AttentionIoPoint &point : *points) {
        if (point.sequence_length != config.sequence_length)
            continue;
        for (const IoCounts &counts : {point.io.standard_forward, point.io.flash_forward}) {
            chosen.x << double(point.sequence_length);
            chosen.y << double(counts.hbmBytes());
            chosen.point_labels << format::bytes(double(counts.hbmBytes()));
            chosen.point_tooltips << tr("N = %1: %2").arg(format::integer(point.sequence_length),
                                                          format::bytesExact(double(counts.hbmBytes())));
        }
    }
    chart.series << chosen;
    return chart;
}

ChartData FlashAttentionCharts::ioOverSram(const AttentionConfig &config, const QString &sram_source,
                                           const QPalette &palette)
{
    ChartData chart;
    chart.translation_context = QString::fromLatin1(kContext);
    chart.title = tr("HBM traffic over the SRAM size M (N = %1)").arg(format::integer(config.sequence_length));
    chart.x_label = tr("SRAM per SM M, bytes (log scale)");
    chart.x_unit = QStringLiteral("bytes");
    chart.y_label = tr("HBM bytes read + written (log scale)");
    chart.y_unit = QStringLiteral("bytes");
    chart.log_x = true;
    chart.log_y = true;
    chart.formula.inputs = tr("N = %1, %2; M now: %3").arg(format::integer(config.sequence_length), inputsText(config),
                                                           sram_source);
    chart.formula.formula = tr("FlashAttention's traffic falls as 1/M (T_c = ⌈N/B_c⌉ with B_c = ⌈M/4dE⌉) until one "
                               "block holds the whole sequence; standard attention does not depend on M");
    chart.formula.source = tr("Dao et al. 2022, Algorithm 1 line 1 and Theorem 2");
    // Doubling M from the least that holds one row each of Q, K, V and O (4dE) to 64× the chosen M.
    const std::int64_t least = 4 * config.head_dim * config.element_bytes;
    std::vector<std::int64_t> values;
    for (std::int64_t m = std::max<std::int64_t>(least, config.sram_bytes / 64); m <= config.sram_bytes * 64
         && m <= kernels::kMaxSramBytes;
         m *= 2)
        values.push_back(m);
    if (std::find(values.begin(), values.end(), config.sram_bytes) == values.end()) {
        values.push_back(config.sram_bytes);
        std::sort(values.begin(), values.end());
    }
    const Result<std::vector<AttentionIoPoint>> points = kernels::attentionIoOverSram(config, values);
    if (!points)
        return refused(chart.title, format::fromStd(points.problems().front().message));
    addCurves(chart, *points, [](const AttentionIoPoint &p) { return double(p.sram_bytes); }, QStringLiteral("M"),
              palette);
    ChartSeries chosen;
    chosen.name = tr("chosen M");
    chosen.kind = ChartSeries::Kind::Marker;
    chosen.color = palette.color(QPalette::WindowText);
    for (const AttentionIoPoint &point : *points) {
        if (point.sram_bytes != config.sram_bytes)
            continue;
        chosen.x << double(point.sram_bytes);
        chosen.y << double(point.io.flash_forward.hbmBytes());
        chosen.point_labels << FlashAttentionText::kibibytes(point.sram_bytes);
        chosen.point_tooltips << tr("M = %1 (%2): FlashAttention forward %3")
                                     .arg(FlashAttentionText::kibibytes(point.sram_bytes), sram_source,
                                          format::bytesExact(double(point.io.flash_forward.hbmBytes())));
    }
    chart.series << chosen;
    return chart;
}

ChartData FlashAttentionCharts::roofline(const AttentionConfig &config, const AttentionIo &io,
                                         const RooflineMachine &machine, const QPalette &palette)
{
    ChartData chart;
    chart.translation_context = QString::fromLatin1(kContext);
    chart.title = tr("One attention head on the roofline of %1").arg(format::fromStd(machine.name));
    chart.x_label = tr("Arithmetic intensity, FLOP per HBM byte (log scale)");
    chart.x_unit = QStringLiteral("FLOP/byte");
    chart.y_label = tr("Attainable FLOP/s (log scale)");
    chart.y_unit = QStringLiteral("FLOP/s");
    chart.log_x = true;
    chart.log_y = true;
    chart.formula.inputs = tr("N = %1, %2; %3 peak %4, HBM %5/s")
                               .arg(format::integer(config.sequence_length), inputsText(config),
                                    format::fromStd(machine.name), format::si(machine.peak_flops_per_second, tr("FLOP/s")),
                                    format::bytes(machine.memory_bandwidth_bytes_per_second));
    chart.formula.formula = tr("I = FLOPs / (HBM bytes read + written); attainable = min(peak, I · bandwidth); the "
                               "roofline's time bound = max(FLOPs / peak, bytes / bandwidth)");
    chart.formula.source = tr("Williams, Waterman & Patterson 2009 (eq. 1); counts: Dao et al. 2022 Algorithms 0, 1, "
                              "3, 4; Dao 2023 Algorithm 1");
    if (!machine.valid()) {
        chart.title = tr("%1 has no peak for this element size").arg(format::fromStd(machine.name));
        return chart;
    }
    double low = 1, high = 1e4;
    const QList<IoCurve> curves = ioCurves();
    for (const IoCurve &curve : curves) {
        const double intensity = curve.counts(io).arithmeticIntensity();
        if (intensity > 0) {
            low = std::min(low, intensity / 2);
            high = std::max(high, intensity * 2);
        }
    }
    const double ridge = machine.ridgePointFlopPerByte();
    ChartSeries roof;
    roof.name = tr("roofline, ridge %1 FLOP/byte").arg(format::decimal(ridge, 1));
    roof.color = palette.color(QPalette::WindowText);
    for (double x : {low, ridge, high}) {
        if (x < low || x > high)
            continue;
        roof.x << x;
        roof.y << attainableFlopsPerSecond(machine, x);
        roof.point_tooltips << tr("I = %1 FLOP/byte: attainable min(%2, I · %3/s) = %4")
                                   .arg(format::decimal(x, 1), format::si(machine.peak_flops_per_second, tr("FLOP/s")),
                                        format::bytes(machine.memory_bandwidth_bytes_per_second),
                                        format::si(roof.y.back(), tr("FLOP/s")));
    }
    chart.series << roof;
    for (const IoCurve &curve : curves) {
        const IoCounts counts = curve.counts(io);
        const kernels::KernelRooflinePoint point = kernels::rooflinePoint(counts, machine);
        ChartSeries marker;
        marker.name = curve.name;
        marker.kind = ChartSeries::Kind::Marker;
        marker.color = chartSeriesColor(curve.color, palette);
        marker.hollow = curve.dashed;  // backward passes as rings
        marker.x << point.intensity_flop_per_byte;
        marker.y << point.attainable_flops_per_second;
        marker.point_labels << format::decimal(point.intensity_flop_per_byte, 1);
        marker.point_tooltips
            << tr("<b>%1</b><br>%2 FLOPs / %3 = %4 FLOP/byte: %5, at most %6; roofline time ≥ %7<br>%8")
                   .arg(curve.name, format::integer(counts.flops), format::bytesExact(double(counts.hbmBytes())),
                        format::decimal(point.intensity_flop_per_byte, 1),
                        point.memory_bound ? tr("memory-bound") : tr("compute-bound"),
                        format::si(point.attainable_flops_per_second, tr("FLOP/s")),
                        format::si(point.seconds, QStringLiteral("s")), curve.formula);
        chart.series << marker;
    }
    return chart;
}

}  // namespace lse::gui
