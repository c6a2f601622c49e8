// SPDX-License-Identifier: GPL-3.0-or-later
// The Roofline page's two charts: the accelerators' rooflines with the scenario's operators, and this
// machine's measured roofline with the reference operators.
#include "pages/roofline/roofline_page.h"

#include "charts/chart_palette.h"
#include "charts/chart_view.h"
#include "common/file_writer.h"
#include "enum_labels.h"
#include "hardware/hardware_catalog.h"
#include "pages/page_format.h"
#include "pages/roofline/machine_warnings.h"
#include "pages/roofline/reference_ops_run.h"
#include "pages/roofline/roofline_page_parts.h"
#include "hardware/machine_kernel_factors.h"
#include "reference/peak_utilisation.h"
#include "reference/step_time_comparison.h"
#include "pages/operator_text.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QTableWidget>
#include <QTextStream>

#include <map>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <memory>

namespace lse::gui {

using namespace roofline_parts;

namespace {

// Log-spaced intensities covering [low, high], for drawing a roof as a polyline (its corner at
// the ridge point is added so the kink is exact).
QVector<double> roofIntensities(double low, double high, double ridge)
{
    QVector<double> xs;
    const int steps = 48;
    for (int i = 0; i <= steps; ++i)
        xs << low * std::pow(high / low, double(i) / steps);
    if (ridge > low && ridge < high) {
        xs << ridge;
        std::sort(xs.begin(), xs.end());
    }
    return xs;
}

ChartSeries roofSeries(const RooflineMachine &machine, double low, double high, const QString &name)
{
    ChartSeries line;
    line.name = name;
    for (double x : roofIntensities(low, high, machine.ridgePointFlopPerByte())) {
        line.x << x;
        line.y << attainableFlopsPerSecond(machine, x);
        line.point_tooltips << RooflinePage::tr("<b>%1</b><br>I = %2: attainable min(%3, I · %4) = %5")
                                   .arg(name.toHtmlEscaped(), intensityText(x),
                                        format::si(machine.peak_flops_per_second, RooflinePage::tr("FLOP/s")),
                                        format::si(machine.memory_bandwidth_bytes_per_second, QStringLiteral("B/s")),
                                        format::si(line.y.back(), RooflinePage::tr("FLOP/s")));
    }
    return line;
}

// Labels for the most important points only: in order of `weight`, a point gets a label unless an
// already labelled one lies within a factor of 3 in both coordinates (a cluster gets one label).
// Right of the middle of the log x range the text sits left of its point so it stays in the plot.
struct LabelCandidate {
    double x;
    double y;
    double weight;
    QString text;
};
QVector<ChartText> sparseLabels(std::vector<LabelCandidate> candidates, int limit, double low, double high)
{
    std::sort(candidates.begin(), candidates.end(),
              [](const LabelCandidate &a, const LabelCandidate &b) { return a.weight > b.weight; });
    const double middle = std::sqrt(low * high);
    QVector<ChartText> labels;
    std::vector<const LabelCandidate *> placed;
    for (const LabelCandidate &candidate : candidates) {
        if (int(labels.size()) >= limit)
            break;
        const bool crowded = std::any_of(placed.begin(), placed.end(), [&](const LabelCandidate *other) {
            return std::abs(std::log10(candidate.x / other->x)) < 0.5 &&
                   std::abs(std::log10(candidate.y / other->y)) < 0.5;
        });
        if (crowded)
            continue;
        placed.push_back(&candidate);
        ChartText label;
        label.x = candidate.x;
        label.y = candidate.y;
        label.text = candidate.text;
        label.alignment = (candidate.x > middle ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom;
        label.beside_point = true;
        labels << label;
    }
    return labels;
}

}  // namespace

ChartData RooflinePage::acceleratorChartData() const
{
    ChartData chart;
    chart.x_label = tr("Arithmetic intensity (FLOP per byte of memory traffic, log scale)");
    chart.x_unit = QStringLiteral("FLOP/B");
    chart.y_label = tr("Attainable FLOP/s (log scale)");
    chart.y_unit = QStringLiteral("FLOP/s");
    chart.log_x = true;
    chart.log_y = true;
    chart.formula.formula = tr("attainable = min(peak, I · bandwidth); I = FLOPs / (bytes read + bytes written); "
                               "ridge point = peak / bandwidth; time = max(FLOPs / peak, bytes / bandwidth)");
    chart.formula.source = tr("Williams, Waterman & Patterson 2009, 'Roofline' (CACM 52(4)), eq. 1; peaks and "
                              "bandwidths: hardware catalog datasheets; operator FLOPs: the cost engine's operator "
                              "list (PaLM App. B conventions)");
    if (!hasEstimate()) {
        chart.title = tr("Roofline: no valid scenario yet");
        return chart;
    }

    // The machines to draw: the checked overlay entries, the scenario's accelerator, this CPU.
    struct Drawn {
        RooflineMachine machine;
        QString name;
        bool dashed = false;
    };
    std::vector<Drawn> machines;
    QStringList skipped;
    const std::optional<DType> dtype = chosenDtype();
    const DType shown_dtype = dtype ? *dtype : scenario().training.precision.matmul_dtype;
    const RooflineMachine ops_machine = operatorMachine();
    if (ops_machine.valid())
        machines.push_back({ops_machine, tr("%1, scenario").arg(shortName(ops_machine.name)), false});
    const HardwareCatalog &catalog = builtinHardwareCatalog();
    for (const OverlayEntry &entry : kOverlay) {
        const QCheckBox *check = machine_checks_.value(QLatin1String(entry.id));
        const Accelerator *accelerator = catalog.find(entry.id);
        if (check == nullptr || !check->isChecked() || accelerator == nullptr)
            continue;
        if (accelerator->id == scenario().cluster.accelerator.id && ops_machine.valid())
            continue;  // already drawn as the scenario's
        const RooflineMachine machine = rooflineMachine(*accelerator, shown_dtype);
        if (!machine.valid()) {
            skipped << QString::fromStdString(accelerator->name);
            continue;
        }
        machines.push_back({machine, shortName(machine.name), true});
    }
    if (machine_checks_.value(QLatin1String(kThisCpu))->isChecked() && cpu_) {
        const RooflineMachine cpu = rooflineMachine(*cpu_, true);
        if (cpu.valid())
            machines.push_back({cpu, tr("This CPU (fp32, all cores)"), true});
    }

    // The x range covers every operator (and every kernel of "Your trace") as well as 0.01 … 10^4 FLOP/B.
    double low = kMinIntensity, high = kMaxIntensity;
    if (report_)
        for (const RooflineOp &op : report_->ops)
            if (op.intensity_flop_per_byte > 0) {
                low = std::min(low, op.intensity_flop_per_byte / 2);
                high = std::max(high, op.intensity_flop_per_byte * 2);
            }
    ChartData trace_overlay;
    addTraceOverlay(trace_overlay, low, high);

    const QPalette palette = accelerator_chart_->palette();
    ChartSeries ridges;
    ridges.name = tr("Ridge points");
    ridges.kind = ChartSeries::Kind::Marker;
    ridges.color = palette.color(QPalette::WindowText);
    QStringList inputs;
    for (std::size_t i = 0; i < machines.size(); ++i) {
        const Drawn &drawn = machines[i];
        const double ridge = drawn.machine.ridgePointFlopPerByte();
        ChartSeries line = roofSeries(drawn.machine, low, high,
                                      tr("%1, ridge %2").arg(drawn.name, intensityText(ridge)));
        line.color = chartSeriesColor(int(i), palette);
        line.dashed = drawn.dashed;
        chart.series << line;
        ridges.x << ridge;
        ridges.y << drawn.machine.peak_flops_per_second;
        ridges.point_tooltips << tr("<b>Ridge point of %1</b><br>peak / bandwidth = %2 / %3 = %4")
                                     .arg(drawn.name.toHtmlEscaped(),
                                          format::si(drawn.machine.peak_flops_per_second, tr("FLOP/s")),
                                          format::si(drawn.machine.memory_bandwidth_bytes_per_second,
                                                     QStringLiteral("B/s")),
                                          intensityText(ridge));
        inputs << tr("%1: peak %2, bandwidth %3, ridge %4")
                      .arg(drawn.name.toHtmlEscaped(), format::si(drawn.machine.peak_flops_per_second, tr("FLOP/s")),
                           format::si(drawn.machine.memory_bandwidth_bytes_per_second, QStringLiteral("B/s")),
                           intensityText(ridge));
    }
    if (!skipped.isEmpty())
        inputs << tr("no %1 peak: %2").arg(displayName(shown_dtype), skipped.join(QStringLiteral(", ")));

    if (!report_) {
        chart.title = tr("Roofline (%1): the operators cannot be placed: %2")
                          .arg(displayName(shown_dtype), report_problem_);
        if (!ridges.x.isEmpty())
            chart.series << ridges;
        chart.series << trace_overlay.series;
        chart.formula.inputs = inputs.join(QStringLiteral("<br>"));
        return chart;
    }

    // The operators, coloured by the roof that limits them; labels on the slowest few only.
    std::vector<LabelCandidate> candidates;
    ChartSeries compute;
    compute.name = tr("Compute-bound operators");
    compute.kind = ChartSeries::Kind::Marker;
    compute.color = QColor(0xD5, 0x5E, 0x00);  // Okabe–Ito vermillion
    ChartSeries memory;
    memory.name = tr("Memory-bound operators");
    memory.kind = ChartSeries::Kind::Marker;
    memory.color = QColor(0x00, 0x72, 0xB2);  // Okabe–Ito blue
    int unplotted = 0;
    for (std::size_t i = 0; i < report_->ops.size(); ++i) {
        const RooflineOp &op = report_->ops[i];
        if (!(op.intensity_flop_per_byte > 0) || !(op.attainable_flops_per_second > 0)) {
            ++unplotted;
            continue;
        }
        ChartSeries &series = op.bound == Bound::Compute ? compute : memory;
        series.x << op.intensity_flop_per_byte;
        series.y << op.attainable_flops_per_second;
        const QString name = QString::fromStdString(op.name);
        candidates.push_back({op.intensity_flop_per_byte, op.attainable_flops_per_second, op.seconds,
                              tr("%1 (%2)").arg(name, passName(op.pass))});
        series.point_tooltips
            << tr("<b>%1</b> (%2, ×%3)<br>shape %4<br>FLOPs %5, bytes %6<br>intensity %7<br>attainable %8 → "
                  "%9<br>time %10 (%11 of the step)")
                   .arg(name.toHtmlEscaped(), passName(op.pass), format::integer(op.count),
                        operatorShapeText(op.shape).toHtmlEscaped(), format::si(op.flops, tr("FLOP")),
                        format::bytes(op.bytes()), intensityText(op.intensity_flop_per_byte),
                        format::si(op.attainable_flops_per_second, tr("FLOP/s")), boundName(op.bound),
                        format::si(op.seconds, QStringLiteral("s")), format::percent(op.share_of_step));
    }
    chart.series << memory << compute << ridges << trace_overlay.series;
    chart.texts = sparseLabels(candidates, kLabelledOps, low, high);
    const QString phase_name = phase_box_->currentText();
    chart.title = tr("%1, batch %2, on %3").arg(phase_name, format::integer(report_->batch),
                                                 shortName(report_->machine.name));
    inputs.prepend(tr("%1, batch %2%3, FlashAttention %4, fused element-wise %5")
                       .arg(phase_name, format::integer(report_->batch),
                            report_->context_tokens > 0
                                ? tr(", KV cache %1 tokens").arg(format::integer(report_->context_tokens))
                                : QString(),
                            report_->options.flash_attention ? tr("on") : tr("off"),
                            report_->options.fused_elementwise ? tr("on") : tr("off")));
    if (unplotted > 0)
        inputs << tr("%n operator(s) without FLOPs (lookups) are in the table only", nullptr, unplotted);
    chart.formula.inputs = inputs.join(QStringLiteral("<br>"));
    return chart;
}

void RooflinePage::refreshMachineChart()
{
    const bool running = worker_ != nullptr;
    measure_machine_button_->setEnabled(!running);
    measure_ops_button_->setEnabled(!running);
    cancel_button_->setEnabled(running);
    if (!running) {
        if (cpu_)
            machine_status_->setText(
                tr("%1: %2 peak (SGEMM n = %3, %Ln thread(s)), %4 bandwidth, measured %5.", nullptr, int(cpu_->threads_used))
                    .arg(QString::fromStdString(cpu_->cpu_model).toHtmlEscaped(),
                         format::si(cpu_->peak_flops_per_s_all_cores, tr("FLOP/s")),
                         format::integer(std::int64_t(cpu_->sgemm_n)),
                         format::si(cpu_->bandwidth_bytes_per_s_all_cores, QStringLiteral("B/s")),
                         QString::fromStdString(cpu_->measured_at)) +
                (machineWarningTexts(*cpu_).isEmpty() ? QString() : QLatin1Char(' ') + machineWarningSentence(*cpu_).toHtmlEscaped()));
        else
            machine_status_->setText(tr("This machine has not been measured yet (%1). Measure it to draw its "
                                        "roofline; the reference operators can be measured either way.")
                                         .arg(cpu_missing_reason_.isEmpty() ? tr("no cache") : cpu_missing_reason_));
        if (!measure_error_.isEmpty())
            machine_status_->setText(machine_status_->text() + QLatin1Char(' ') +
                                     tr("Last measurement failed: %1").arg(measure_error_));
        else if (measure_cancelled_)
            machine_status_->setText(machine_status_->text() + QLatin1Char(' ') +
                                     tr("The last measurement was cancelled; nothing of it was kept."));
    }
    machine_chart_->setData(machineChartData());
}

ChartData RooflinePage::machineChartData() const
{
    ChartData chart;
    chart.x_label = tr("Arithmetic intensity (FLOP/B, log scale)");
    chart.x_unit = QStringLiteral("FLOP/B");
    chart.y_label = tr("FLOP/s (log scale)");
    chart.y_unit = QStringLiteral("FLOP/s");
    chart.log_x = true;
    chart.log_y = true;
    chart.formula.formula = tr("roof = min(peak, I · bandwidth); a measured operator sits at achieved = FLOPs / "
                               "seconds, at I = FLOPs / bytes with bytes = predicted bytes · measured FLOPs / "
                               "predicted FLOPs; its predicted ring at FLOPs / predicted seconds");
    chart.formula.source = tr("Williams et al. 2009; peak: Eigen SGEMM, bandwidth: STREAM triad (McCalpin 1995), "
                              "both measured by `llm-explorer-cli machine`; operators: the reference transformer's "
                              "op profiler");
    if (!cpu_ && measured_records_.empty()) {
        chart.title = tr("This machine: not measured yet");
        return chart;
    }
    QStringList inputs;
    double low = kMinIntensity, high = 1e3;
    std::vector<MeasuredRooflinePoint> points;
    if (measured_config_ && !measured_records_.empty()) {
        const Scenario scenario = referenceScenario(*measured_config_, cpu_);
        RooflineOptions options = rooflineOptionsFor(scenario, StepPhase::Train);
        options.flash_attention = false;
        options.fused_elementwise = false;
        Result<RooflineReport> predicted = rooflineReport(scenario, options, rooflineMachine(scenario));
        if (predicted) {
            // The profiler summed `measured_steps_` steps; the predicted report is one step.
            points = measuredRooflinePoints(measured_records_, predicted.value());
            for (const MeasuredRooflinePoint &point : points)
                if (point.intensity_flop_per_byte > 0) {
                    low = std::min(low, point.intensity_flop_per_byte / 2);
                    high = std::max(high, point.intensity_flop_per_byte * 2);
                }
        } else {
            inputs << QString::fromStdString(formatProblems(predicted.problems())).trimmed().toHtmlEscaped();
        }
    }
    const QPalette palette = machine_chart_->palette();
    if (cpu_) {
        const RooflineMachine all = rooflineMachine(*cpu_, true);
        const RooflineMachine one = rooflineMachine(*cpu_, false);
        if (all.valid()) {
            ChartSeries line = roofSeries(all, low, high, tr("All %Ln thread(s)", nullptr, int(cpu_->threads_used)));
            line.color = chartSeriesColor(0, palette);
            chart.series << line;
        }
        if (one.valid()) {
            ChartSeries line = roofSeries(one, low, high, tr("One core"));
            line.color = chartSeriesColor(1, palette);
            line.dashed = true;
            chart.series << line;
        }
        inputs << tr("%1: peak %2 (one core %3), bandwidth %4 (one core %5), ridge %6")
                      .arg(QString::fromStdString(cpu_->cpu_model).toHtmlEscaped(),
                           format::si(cpu_->peak_flops_per_s_all_cores, tr("FLOP/s")),
                           format::si(cpu_->peak_flops_per_s_one_core, tr("FLOP/s")),
                           format::si(cpu_->bandwidth_bytes_per_s_all_cores, QStringLiteral("B/s")),
                           format::si(cpu_->bandwidth_bytes_per_s_one_core, QStringLiteral("B/s")),
                           intensityText(cpu_->ridge_point_flop_per_byte()));
    }
    ChartSeries forward, backward;
    forward.name = tr("Measured forward operators");
    forward.kind = ChartSeries::Kind::Marker;
    forward.color = QColor(0x00, 0x9E, 0x73);  // Okabe–Ito bluish green
    backward.name = tr("Measured backward operators");
    backward.kind = ChartSeries::Kind::Marker;
    backward.color = QColor(0xCC, 0x79, 0xA7);  // Okabe–Ito reddish purple
    std::vector<LabelCandidate> candidates;  // the operators that took longest get labels
    const double peak = cpu_ ? cpu_->peak_flops_per_s_all_cores : 0;
    for (const MeasuredRooflinePoint &point : points) {
        if (!(point.intensity_flop_per_byte > 0) || !(point.achieved_flops_per_second > 0))
            continue;
        ChartSeries &series = point.pass == OpPass::Forward ? forward : backward;
        series.x << point.intensity_flop_per_byte;
        series.y << point.achieved_flops_per_second;
        candidates.push_back({point.intensity_flop_per_byte, point.achieved_flops_per_second, point.seconds,
                              tr("%1 (%2)").arg(QString::fromStdString(point.name), passName(point.pass))});
        QString tip = tr("<b>%1</b> (%2)<br>FLOPs %3, bytes %4 over %5 steps<br>intensity %6<br>time %7 → achieved "
                         "%8")
                          .arg(QString::fromStdString(point.name).toHtmlEscaped(), passName(point.pass),
                               format::si(point.flops, tr("FLOP")), format::bytes(point.bytes),
                               format::integer(measured_steps_), intensityText(point.intensity_flop_per_byte),
                               format::si(point.seconds, QStringLiteral("s")),
                               format::si(point.achieved_flops_per_second, tr("FLOP/s")));
        if (peak > 0)
            tip += reference::exceedsMeasuredPeak(point.achieved_flops_per_second / peak)
                       ? tr("<br>above the measured peak: re-measure this machine")
                       : tr("<br>%1 of the measured peak").arg(format::percent(point.achieved_flops_per_second / peak));
        series.point_tooltips << tip;
    }
    chart.texts = sparseLabels(candidates, kLabelledOps, low, high);
    if (!forward.x.isEmpty())
        chart.series << forward;
    if (!backward.x.isEmpty())
        chart.series << backward;
    // The same operators where the step predictor puts them: at the same intensity, at FLOPs / the
    // predicted time from this CPU's kernel factors at the run's thread count (rings).
    if (measured_config_ && !points.empty()) {
        const int threads = std::max(1, measured_config_->threads);
        const std::optional<CpuKernelFactors> kernels = loadCachedCpuKernelFactors(threads);
        const Result<reference::ReferenceStepPrediction> prediction =
            kernels ? reference::predictReferenceStep(*measured_config_, *kernels)
                    : Result<reference::ReferenceStepPrediction>::failure("kernels", "missing", "");
        if (prediction) {
            std::map<std::pair<std::string, OpPass>, double> seconds;  // per step, with other processes' share
            const double scale = prediction->idle_seconds > 0 ? prediction->seconds / prediction->idle_seconds : 1.0;
            for (const performance::OperatorTime &op : prediction->step.operators)
                if (op.pass == "forward" || op.pass == "backward")
                    seconds[{op.name, op.pass == "forward" ? OpPass::Forward : OpPass::Backward}] += op.seconds * scale;
            ChartSeries predicted;
            predicted.name = tr("Predicted operators (kernel factors)");
            predicted.kind = ChartSeries::Kind::Marker;
            predicted.hollow = true;
            predicted.color = QColor(0x56, 0xB4, 0xE9);  // Okabe–Ito sky blue
            for (const MeasuredRooflinePoint &point : points) {
                const auto it = seconds.find({point.name, point.pass});
                if (it == seconds.end() || !(it->second > 0) || !(point.intensity_flop_per_byte > 0) || measured_steps_ <= 0)
                    continue;
                const double step_seconds = point.seconds / measured_steps_;
                const double achieved = point.flops / measured_steps_ / it->second;
                predicted.x << point.intensity_flop_per_byte;
                predicted.y << achieved;
                predicted.point_tooltips << tr("<b>%1</b> (%2), predicted<br>%3 per step predicted, %4 measured (%5)<br>"
                                               "predicted %6")
                                                .arg(QString::fromStdString(point.name).toHtmlEscaped(), passName(point.pass),
                                                     format::si(it->second, QStringLiteral("s")),
                                                     format::si(step_seconds, QStringLiteral("s")),
                                                     (step_seconds >= it->second ? QStringLiteral("+") : QString()) +
                                                         format::percent((step_seconds - it->second) / it->second),
                                                     format::si(achieved, tr("FLOP/s")));
            }
            if (!predicted.x.isEmpty())
                chart.series << predicted;
            inputs << tr("predicted operators: the operator-level step predictor with this CPU's kernel factors at %Ln "
                         "thread(s), measured %1",
                         nullptr, threads)
                          .arg(QString::fromStdString(kernels->measured_at));
        } else {
            inputs << tr("no predicted operators: no kernel factors cached for %Ln thread(s) (run `llm-explorer-cli "
                         "machine`, or train on the Reference run page)",
                         nullptr, threads);
        }
    }
    if (measured_config_ && !points.empty())
        inputs << tr("reference preset '%1': %2 layers, d_model %3, batch %4 × %5 tokens, fp32, %6 measured steps after "
                     "one warm-up step")
                      .arg(QString::fromStdString(measured_config_->model.name).toHtmlEscaped())
                      .arg(measured_config_->model.n_layers)
                      .arg(measured_config_->model.d_model)
                      .arg(measured_config_->batch_size)
                      .arg(measured_config_->model.max_seq_len)
                      .arg(measured_steps_);
    chart.title = points.empty() ? tr("This machine's roofline (press \"Measure reference ops\" for operator points)")
                                 : tr("This machine: reference transformer operators at their achieved FLOP/s");
    chart.formula.inputs = inputs.join(QStringLiteral("<br>"));
    return chart;
}

}  // namespace lse::gui
