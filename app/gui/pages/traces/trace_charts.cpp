// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/traces/trace_charts.h"

#include "pages/page_format.h"
#include "pages/traces/trace_timeline.h"

namespace lse::gui {

namespace {

const char *const kHtaSource =
    "Holistic Trace Analysis: temporal breakdown and idle-time breakdown "
    "(hta.readthedocs.io/en/latest/source/features/temporal_breakdown.html, idle_time_breakdown.html)";

}  // namespace

QStringList TraceCharts::breakdownSeriesNames()
{
    return {tr("Compute"), tr("Communication (exposed)"), tr("Memory copies"), tr("Idle, host-bound"),
            tr("Idle, waiting")};
}

ChartData TraceCharts::breakdown(const traces::TraceRankAnalysis &analysis)
{
    ChartData chart;
    chart.translation_context = QStringLiteral("TraceCharts");
    chart.title = tr("Where each step's GPU time went");
    chart.x_label = tr("Step (communication overlapped with compute)");
    chart.y_label = tr("Time (ms)");
    chart.y_unit = QStringLiteral("ms");
    const QStringList names = breakdownSeriesNames();
    const QStringList definitions = {
        tr("time at least one compute kernel runs (every class but NCCL, copies, memsets)"),
        tr("time NCCL kernels run and no compute kernel does"),
        tr("time copies or memsets run and neither compute nor NCCL kernels do"),
        tr("no GPU activity and nothing queued: the CPU had not launched the next kernel yet"),
        tr("no GPU activity although work was launched and not started: waiting on an event, a "
           "synchronisation or another rank"),
    };
    const QColor colors[] = {kernelClassColor(traces::KernelClass::Gemm),
                             kernelClassColor(traces::KernelClass::Communication),
                             kernelClassColor(traces::KernelClass::Memcpy), QColor(0x99, 0x99, 0x99),
                             QColor(0x55, 0x55, 0x55)};
    QVector<ChartSeries> series(names.size());
    for (int i = 0; i < names.size(); ++i) {
        series[i].name = names[i];
        series[i].kind = ChartSeries::Kind::Bar;
        series[i].stack_group = 0;
        series[i].color = colors[i];
    }
    for (std::size_t s = 0; s < analysis.steps.size(); ++s) {
        const traces::TraceStepAnalysis &step = analysis.steps[s];
        const traces::TraceTimeBreakdown &b = step.breakdown;
        const QString step_name = step.number >= 0 ? tr("#%1").arg(step.number) : tr("whole trace");
        chart.categories << (b.communication_total_seconds > 0
                                 ? tr("%1 (overlap %2)").arg(step_name, format::percent(b.overlap_percent / 100.0, 0))
                                 : step_name);
        const double values[] = {b.compute_seconds, b.communication_seconds, b.memcpy_seconds,
                                 b.idle_host_bound_seconds, b.idle_waiting_seconds};
        for (int i = 0; i < names.size(); ++i) {
            series[i].x << double(s);
            series[i].y << values[i] * 1e3;
            const double share = b.window_seconds > 0 ? values[i] / b.window_seconds : 0;
            QString text = tr("<b>%1, step %2</b><br>%3 ms = %4 of the step's GPU window (%5 ms)<br>%6")
                               .arg(names[i], step_name, format::decimal(values[i] * 1e3, 3), format::percent(share),
                                    format::decimal(b.window_seconds * 1e3, 3), definitions[i]);
            if (i == 1 && b.communication_total_seconds > 0)
                text += tr("<br>overlap = NCCL time under compute ÷ all NCCL time = %1 of %2 ms")
                            .arg(format::percent(b.overlap_percent / 100.0),
                                 format::decimal(b.communication_total_seconds * 1e3, 3));
            series[i].point_tooltips << text;
        }
    }
    chart.series = series;
    chart.formula.inputs = tr("%Ln step(s); window = first start to last end of the GPU activities launched in the "
                              "ProfilerStep range",
                              nullptr, int(analysis.steps.size()));
    chart.formula.formula = tr("compute + exposed communication + memory copies + idle = window, over the union of "
                               "all streams (two kernels at once count once); idle = host-bound (nothing queued) + "
                               "waiting (launched, not started); overlap % = NCCL time under compute ÷ NCCL time");
    chart.formula.source = QString::fromLatin1(kHtaSource);
    return chart;
}

ChartData TraceCharts::classes(const traces::TraceRankAnalysis &analysis)
{
    ChartData chart;
    chart.translation_context = QStringLiteral("TraceCharts");
    chart.title = tr("GPU time per kernel class");
    chart.x_label = tr("Kernel class");
    chart.y_label = tr("Summed duration (ms)");
    chart.y_unit = QStringLiteral("ms");
    // One series: with a series per class the legend repeated the category labels and squeezed
    // them unreadable at 1024 pixels; the class colours are the timeline's legend.
    ChartSeries series;
    series.name = tr("Summed duration");
    series.kind = ChartSeries::Kind::Bar;
    series.color = kernelClassColor(traces::KernelClass::Gemm);
    double total = 0;
    for (const traces::TraceClassRow &row : analysis.classification.by_class)
        total += row.seconds;
    int index = 0;
    for (const traces::TraceClassRow &row : analysis.classification.by_class) {
        if (row.count == 0)
            continue;
        chart.categories << kernelClassLabel(row.kernel_class);
        series.x << double(index++);
        series.y << row.seconds * 1e3;
        series.point_tooltips << tr("<b>%1</b><br>%2 activities, %3 ms summed = %4 of all GPU activity time")
                                     .arg(kernelClassLabel(row.kernel_class), format::integer(row.count),
                                          format::decimal(row.seconds * 1e3, 3),
                                          format::percent(total > 0 ? row.seconds / total : 0));
    }
    chart.series << series;
    chart.formula.formula = tr("summed durations of the class's kernels (not a union: kernels on different streams "
                               "at once both count)");
    chart.formula.source = tr("kernel classes from the kernel names and the launching CPU operators "
                              "(core/traces/kernel_classifier)");
    return chart;
}

}  // namespace lse::gui
