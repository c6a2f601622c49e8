// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/parallel/zero_page.h"

#include "charts/chart_palette.h"
#include "charts/chart_view.h"
#include "enum_labels.h"
#include "pages/page_format.h"
#include "pages/parallel/step_player.h"
#include "scenario/scenario_json.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace lse::gui {

namespace {

constexpr int kStages = 4;
constexpr int kPlayIntervalMs = 1500;  // time to read what one more stage shards
constexpr int kMaxDp = 1024;      // zeroLayout's limit
constexpr int kShownRanks = 8;    // rows of the shard grid; more ranks are summarised
constexpr double kPanelGap = 0.12;

const parallel::ShardRange &rangeOf(const parallel::RankHoldings &holding, parallel::ModelState state)
{
    switch (state) {
    case parallel::ModelState::Parameters: return holding.parameters;
    case parallel::ModelState::Gradients: return holding.gradients;
    case parallel::ModelState::OptimizerStates: return holding.optimizer_states;
    }
    return holding.parameters;
}

double bytesOf(const parallel::RankHoldings &holding, parallel::ModelState state)
{
    switch (state) {
    case parallel::ModelState::Parameters: return holding.parameter_bytes;
    case parallel::ModelState::Gradients: return holding.gradient_bytes;
    case parallel::ModelState::OptimizerStates: return holding.optimizer_bytes;
    }
    return 0;
}

// The core names collectives in English ("all-reduce"); the page shows them translated.
QString collectiveName(const std::string &collective)
{
    if (collective == "all-reduce")
        return QCoreApplication::translate("lse::gui::ZeroPage", "all-reduce");
    if (collective == "reduce-scatter")
        return QCoreApplication::translate("lse::gui::ZeroPage", "reduce-scatter");
    if (collective == "all-gather")
        return QCoreApplication::translate("lse::gui::ZeroPage", "all-gather");
    return format::fromStd(collective);
}

// What a rank sends at this stage, as one whole translatable sentence per stage (ZeRO §7.1–7.2.2:
// the collectives zeroLayout() lists, in its order), so no English fragment ends up inside a
// translated sentence.
QString communicationSentence(const parallel::ZeroLayout &layout)
{
    const auto bytes = [&layout](std::size_t i) { return format::bytes(layout.communication.at(i).bytes_per_rank); };
    const std::size_t count = layout.communication.size();
    if (count == 0)
        return QCoreApplication::translate("lse::gui::ZeroPage", "One rank: nothing to communicate.");
    if (layout.stage == 0 && count == 1)
        return QCoreApplication::translate("lse::gui::ZeroPage",
                                           "Each step, every rank all-reduces the gradients after the backward pass "
                                           "(%1 per rank).")
            .arg(bytes(0));
    if ((layout.stage == 1 || layout.stage == 2) && count == 2)
        return QCoreApplication::translate("lse::gui::ZeroPage",
                                           "Each step, every rank reduce-scatters the gradients after the backward "
                                           "pass (%1 per rank) and all-gathers the updated parameters after the "
                                           "optimizer step (%2 per rank).")
            .arg(bytes(0), bytes(1));
    if (layout.stage == 3 && count == 3)
        return QCoreApplication::translate("lse::gui::ZeroPage",
                                           "Each step, every rank all-gathers the parameters before each layer's "
                                           "forward pass (%1 per rank) and again before its backward pass (%2 per "
                                           "rank), and reduce-scatters the gradients after each layer's backward "
                                           "pass (%3 per rank).")
            .arg(bytes(0), bytes(1), bytes(2));
    // A list the sentences above do not know: name each collective with its bytes.
    QStringList parts;
    for (const parallel::ZeroCommunication &c : layout.communication)
        parts << QCoreApplication::translate("lse::gui::ZeroPage", "%1: %2 per rank")
                     .arg(collectiveName(c.collective), format::bytes(c.bytes_per_rank));
    return QCoreApplication::translate("lse::gui::ZeroPage", "Each step, every rank sends: %1.")
        .arg(parts.join(QStringLiteral("; ")));
}

}  // namespace

ZeroPage::ZeroPage(QWidget *parent) : Page(parent)
{
    auto *layout = new QVBoxLayout(addScrollingContent(this));
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(6);
    intro_ = new QLabel(this);
    intro_->setWordWrap(true);
    layout->addWidget(intro_);

    auto *controls = new QHBoxLayout;
    stage_label_ = new QLabel(this);
    stage_box_ = new QComboBox(this);
    for (int stage = 0; stage < kStages; ++stage)
        stage_box_->addItem(QString(), stage);
    dp_label_ = new QLabel(this);
    dp_spin_ = new QSpinBox(this);
    dp_spin_->setRange(1, kMaxDp);
    stage_label_->setBuddy(stage_box_);
    dp_label_->setBuddy(dp_spin_);
    controls->addWidget(stage_label_);
    controls->addWidget(stage_box_);
    controls->addWidget(dp_label_);
    controls->addWidget(dp_spin_);
    controls->addStretch(1);
    layout->addLayout(controls);

    // Stepping walks through the stages 0 → 3: what each one shards in addition.
    player_ = new StepPlayer(this, kPlayIntervalMs);
    player_->setStepCount(kStages - 1);
    layout->addWidget(player_);

    summary_label_ = new QLabel(this);
    summary_label_->setObjectName(QStringLiteral("zeroSummary"));
    summary_label_->setWordWrap(true);
    summary_label_->setTextFormat(Qt::RichText);
    layout->addWidget(summary_label_);

    // Lesson highlight regions (docs/lesson-pages-parallelism.md); "zeroSummary" predates them.
    intro_->setObjectName(QStringLiteral("zero-intro"));
    stage_box_->setObjectName(QStringLiteral("zero-stage"));
    dp_spin_->setObjectName(QStringLiteral("dp-size"));
    player_->setObjectName(QStringLiteral("step-player"));

    shard_chart_ = new ChartView(QStringLiteral("zero-shards"), this);
    memory_chart_ = new ChartView(QStringLiteral("zero-memory-per-rank"), this);
    tradeoff_chart_ = new ChartView(QStringLiteral("zero-memory-vs-communication"), this);
    layout->addWidget(shard_chart_, 1);
    layout->addWidget(memory_chart_, 1);
    layout->addWidget(tradeoff_chart_, 1);

    const Scenario &scenario = this->scenario();
    dp_spin_->setValue(std::clamp(scenario.training.parallel.dp, 1, kMaxDp));
    stage_box_->setCurrentIndex(std::clamp(scenario.training.parallel.zero_stage, 0, kStages - 1));
    const auto defaults = lse::estimate(scenario);
    if (defaults.ok())
        parameters_ = double(defaults.value().memory.parameters_on_gpu);

    connect(stage_box_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int stage) {
        const QSignalBlocker blocker(player_);
        player_->setCurrentStep(stage);
        refresh();
    });
    connect(player_, &StepPlayer::currentStepChanged, this, [this](int stage) { setStage(stage); });
    player_->setCurrentStep(stage_box_->currentIndex());
    connect(dp_spin_, qOverload<int>(&QSpinBox::valueChanged), this, [this] { recompute(); });

    retranslateControls();
    setChartMinimumHeights(kChartMinimumHeight, kPresentationChartMinimumHeight);
    setPresentation(false);
    recompute();
}

QString ZeroPage::pageId() { return QStringLiteral("zero"); }

QString ZeroPage::pageTitle() { return tr("ZeRO"); }

QList<ChartView *> ZeroPage::charts() const { return {shard_chart_, memory_chart_, tradeoff_chart_}; }

ChartView *ZeroPage::shardChart() const { return shard_chart_; }
ChartView *ZeroPage::memoryChart() const { return memory_chart_; }
ChartView *ZeroPage::tradeoffChart() const { return tradeoff_chart_; }

void ZeroPage::estimateChanged(const Scenario *previous)
{
    const Scenario &scenario = this->scenario();
    const bool dp_changed = !previous || scenario.training.parallel.dp != previous->training.parallel.dp;
    const bool stage_changed = !previous || scenario.training.parallel.zero_stage != previous->training.parallel.zero_stage;
    parameters_ = double(estimate().memory.parameters_on_gpu);
    // Follow the scenario's dp and stage when the scenario changes them; keep the user's exploration
    // otherwise.
    {
        const QSignalBlocker dp_blocker(dp_spin_);
        const QSignalBlocker stage_blocker(stage_box_);
        if (dp_changed)
            dp_spin_->setValue(std::clamp(scenario.training.parallel.dp, 1, kMaxDp));
        if (stage_changed)
            stage_box_->setCurrentIndex(std::clamp(scenario.training.parallel.zero_stage, 0, kStages - 1));
    }
    recompute();
}

void ZeroPage::applyPresentation(bool /*presentation*/)
{
    refresh();
}

void ZeroPage::keyPressEvent(QKeyEvent *event)
{
    if (!player_->handleKey(event))
        Page::keyPressEvent(event);
}

void ZeroPage::retranslate()
{
    retranslateControls();
    refresh();
}

void ZeroPage::retranslateControls()
{
    intro_->setText(tr("ZeRO partitions the model states over the N data-parallel ranks instead of replicating "
                       "them: stage 1 the optimizer states, stage 2 also the gradients, stage 3 also the "
                       "parameters. Each bar below is the flattened parameter vector; the filled part is the "
                       "slice a rank keeps."));
    stage_label_->setText(tr("&Stage:"));
    dp_label_->setText(tr("&Data-parallel ranks N:"));
    stage_box_->setItemText(0, tr("0 — plain data parallelism"));
    stage_box_->setItemText(1, tr("1 — optimizer states (P_os)"));
    stage_box_->setItemText(2, tr("2 — + gradients (P_os+g)"));
    stage_box_->setItemText(3, tr("3 — + parameters (P_os+g+p)"));
    stage_box_->setToolTip(tr("Rajbhandari et al. 2020 §5: P_os, P_os+g, P_os+g+p"));
    player_->setToolTips(tr("Previous stage (Left)"), tr("Next stage (Right)"));
    dp_spin_->setToolTip(tr("The data-parallel group the states are sharded over (defaults to the scenario's dp)"));
}

void ZeroPage::setStage(int stage) { stage_box_->setCurrentIndex(std::clamp(stage, 0, kStages - 1)); }

int ZeroPage::stage() const { return stage_box_->currentIndex(); }

void ZeroPage::setDp(int dp) { dp_spin_->setValue(dp); }

int ZeroPage::dp() const { return dp_spin_->value(); }

const std::vector<parallel::ZeroLayout> &ZeroPage::layouts() const { return layouts_; }

void ZeroPage::recompute()
{
    layouts_.clear();
    problem_.clear();
    for (int stage = 0; stage < kStages; ++stage) {
        auto layout = parallel::zeroLayout(parameters_, scenario().training, dp_spin_->value(), stage);
        if (!layout.ok()) {
            layouts_.clear();
            problem_ = format::fromStd(layout.problems().front().message);
            break;
        }
        layouts_.push_back(std::move(layout.value()));
    }
    refresh();
}

QString ZeroPage::inputsText() const
{
    const PrecisionConfig &precision = scenario().training.precision;
    return tr("Ψ = %1 parameters per GPU (the model after tp·pp = %2·%3), N = %4, weights %5, gradients %6, "
              "master copy %7, optimizer %8")
        .arg(format::count(parameters_))
        .arg(scenario().training.parallel.tp)
        .arg(scenario().training.parallel.pp)
        .arg(dp_spin_->value())
        .arg(displayName(precision.weight_dtype), displayName(precision.gradient_dtype),
             precision.master_weights ? tr("fp32") : tr("none"), displayName(scenario().training.optimizer));
}

void ZeroPage::refresh()
{
    if (!problem_.isEmpty() || layouts_.empty()) {
        summary_label_->setText(tr("Cannot lay out ZeRO: %1").arg(problem_.toHtmlEscaped()));
    } else {
        const parallel::ZeroLayout &layout = layouts_.at(std::size_t(stage()));
        const parallel::RankHoldings &rank = layout.holdings.front();
        summary_label_->setText(
            tr("<b>ZeRO-%1</b>: each rank holds %2 of model states (parameters %3, gradients %4, optimizer %5) and "
               "sends %6 per step = %7 Ψ in ZeRO §7's units.<br>%8")
                .arg(layout.stage)
                .arg(format::bytes(rank.total_bytes), format::bytes(rank.parameter_bytes),
                     format::bytes(rank.gradient_bytes), format::bytes(rank.optimizer_bytes),
                     format::bytes(layout.communication_bytes_per_step),
                     format::decimal(layout.communication_volume_in_psi, 0),
                     communicationSentence(layout).toHtmlEscaped()));
    }
    shard_chart_->setData(shardData());
    // Room for every row of the grid: about 28 px per rank (44 on a projector) plus title and key.
    const int rows = std::min(dp_spin_->value(), kShownRanks);
    const bool presenting = shard_chart_->presentation();
    shard_chart_->setMinimumHeight(std::max(presenting ? kPresentationChartMinimumHeight : kChartMinimumHeight,
                                            rows * (presenting ? 60 : 30) + (presenting ? 240 : 150)));
    memory_chart_->setData(memoryData());
    tradeoff_chart_->setData(tradeoffData());
}

ChartData ZeroPage::shardData() const
{
    ChartData chart;
    chart.show_axes = false;
    chart.y_reversed = true;
    if (layouts_.empty()) {
        chart.title = tr("ZeRO shards: %1").arg(problem_);
        return chart;
    }
    const parallel::ZeroLayout &layout = layouts_.at(std::size_t(stage()));
    chart.title = tr("What each rank holds at ZeRO-%1 (N = %2)").arg(layout.stage).arg(layout.ranks);
    const QPalette pal = palette();
    const QColor empty = blendColors(pal.color(QPalette::Base), pal.color(QPalette::Text), 0.08);
    const parallel::ModelState states[3] = {parallel::ModelState::Parameters, parallel::ModelState::Gradients,
                                            parallel::ModelState::OptimizerStates};
    const QString names[3] = {tr("parameters"), tr("gradients"), tr("optimizer states")};
    const int shown = std::min(layout.ranks, kShownRanks);
    // With more ranks than rows: the first rows and the last rank.
    std::vector<int> ranks;
    for (int r = 0; r < shown; ++r)
        ranks.push_back(r);
    if (layout.ranks > kShownRanks)
        ranks.back() = layout.ranks - 1;
    const double label_width = 0.45;
    for (int column = 0; column < 3; ++column) {
        const double x0 = column * (1.0 + kPanelGap);
        ChartText header;
        header.x = x0 + 0.5;
        header.y = -0.85;
        header.text = names[column];
        header.bold = true;
        chart.texts << header;
        for (std::size_t row = 0; row < ranks.size(); ++row) {
            const parallel::RankHoldings &holding = layout.holdings.at(std::size_t(ranks[row]));
            const parallel::ShardRange &range = rangeOf(holding, states[column]);
            const double y = double(row);
            ChartRect whole;
            whole.x0 = x0;
            whole.x1 = x0 + 1.0;
            whole.y0 = y - 0.38;
            whole.y1 = y + 0.38;
            whole.color = empty;
            whole.tooltip = tr("<b>Rank %1, %2</b>: the whole vector is Ψ = %3 elements").arg(holding.rank).arg(
                names[column], format::count(layout.parameters));
            chart.rects << whole;
            ChartRect held;
            held.x0 = x0 + range.begin_fraction;
            held.x1 = x0 + range.end_fraction;
            held.y0 = whole.y0;
            held.y1 = whole.y1;
            held.color = chartSeriesColor(column, pal);
            held.label = format::bytes(bytesOf(holding, states[column]));
            const bool sharded = range.fraction() < 1.0;
            held.tooltip = tr("<b>Rank %1 holds %2 [%3, %4)</b> of the flattened vector: %5<br>%6<br>ZeRO §5: "
                              "sharded states take 1/N of their bytes on each rank")
                               .arg(holding.rank)
                               .arg(names[column], format::decimal(range.begin_fraction, 4),
                                    format::decimal(range.end_fraction, 4),
                                    format::bytes(bytesOf(holding, states[column])),
                                    sharded ? tr("sharded: 1/%1 of the vector").arg(layout.ranks)
                                            : tr("replicated on every rank"));
            chart.rects << held;
        }
    }
    for (std::size_t row = 0; row < ranks.size(); ++row) {
        ChartText label;
        label.x = -label_width;
        label.y = double(row);
        label.text = (layout.ranks > kShownRanks && row + 1 == ranks.size()) ? tr("… rank %1").arg(ranks[row])
                                                                               : tr("rank %1").arg(ranks[row]);
        label.alignment = Qt::AlignLeft | Qt::AlignVCenter;
        chart.texts << label;
    }
    chart.formula.inputs = inputsText();
    chart.formula.formula = tr("per rank: 2Ψ + 2Ψ + KΨ bytes at stage 0 (bf16 weights and gradients, K = 12 for "
                               "Adam with fp32 master copy); stage 1 (2 + 2 + K/N)Ψ, stage 2 (2 + (2 + K)/N)Ψ, "
                               "stage 3 (2 + 2 + K)Ψ/N");
    chart.formula.source = tr("Rajbhandari et al. 2020 (ZeRO), §5.1–5.3, Figure 1");
    return chart;
}

ChartData ZeroPage::memoryData() const
{
    ChartData chart;
    chart.y_label = tr("Model states per rank (bytes)");
    chart.y_unit = QStringLiteral("bytes");
    chart.x_label = tr("ZeRO stage");
    for (int stage = 0; stage < kStages; ++stage)
        chart.categories << tr("ZeRO-%1").arg(stage);
    if (layouts_.empty()) {
        chart.title = tr("Memory per rank: %1").arg(problem_);
        return chart;
    }
    chart.title = tr("Model-state memory per rank by ZeRO stage (N = %1)").arg(dp_spin_->value());
    double largest = 0;
    for (const parallel::ZeroLayout &layout : layouts_)
        largest = std::max(largest, layout.holdings.front().total_bytes);
    const format::SiScale scale = format::siScale(largest);
    chart.y_display_scale = scale.scale;
    chart.y_label = tr("Model states per rank (%1B)").arg(scale.prefix);
    const QString names[3] = {tr("parameters"), tr("gradients"), tr("optimizer states")};
    const parallel::ModelState states[3] = {parallel::ModelState::Parameters, parallel::ModelState::Gradients,
                                            parallel::ModelState::OptimizerStates};
    const QPalette pal = palette();
    for (int part = 0; part < 3; ++part) {
        ChartSeries bars;
        bars.name = names[part];
        bars.kind = ChartSeries::Kind::Bar;
        bars.stack_group = 0;
        bars.color = chartSeriesColor(part, pal);
        for (const parallel::ZeroLayout &layout : layouts_) {
            const parallel::RankHoldings &rank = layout.holdings.front();
            bars.x << double(layout.stage);
            bars.y << bytesOf(rank, states[part]);
            bars.point_tooltips << tr("<b>ZeRO-%1, %2</b>: %3 per rank (total %4)")
                                       .arg(layout.stage)
                                       .arg(names[part], format::bytesExact(bytesOf(rank, states[part])),
                                            format::bytes(rank.total_bytes));
        }
        chart.series << bars;
    }
    chart.formula.inputs = inputsText();
    chart.formula.formula = tr("stage 0: (2 + 2 + K)Ψ; stage 1: (2 + 2 + K/N)Ψ; stage 2: (2 + (2 + K)/N)Ψ; "
                               "stage 3: (2 + 2 + K)Ψ/N bytes (bf16 weights and gradients; K = optimizer bytes per "
                               "parameter)");
    chart.formula.source = tr("Rajbhandari et al. 2020 (ZeRO), §5 and Figure 1; same bytes as the Memory page");
    return chart;
}

ChartData ZeroPage::tradeoffData() const
{
    ChartData chart;
    chart.x_label = tr("Communication per rank per step (bytes)");
    chart.x_unit = QStringLiteral("bytes");
    chart.y_unit = QStringLiteral("bytes");
    if (layouts_.empty()) {
        chart.title = tr("Memory vs communication: %1").arg(problem_);
        return chart;
    }
    chart.title = tr("Memory vs communication per rank (N = %1)").arg(dp_spin_->value());
    double largest = 0;
    for (const parallel::ZeroLayout &layout : layouts_)
        largest = std::max(largest, layout.holdings.front().total_bytes);
    const format::SiScale scale = format::siScale(largest);
    chart.y_display_scale = scale.scale;
    chart.y_label = tr("Model states per rank (%1B)").arg(scale.prefix);
    ChartSeries line;
    line.name = tr("ZeRO stages");
    line.kind = ChartSeries::Kind::Marker;
    for (const parallel::ZeroLayout &layout : layouts_) {
        line.x << layout.communication_bytes_per_step;
        line.y << layout.holdings.front().total_bytes;
        line.point_labels << tr("ZeRO-%1 (%2 Ψ)").arg(layout.stage).arg(format::decimal(layout.communication_volume_in_psi, 0));
        QStringList collectives;
        for (const parallel::ZeroCommunication &c : layout.communication)
            collectives << tr("%1: %2").arg(collectiveName(c.collective), format::bytes(c.bytes_per_rank));
        line.point_tooltips << tr("<b>ZeRO-%1</b><br>memory %2 per rank<br>communication %3 per step (%4)<br>ZeRO §7: "
                                  "%5 Ψ")
                                   .arg(layout.stage)
                                   .arg(format::bytes(layout.holdings.front().total_bytes),
                                        format::bytes(layout.communication_bytes_per_step),
                                        collectives.join(QStringLiteral(", ")).toHtmlEscaped(),
                                        format::decimal(layout.communication_volume_in_psi, 0));
    }
    chart.series << line;
    chart.formula.inputs = inputsText();
    chart.formula.formula = tr("communication per rank with ring collectives: stage 0 all-reduce 2(N−1)/N·Ψ·b; "
                               "stages 1–2 reduce-scatter + all-gather, also 2(N−1)/N·Ψ·b; stage 3 two all-gathers "
                               "+ one reduce-scatter, 3(N−1)/N·Ψ·b (1.5× data parallelism)");
    chart.formula.source = tr("Rajbhandari et al. 2020 (ZeRO), §7.1–7.2; ring volumes Patarasuk & Yuan 2009");
    return chart;
}

}  // namespace lse::gui
