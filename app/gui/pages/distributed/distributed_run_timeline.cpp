// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/distributed/distributed_run_timeline.h"

#include "charts/chart_palette.h"
#include "pages/page_format.h"

#include <QCoreApplication>

#include <algorithm>

namespace lse::gui {

namespace {

constexpr double kHalfRow = 0.4;
constexpr double kMs = 1e3;

QString ms(double seconds) { return format::decimal(seconds * kMs, 2); }

QString collectiveName(const distributed::CommunicationEntry &entry)
{
    return QStringLiteral("%1 · %2").arg(QString::fromStdString(entry.collective), QString::fromStdString(entry.purpose));
}

}  // namespace

ChartData distributedTimelineChart(const DistributedRunResults &results, const QPalette &palette)
{
    ChartData chart;
    chart.x_label = QCoreApplication::translate("lse::gui::DistributedRunTimeline", "Time since the first step (ms)");
    chart.x_unit = QStringLiteral("ms");
    chart.y_reversed = true;
    if (results.steps.empty()) {
        chart.title = QCoreApplication::translate("lse::gui::DistributedRunTimeline", "Rank 0 timeline: no run yet");
        return chart;
    }
    chart.title = QCoreApplication::translate("lse::gui::DistributedRunTimeline", "Rank 0 timeline: %1 ranks, %2").arg(results.ranks).arg(results.mode);
    // Row 0: the step split into compute and exposed communication; row 1 + i: the step's i-th
    // collective (a bucketed step has one per bucket).
    std::size_t collectives = 0;
    for (const distributed::DataParallelStepReport &step : results.steps)
        collectives = std::max(collectives, step.communication.size());
    chart.y_categories << QCoreApplication::translate("lse::gui::DistributedRunTimeline", "step");
    // Each row is named after its collective in the first step that has it (every step runs the same ones).
    for (std::size_t i = 0; i < collectives; ++i)
        for (const distributed::DataParallelStepReport &step : results.steps)
            if (i < step.communication.size()) {
                chart.y_categories << collectiveName(step.communication[i]);
                break;
            }

    const QColor base = palette.color(QPalette::Base);
    const QColor compute_color = chartSeriesColor(0, palette);
    const QColor comm_color = chartSeriesColor(1, palette);
    const QColor overlapped_color = blendColors(comm_color, base, 0.55);
    const QString compute_group = QCoreApplication::translate("lse::gui::DistributedRunTimeline", "compute");
    const QString exposed_group = QCoreApplication::translate("lse::gui::DistributedRunTimeline", "exposed communication");
    const QString overlapped_group = QCoreApplication::translate("lse::gui::DistributedRunTimeline", "communication overlapped with compute");
    double start = 0;
    for (const distributed::DataParallelStepReport &step : results.steps) {
        const double exposed = std::min(exposedSeconds(step), step.seconds);
        const double end = start + step.seconds;
        // The step's time minus the time it waited for collectives: compute (forward, backward, optimizer).
        ChartRect compute{start * kMs, (end - exposed) * kMs, -kHalfRow, kHalfRow, compute_color,
                          QString::number(step.step), QString(), compute_group};
        compute.tooltip = QCoreApplication::translate("lse::gui::DistributedRunTimeline", "<b>Step %1: compute</b><br>%2 ms = step %3 ms − exposed %4 ms")
                              .arg(step.step)
                              .arg(ms(step.seconds - exposed), ms(step.seconds), ms(exposed));
        chart.rects << compute;
        if (exposed > 0) {
            ChartRect wait{(end - exposed) * kMs, end * kMs, -kHalfRow, kHalfRow, comm_color, QString(), QString(), exposed_group};
            wait.tooltip = QCoreApplication::translate("lse::gui::DistributedRunTimeline", "<b>Step %1: exposed communication</b><br>%2 ms waited for collectives").arg(step.step).arg(ms(exposed));
            chart.rects << wait;
        }
        // The record holds each collective's duration and waited part, not its start. The waited parts
        // run back to back in the step's exposed tail, in order (the loop waits for one after the
        // other); each collective's overlapped part precedes its waited part, hidden behind compute.
        double cursor = end;
        for (std::size_t k = step.communication.size(); k-- > 0;) {
            const distributed::CommunicationEntry &entry = step.communication[k];
            const double row = double(k + 1);
            const double waited = std::clamp(entry.exposed_seconds, 0.0, entry.seconds);
            const double waited_from = std::max(start, cursor - waited);
            const double from = std::max(start, cursor - entry.seconds);
            const QString tooltip = QCoreApplication::translate("lse::gui::DistributedRunTimeline", "<b>Step %1: %2</b><br>%3 ms, %4 ms of it exposed; %5 sent by this rank")
                                        .arg(step.step)
                                        .arg(collectiveName(entry), ms(entry.seconds), ms(waited), format::bytes(entry.bytes_per_rank));
            if (waited_from - from > 0)
                chart.rects << ChartRect{from * kMs, waited_from * kMs, row - kHalfRow, row + kHalfRow, overlapped_color,
                                         QString(), tooltip, overlapped_group};
            if (cursor - waited_from > 0)
                chart.rects << ChartRect{waited_from * kMs, cursor * kMs, row - kHalfRow, row + kHalfRow, comm_color,
                                         QString(), tooltip, exposed_group};
            cursor = waited_from;
        }
        start = end;
    }
    chart.formula.inputs = QCoreApplication::translate("lse::gui::DistributedRunTimeline", "rank 0 of %1, global batch %2, %3 steps").arg(results.ranks).arg(results.global_batch).arg(results.steps.size());
    chart.formula.formula = QCoreApplication::translate("lse::gui::DistributedRunTimeline", "compute = step time − Σ exposed collective time; overlapped = collective time − exposed");
    chart.formula.source = QCoreApplication::translate("lse::gui::DistributedRunTimeline", "measured by llm-explorer-cli train --dp (DataParallelStepReport); Li et al. 2020 (PyTorch DDP) §3.2");
    return chart;
}

}  // namespace lse::gui
