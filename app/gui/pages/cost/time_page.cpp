// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/cost/time_page.h"

#include "charts/chart_view.h"
#include "cost/sweeps.h"
#include "enum_labels.h"
#include "pages/validation/calibration_dialog.h"
#include "pages/page_format.h"
#include "pages/prediction_band_text.h"

#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace lse::gui {

namespace {

constexpr int kMaxGpus = 10'000'000;  // validation's limit on cluster.gpus

// A time figure with its error band when the MFU is predicted (issue 29 §2): "12.3 days (± 9%)"
// and the interval [low, high] in days; a given MFU is an assumption, shown without a band.
QString daysWithBand(const TimeEstimate &time)
{
    if (time.mfu_source != MfuSource::Predicted || !time.predicted)
        return format::days(time.days);
    return PredictionBandText::withBand(format::days(time.days), time.predicted->band_fraction);
}

QString bandToolTip(const TimeEstimate &time, const PredictionAccuracy &accuracy)
{
    if (time.mfu_source != MfuSource::Predicted || !time.predicted)
        return {};
    const PredictedStepFigures &predicted = *time.predicted;
    return QStringLiteral("<br>")
        + PredictionBandText::toolTip(format::days(predicted.training_seconds_low / 86400.0),
                                      format::days(predicted.training_seconds_high / 86400.0), predicted.band_fraction,
                                      accuracy);
}

QString problemText(const Problems &problems)
{
    return problems.empty() ? QString() : QString::fromStdString(problems.front().message);
}

// Replicas of the model-parallel group, doubling: from one replica (or 128 fewer GPUs than the
// current run) to 16 times the current run, so the current point sits inside the range.
std::vector<int> gpuCounts(const Scenario &scenario)
{
    const ParallelConfig &parallel = scenario.training.parallel;
    const std::int64_t group = std::int64_t(parallel.tp) * parallel.pp * parallel.cp;
    const std::int64_t current = scenario.cluster.gpus;
    const std::int64_t high = std::min<std::int64_t>(kMaxGpus, std::max(current * 16, group * 128));
    std::int64_t low = group;
    while (low * 2 * 128 <= current)
        low *= 2;
    std::vector<int> counts;
    for (std::int64_t count = low; count <= high; count *= 2)
        counts.push_back(int(count));
    if (std::find(counts.begin(), counts.end(), int(current)) == counts.end()) {
        counts.push_back(int(current));
        std::sort(counts.begin(), counts.end());
    }
    return counts;
}

// days ∝ 1/MFU: sampled every 5 % the curve was a visible polygon below 20 %. Geometric steps of
// 1.05 (62 points from 5 % to 100 %) keep each chord within 0.06 % of the curve everywhere.
constexpr double kLowestMfu = 0.05;
constexpr int kMfuSamples = 62;

std::vector<double> mfuValues(double current)
{
    std::vector<double> values;
    const double ratio = std::pow(1.0 / kLowestMfu, 1.0 / double(kMfuSamples - 1));
    for (int i = 0; i < kMfuSamples; ++i)
        values.push_back(i + 1 == kMfuSamples ? 1.0 : kLowestMfu * std::pow(ratio, double(i)));
    if (std::none_of(values.begin(), values.end(), [&](double v) { return std::abs(v - current) < 1e-9; })) {
        values.push_back(current);
        std::sort(values.begin(), values.end());
    }
    return values;
}

}  // namespace

TimePage::TimePage(QWidget *parent) : Page(parent)
{
    auto *layout = new QVBoxLayout(addScrollingContent(this));
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(8);
    gpu_chart_ = new ChartView(QStringLiteral("days-vs-gpu-count"), this);
    mfu_chart_ = new ChartView(QStringLiteral("days-vs-mfu"), this);
    calibrate_button_ = new QPushButton;
    calibrate_button_->setObjectName(QStringLiteral("time.calibrate"));
    connect(calibrate_button_, &QPushButton::clicked, this, [this] { CalibrationDialog::openFor(scenario(), this); });
    layout->addWidget(calibrate_button_, 0, Qt::AlignRight);
    layout->addWidget(gpu_chart_, 1);
    layout->addWidget(mfu_chart_, 1);
    // Below this height projector fonts crowd the plot out; the page scrolls instead.
    setChartMinimumHeights(kChartMinimumHeight, kPresentationChartMinimumHeight);
    setPresentation(false);
    refresh();
}

QString TimePage::pageId() { return QStringLiteral("time"); }

QString TimePage::pageTitle() { return tr("Time"); }

QList<ChartView *> TimePage::charts() const { return {gpu_chart_, mfu_chart_}; }

void TimePage::estimateChanged(const Scenario * /*previous*/)
{
    refresh();
}

void TimePage::retranslate() { refresh(); }

void TimePage::refresh()
{
    calibrate_button_->setText(tr("Calibrate MFU…"));
    calibrate_button_->setToolTip(tr("Fit the accelerator's efficiency to a step time or TFLOP/s you measured"));
    calibrate_button_->setEnabled(hasEstimate());
    gpu_chart_->setData(gpuCountChart());
    mfu_chart_->setData(mfuChart());
}

QString TimePage::formulaText() const
{
    return tr("days = C / (N_gpu · peak · MFU) / 86,400 s (perfect scaling: communication and bubbles are what MFU "
              "absorbs)");
}

QString TimePage::gpuCountFormulaText() const
{
    if (scenario().training.mfu_source != MfuSource::Predicted)
        return formulaText();
    // Each GPU count's MFU is predicted for its own layout, so the curve is not perfect scaling.
    return tr("days = C / (N_gpu · peak · MFU) / 86,400 s, the MFU predicted at each GPU count (operator-level kernel "
              "times + exposed communication + pipeline bubble; see the Validation page)");
}

QString TimePage::sourceText() const
{
    const QString source = format::firstSource(scenario().cluster.accelerator.source);
    return tr("C: %1; MFU: PaLM (Chowdhery et al. 2022), App. B; peak: %2")
        .arg(scenario().training.flops_model == FlopsModel::SixND ? tr("6ND, Kaplan et al. 2020")
                                                                 : tr("exact matmul FLOPs, PaLM App. B"),
             source.toHtmlEscaped());
}

QString TimePage::currentBandText() const
{
    const TimeEstimate &time = estimate().time;
    if (time.mfu_source != MfuSource::Predicted || !time.predicted)
        return {};
    const PredictedStepFigures &predicted = *time.predicted;
    // The current scenario's predicted step and days with the band ("error unknown" without one;
    // the inputs then give the basis).
    return tr(" — current: step %1 s, %2 days%3")
        .arg(format::decimal(predicted.step_seconds, 3), format::days(time.days),
             PredictionBandText::suffix(predicted.band_fraction));
}

QString TimePage::bandInputsText() const
{
    const TimeEstimate &time = estimate().time;
    if (time.mfu_source != MfuSource::Predicted || !time.predicted)
        return {};
    const PredictionAccuracy &accuracy = scenario().cluster.accelerator.accuracy;
    if (time.predicted->band_fraction > 0)
        return tr("; error band ± %1 (%2)")
            .arg(format::percent(time.predicted->band_fraction, 1), PredictionBandText::basis(accuracy));
    return tr("; %1").arg(PredictionBandText::basis(accuracy));
}

ChartData TimePage::gpuCountChart() const
{
    ChartData chart;
    chart.x_label = tr("GPUs (log scale)");
    chart.x_unit = QStringLiteral("GPUs");
    chart.y_label = tr("Training time (days, log scale)");
    chart.y_unit = QStringLiteral("days");
    chart.log_x = true;
    chart.log_y = true;  // days ∝ 1/N: a straight line on log–log axes
    if (!hasEstimate()) {
        chart.title = tr("Days vs GPU count: no valid scenario yet");
        return chart;
    }
    const Scenario &scenario = this->scenario();
    const ParallelConfig &parallel = scenario.training.parallel;
    const TimeSweep sweep = daysVsGpuCount(scenario, gpuCounts(scenario));
    if (sweep.points.empty()) {
        chart.title = tr("Days vs GPU count: no GPU count gives a valid layout (%1)")
                         .arg(sweep.skipped.empty() ? QString() : problemText(sweep.skipped.front().problems));
        return chart;
    }
    chart.title = tr("Training days vs GPU count");
    ChartSeries line;
    line.name = tr("Training time");
    for (const TimePoint &point : sweep.points) {
        line.x << double(point.gpus);
        line.y << point.time.days;
        line.point_tooltips << tr("N_gpu = %1 (dp = %2): %3 days, %4 GPU-hours, cost %5, MFU %6 (%7)")
                                   .arg(format::integer(point.gpus), format::integer(point.dp), daysWithBand(point.time),
                                        format::count(point.time.gpu_hours), format::money(point.time.cost),
                                        format::percent(point.mfu), displayName(point.time.mfu_source))
                + bandToolTip(point.time, scenario.cluster.accelerator.accuracy);
    }
    chart.series << line;

    ChartSeries marker;
    marker.name = tr("Current scenario");
    marker.kind = ChartSeries::Kind::Marker;
    marker.x << double(scenario.cluster.gpus);
    marker.y << estimate().time.days;
    marker.point_tooltips << tr("N_gpu = %1: %2 days").arg(format::integer(scenario.cluster.gpus),
                                                          daysWithBand(estimate().time))
            + bandToolTip(estimate().time, scenario.cluster.accelerator.accuracy);
    chart.series << marker;
    chart.title += currentBandText();

    // Predicted: each GPU count has its own predicted MFU (in the point tooltips).
    QString inputs = tr("tp·pp·cp = %7·%8·%9 kept, dp scaled; C = %1 (%2), peak = %3 per GPU, MFU = %4 (%10), global "
                        "batch %5, micro-batch %6")
                         .arg(format::si(estimate().flops.time_basis, tr("FLOP")),
                              scenario.training.flops_model == FlopsModel::SixND ? tr("6ND") : tr("exact"),
                              format::si(estimate().time.peak_flops_per_gpu, tr("FLOP/s")),
                              format::percent(estimate().time.mfu), format::integer(scenario.training.global_batch),
                              format::integer(scenario.training.micro_batch))
                         .arg(parallel.tp)
                         .arg(parallel.pp)
                         .arg(parallel.cp)
                         .arg(displayName(estimate().time.mfu_source));
    if (!sweep.skipped.empty()) {
        QStringList counts;
        for (const SkippedPoint &skipped : sweep.skipped)
            counts << format::integer(std::int64_t(skipped.x));
        inputs += tr("; skipped N_gpu = %1: %2").arg(counts.join(QStringLiteral(", ")),
                                                  problemText(sweep.skipped.front().problems).toHtmlEscaped());
    }
    chart.formula.inputs = inputs + bandInputsText();
    chart.formula.formula = gpuCountFormulaText();
    chart.formula.source = sourceText();
    return chart;
}

ChartData TimePage::mfuChart() const
{
    ChartData chart;
    chart.x_label = tr("MFU (model FLOPs utilization, fraction of peak)");
    chart.x_unit = QStringLiteral("fraction");
    chart.y_label = tr("Training time (days)");
    chart.y_unit = QStringLiteral("days");
    if (!hasEstimate()) {
        chart.title = tr("Days vs MFU: no valid scenario yet");
        return chart;
    }
    const Scenario &scenario = this->scenario();
    // The MFU the estimate used (typed or predicted) lies on the curve.
    const TimeSweep sweep = daysVsMfu(scenario, mfuValues(estimate().time.mfu));
    if (sweep.points.empty()) {
        chart.title = tr("Days vs MFU: no valid point (%1)")
                         .arg(sweep.skipped.empty() ? QString() : problemText(sweep.skipped.front().problems));
        return chart;
    }
    chart.title = tr("Training days vs MFU");
    ChartSeries line;
    line.name = tr("Training time");
    for (const TimePoint &point : sweep.points) {
        line.x << point.mfu;
        line.y << point.time.days;
        line.point_tooltips << tr("MFU %1: %2 days, %3 tokens/s")
                                   .arg(format::percent(point.mfu), format::days(point.time.days),
                                        format::si(point.time.tokens_per_second, QString()));
    }
    chart.series << line;

    ChartSeries marker;
    marker.name = tr("Current scenario");
    marker.kind = ChartSeries::Kind::Marker;
    marker.x << estimate().time.mfu;
    marker.y << estimate().time.days;
    marker.point_tooltips << tr("MFU %1 (%3): %2 days").arg(format::percent(estimate().time.mfu),
                                                             daysWithBand(estimate().time),
                                                             displayName(estimate().time.mfu_source))
            + bandToolTip(estimate().time, scenario.cluster.accelerator.accuracy);
    chart.series << marker;
    chart.title += currentBandText();

    chart.formula.inputs = tr("C = %1 (%2), N_gpu = %3, peak = %4 per GPU (PaLM 540B reached an MFU of 46.2 %)")
                              .arg(format::si(estimate().flops.time_basis, tr("FLOP")),
                                   scenario.training.flops_model == FlopsModel::SixND ? tr("6ND") : tr("exact"),
                                   format::integer(scenario.cluster.gpus),
                                   format::si(estimate().time.peak_flops_per_gpu, tr("FLOP/s")))
        + bandInputsText();
    chart.formula.formula = formulaText();
    chart.formula.source = sourceText();
    return chart;
}

}  // namespace lse::gui
