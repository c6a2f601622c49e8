// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/parallel/pipeline_page.h"

#include "charts/chart_palette.h"
#include "charts/chart_view.h"
#include "pages/page_format.h"
#include "pages/parallel/parallel_labels.h"
#include "pages/parallel/pipeline_measured_panel.h"
#include "pages/parallel/step_player.h"
#include "scenario/scenario_json.h"
#include "scenario/stage_layers.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace lse::gui {

namespace {

using parallel::PipelineScheduleKind;
using parallel::WorkKind;

constexpr std::array<PipelineScheduleKind, 4> kSchedules = {PipelineScheduleKind::GPipe, PipelineScheduleKind::OneFOneB,
                                                            PipelineScheduleKind::Interleaved,
                                                            PipelineScheduleKind::ZeroBubble};
constexpr int kMaxStages = 32;
constexpr int kMaxMicroBatches = 128;
constexpr int kMaxChunks = 8;
constexpr int kStagesWithoutPipeline = 4;  // shown when the scenario has pp = 1
// A forward of one micro-batch on one stage is the time unit; backward = 2 forwards (Narayanan et
// al. 2021 §3.3 count a backward as twice the forward's FLOPs).
constexpr double kForwardUnits = 1.0;
constexpr double kBackwardUnits = 2.0;
constexpr int kPlayIntervalMs = 500;  // the Gantt chart has tens of steps: faster than Collectives

// The scenario's micro-batches per step, m = global batch / (micro-batch · dp): the page opens at
// the schedule the scenario runs (m = 32 in the worked example, bubble (p−1)/m ≈ 9 %; it opened at a
// readable m = 8, a 37.5 % bubble the scenario does not have, issue 28 item 18). Only beyond the
// control's range is it capped.
int defaultMicroBatches(const Scenario &scenario)
{
    const ParallelConfig &parallel = scenario.training.parallel;
    const std::int64_t per_step = scenario.training.global_batch
        / std::max<std::int64_t>(1, scenario.training.micro_batch * std::max(1, parallel.dp));
    return int(std::clamp<std::int64_t>(per_step, 1, kMaxMicroBatches));
}

}  // namespace

PipelinePage::PipelinePage(QWidget *parent) : Page(parent)
{
    auto *layout = new QVBoxLayout(addScrollingContent(this));
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(6);
    intro_ = new QLabel(this);
    intro_->setWordWrap(true);
    layout->addWidget(intro_);

    auto *controls = new QGridLayout;
    schedule_label_ = new QLabel(this);
    schedule_box_ = new QComboBox(this);
    for (PipelineScheduleKind schedule : kSchedules)
        schedule_box_->addItem(QString(), int(schedule));
    stages_label_ = new QLabel(this);
    stages_spin_ = new QSpinBox(this);
    stages_spin_->setRange(1, kMaxStages);
    micro_label_ = new QLabel(this);
    micro_spin_ = new QSpinBox(this);
    micro_spin_->setRange(1, kMaxMicroBatches);
    chunks_label_ = new QLabel(this);
    chunks_spin_ = new QSpinBox(this);
    chunks_spin_->setRange(2, kMaxChunks);
    schedule_label_->setBuddy(schedule_box_);
    stages_label_->setBuddy(stages_spin_);
    micro_label_->setBuddy(micro_spin_);
    chunks_label_->setBuddy(chunks_spin_);
    // Two rows of label + field pairs, so the page fits a 1024-pixel projector in presentation
    // mode and sits beside the editor at 1280 pixels.
    controls->addWidget(schedule_label_, 0, 0);
    controls->addWidget(schedule_box_, 0, 1);
    controls->addWidget(stages_label_, 0, 2);
    controls->addWidget(stages_spin_, 0, 3);
    controls->addWidget(micro_label_, 1, 0);
    controls->addWidget(micro_spin_, 1, 1);
    controls->addWidget(chunks_label_, 1, 2);
    controls->addWidget(chunks_spin_, 1, 3);
    controls->setColumnStretch(4, 1);
    layout->addLayout(controls);

    bubble_label_ = new QLabel(this);
    bubble_label_->setWordWrap(true);
    bubble_label_->setTextFormat(Qt::RichText);
    layout->addWidget(bubble_label_);
    // Lesson highlight regions (docs/lesson-pages-parallelism.md).
    intro_->setObjectName(QStringLiteral("pipeline-intro"));
    bubble_label_->setObjectName(QStringLiteral("bubble-fraction"));
    schedule_box_->setObjectName(QStringLiteral("pipeline-schedule"));

    player_ = new StepPlayer(this, kPlayIntervalMs);
    layout->addWidget(player_);
    player_->setObjectName(QStringLiteral("step-player"));
    connect(player_, &StepPlayer::currentStepChanged, this, [this] { gantt_chart_->setData(ganttData()); });

    gantt_chart_ = new ChartView(QStringLiteral("pipeline-gantt"), this);
    in_flight_chart_ = new ChartView(QStringLiteral("pipeline-in-flight"), this);
    layout->addWidget(gantt_chart_, 2);
    layout->addWidget(in_flight_chart_, 1);
    measured_ = new PipelineMeasuredPanel(this);
    layout->addWidget(measured_);
    connect(measured_, &PipelineMeasuredPanel::runLoaded, this, [this](PipelineScheduleKind schedule, int stages, int m) {
        setSchedule(schedule);
        setStages(std::min(stages, kMaxStages));
        setMicroBatches(std::min(m, kMaxMicroBatches));
    });

    // Defaults from the default scenario until the first estimate arrives.
    const ParallelConfig &parallel = scenario().training.parallel;
    stages_spin_->setValue(parallel.pp > 1 ? std::min(parallel.pp, kMaxStages) : kStagesWithoutPipeline);
    micro_spin_->setValue(defaultMicroBatches(scenario()));
    chunks_spin_->setValue(std::clamp(parallel.virtual_stages, 2, kMaxChunks));
    schedule_box_->setCurrentIndex(parallel.virtual_stages > 1 ? 2 : 1);

    const auto changed = [this] { simulate(); };
    connect(schedule_box_, qOverload<int>(&QComboBox::currentIndexChanged), this, changed);
    connect(stages_spin_, qOverload<int>(&QSpinBox::valueChanged), this, changed);
    connect(micro_spin_, qOverload<int>(&QSpinBox::valueChanged), this, changed);
    connect(chunks_spin_, qOverload<int>(&QSpinBox::valueChanged), this, changed);

    retranslateControls();
    setChartMinimumHeights(kChartMinimumHeight, kPresentationChartMinimumHeight);
    setPresentation(false);
    simulate();
}

QString PipelinePage::pageId() { return QStringLiteral("pipeline"); }

QString PipelinePage::pageTitle() { return tr("Pipeline"); }

QList<ChartView *> PipelinePage::charts() const { return {gantt_chart_, in_flight_chart_}; }

ChartView *PipelinePage::ganttChart() const { return gantt_chart_; }

ChartView *PipelinePage::inFlightChart() const { return in_flight_chart_; }

void PipelinePage::estimateChanged(const Scenario *previous)
{
    const Scenario &scenario = this->scenario();
    const ParallelConfig &now = scenario.training.parallel;
    // Re-seed the controls only when the scenario changes what they default from.
    const bool reseed = !previous || now.pp != previous->training.parallel.pp || now.dp != previous->training.parallel.dp
        || now.virtual_stages != previous->training.parallel.virtual_stages
        || scenario.training.global_batch != previous->training.global_batch
        || scenario.training.micro_batch != previous->training.micro_batch;
    activation_bytes_per_layer_ = estimate().memory.activation_bytes_per_layer;
    if (reseed) {
        const QSignalBlocker b1(schedule_box_), b2(stages_spin_), b3(micro_spin_), b4(chunks_spin_);
        stages_spin_->setValue(now.pp > 1 ? std::min(now.pp, kMaxStages) : kStagesWithoutPipeline);
        int micro = defaultMicroBatches(scenario);
        if (now.virtual_stages > 1)  // interleaving needs m to be a multiple of p
            micro = std::max(stages_spin_->value(), micro / stages_spin_->value() * stages_spin_->value());
        micro_spin_->setValue(micro);
        chunks_spin_->setValue(std::clamp(now.virtual_stages, 2, kMaxChunks));
        schedule_box_->setCurrentIndex(now.virtual_stages > 1 ? 2 : 1);
    }
    simulate();
}

void PipelinePage::applyPresentation(bool presentation)
{
    gantt_chart_->setMinimumHeight(presentation ? kPresentationChartMinimumHeight : 380);
}

void PipelinePage::keyPressEvent(QKeyEvent *event)
{
    if (!player_->handleKey(event))
        Page::keyPressEvent(event);
}

double PipelinePage::cursorSeconds() const
{
    const int step = player_->currentStep();
    if (event_seconds_.empty() || step >= player_->stepCount())
        return timeline_.makespan_seconds;
    return step == 0 ? 0.0 : event_seconds_.at(std::size_t(step - 1));
}

void PipelinePage::retranslate()
{
    retranslateControls();
    measured_->retranslate();
    refresh();
}

void PipelinePage::retranslateControls()
{
    intro_->setText(tr("Pipeline parallelism splits the layers into p stages; a step's batch is cut into m "
                       "micro-batches that flow through them. Stages wait at the start and the end of the step: "
                       "the bubble. Schedules differ in how long they wait and how many micro-batches' "
                       "activations each stage keeps."));
    schedule_label_->setText(tr("S&chedule:"));
    stages_label_->setText(tr("&Stages p:"));
    micro_label_->setText(tr("&Micro-batches m:"));
    chunks_label_->setText(tr("&Chunks per stage v:"));
    for (int i = 0; i < schedule_box_->count(); ++i)
        schedule_box_->setItemText(i, pipelineScheduleLabel(PipelineScheduleKind(schedule_box_->itemData(i).toInt())));
    schedule_box_->setToolTip(tr("GPipe (Huang et al. 2019), 1F1B (PipeDream-Flush, Narayanan et al. 2021 §2.2), "
                                 "interleaved 1F1B (§2.2.2), ZB-H1 (Qi et al. 2023 §3)"));
    stages_spin_->setToolTip(tr("Pipeline stages p (the scenario's pp)"));
    player_->setToolTips(tr("Earlier in the step (Left)"), tr("Later in the step (Right)"));
    player_->setToolTip(tr("Step through the schedule: each step moves to the next time a task starts or ends"));
    micro_spin_->setToolTip(tr("Micro-batches per step m = global batch / (micro-batch · dp), capped here so "
                               "the chart stays readable"));
    chunks_spin_->setToolTip(tr("Model chunks per stage v (interleaved 1F1B only; m must be a multiple of p)"));
}

void PipelinePage::setSchedule(PipelineScheduleKind schedule)
{
    const int index = schedule_box_->findData(int(schedule));
    if (index >= 0)
        schedule_box_->setCurrentIndex(index);
}

void PipelinePage::setStages(int stages) { stages_spin_->setValue(stages); }

void PipelinePage::setMicroBatches(int micro_batches) { micro_spin_->setValue(micro_batches); }

void PipelinePage::setChunks(int chunks) { chunks_spin_->setValue(chunks); }

const parallel::PipelineTimeline &PipelinePage::timeline() const { return timeline_; }

QString PipelinePage::problemText() const { return problem_; }

void PipelinePage::simulate()
{
    const auto schedule = PipelineScheduleKind(schedule_box_->currentData().toInt());
    const bool interleaved = schedule == PipelineScheduleKind::Interleaved;
    chunks_spin_->setEnabled(interleaved);
    chunks_label_->setEnabled(interleaved);
    const int chunks = interleaved ? chunks_spin_->value() : 1;
    parallel::PipelineTimes times;
    // Per-chunk times: a stage's work split over its v chunks.
    times.forward_seconds = kForwardUnits / chunks;
    times.backward_seconds = kBackwardUnits / chunks;
    auto result = parallel::simulatePipeline(schedule, stages_spin_->value(), micro_spin_->value(), chunks, times);
    if (result.ok()) {
        timeline_ = std::move(result.value());
        problem_.clear();
    } else {
        timeline_ = parallel::PipelineTimeline{};
        timeline_.schedule = schedule;
        QStringList messages;
        for (const Problem &problem : result.problems())
            messages << format::fromStd(problem.message);
        problem_ = messages.join(QStringLiteral("; "));
    }
    refresh();
    Q_EMIT timelineChanged();
}

QString PipelinePage::analyticFormula() const
{
    switch (timeline_.schedule) {
    case PipelineScheduleKind::GPipe:
    case PipelineScheduleKind::OneFOneB: return tr("(p−1)/m");
    case PipelineScheduleKind::Interleaved: return tr("(p−1)/(v·m)");
    case PipelineScheduleKind::ZeroBubble: return tr("(p−1)(t_F + t_B − t_W)/(m(t_F + t_B + t_W))");
    }
    return QString();
}

QString PipelinePage::bubbleText() const
{
    if (!problem_.isEmpty())
        return tr("Cannot build this schedule: %1").arg(problem_.toHtmlEscaped());
    // Core says when the closed form's assumptions fail (ZB-H1 with m < p): then it is not this
    // schedule's bubble and is named as such, not shown as its analytic value.
    const QString analytic = timeline_.analytic_bubble_applies
                                 ? tr("analytic %1 = %2").arg(analyticFormula(), format::percent(timeline_.analytic_bubble_fraction))
                                 : tr("the analytic %1 does not apply here (it assumes %2)")
                                       .arg(analyticFormula(), format::fromStd(timeline_.analytic_bubble_assumption));
    return tr("<b>Bubble</b> (idle ÷ busy time per stage): measured <b>%1</b>, %2; idle share of "
              "the step %3. Step time %4 units for %5 units of work per stage.")
        .arg(format::percent(timeline_.bubble_fraction), analytic, format::percent(timeline_.idle_share_of_makespan),
             format::decimal(timeline_.makespan_seconds, 2), format::decimal(timeline_.busy_seconds_per_stage, 2));
}

QString PipelinePage::inputsText() const
{
    return tr("p = %1, m = %2, v = %3; t_F = 1 unit, t_B = 2 units per micro-batch and stage (split over v chunks, "
              "later chunks in a lighter shade; ZB-H1: B = W = 1)")
        .arg(timeline_.stages)
        .arg(timeline_.micro_batches)
        .arg(timeline_.chunks);
}

void PipelinePage::refresh()
{
    // Steps are the times at which a task starts or ends; a new timeline opens on its last step
    // (the whole schedule) unless it is being played.
    event_seconds_.clear();
    for (const parallel::PipelineTask &task : timeline_.tasks) {
        event_seconds_.push_back(task.start_seconds);
        event_seconds_.push_back(task.end_seconds);
    }
    std::sort(event_seconds_.begin(), event_seconds_.end());
    event_seconds_.erase(std::unique(event_seconds_.begin(), event_seconds_.end(),
                                     [](double a, double b) { return std::abs(a - b) <= 1e-9; }),
                         event_seconds_.end());
    if (!event_seconds_.empty() && event_seconds_.front() <= 1e-9)
        event_seconds_.erase(event_seconds_.begin());  // step 0 is time 0 already
    {
        const QSignalBlocker blocker(player_);
        player_->setStepCount(int(event_seconds_.size()));
        if (!player_->isPlaying())
            player_->setCurrentStep(player_->stepCount());
    }
    bubble_label_->setText(bubbleText());
    gantt_chart_->setData(ganttData());
    in_flight_chart_->setData(inFlightData());
}

ChartData PipelinePage::ganttData() const
{
    ChartData chart;
    chart.x_label = tr("Time (units of one micro-batch's forward on one stage)");
    chart.x_unit = QStringLiteral("t_F");
    chart.y_reversed = true;
    if (!problem_.isEmpty() || timeline_.tasks.empty()) {
        chart.title = tr("%1: %2").arg(pipelineScheduleLabel(timeline_.schedule), problem_);
        return chart;
    }
    for (int stage = 0; stage < timeline_.stages; ++stage)
        chart.y_categories << tr("stage %1").arg(stage);
    chart.title = tr("%1, p = %2, m = %3%4: bubble (idle ÷ busy) %5")
                      .arg(pipelineScheduleLabel(timeline_.schedule))
                      .arg(timeline_.stages)
                      .arg(timeline_.micro_batches)
                      .arg(timeline_.chunks > 1 ? tr(", v = %1").arg(timeline_.chunks) : QString())
                      .arg(format::percent(timeline_.bubble_fraction));
    const QPalette pal = palette();
    const QColor base = pal.color(QPalette::Base);
    const std::map<WorkKind, QColor> colors = {{WorkKind::Forward, chartSeriesColor(0, pal)},
                                               {WorkKind::Backward, chartSeriesColor(1, pal)},
                                               {WorkKind::BackwardInput, chartSeriesColor(1, pal)},
                                               {WorkKind::BackwardWeight, chartSeriesColor(2, pal)}};
    const QColor idle = blendColors(base, pal.color(QPalette::Text), 0.1);
    constexpr double half = 0.4;
    // Stepping draws the schedule up to the cursor: tasks not started yet are left out, running
    // ones are cut at the cursor.
    const double cursor_seconds = cursorSeconds();
    if (cursor_seconds < timeline_.makespan_seconds)
        chart.title += tr(" — at t = %1").arg(format::decimal(cursor_seconds, 2));
    std::vector<std::vector<const parallel::PipelineTask *>> by_stage(std::size_t(timeline_.stages));
    for (const parallel::PipelineTask &task : timeline_.tasks) {
        if (task.stage < 0 || task.stage >= timeline_.stages || task.start_seconds >= cursor_seconds - 1e-9)
            continue;
        by_stage[std::size_t(task.stage)].push_back(&task);
        ChartRect rect;
        rect.x0 = task.start_seconds;
        rect.x1 = std::min(task.end_seconds, cursor_seconds);
        rect.y0 = task.stage - half;
        rect.y1 = task.stage + half;
        QColor color = colors.at(task.kind);
        QString group = workKindLabel(task.kind);
        if (timeline_.chunks > 1 && task.chunk > 0) {
            // Later model chunks of a stage in a lighter shade of the same colour.
            color = blendColors(color, base, 0.45);
        }
        rect.color = color;
        rect.group = group;
        rect.label = QString::number(task.micro_batch + 1);
        rect.tooltip = tr("<b>Stage %1: %2 of micro-batch %3</b>%4<br>from %5 to %6")
                           .arg(task.stage)
                           .arg(workKindLabel(task.kind))
                           .arg(task.micro_batch + 1)
                           .arg(timeline_.chunks > 1 ? tr(", model chunk %1 (layers of virtual stage %2)")
                                                           .arg(task.chunk)
                                                           .arg(task.chunk * timeline_.stages + task.stage)
                                                     : QString())
                           .arg(format::decimal(task.start_seconds, 2), format::decimal(task.end_seconds, 2));
        chart.rects << rect;
    }
    // Idle gaps of each stage: the bubble made visible.
    const QString idle_group = tr("idle (bubble)");
    for (int stage = 0; stage < timeline_.stages; ++stage) {
        auto &tasks = by_stage[std::size_t(stage)];
        std::sort(tasks.begin(), tasks.end(),
                  [](const parallel::PipelineTask *a, const parallel::PipelineTask *b) { return a->start_seconds < b->start_seconds; });
        double cursor = 0;
        const auto gap = [&](double from, double to) {
            if (to - from <= 1e-9)
                return;
            ChartRect rect;
            rect.x0 = from;
            rect.x1 = to;
            rect.y0 = stage - half;
            rect.y1 = stage + half;
            rect.color = idle;
            rect.group = idle_group;
            rect.tooltip = tr("<b>Stage %1 idle</b> from %2 to %3").arg(stage).arg(format::decimal(from, 2),
                                                                                 format::decimal(to, 2));
            chart.rects << rect;
        };
        for (const parallel::PipelineTask *task : tasks) {
            gap(cursor, task->start_seconds);
            cursor = std::max(cursor, std::min(task->end_seconds, cursor_seconds));
        }
        gap(cursor, cursor_seconds);
    }
    chart.formula.inputs = inputsText();
    chart.formula.formula =
        timeline_.analytic_bubble_applies
            ? tr("bubble = (step time − busy time) / busy time, measured on the chart; analytic %1 = %2")
                  .arg(analyticFormula(), format::percent(timeline_.analytic_bubble_fraction))
            : tr("bubble = (step time − busy time) / busy time, measured on the chart; the analytic %1 assumes %2, "
                 "which does not hold here")
                  .arg(analyticFormula(), format::fromStd(timeline_.analytic_bubble_assumption));
    chart.formula.source = tr("Narayanan et al. 2021 §2.2 (1F1B, interleaved); Huang et al. 2019 (GPipe); "
                              "Qi et al. 2023 §3 (ZB-H1)");
    return chart;
}

ChartData PipelinePage::inFlightData() const
{
    ChartData chart;
    chart.x_label = tr("Pipeline stage");
    if (!problem_.isEmpty() || timeline_.peak_in_flight_micro_batches.empty()) {
        chart.title = tr("Micro-batches in flight: %1").arg(problem_);
        return chart;
    }
    const int stages = timeline_.stages;
    for (int stage = 0; stage < stages; ++stage)
        chart.categories << (stages <= 8 ? tr("stage %1 (%n in flight)", nullptr,
                                              timeline_.peak_in_flight_micro_batches.at(std::size_t(stage)))
                                         : tr("%1: %n", nullptr,
                                              timeline_.peak_in_flight_micro_batches.at(std::size_t(stage))))
                                .arg(stage);
    const int layers = scenario().model.n_layers;
    // The layers of each stage as the engine places them (scenario/stage_layers.h): the scenario's
    // own list when the page shows its pp, else the automatic split of L over the page's stages.
    ParallelConfig shown = scenario().training.parallel;
    if (shown.pp != stages)
        shown.stage_layers.clear();
    shown.pp = stages;
    shown.virtual_stages = timeline_.chunks;
    const std::vector<int> stage_layers = pipelineLayers(layers, shown).stage_layers;
    // Activation bytes one micro-batch leaves on one chunk of a stage: the estimate's per-layer
    // figure times the stage's layers / v.
    std::vector<double> per_chunk_bytes;
    for (int count : stage_layers)
        per_chunk_bytes.push_back(hasEstimate() ? activation_bytes_per_layer_ * count / double(timeline_.chunks) : 0.0);
    const bool has_bytes = std::any_of(per_chunk_bytes.begin(), per_chunk_bytes.end(), [](double b) { return b > 0; });
    ChartSeries bars;
    bars.kind = ChartSeries::Kind::Bar;
    bars.color = chartSeriesColor(0, palette());
    if (has_bytes) {
        const std::vector<double> memory = parallel::activationMemoryPerStage(timeline_, per_chunk_bytes);
        const double largest = memory.empty() ? 0.0 : *std::max_element(memory.begin(), memory.end());
        const format::SiScale scale = format::siScale(largest);
        const auto [fewest, most] = std::minmax_element(stage_layers.begin(), stage_layers.end());
        const QString per_stage = *fewest == *most ? QString::number(*fewest) : tr("%1–%2").arg(*fewest).arg(*most);
        chart.title = tr("Peak activation memory per stage (%1 layers of %2)")
                          .arg(per_stage, format::fromStd(scenario().model.name));
        chart.y_label = tr("Saved activations (%1B)").arg(scale.prefix);
        chart.y_unit = QStringLiteral("bytes");
        chart.y_display_scale = scale.scale;
        bars.name = tr("activation memory");
        for (int stage = 0; stage < stages && stage < int(memory.size()); ++stage) {
            const int in_flight = timeline_.peak_in_flight_micro_batches.at(std::size_t(stage));
            bars.x << stage;
            bars.y << memory.at(std::size_t(stage));
            bars.point_tooltips << tr("<b>Stage %1</b>: up to %2 micro-batch chunks in flight × %3 = %4")
                                       .arg(stage)
                                       .arg(in_flight)
                                       .arg(format::bytes(per_chunk_bytes.at(std::size_t(stage))),
                                            format::bytes(memory.at(std::size_t(stage))));
        }
        chart.formula.inputs = inputsText() + tr("; %1 per layer and micro-batch (from the estimate), L = %2")
                                                  .arg(format::bytes(activation_bytes_per_layer_))
                                                  .arg(layers);
    } else {
        chart.title = tr("Peak micro-batches in flight per stage");
        chart.y_label = tr("Micro-batches in flight");
        bars.name = tr("in flight");
        for (int stage = 0; stage < stages; ++stage) {
            const int in_flight = timeline_.peak_in_flight_micro_batches.at(std::size_t(stage));
            bars.x << stage;
            bars.y << in_flight;
            bars.point_tooltips << tr("<b>Stage %1</b>: up to %2 micro-batch chunks in flight").arg(stage).arg(in_flight);
        }
        chart.formula.inputs = inputsText();
    }
    chart.series << bars;
    chart.formula.formula = tr("in flight = forwards done whose backward has not finished; activation memory = "
                               "peak in flight × one micro-batch's activations on the stage (1F1B: p − s on stage "
                               "s; GPipe: m)");
    chart.formula.source = tr("Narayanan et al. 2021 §2.2; Korthikanti et al. 2022 §4.2.3");
    return chart;
}

}  // namespace lse::gui
