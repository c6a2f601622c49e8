// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/numbers/underflow_section.h"

#include "numbers/reference_gradient_source.h"

#include "charts/chart_view.h"
#include "pages/numbers/underflow/underflow_charts.h"
#include "pages/numbers/underflow/underflow_worker.h"
#include "pages/page_format.h"

#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace lse::gui {

namespace {

constexpr int kHistogramSteps = 5;      // "a few steps": past the first step's initialisation transient
constexpr int kMaxScaleExponent = 24;   // the slider's 2^0 … 2^24
constexpr int kDefaultInitialScaleExponent = 16;  // GradScaler's init_scale 2^16
constexpr int kDefaultGrowthInterval = 10;  // GradScaler uses 2000; a short run needs a shorter one to grow
constexpr int kDefaultSimulationSteps = 100;
constexpr int kMaxSimulationSteps = 2000;

QString problemText(const Problems &problems)
{
    QStringList lines;
    for (const Problem &p : problems)
        lines << QStringLiteral("%1: %2 [%3]").arg(QString::fromStdString(p.field), QString::fromStdString(p.message),
                                                    QString::fromStdString(p.rule));
    return lines.join(QLatin1Char('\n'));
}

}  // namespace

UnderflowSection::UnderflowSection(QWidget *parent)
    : PageSection(parent),
      intro_(new QLabel(this)),
      run_button_(new QPushButton(this)),
      cancel_button_(new QPushButton(this)),
      progress_(new QProgressBar(this)),
      status_(new QLabel(this)),
      scale_label_(new QLabel(this)),
      scale_slider_(new QSlider(Qt::Horizontal, this)),
      scale_value_(new QLabel(this)),
      summary_(new QLabel(this)),
      histogram_chart_(new ChartView(QStringLiteral("numbers-gradient-histogram"), this)),
      simulation_intro_(new QLabel(this)),
      initial_scale_label_(new QLabel(this)),
      initial_scale_spin_(new QSpinBox(this)),
      growth_label_(new QLabel(this)),
      growth_spin_(new QSpinBox(this)),
      sim_steps_label_(new QLabel(this)),
      sim_steps_spin_(new QSpinBox(this)),
      simulate_button_(new QPushButton(this)),
      simulation_summary_(new QLabel(this)),
      scale_chart_(new ChartView(QStringLiteral("numbers-loss-scale"), this)),
      loss_chart_(new ChartView(QStringLiteral("numbers-loss-scale-loss"), this)),
      flushed_chart_(new ChartView(QStringLiteral("numbers-loss-scale-flushed"), this)),
      worker_(new UnderflowWorker(this))
{
    auto *layout = new QVBoxLayout(addScrollingContent(this));
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(8);
    for (QLabel *label : {intro_, status_, summary_, simulation_intro_, simulation_summary_}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    layout->addWidget(intro_);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(run_button_);
    buttons->addWidget(cancel_button_);
    buttons->addWidget(progress_, 1);
    layout->addLayout(buttons);
    progress_->setTextVisible(true);
    layout->addWidget(status_);

    auto *scale_row = new QHBoxLayout;
    scale_row->addWidget(scale_label_);
    scale_row->addWidget(scale_slider_, 1);
    scale_row->addWidget(scale_value_);
    scale_label_->setBuddy(scale_slider_);
    scale_slider_->setRange(0, kMaxScaleExponent);
    scale_slider_->setPageStep(4);
    scale_slider_->setTickPosition(QSlider::TicksBelow);
    scale_slider_->setTickInterval(4);
    layout->addLayout(scale_row);
    layout->addWidget(summary_);
    layout->addWidget(histogram_chart_, 2);

    layout->addWidget(simulation_intro_);
    // Label and field per row: the tab must fit beside the scenario editor in a 1024-pixel window.
    auto *controls = new QGridLayout;
    controls->addWidget(initial_scale_label_, 0, 0);
    controls->addWidget(initial_scale_spin_, 0, 1);
    controls->addWidget(growth_label_, 1, 0);
    controls->addWidget(growth_spin_, 1, 1);
    controls->addWidget(sim_steps_label_, 2, 0);
    controls->addWidget(sim_steps_spin_, 2, 1);
    controls->addWidget(simulate_button_, 3, 0, 1, 2, Qt::AlignLeft);
    controls->setColumnStretch(2, 1);
    initial_scale_label_->setBuddy(initial_scale_spin_);
    growth_label_->setBuddy(growth_spin_);
    sim_steps_label_->setBuddy(sim_steps_spin_);
    initial_scale_spin_->setRange(0, kMaxScaleExponent);
    initial_scale_spin_->setValue(kDefaultInitialScaleExponent);
    initial_scale_spin_->setPrefix(QStringLiteral("2^"));
    growth_spin_->setRange(1, kMaxSimulationSteps);
    growth_spin_->setValue(kDefaultGrowthInterval);
    sim_steps_spin_->setRange(1, kMaxSimulationSteps);
    sim_steps_spin_->setValue(kDefaultSimulationSteps);
    layout->addLayout(controls);
    layout->addWidget(simulation_summary_);
    layout->addWidget(scale_chart_, 1);
    layout->addWidget(loss_chart_, 1);
    layout->addWidget(flushed_chart_, 1);

    connect(run_button_, &QPushButton::clicked, this, &UnderflowSection::startRun);
    connect(simulate_button_, &QPushButton::clicked, this, &UnderflowSection::startSimulation);
    connect(cancel_button_, &QPushButton::clicked, this, &UnderflowSection::cancelRun);
    connect(scale_slider_, &QSlider::valueChanged, this, &UnderflowSection::updateScale);
    connect(worker_, &UnderflowWorker::progressed, this, &UnderflowSection::onProgress);
    connect(worker_, &UnderflowWorker::finished, this,
            [this](UnderflowWorker::Kind kind) { onFinished(int(kind)); });

    retranslate();
    setPresentation(false);
    bindLessonControls();
}

UnderflowSection::~UnderflowSection() = default;

QString UnderflowSection::title() const { return tr("Underflow and loss scaling"); }

void UnderflowSection::showEstimate(const Scenario &, const Estimate &)
{
    // The gradients are the reference transformer's, not the scenario's. The page gets its first
    // estimate when it is first shown: that is when the short default run starts.
    if (!started_)
        startRun();
}

// The simulation's charts are hidden until a simulation ran: exports skip them until then.
QList<ChartView *> UnderflowSection::charts() const
{
    if (simulation_.steps.empty())
        return {histogram_chart_};
    return allCharts();
}

QList<ChartView *> UnderflowSection::allCharts() const
{
    return {histogram_chart_, scale_chart_, loss_chart_, flushed_chart_};
}

void UnderflowSection::setPresentation(bool presentation)
{
    // Hidden charts too, so they appear in the mode the page is in.
    for (ChartView *chart : allCharts()) {
        chart->setPresentation(presentation);
        chart->setMinimumHeight(presentation ? kPresentationChartMinimumHeight : kChartMinimumHeight);
    }
}

bool UnderflowSection::isReady() const { return !worker_->isRunning(); }

double UnderflowSection::lossScale() const { return std::ldexp(1.0, scale_slider_->value()); }

void UnderflowSection::changeEvent(QEvent *event)
{
    PageSection::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        refreshHistogramChart();  // zone and series colours follow the light/dark palette
        refreshSimulationCharts();
    }
}

void UnderflowSection::retranslate()
{
    const numbers::FormatRange fp16 = numbers::formatRange(numbers::FormatId::FP16);
    const ModelConfig model = numbers::gradientTrainConfig({}).model;
    intro_->setText(tr("Gradients of a real network span many powers of two, and FP16 covers few of them: its "
                       "smallest subnormal is 2^%1 and a value below half of it rounds to zero. Run trains the CPU "
                       "reference transformer (%2 layers, d_model %3, on the built-in sample text) for %n step(s) in "
                       "FP32 and histograms every element of its gradients. The FP16 cast is simulated on these real "
                       "gradients (round to nearest even); the training itself stays FP32. Move the loss scale to see "
                       "which gradients a scale rescues from zero and which it pushes into overflow.",
                       nullptr, kHistogramSteps)
                        .arg(std::log2(fp16.min_subnormal))
                        .arg(model.n_layers)
                        .arg(model.d_model));
    run_button_->setText(tr("&Run"));
    cancel_button_->setText(tr("&Cancel"));
    scale_label_->setText(tr("&Loss scale S:"));
    simulation_intro_->setText(
        tr("Dynamic loss scaling (Micikevicius et al. 2018, §3.2; the rule of PyTorch's GradScaler): each step the "
           "gradients are multiplied by the scale and cast to FP16; if any becomes inf or NaN the step is skipped and "
           "the scale halves, and after N good steps in a row it doubles. Simulated over a fresh FP32 training run of "
           "the reference transformer: a skipped step is one FP16 training would skip, the FP32 run still takes it."));
    initial_scale_label_->setText(tr("&Initial scale:"));
    growth_label_->setText(tr("&Growth interval N:"));
    growth_spin_->setSuffix(tr(" steps"));
    sim_steps_label_->setText(tr("S&teps:"));
    simulate_button_->setText(tr("&Simulate"));
    updateScale();  // the summary and the histogram's texts
    refreshSimulationCharts();
    updateControls();
}

void UnderflowSection::startRun()
{
    if (worker_->isRunning())
        return;
    started_ = true;
    problem_.clear();
    numbers::GradientSnapshotOptions options;
    options.steps = kHistogramSteps;
    worker_->startGradients(options);
    updateControls();
}

void UnderflowSection::startSimulation()
{
    if (worker_->isRunning())
        return;
    problem_.clear();
    numbers::LossScalingOptions options;
    options.scaler.initial_scale = std::ldexp(1.0, initial_scale_spin_->value());
    options.scaler.growth_interval = growth_spin_->value();
    options.steps = sim_steps_spin_->value();
    simulation_ = {};
    worker_->startSimulation(options);
    updateControls();
}

void UnderflowSection::cancelRun() { worker_->cancel(); }

void UnderflowSection::onProgress()
{
    const UnderflowWorker::Progress p = worker_->progress();
    progress_->setRange(0, std::max(p.steps, 1));
    progress_->setValue(p.step);
    if (p.kind == UnderflowWorker::Kind::Simulation) {
        simulation_.steps = p.simulated;  // the charts grow as the run goes
        refreshSimulationCharts();
        refreshSummary();
    }
    updateControls();
}

void UnderflowSection::onFinished(int kind)
{
    if (UnderflowWorker::Kind(kind) == UnderflowWorker::Kind::Gradients) {
        const auto &result = *worker_->gradients();
        if (!result.ok()) {
            problem_ = problemText(result.problems());
        } else if (result.value().steps > 0) {
            snapshot_ = result.value();
            unscaled_cast_ = numbers::castStatistics(snapshot_.gradients, numbers::FormatId::FP16);
            unscaled_bf16_cast_ = numbers::castStatistics(snapshot_.gradients, numbers::FormatId::BF16);
        }
        if (result.ok() && result.value().cancelled)
            problem_ = tr("Cancelled.");
        updateScale();
    } else {
        const auto &result = *worker_->simulation();
        if (!result.ok())
            problem_ = problemText(result.problems());
        else
            simulation_ = result.value();
        if (result.ok() && result.value().cancelled)
            problem_ = tr("Cancelled after %n step(s).", nullptr, int(simulation_.steps.size()));
        refreshSimulationCharts();
    }
    refreshSummary();
    updateControls();
    if (UnderflowWorker::Kind(kind) == UnderflowWorker::Kind::Gradients)
        emit runFinished();
    else
        emit simulationFinished();
    emit ready();
}

// The slider only re-casts the gradients already collected: no retraining.
void UnderflowSection::updateScale()
{
    const double scale = lossScale();
    scale_value_->setText(UnderflowCharts::scaleText(scale));
    if (!snapshot_.gradients.empty()) {
        scaled_cast_ = numbers::castStatistics(snapshot_.gradients, numbers::FormatId::FP16, scale);
        scaled_histogram_ = numbers::log2Histogram(snapshot_.gradients, scale);
    }
    refreshSummary();
    refreshHistogramChart();
}

void UnderflowSection::refreshHistogramChart()
{
    histogram_chart_->setData(UnderflowCharts::histogram(scaled_histogram_, lossScale(),
                                                         numbers::formatRange(numbers::FormatId::FP16),
                                                         numbers::formatRange(numbers::FormatId::BF16), palette()));
}

void UnderflowSection::refreshSimulationCharts()
{
    // Empty axes would look broken: the charts appear with the first simulated step.
    for (ChartView *chart : {scale_chart_, loss_chart_, flushed_chart_})
        chart->setVisible(!simulation_.steps.empty());
    scale_chart_->setData(UnderflowCharts::lossScale(simulation_.steps, palette()));
    loss_chart_->setData(UnderflowCharts::loss(simulation_.steps, palette()));
    flushed_chart_->setData(UnderflowCharts::flushed(simulation_.steps, palette()));
}

void UnderflowSection::refreshSummary()
{
    if (snapshot_.gradients.empty()) {
        summary_->setText(worker_->isRunning() ? tr("Training…") : tr("Press Run to train and collect the gradients."));
    } else {
        summary_->setText(
            tr("%1 gradient elements after %n step(s) (loss %2), %3 exactly zero. Cast to FP16 without scaling: "
               "%4 of the non-zero gradients flush to zero and %5 become subnormal (BF16: %6 flush). "
               "× %7: %8 flush to zero, %9 overflow.",
               nullptr, snapshot_.steps)
                .arg(format::integer(std::int64_t(snapshot_.gradients.size())), format::decimal(snapshot_.loss, 3),
                     format::integer(snapshot_.histogram.zero_count), format::percent(unscaled_cast_.flushedFraction(), 3),
                     format::percent(unscaled_cast_.subnormalFraction(), 2),
                     format::percent(unscaled_bf16_cast_.flushedFraction(), 3), UnderflowCharts::scaleText(lossScale()),
                     format::percent(scaled_cast_.flushedFraction(), 3),
                     format::percent(scaled_cast_.overflowFraction(), 4)));
    }
    if (simulation_.steps.empty()) {
        simulation_summary_->setText(worker_->isRunning() && worker_->progress().kind == UnderflowWorker::Kind::Simulation
                                         ? tr("Simulating…")
                                         : tr("Press Simulate to train the reference transformer and run the scaler."));
    } else {
        int overflows = 0;
        for (const numbers::LossScalingStep &s : simulation_.steps)
            overflows += s.overflow ? 1 : 0;
        const numbers::LossScalingStep &last = simulation_.steps.back();
        // Two counts, each with its own plural form ("1 overflow step" with "3 steps simulated").
        simulation_summary_->setText(tr("%n step(s) simulated: %1 skipped; final scale %2, flushing "
                                        "%3 of the non-zero gradients (%4 without scaling).",
                                        nullptr, int(simulation_.steps.size()))
                                         .arg(tr("%n overflow step(s)", nullptr, overflows))
                                         .arg(UnderflowCharts::scaleText(last.scale),
                                              format::percent(last.flushed_fraction, 3),
                                              format::percent(last.unscaled_flushed_fraction, 3)));
    }
}

void UnderflowSection::updateControls()
{
    const bool running = worker_->isRunning();
    run_button_->setEnabled(!running);
    simulate_button_->setEnabled(!running);
    cancel_button_->setEnabled(running);
    progress_->setVisible(running);
    if (running) {
        const UnderflowWorker::Progress p = worker_->progress();
        // Step 0: the text is still being tokenized (a BPE trained on it) and the model built.
        status_->setText(p.step == 0 ? tr("Tokenizing the sample text and building the model…")
                         : p.kind == UnderflowWorker::Kind::Gradients
                             ? tr("Training step %1 of %2…").arg(p.step).arg(p.steps)
                             : tr("Simulating step %1 of %2…").arg(p.step).arg(p.steps));
    } else {
        status_->setText(problem_);
    }
    status_->setVisible(!status_->text().isEmpty());
}

void UnderflowSection::bindLessonControls()
{
    intro_->setObjectName(QStringLiteral("underflow-intro"));
    summary_->setObjectName(QStringLiteral("underflow-summary"));
    simulation_summary_->setObjectName(QStringLiteral("loss-scaling-summary"));
    lesson_controls_.addInt(QStringLiteral("scale_exponent"), scale_slider_);
    lesson_controls_.addInt(QStringLiteral("initial_scale_exponent"), initial_scale_spin_);
    lesson_controls_.addInt(QStringLiteral("growth_interval"), growth_spin_);
    lesson_controls_.addInt(QStringLiteral("simulation_steps"), sim_steps_spin_);
}

QJsonObject UnderflowSection::lessonSettings() const { return lesson_controls_.settings(); }

bool UnderflowSection::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    return lesson_controls_.apply(settings, error);
}

}  // namespace lse::gui
