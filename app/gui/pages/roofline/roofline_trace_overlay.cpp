// SPDX-License-Identifier: GPL-3.0-or-later
// The Roofline page's "Your trace" overlay: the kernels of the trace loaded on the Trace page (the
// window's TraceSession) at their achieved FLOP/s and arithmetic intensity, beside the predicted
// operators. The page never reads trace files itself.
#include "pages/roofline/roofline_page.h"

#include "charts/chart_view.h"
#include "pages/page_format.h"
#include "pages/roofline/roofline_page_parts.h"
#include "pages/traces/trace_timeline.h"

#include <QCheckBox>
#include <QFileInfo>
#include <QLabel>

#include <qcustomplot.h>

#include <algorithm>

namespace lse::gui {

using namespace roofline_parts;

namespace {

// Whether kernel `k` has a place on the roofline: FLOPs and bytes from its operator's shapes and a
// duration to divide by.
bool onRoofline(const traces::TraceKernel &k) { return k.flops > 0 && k.bytes > 0 && k.duration_us > 0; }

// The step window of `analysis` that holds `start_us`, null when none does.
const traces::TraceStepAnalysis *stepOf(const traces::TraceRankAnalysis &analysis, double start_us)
{
    for (const traces::TraceStepAnalysis &step : analysis.steps)
        if (start_us >= step.gpu_start_us && start_us <= step.gpu_start_us + step.breakdown.window_seconds * 1e6)
            return &step;
    return nullptr;
}

}  // namespace

void RooflinePage::setTraceSession(TraceSession *session)
{
    if (trace_session_)
        disconnect(trace_session_, nullptr, this, nullptr);
    trace_session_ = session;
    if (trace_session_)
        connect(trace_session_, &TraceSession::changed, this, [this] {
            trace_point_label_->clear();
            trace_check_->setVisible(trace_session_ && !trace_session_->isEmpty());
            accelerator_chart_->setData(acceleratorChartData());
        });
    trace_check_->setVisible(trace_session_ && !trace_session_->isEmpty());
    accelerator_chart_->setData(acceleratorChartData());
}

QString RooflinePage::traceSeriesName() const
{
    for (const ChartSeries &series : accelerator_chart_->data().series)
        if (series.name.startsWith(tr("Your trace")))
            return series.name;
    return {};
}

void RooflinePage::addTraceOverlay(ChartData &chart, double &low, double &high) const
{
    trace_point_kernels_.clear();
    const LoadedTrace *trace = trace_session_ ? trace_session_->current() : nullptr;
    if (!trace || !trace_check_->isChecked())
        return;
    const traces::TraceRank &rank = trace->rank;
    ChartSeries points;
    points.kind = ChartSeries::Kind::Marker;
    points.hollow = true;
    points.marker_size = 7;
    points.color = QColor(0x00, 0x9E, 0x73);  // Okabe–Ito bluish green: apart from the predicted points
    for (std::size_t i = 0; i < rank.kernels.size(); ++i) {
        const traces::TraceKernel &k = rank.kernels[i];
        if (!onRoofline(k))
            continue;
        points.x << k.arithmeticIntensity();
        points.y << k.achievedFlopsPerSecond();
        low = std::min(low, k.arithmeticIntensity() / 2);
        high = std::max(high, k.arithmeticIntensity() * 2);
        trace_point_kernels_.push_back(i);
    }
    const QString file = QFileInfo(QString::fromStdString(rank.source)).fileName();
    points.name = tr("Your trace: %1 (%Ln kernel(s))", nullptr, int(points.x.size())).arg(file);
    if (points.x.isEmpty())
        return;  // a trace without shapes has no FLOPs to place
    // Tooltips made on hover: a trace holds tens of thousands of such kernels.
    const LoadedTraces keep = trace_session_->traces();
    const int rank_index = trace_session_->currentRank();
    const std::vector<std::size_t> kernels = trace_point_kernels_;
    points.point_tooltip = [keep, rank_index, kernels](qsizetype point) {
        if (point < 0 || std::size_t(point) >= kernels.size())
            return QString();
        return traceKernelToolTip((*keep)[std::size_t(rank_index)].rank, kernels[std::size_t(point)]) +
               tr("<br>(click the point to name it below the chart)");
    };
    chart.series << points;
}

void RooflinePage::showTracePoint(qsizetype point)
{
    const LoadedTrace *trace = trace_session_ ? trace_session_->current() : nullptr;
    if (!trace || point < 0 || std::size_t(point) >= trace_point_kernels_.size()) {
        trace_point_label_->clear();
        return;
    }
    const traces::TraceRank &rank = trace->rank;
    const traces::TraceKernel &k = rank.kernels[trace_point_kernels_[std::size_t(point)]];
    QString shape = tr("no shape");
    QString op_name = tr("no linked operator");
    if (k.op_index >= 0 && std::size_t(k.op_index) < rank.cpu_ops.size()) {
        const traces::TraceCpuOp &op = rank.cpu_ops[std::size_t(k.op_index)];
        op_name = QString::fromStdString(rank.text(op.name));
        if (op.shape != traces::kNoText)
            shape = QString::fromStdString(rank.text(op.shape)) + QLatin1Char(' ') +
                    QString::fromStdString(rank.text(op.dtype));
    }
    const traces::TraceStepAnalysis *step = stepOf(trace->analysis, k.start_us);
    const double window_s = step ? step->breakdown.window_seconds : trace->analysis.breakdown.window_seconds;
    const QString step_name = step && step->number >= 0 ? tr("ProfilerStep#%1").arg(step->number) : tr("the trace");
    // The predicted counterpart: the GEMM call of the same operator and shape that the Trace page
    // predicted ("Measured vs predicted").
    QString counterpart = tr("Predicted counterpart: none yet (a GEMM call gets one on the Trace page's "
                             "<i>Measured vs predicted</i> tab).");
    if (const auto &gemms = trace_session_->gemmPrediction(); gemms && k.op_index >= 0) {
        const traces::TraceCpuOp &op = rank.cpu_ops[std::size_t(k.op_index)];
        for (const traces::GemmComparisonRow &row : gemms->rows)
            if (row.op_name == rank.text(op.name) && row.shape == rank.text(op.shape) && row.calls > 0) {
                counterpart = tr("Predicted counterpart on %1: %2 µs per call for %3 (measured ÷ predicted %4).")
                                  .arg(QString::fromStdString(gemms->accelerator_name).toHtmlEscaped(),
                                       format::decimal(row.predicted_seconds / double(row.calls) * 1e6, 1),
                                       QString::fromStdString(row.op_name + " " + row.shape).toHtmlEscaped(),
                                       format::decimal(row.ratio(), 2));
                break;
            }
    }
    QString name = QString::fromStdString(rank.text(k.name));
    if (name.size() > 200)
        name = name.left(199) + QChar(0x2026);
    trace_point_label_->setText(
        tr("<b>Your trace:</b> %1 (%2) from %3, shape %4: %5 µs = %6 of %7's GPU window; %8 at %9 FLOP/B. %10")
            .arg(name.toHtmlEscaped(), kernelClassLabel(k.kernel_class), op_name.toHtmlEscaped(), shape.toHtmlEscaped(),
                 format::decimal(k.duration_us, 1),
                 format::percent(window_s > 0 ? k.duration_us * 1e-6 / window_s : 0), step_name,
                 format::si(k.achievedFlopsPerSecond(), tr("FLOP/s")),
                 format::decimal(k.arithmeticIntensity(), 1))
            .arg(counterpart));
}

void RooflinePage::connectTracePointClicks()
{
    QCustomPlot *plot = accelerator_chart_->plot();
    plot->setInteraction(QCP::iSelectPlottables, false);
    connect(plot, &QCustomPlot::mousePress, this, [this, plot](QMouseEvent *event) {
        const QString name = traceSeriesName();
        if (name.isEmpty() || event->button() != Qt::LeftButton)
            return;
        // The nearest overlay point within a few pixels (the graph keeps its points sorted by x,
        // so the series' own order is searched here).
        const ChartSeries *series = nullptr;
        for (const ChartSeries &candidate : accelerator_chart_->data().series)
            if (candidate.name == name)
                series = &candidate;
        if (!series)
            return;
        qsizetype best = -1;
        double best_distance = 6.0;  // pixels
        for (qsizetype i = 0; i < series->x.size(); ++i) {
            const double px = plot->xAxis->coordToPixel(series->x[i]);
            const double py = plot->yAxis->coordToPixel(series->y[i]);
            const double distance = std::hypot(px - event->position().x(), py - event->position().y());
            if (distance < best_distance) {
                best_distance = distance;
                best = i;
            }
        }
        if (best >= 0)
            showTracePoint(best);
    });
}

}  // namespace lse::gui
