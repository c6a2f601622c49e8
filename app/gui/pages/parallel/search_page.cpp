// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/parallel/search_page.h"
#include "pages/table_fill_batch.h"

#include "charts/chart_view.h"
#include "enum_labels.h"
#include "pages/flow_layout.h"
#include "pages/page_format.h"
#include "pages/parallel/layout/duration_format.h"
#include "pages/parallel/layout/layout_search_runner.h"
#include "pages/parallel/layout/search_scatter_chart.h"
#include "pages/prediction_band_text.h"
#include "parallel/step_time.h"
#include "performance/step_prediction.h"
#include "scenario/scenario_json.h"

#include "cost/estimate.h"
#include "pages/table_key_columns.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace lse::gui {

namespace {

// QLabel::setText lays the text out again even when it is the same.
void setTextIfChanged(QLabel *label, const QString &text)
{
    if (label->text() != text)
        label->setText(text);
}

// Searches faster than this re-run by themselves when the scenario changes (issue 7: auto-run is
// fine below 0.3 s); slower ones mark the result stale and wait for Re-run.
constexpr double kAutoRunSeconds = 0.3;
// A search expected to end within this long redraws the chart when it ends, not also at the edit
// (the chart was rebuilt twice per edit: half the page's edit→repaint time, bench_gui_footprint).
// If it runs longer the chart is redrawn with the old results at this deadline. Every search that
// re-runs by itself is waited for: at 0.1 s the Llama 2 70B / 1024-GPU search (0.18 s on a 2-core
// machine) redrew the chart at the edit and again with its results, 18 ms of the window's answer.
constexpr double kChartWaitSeconds = kAutoRunSeconds;
// The scatter shows at most this many sampled layouts: enough for the shape, and each one is
// predicted (about a millisecond).
constexpr std::size_t kCloudPoints = 300;
constexpr int kCandidateRole = Qt::UserRole + 1;  // index into SearchResult::top
constexpr int kSortRole = Qt::UserRole;
constexpr Recomputation kRecomputations[] = {Recomputation::None, Recomputation::Selective, Recomputation::Full};

// Sorts by the number stored under kSortRole, so "1.2 s" < "12 s" and "9" < "10"; ties keep the
// search's order (its rank), so equal step times do not shuffle.
class NumericItem : public QTableWidgetItem {
public:
    NumericItem(const QString &text, double value, int rank) : QTableWidgetItem(text)
    {
        setData(kSortRole, value);
        setData(kCandidateRole, rank);
        setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem &other) const override
    {
        const double mine = data(kSortRole).toDouble(), theirs = other.data(kSortRole).toDouble();
        if (mine != theirs)
            return mine < theirs;
        return data(kCandidateRole).toInt() < other.data(kCandidateRole).toInt();
    }
};

// The screenshot renderer grabs the window right after showing the page, with no event loop in
// between: the first search then has to finish before showEstimate returns.
bool renderingScreenshot()
{
    for (const QString &argument : QCoreApplication::arguments())
        if (argument == QLatin1String("--screenshot") || argument.startsWith(QLatin1String("--screenshot=")))
            return true;
    return false;
}

}  // namespace

SearchPage::SearchPage(QWidget *parent) : Page(parent), runner_(new LayoutSearchRunner(this))
{
    auto *layout = new QVBoxLayout(addScrollingContent(this));
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(6);

    // Two short rows rather than one long one, so the page never needs more width than a
    // 1280-pixel window leaves it (also in presentation mode and in Chinese).
    options_box_ = new QGroupBox(this);
    auto *options = new QVBoxLayout(options_box_);
    auto *numbers = new QHBoxLayout;
    auto *choices = new FlowLayout(nullptr, 24);
    options->addLayout(numbers);
    options->addLayout(choices);
    top_label_ = new QLabel(this);
    top_spin_ = new QSpinBox(this);
    top_spin_->setRange(1, 500);
    top_label_->setBuddy(top_spin_);
    ranking_label_ = new QLabel(this);
    ranking_label_->setObjectName(QStringLiteral("rankingNote"));
    ranking_label_->setWordWrap(true);
    zero_label_ = new QLabel(this);
    recompute_label_ = new QLabel(this);
    numbers->addWidget(top_label_);
    numbers->addWidget(top_spin_);
    numbers->addSpacing(12);
    numbers->addWidget(ranking_label_, 1);
    // The ZeRO stages and the recomputation choices each stay on one line; the two wrap beside
    // the scenario editor on a 1024-px screen.
    auto *zero_group = new QHBoxLayout;
    zero_group->addWidget(zero_label_);
    for (int stage = 0; stage < 4; ++stage) {
        zero_checks_[stage] = new QCheckBox(QString::number(stage), this);
        zero_group->addWidget(zero_checks_[stage]);
    }
    choices->addLayout(zero_group);
    auto *recompute_group = new QHBoxLayout;
    recompute_group->addWidget(recompute_label_);
    for (int i = 0; i < 3; ++i) {
        recompute_checks_[i] = new QCheckBox(this);
        recompute_group->addWidget(recompute_checks_[i]);
    }
    choices->addLayout(recompute_group);
    layout->addWidget(options_box_);

    auto *run_row = new QHBoxLayout;
    run_button_ = new QPushButton(this);
    cancel_button_ = new QPushButton(this);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setTextVisible(true);
    status_label_ = new QLabel(this);
    status_label_->setWordWrap(true);
    run_row->addWidget(run_button_);
    run_row->addWidget(cancel_button_);
    run_row->addWidget(progress_, 1);
    layout->addLayout(run_row);
    layout->addWidget(status_label_);

    stale_label_ = new QLabel(this);
    stale_label_->setObjectName(QStringLiteral("staleNote"));
    stale_label_->setWordWrap(true);
    layout->addWidget(stale_label_);
    current_label_ = new QLabel(this);
    current_label_->setObjectName(QStringLiteral("currentLayout"));
    current_label_->setWordWrap(true);
    layout->addWidget(current_label_);

    table_ = new QTableWidget(0, ColumnCount, this);
    table_->verticalHeader()->setVisible(false);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // What ranks a layout first, then its degrees.
    setKeyColumns(table_, {RankColumn, StepColumn, BandColumn, MfuColumn, MemoryColumn});
    table_->setSortingEnabled(true);
    layout->addWidget(table_, 2);

    auto *apply_row = new QHBoxLayout;
    apply_button_ = new QPushButton(this);
    apply_row->addStretch(1);
    apply_row->addWidget(apply_button_);
    layout->addLayout(apply_row);

    scatter_ = new ChartView(QStringLiteral("layout-search-memory-vs-throughput"), this);
    layout->addWidget(scatter_, 3);

    // Lesson highlight regions and table (docs/lesson-pages-parallelism.md); "rankingNote",
    // "staleNote" and "currentLayout" predate them.
    options_box_->setObjectName(QStringLiteral("search-options"));
    progress_->setObjectName(QStringLiteral("search-progress"));
    status_label_->setObjectName(QStringLiteral("search-status"));
    table_->setObjectName(QStringLiteral("search-results"));
    apply_button_->setObjectName(QStringLiteral("apply-layout"));

    setSearchOptions(parallel::SearchOptions{});
    connect(top_spin_, qOverload<int>(&QSpinBox::valueChanged), this, &SearchPage::optionsChanged);
    for (QCheckBox *check : zero_checks_)
        connect(check, &QCheckBox::toggled, this, &SearchPage::optionsChanged);
    for (QCheckBox *check : recompute_checks_)
        connect(check, &QCheckBox::toggled, this, &SearchPage::optionsChanged);
    connect(run_button_, &QPushButton::clicked, this, &SearchPage::runSearch);
    connect(cancel_button_, &QPushButton::clicked, this, &SearchPage::cancelSearch);
    connect(apply_button_, &QPushButton::clicked, this, [this] { applyRow(table_->currentRow()); });
    connect(table_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) { applyRow(row); });
    connect(table_, &QTableWidget::itemSelectionChanged, this, &SearchPage::updateButtons);
    connect(runner_, &LayoutSearchRunner::progress, this, &SearchPage::onProgress);
    connect(runner_, &LayoutSearchRunner::finished, this, &SearchPage::onSearchFinished);
    chart_deadline_ = new QTimer(this);
    chart_deadline_->setSingleShot(true);
    chart_deadline_->setInterval(int(kChartWaitSeconds * 1000));
    connect(chart_deadline_, &QTimer::timeout, this, &SearchPage::refreshChart);

    retranslateControls();
    setPresentation(false);
    refreshChart();
    updateStatus();
}

SearchPage::~SearchPage() = default;

QString SearchPage::pageId() { return QStringLiteral("search"); }

QString SearchPage::pageTitle() { return tr("Search"); }

QList<ChartView *> SearchPage::charts() const { return {scatter_}; }

void SearchPage::estimateChanged(const Scenario * /*previous*/)
{
    current_.reset();
    current_problem_.clear();
    const Scenario &scenario = this->scenario();
    const Result<parallel::StepTimeBreakdown> breakdown = parallel::predictedBreakdown(scenario);
    if (breakdown) {
        parallel::LayoutCandidate candidate;
        candidate.parallel = scenario.training.parallel;
        candidate.micro_batch = scenario.training.micro_batch;
        candidate.recomputation = scenario.training.recomputation;
        candidate.breakdown = *breakdown;
        current_ = candidate;
    } else {
        current_problem_ = QString::fromStdString(formatProblems(breakdown.problems()));
    }
    // The whole run at the predicted MFU, for the sentence comparing it with the scenario's MFU.
    predicted_run_.reset();
    Scenario predicted = scenario;
    predicted.training.mfu_source = MfuSource::Predicted;
    if (const Result<Estimate> run = lse::estimate(predicted); run)
        predicted_run_ = *run;
    // First time, or fast enough to keep up with edits: run; otherwise the result is marked stale.
    const bool never_ran = !runner_->result() && !runner_->isRunning();
    if (isStale() && (never_ran || (last_search_seconds_ >= 0 && last_search_seconds_ < kAutoRunSeconds)))
        runSearch();
    if (never_ran && renderingScreenshot())
        waitForSearch(60000);
    markCurrentRow();
    if (isSearching() && last_search_seconds_ >= 0 && last_search_seconds_ < kChartWaitSeconds)
        chart_deadline_->start();  // onSearchFinished redraws it, with the new results
    else
        refreshChart();
    updateStatus();
}

void SearchPage::applyPresentation(bool presentation)
{
    // No font of its own: presentation mode already enlarges the application font, and scaling
    // it again here made this page larger than every other one (and pinned the size afterwards).
    for (QWidget *w : std::initializer_list<QWidget *>{options_box_, run_button_, cancel_button_, progress_, status_label_,
                                                       stale_label_, current_label_, table_, apply_button_})
        w->setFont(QFont());
    scatter_->setMinimumHeight(presentation ? kPresentationChartMinimumHeight : kChartMinimumHeight + 100);
    table_->setMinimumHeight(presentation ? 420 : 240);
}

void SearchPage::retranslate()
{
    retranslateControls();
    fillTable();
    refreshChart();
    updateStatus();
}

void SearchPage::changeEvent(QEvent *event)
{
    Page::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        refreshChart();
}

void SearchPage::retranslateControls()
{
    options_box_->setTitle(tr("Search options"));
    top_label_->setText(tr("&Top:"));
    top_spin_->setToolTip(tr("How many of the fastest fitting layouts the table lists"));
    ranking_label_->setText(tr("Ranked by the predicted step time: operator-level kernel times + exposed "
                               "communication + pipeline bubble (the model the Validation page checks against "
                               "published runs)."));
    ranking_label_->setToolTip(tr("Every layout's memory is the engine's; the layouts that could rank are predicted "
                                  "with the accelerator's efficiency factors (hardware catalog), the rest are skipped "
                                  "by a lower bound on their step time."));
    zero_label_->setText(tr("ZeRO:"));
    const QString zero_tip = tr("ZeRO stages to try: 1 shards the optimizer states, 2 also the gradients, 3 also the "
                                "weights over the data-parallel ranks (Rajbhandari et al. 2020)");
    zero_label_->setToolTip(zero_tip);
    for (QCheckBox *check : zero_checks_)
        check->setToolTip(zero_tip);
    recompute_label_->setText(tr("Recompute:"));
    for (int i = 0; i < 3; ++i) {
        recompute_checks_[i]->setText(displayName(kRecomputations[i]));
        recompute_checks_[i]->setToolTip(tr("Try activation recomputation '%1' (Korthikanti et al. 2022: selective "
                                            "recomputes the attention core, full keeps only each layer's input)")
                                             .arg(displayName(kRecomputations[i])));
    }
    run_button_->setToolTip(tr("Evaluate every valid (dp, tp, pp, cp, ep, v, sp, ZeRO, micro-batch, recomputation) "
                               "layout of the scenario's GPUs with the engine and rank them by predicted step time"));
    cancel_button_->setText(tr("Cancel"));
    apply_button_->setText(tr("&Apply selected layout"));
    apply_button_->setToolTip(tr("Make the selected layout the scenario's (one undoable step); double-clicking a row "
                                 "does the same"));
    table_->setHorizontalHeaderLabels({tr("#"), tr("dp"), tr("tp"), tr("pp"), tr("cp"), tr("ep"), tr("v"), tr("sp"),
                                       tr("ZeRO"), tr("mb"), tr("recomp."), tr("mem/GPU"),
                                       tr("step"), tr("tokens/s"), tr("MFU"), tr("vs best")});
    const QStringList tips = {
        tr("Rank by predicted step time among the fitting layouts"),
        tr("Data-parallel replicas"),
        tr("Tensor-parallel degree (Megatron column/row-parallel matmuls)"),
        tr("Pipeline stages"),
        tr("Context-parallel degree (sequence split in attention)"),
        tr("Expert-parallel degree (carved out of dp × cp)"),
        tr("Virtual pipeline stages per GPU (interleaved 1F1B)"),
        tr("Sequence parallelism (norms and dropout split over tp)"),
        tr("ZeRO stage over the data-parallel group"),
        tr("Micro-batch: sequences per forward pass per GPU"),
        tr("Activation recomputation"),
        tr("The engine's memory per GPU (most loaded pipeline stage)"),
        tr("Predicted step: kernel times (compute) + optimizer + exposed communication + pipeline bubble"),
        tr("global batch · sequence length / step time"),
        tr("Predicted MFU: model FLOPs / (GPUs · peak · predicted step time)"),
        tr("≈ best: the predicted step is within the accelerator's error band p of the best layout's, t ≤ t_best · (1 + p), "
           "so the prediction cannot rank it below the best; p is the accelerator's leave-one-source-out "
           "90th-percentile error (0 without published runs: only ties are marked)")};
    for (int column = 0; column < ColumnCount; ++column)
        if (QTableWidgetItem *header = table_->horizontalHeaderItem(column))
            header->setToolTip(tips.value(column));
    updateButtons();
}

parallel::SearchOptions SearchPage::searchOptions() const
{
    parallel::SearchOptions options;
    options.top = top_spin_->value();
    options.zero_stages.clear();
    for (int stage = 0; stage < 4; ++stage)
        if (zero_checks_[stage]->isChecked())
            options.zero_stages.push_back(stage);
    options.recomputations.clear();
    for (int i = 0; i < 3; ++i)
        if (recompute_checks_[i]->isChecked())
            options.recomputations.push_back(kRecomputations[i]);
    options.max_cloud_points = kCloudPoints;
    return options;
}

void SearchPage::setSearchOptions(const parallel::SearchOptions &options)
{
    const QSignalBlocker block_top(top_spin_);
    top_spin_->setValue(options.top);
    for (int stage = 0; stage < 4; ++stage) {
        const QSignalBlocker block(zero_checks_[stage]);
        zero_checks_[stage]->setChecked(std::find(options.zero_stages.begin(), options.zero_stages.end(), stage)
                                        != options.zero_stages.end());
    }
    for (int i = 0; i < 3; ++i) {
        const QSignalBlocker block(recompute_checks_[i]);
        recompute_checks_[i]->setChecked(std::find(options.recomputations.begin(), options.recomputations.end(),
                                                   kRecomputations[i])
                                         != options.recomputations.end());
    }
    optionsChanged();
}

QByteArray SearchPage::searchKey(const Scenario &scenario, const parallel::SearchOptions &options) const
{
    // The search ignores the scenario's own layout, so applying a result does not make it stale.
    Scenario base = scenario;
    base.training.parallel = ParallelConfig{};
    // How the framework overlaps its traffic is the recipe's, not a layout choice: the search keeps it.
    base.training.parallel.dp_overlap = scenario.training.parallel.dp_overlap;
    base.training.parallel.dp_param_gather_overlap = scenario.training.parallel.dp_param_gather_overlap;
    base.training.parallel.tp_comm_overlap = scenario.training.parallel.tp_comm_overlap;
    base.training.parallel.pp_comm_overlap = scenario.training.parallel.pp_comm_overlap;
    base.training.micro_batch = 1;
    base.training.recomputation = Recomputation::None;
    QByteArray key = scenarioToJson(base);
    key += QByteArray::number(options.top) + ';';
    for (int stage : options.zero_stages)
        key += QByteArray::number(stage) + ',';
    key += ';';
    for (Recomputation recomputation : options.recomputations)
        key += QByteArray::number(int(recomputation)) + ',';
    return key;
}

bool SearchPage::isStale() const
{
    return !hasEstimate() || result_key_.isEmpty() || result_key_ != searchKey(scenario(), searchOptions());
}

void SearchPage::optionsChanged()
{
    if (!hasEstimate())
        return;
    // Re-runs a fast search with the new options (or marks the result stale).
    showEstimate(scenario(), estimate());
}

void SearchPage::runSearch()
{
    if (!hasEstimate())
        return;
    progress_->setValue(0);
    runner_->start(scenario(), searchOptions());
    updateStatus();
}

void SearchPage::cancelSearch()
{
    runner_->cancel();
    updateStatus();
}

bool SearchPage::isSearching() const { return runner_->isRunning(); }

bool SearchPage::isReady() const { return !isSearching(); }

bool SearchPage::waitForSearch(int timeout_ms) { return runner_->waitForFinished(timeout_ms); }

const parallel::SearchResult *SearchPage::result() const
{
    const auto &result = runner_->result();
    return result && result->ok() ? &result->value() : nullptr;
}

void SearchPage::onProgress(qint64 evaluated, qint64 total)
{
    progress_->setValue(total > 0 ? int(1000.0 * double(evaluated) / double(total)) : 0);
    progress_->setFormat(tr("%1 / %2 layouts").arg(format::integer(evaluated), format::integer(total)));
}

void SearchPage::onSearchFinished()
{
    result_key_ = searchKey(runner_->resultScenario(), runner_->resultOptions());
    const parallel::SearchResult *found = result();
    // A cancelled run's time says nothing about how long a full one takes.
    if (found && !found->cancelled)
        last_search_seconds_ = found->seconds;
    progress_->setValue(found && !found->cancelled ? 1000 : progress_->value());
    fillTable();
    refreshChart();
    updateStatus();
    // The scenario changed while this (fast) search ran: catch up.
    if (found && !found->cancelled && isStale() && last_search_seconds_ < kAutoRunSeconds)
        runSearch();
    if (!isSearching())
        Q_EMIT ready();
}

void SearchPage::fillTable()
{
    const parallel::SearchResult *found = result();
    table_->setSortingEnabled(false);
    table_->clearContents();
    table_->setRowCount(found ? int(found->top.size()) : 0);
    TableFillBatch batch(table_);
    if (found) {
        for (int row = 0; row < int(found->top.size()); ++row) {
            const parallel::LayoutCandidate &c = found->top[std::size_t(row)];
            const parallel::StepTimeBreakdown &b = c.breakdown;
            const ParallelConfig &p = c.parallel;
            const QString tooltip = SearchScatterChart::candidateTooltip(c, tr("#%1").arg(row + 1), found->band_fraction);
            const auto put = [&](Column column, const QString &text, double value) {
                table_->setItem(row, column, new NumericItem(text, value, row));
            };
            put(RankColumn, QString::number(row + 1), row + 1);
            put(DpColumn, QString::number(p.dp), p.dp);
            put(TpColumn, QString::number(p.tp), p.tp);
            put(PpColumn, QString::number(p.pp), p.pp);
            put(CpColumn, QString::number(p.cp), p.cp);
            put(EpColumn, QString::number(p.ep), p.ep);
            put(VColumn, QString::number(p.virtual_stages), p.virtual_stages);
            put(SpColumn, p.sequence_parallel ? tr("yes") : tr("no"), p.sequence_parallel);
            put(ZeroColumn, QString::number(p.zero_stage), p.zero_stage);
            put(MicroBatchColumn, QString::number(c.micro_batch), double(c.micro_batch));
            put(RecomputeColumn, displayName(c.recomputation), int(c.recomputation));
            put(MemoryColumn, format::bytes(b.memory_bytes_per_gpu), b.memory_bytes_per_gpu);
            put(StepColumn, PredictionBandText::withBand(format::duration(b.total_seconds), found->band_fraction),
                b.total_seconds);
            put(TokensColumn, format::si(b.tokens_per_second, QString()), b.tokens_per_second);
            put(MfuColumn, format::percent(b.mfu), b.mfu);
            put(BandColumn, row == 0 ? tr("best") : c.within_band_of_best ? tr("≈ best") : QString(),
                row == 0 ? 0 : c.within_band_of_best ? 1 : 2);
            for (int column = 0; column < ColumnCount; ++column)
                table_->item(row, column)->setToolTip(tooltip);
        }
    }
    batch.finish();
    table_->setSortingEnabled(true);
    table_->sortItems(StepColumn, Qt::AscendingOrder);
    markCurrentRow();
    if (table_->rowCount() > 0)
        table_->selectRow(0);
    updateButtons();
}

void SearchPage::markCurrentRow()
{
    const TrainingConfig &training = scenario().training;
    const ParallelConfig &now = training.parallel;
    for (int row = 0; row < table_->rowCount(); ++row) {
        const parallel::LayoutCandidate *candidate = candidateAtRow(row);
        if (!candidate)
            continue;
        const ParallelConfig &p = candidate->parallel;
        const bool current = hasEstimate() && p.dp == now.dp && p.tp == now.tp && p.pp == now.pp && p.cp == now.cp
                             && p.ep == now.ep && p.virtual_stages == now.virtual_stages
                             && p.zero_stage == now.zero_stage && p.sequence_parallel == now.sequence_parallel
                             && candidate->micro_batch == training.micro_batch
                             && candidate->recomputation == training.recomputation;
        for (int column = 0; column < ColumnCount; ++column) {
            QTableWidgetItem *item = table_->item(row, column);
            QFont font = item->font();
            font.setBold(current);
            item->setFont(font);
        }
        if (current)
            table_->item(row, RankColumn)->setText(tr("%1 (current)").arg(table_->item(row, RankColumn)->data(kSortRole).toInt()));
        else
            table_->item(row, RankColumn)->setText(QString::number(table_->item(row, RankColumn)->data(kSortRole).toInt()));
    }
}

const parallel::LayoutCandidate *SearchPage::candidateAtRow(int row) const
{
    const parallel::SearchResult *found = result();
    if (!found || row < 0 || row >= table_->rowCount() || !table_->item(row, RankColumn))
        return nullptr;
    const int index = table_->item(row, RankColumn)->data(kCandidateRole).toInt();
    return index >= 0 && index < int(found->top.size()) ? &found->top[std::size_t(index)] : nullptr;
}

bool SearchPage::applyRow(int row)
{
    const parallel::LayoutCandidate *candidate = candidateAtRow(row);
    if (!candidate || !hasEstimate())
        return false;
    emit scenarioEditRequested(parallel::applyLayout(scenario(), *candidate),
                               tr("Apply layout %1")
                                   .arg(layoutSummary(candidate->parallel, candidate->micro_batch, candidate->recomputation)));
    return true;
}

void SearchPage::refreshChart()
{
    if (chart_deadline_)
        chart_deadline_->stop();
    if (!hasEstimate()) {
        ChartData empty;
        empty.title = tr("Memory per GPU vs throughput: no valid scenario yet");
        scatter_->setData(empty);
        return;
    }
    scatter_->setData(SearchScatterChart::build(scenario(), double(estimate().memory.capacity), result(), current_,
                                                palette()));
}

void SearchPage::updateStatus()
{
    const bool running = runner_->isRunning();
    progress_->setVisible(running || result());
    if (running) {
        status_label_->setText(tr("Searching every layout of %Ln GPU(s)…", nullptr, scenario().cluster.gpus));
    } else if (const auto &outcome = runner_->result(); outcome && !outcome->ok()) {
        status_label_->setText(tr("The search could not run: %1")
                                   .arg(QString::fromStdString(formatProblems(outcome->problems())).toHtmlEscaped()));
    } else if (const parallel::SearchResult *found = result()) {
        QString text = tr("%1 valid layouts evaluated in %2 s (%3 fit in memory, %4 predicted); the table lists "
                          "the %5 fastest by predicted step time.")
                           .arg(format::integer(found->valid), format::decimal(found->seconds, 2),
                                format::integer(found->fitting), format::integer(found->predicted))
                           .arg(found->top.size());
        const auto within = std::count_if(found->top.begin(), found->top.end(),
                                          [](const parallel::LayoutCandidate &c) { return c.within_band_of_best; });
        if (found->band_fraction > 0)
            text += QLatin1Char(' ')
                + tr("%n of them (≈ best) are within the prediction's error band (± %1) of the best: it cannot rank "
                     "those apart.", nullptr, int(within))
                      .arg(format::percent(found->band_fraction, 0));
        else
            text += QLatin1Char(' ') + tr("No error band for this accelerator (%1): only ties with the best are marked.")
                                           .arg(PredictionBandText::basis(scenario().cluster.accelerator.accuracy));
        if (found->cancelled)
            text = tr("Cancelled after %Ln layout(s): partial results.", nullptr, int(found->evaluated));
        status_label_->setText(text);
    } else {
        status_label_->setText(hasEstimate() ? tr("Not run yet.") : tr("No valid scenario yet."));
    }

    const bool stale = hasEstimate() && !running && result() && isStale();
    // Once there are results the note keeps its place while hidden: an edit that makes them stale
    // and the next that makes them current again (a +1/-1 step) no longer move the chart below,
    // which replotted it a second time per edit (bench_gui_footprint).
    QSizePolicy policy = stale_label_->sizePolicy();
    policy.setRetainSizeWhenHidden(result() != nullptr);
    stale_label_->setSizePolicy(policy);
    if (last_search_seconds_ >= kAutoRunSeconds)
        setTextIfChanged(stale_label_, tr("⚠ The scenario or the options changed since this search (it took %1 s, too long "
                                          "to re-run on every edit): the table shows the old results. Press Re-run.")
                                           .arg(format::decimal(last_search_seconds_, 2)));
    else
        setTextIfChanged(stale_label_, tr("⚠ The scenario or the options changed since this search: the table shows the "
                                          "old results. Press Re-run."));
    stale_label_->setVisible(stale);

    if (!hasEstimate()) {
        current_label_->clear();
    } else if (!current_) {
        current_label_->setText(tr("Current layout: %1").arg(current_problem_.toHtmlEscaped()));
    } else {
        const parallel::StepTimeBreakdown &b = current_->breakdown;
        // Composed first and set once: each setText of rich text is parsed and laid out again.
        const PredictionAccuracy &accuracy = scenario().cluster.accelerator.accuracy;
        QString text = tr("<b>Current layout</b> %1: step %2, %3 tokens/s, MFU %4, %5 per GPU (%6)")
                           .arg(layoutSummary(current_->parallel, current_->micro_batch, current_->recomputation)
                                    .toHtmlEscaped(),
                                PredictionBandText::withBandOrBasis(format::duration(b.total_seconds),
                                                                    accuracy.bandFraction(), accuracy)
                                    .toHtmlEscaped(), format::si(b.tokens_per_second, QString()),
                                format::percent(b.mfu), format::bytes(b.memory_bytes_per_gpu),
                                b.fits ? tr("fits") : tr("does not fit"));
        // This page ranks by the predicted step; the Overview and Time pages use the scenario's MFU,
        // typed or predicted. Say which is which, so a layout applied here is not read as "Overview
        // agrees" when the MFU is a typed one.
        if (predicted_run_)
            text += QStringLiteral("<br>")
                + tr("Time models: the predicted step implies <b>%1 MFU</b>, about %2 days for the run; the "
                     "Overview and Time pages use the scenario's <b>%3 MFU %4</b>: %5 days.")
                      .arg(format::percent(predicted_run_->time.mfu), format::days(predicted_run_->time.days),
                           displayName(estimate().time.mfu_source), format::percent(estimate().time.mfu),
                           format::days(estimate().time.days));
        if (current_label_->text() != text)
            current_label_->setText(text);
        const auto [low, high] = performance::bandInterval(b.total_seconds, accuracy.bandFraction());
        current_label_->setToolTip(PredictionBandText::toolTip(format::duration(low), format::duration(high),
                                                               accuracy.bandFraction(), accuracy));
    }
    updateButtons();
}

void SearchPage::updateButtons()
{
    const bool running = runner_->isRunning();
    run_button_->setText(result() ? tr("&Re-run search") : tr("&Run search"));
    run_button_->setEnabled(hasEstimate() && !running);
    cancel_button_->setEnabled(running);
    apply_button_->setEnabled(!running && candidateAtRow(table_->currentRow()) != nullptr);
}

}  // namespace lse::gui
