// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/validation/validation_page.h"

#include "charts/chart_view.h"
#include "pages/validation/calibration_dialog.h"
#include "pages/validation/held_out_runner.h"
#include "pages/validation/serving_validation_view.h"
#include "pages/validation/validation_charts.h"
#include "pages/validation/validation_runs_model.h"
#include "pages/page_format.h"
#include "pages/table_key_columns.h"
#include "pages/operator_text.h"
#include "pages/prediction_band_text.h"

#include <QCoreApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace lse::gui {

namespace {

// Enough operators to cover most of a step without a long scroll.
constexpr int kTopOperators = 10;

enum OperatorColumn { OpName, OpPass, OpShape, OpCalls, OpSeconds, OpEfficiency, OpColumnCount };

// The Run column is at least this many average characters wide; narrower tables elide the id in
// the middle (the ids of the H100 runs reach 37 characters); the whole id is in the row's tooltip.
constexpr int kRunColumnCharacters = 14;

// The screenshot renderer grabs the page without an event loop in between: the held-out errors
// are waited for there.
bool renderingScreenshot()
{
    for (const QString &argument : QCoreApplication::arguments())
        if (argument == QLatin1String("--screenshot") || argument.startsWith(QLatin1String("--screenshot=")))
            return true;
    return false;
}

}  // namespace

ValidationPage::ValidationPage(QWidget *parent) : Page(parent)
{
    // Two tabs: the training step time (below) and the serving model (ServingValidationView).
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("validation.tabs"));
    tabs_->setDocumentMode(true);
    outer->addWidget(tabs_);
    auto *training = new QWidget;
    tabs_->addTab(training, QString());
    auto *layout = new QVBoxLayout(addScrollingContent(training));
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(8);

    summary_label_ = new QLabel;
    summary_label_->setObjectName(QStringLiteral("validation.summary"));
    summary_label_->setWordWrap(true);
    summary_label_->setTextFormat(Qt::RichText);
    calibrate_button_ = new QPushButton;
    calibrate_button_->setObjectName(QStringLiteral("validation.calibrate"));
    calibrate_button_->setEnabled(false);  // until a valid scenario arrives
    auto *header = new QHBoxLayout;
    header->addWidget(summary_label_, 1);
    header->addWidget(calibrate_button_, 0, Qt::AlignTop);
    layout->addLayout(header);

    accelerator_label_ = new QLabel;
    accelerator_label_->setObjectName(QStringLiteral("validation.accelerators"));
    accelerator_label_->setWordWrap(true);
    accelerator_label_->setTextFormat(Qt::RichText);
    layout->addWidget(accelerator_label_);
    held_out_progress_ = new QProgressBar;
    held_out_progress_->setObjectName(QStringLiteral("validation.heldOutProgress"));
    held_out_progress_->setVisible(false);
    held_out_button_ = new QPushButton;
    held_out_button_->setObjectName(QStringLiteral("validation.heldOutButton"));
    auto *held_out_row = new QHBoxLayout;
    held_out_row->addWidget(held_out_progress_, 1);
    held_out_row->addWidget(held_out_button_);
    held_out_row->addStretch(0);
    layout->addLayout(held_out_row);
    held_out_runner_ = new HeldOutRunner(this);
    connect(held_out_runner_, &HeldOutRunner::progress, this, [this](int done, int total) {
        held_out_progress_->setRange(0, total);
        held_out_progress_->setValue(done);
    });
    connect(held_out_runner_, &HeldOutRunner::finished, this, &ValidationPage::onHeldOutFinished);
    connect(held_out_button_, &QPushButton::clicked, this, [this] {
        if (held_out_runner_->isRunning())
            cancelHeldOut();
        else
            startHeldOut();
    });

    scatter_chart_ = new ChartView(QStringLiteral("validation-predicted-vs-published"), this);
    layout->addWidget(scatter_chart_, 1);

    runs_model_ = new ValidationRunsModel(this);
    sorted_model_ = new QSortFilterProxyModel(this);
    sorted_model_->setSourceModel(runs_model_);
    sorted_model_->setSortRole(ValidationRunsModel::kSortRole);
    table_ = new QTableView;
    table_->setObjectName(QStringLiteral("validation.table"));
    table_->setModel(sorted_model_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(-1, Qt::AscendingOrder);  // the data file's order until the user sorts
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->setVisible(false);
    table_->setMinimumHeight(kChartMinimumHeight);
    layout->addWidget(table_);
    // Each run's figures first: the published and predicted step and their error.
    // The held-out error beside the fitted one (issue 29 §4).
    setKeyColumns(table_, {ValidationRunsModel::Run, ValidationRunsModel::Published, ValidationRunsModel::Predicted,
                           ValidationRunsModel::Error, ValidationRunsModel::HeldOut});
    // Run ids reach 37 characters: the id gives way to the figures beside it (whole in the tooltip).
    setElidedKeyColumn(table_, ValidationRunsModel::Run, kRunColumnCharacters);

    hint_label_ = new QLabel;
    hint_label_->setWordWrap(true);
    load_button_ = new QPushButton;
    load_button_->setObjectName(QStringLiteral("validation.load"));
    load_button_->setEnabled(false);
    auto *actions = new QHBoxLayout;
    actions->addWidget(hint_label_, 1);
    actions->addWidget(load_button_);
    layout->addLayout(actions);

    breakdown_chart_ = new ChartView(QStringLiteral("validation-step-breakdown"), this);
    layout->addWidget(breakdown_chart_, 1);

    operators_label_ = new QLabel;
    operators_label_->setWordWrap(true);
    layout->addWidget(operators_label_);
    operator_table_ = new QTableWidget(0, OpColumnCount);
    operator_table_->setObjectName(QStringLiteral("validation.operators"));
    operator_table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    operator_table_->setSelectionMode(QAbstractItemView::NoSelection);
    operator_table_->verticalHeader()->setVisible(false);
    operator_table_->horizontalHeader()->setStretchLastSection(true);
    operator_table_->setMinimumHeight(kChartMinimumHeight);
    setKeyColumns(operator_table_, {OpName, OpSeconds, OpEfficiency});
    layout->addWidget(operator_table_);

    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ValidationPage::onSelectionChanged);
    connect(table_, &QTableView::activated, this, [this](const QModelIndex &index) { loadRun(index.row()); });
    connect(load_button_, &QPushButton::clicked, this, [this] {
        const QModelIndexList rows = table_->selectionModel()->selectedRows();
        if (!rows.isEmpty())
            loadRun(rows.front().row());
    });
    connect(calibrate_button_, &QPushButton::clicked, this, &ValidationPage::openCalibration);

    serving_view_ = new ServingValidationView;
    tabs_->addTab(serving_view_, QString());
    connect(serving_view_, &ServingValidationView::heldOutFinished, this, [this] {
        if (isReady())
            emit ready();
    });

    setChartMinimumHeights(kChartMinimumHeight, kPresentationChartMinimumHeight);
    setPresentation(false);
    retranslate();
    bindLessonControls();
}

QString ValidationPage::pageId() { return QStringLiteral("validation"); }

QString ValidationPage::pageTitle() { return tr("Validation"); }

QList<ChartView *> ValidationPage::charts() const
{
    return {scatter_chart_, breakdown_chart_, serving_view_->scatterChart()};
}

void ValidationPage::estimateChanged(const Scenario * /*previous*/)
{
    // Only the calibration uses the document; the table is the same for every scenario, so it is
    // computed once (here or when the page is shown first, for exports of a page never opened).
    calibrate_button_->setEnabled(true);
    ensureTable();
}

void ValidationPage::showEvent(QShowEvent *event)
{
    Page::showEvent(event);
    ensureTable();
}

void ValidationPage::ensureTable()
{
    if (computed_)
        return;
    computed_ = true;
    // The serving comparisons with the catalog's factors (milliseconds); their held-out fits wait
    // until the Serving tab is shown.
    serving_view_->ensureComputed();
    const std::vector<PublishedRun> &runs = builtinPublishedRuns();
    const Result<ValidationTable> table = validationTable(runs);
    if (!table) {
        table_error_ = format::fromStd(formatProblems(table.problems()));
        refresh();
        return;
    }
    runs_model_->setTable(*table, runs);
    fitColumns();
    const auto worst = std::find_if(table->rows.begin(), table->rows.end(),
                                    [&](const ValidationRow &row) { return row.id == table->worst_id; });
    // The worst run first: it is the one worth a look.
    const int first = worst == table->rows.end() ? 0 : int(worst - table->rows.begin());
    refresh();
    if (!table->rows.empty())
        table_->selectRow(sorted_model_->mapFromSource(runs_model_->index(first, 0)).row());
    startHeldOut();
    if (renderingScreenshot())
        waitForHeldOut(120000);
}

void ValidationPage::changeEvent(QEvent *event)
{
    Page::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::ApplicationFontChange)
        fitColumns();
}

// Columns sized at one font were cut ("+1…", "redicted MF") once presentation mode enlarged it.
void ValidationPage::fitColumns()
{
    if (runs_model_->rowCount() > 0) {
        table_->resizeColumnsToContents();
        fitElidedKeyColumn(table_);
    }
    if (operator_table_->rowCount() > 0)
        operator_table_->resizeColumnsToContents();
}

bool ValidationPage::isReady() const { return !held_out_runner_->isRunning() && !serving_view_->heldOutRunning(); }

bool ValidationPage::waitForHeldOut(int timeout_ms) { return held_out_runner_->waitForFinished(timeout_ms); }

void ValidationPage::startHeldOut()
{
    if (!computed_ || !table_error_.isEmpty())
        return;
    held_out_error_.clear();
    accelerators_.clear();
    runs_model_->setHeldOut(ValidationRunsModel::HeldOutState::Computing);
    held_out_progress_->setRange(0, 0);  // busy until the first progress report
    held_out_runner_->start(builtinPublishedRuns());
    refresh();
}

void ValidationPage::cancelHeldOut()
{
    held_out_runner_->cancel();
}

void ValidationPage::onHeldOutFinished()
{
    const auto &result = held_out_runner_->result();
    if (result && result->ok()) {
        accelerators_ = result->value();
        runs_model_->setHeldOut(ValidationRunsModel::HeldOutState::Computed, heldOutById());
    } else {
        accelerators_.clear();
        const bool cancelled = result && !result->ok() && result->problems().front().rule == "cancelled";
        held_out_error_ = cancelled ? tr("cancelled") : result ? format::fromStd(formatProblems(result->problems())) : QString();
        runs_model_->setHeldOut(ValidationRunsModel::HeldOutState::Failed);
    }
    refresh();
    emit ready();
}

std::map<std::string, double> ValidationPage::heldOutById() const
{
    std::map<std::string, double> errors;
    for (const AcceleratorValidation &accelerator : accelerators_)
        for (std::size_t i = 0; i < accelerator.held_out_errors.size() && i < accelerator.catalog.rows.size(); ++i)
            errors[accelerator.catalog.rows[i].id] = accelerator.held_out_errors[i];
    return errors;
}

std::vector<QString> ValidationPage::rowAccelerators() const
{
    std::vector<QString> names;
    for (int row = 0; row < runs_model_->rowCount(); ++row) {
        const PublishedRun *run = runs_model_->run(row);
        names.push_back(run ? format::fromStd(run->scenario.cluster.accelerator.name) : tr("unknown accelerator"));
    }
    return names;
}

void ValidationPage::onSelectionChanged()
{
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    load_button_->setEnabled(!rows.isEmpty());
    if (!rows.isEmpty())
        selectRun(sorted_model_->mapToSource(rows.front()).row());
}

void ValidationPage::selectRun(int model_row)
{
    if (model_row < 0 || model_row >= runs_model_->rowCount())
        return;
    const std::string id = runs_model_->row(model_row).id;
    if (id == selected_id_)
        return;
    selected_id_ = id;
    refresh();
    emit selectedRunChanged(format::fromStd(id));
}

bool ValidationPage::loadRun(int view_row)
{
    if (view_row < 0 || view_row >= sorted_model_->rowCount())
        return false;
    const PublishedRun *run = runs_model_->run(sorted_model_->mapToSource(sorted_model_->index(view_row, 0)).row());
    if (!run)
        return false;
    emit scenarioEditRequested(run->scenario, tr("Load published run %1").arg(format::fromStd(run->id)));
    return true;
}

void ValidationPage::openCalibration()
{
    if (hasEstimate())
        CalibrationDialog::openFor(scenario(), this);
}

void ValidationPage::retranslate()
{
    tabs_->setTabText(0, tr("Training step time"));
    tabs_->setTabText(1, tr("Serving"));
    serving_view_->retranslate();
    calibrate_button_->setText(tr("Calibrate…"));
    calibrate_button_->setToolTip(tr("Fit the current scenario's accelerator to a step time or TFLOP/s you measured, and "
                                     "save it as a new hardware entry"));
    load_button_->setText(tr("Load this run"));
    load_button_->setToolTip(tr("Replace the scenario with the selected published run (one undo step)"));
    hint_label_->setText(tr("Select a run to see its predicted step below; double-click or press Enter to load it. "
                            "Hover a row for its source."));
    runs_model_->retranslate();
    operator_table_->setHorizontalHeaderLabels(
        {tr("Operator"), tr("Pass"), tr("Shape on one GPU"), tr("Calls"), tr("Seconds"), tr("Efficiency")});
    refresh();
}

void ValidationPage::refresh()
{
    refreshSummary();
    refreshAcceleratorSummary();
    scatter_chart_->setData(
        ValidationCharts::predictedVsPublished(runs_model_->table(), rowAccelerators(), heldOutById(), selected_id_));
    const std::vector<ValidationRow> &rows = runs_model_->table().rows;
    const auto selected = std::find_if(rows.begin(), rows.end(), [&](const ValidationRow &row) { return row.id == selected_id_; });
    if (selected != rows.end()) {
        breakdown_chart_->setData(ValidationCharts::stepBreakdown(*selected));
    } else {
        ChartData empty;
        empty.title = tr("Predicted step: select a run");
        breakdown_chart_->setData(empty);
    }
    refreshOperators();
}

void ValidationPage::refreshSummary()
{
    const ValidationTable &table = runs_model_->table();
    if (!table_error_.isEmpty()) {
        summary_label_->setText(tr("The validation table could not be computed: %1")
                                    .arg(table_error_.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"))));
        summary_label_->setToolTip(QString());
        return;
    }
    if (table.rows.empty()) {
        summary_label_->setText(tr("Validation: computed when the page is shown"));
        summary_label_->setToolTip(QString());
        return;
    }
    // The error with the catalog factors (fitted to these runs) never without the held-out one
    // (issue 29 §4). A relative size in the markup, not a fixed font, so presentation mode and
    // zoom still scale it.
    const QString fitted = tr("Step time over %n published run(s): mean |error| %1, worst %2 (%3) with the catalog's "
                              "factors (fitted to these runs)",
                              nullptr, int(table.rows.size()))
                               .arg(format::percent(table.mean_absolute_error, 1),
                                    format::percent(table.worst_absolute_error, 1), format::fromStd(table.worst_id));
    QString held_out;
    if (held_out_runner_->isRunning()) {
        held_out = tr("held out (leave one source out): computing…");
    } else if (!accelerators_.empty()) {
        const HeldOutSummary all = heldOutOverAll(accelerators_);
        held_out = tr("held out (leave one source out, %n run(s)): mean %1, worst %2, 90th percentile %3", nullptr, all.runs)
                       .arg(format::percent(all.mean_absolute_error, 1), format::percent(all.worst_absolute_error, 1),
                            format::percent(all.p90_absolute_error, 1));
    } else {
        held_out = tr("held out: not computed (%1)").arg(held_out_error_);
    }
    summary_label_->setText(QStringLiteral("<span style=\"font-size: large; font-weight: bold\">%1;<br>%2</span>")
                                .arg(fitted.toHtmlEscaped(), held_out.toHtmlEscaped()));
    summary_label_->setToolTip(factorsToolTip());
}

// One set of factors per accelerator, named with the catalog entry's source: the reader can
// check that nothing was tuned per run.
QString ValidationPage::factorsToolTip() const
{
    std::map<std::string, const ValidationRow *> by_accelerator;
    for (int row = 0; row < runs_model_->rowCount(); ++row)
        if (const PublishedRun *run = runs_model_->run(row))
            by_accelerator.emplace(run->scenario.cluster.accelerator.name, &runs_model_->row(row));
    QString text = tr("The efficiency factors are one set per accelerator, taken from the hardware catalog's efficiency "
                      "entry; they are not fitted per run.");
    for (const auto &[name, row] : by_accelerator) {
        const EfficiencyFactors &factors = row->prediction.efficiency;
        text += QStringLiteral("<br><b>%1</b>: ").arg(format::fromStd(name).toHtmlEscaped())
                + tr("GEMM peak fraction %1, k₀ %2, HBM fraction %3, FlashAttention fraction %4; source: %5")
                      .arg(format::decimal(factors.gemm_peak_fraction, 3), format::decimal(factors.gemm_fixed_cost_depth, 0),
                           format::decimal(factors.memory_bandwidth_fraction, 3),
                           format::decimal(factors.flash_attention_fraction, 3),
                           format::fromStd(factors.source).toHtmlEscaped());
    }
    return text;
}

void ValidationPage::refreshAcceleratorSummary()
{
    const bool running = held_out_runner_->isRunning();
    held_out_progress_->setVisible(running);
    held_out_button_->setText(running ? tr("Cancel") : tr("Compute held-out errors again"));
    held_out_button_->setToolTip(running ? tr("Stop the leave-one-source-out fits (the held-out column stays empty)")
                                         : tr("Fit each accelerator's factors once per source without that source's "
                                              "runs and predict them (a few seconds)"));
    held_out_button_->setVisible(computed_ && table_error_.isEmpty() && (running || accelerators_.empty()));
    held_out_progress_->setFormat(tr("Leave one source out: %v / %m runs"));
    if (accelerators_.empty()) {
        accelerator_label_->setText(running ? tr("Per accelerator: fitting each accelerator without each of its sources…")
                                            : QString());
        accelerator_label_->setVisible(running);
        return;
    }
    accelerator_label_->setVisible(true);
    QString rows;
    const auto cell = [](const QString &text) { return QStringLiteral("<td style=\"padding: 0 8px\">%1</td>").arg(text); };
    rows += QStringLiteral("<tr>") + cell(QStringLiteral("<b>%1</b>").arg(tr("Accelerator")))
        + cell(QStringLiteral("<b>%1</b>").arg(tr("Runs / sources")))
        + cell(QStringLiteral("<b>%1</b>").arg(tr("Fitted: mean / worst")))
        + cell(QStringLiteral("<b>%1</b>").arg(tr("Held out: mean / worst / 90th pct. (the band)"))) + QStringLiteral("</tr>");
    for (const AcceleratorValidation &accelerator : accelerators_) {
        const QString held_out = accelerator.held_out_errors.empty()
            ? tr("none: all runs from one source, no band")
            : QStringLiteral("%1 / %2 / ± %3")
                  .arg(format::percent(accelerator.held_out_mean_absolute_error, 1),
                       format::percent(accelerator.held_out_worst_absolute_error, 1),
                       format::percent(accelerator.held_out_p90_absolute_error, 1));
        rows += QStringLiteral("<tr>") + cell(format::fromStd(accelerator.accelerator_name).toHtmlEscaped())
            + cell(QStringLiteral("%1 / %2").arg(accelerator.catalog.rows.size()).arg(accelerator.sources.size()))
            + cell(QStringLiteral("%1 / %2").arg(format::percent(accelerator.catalog.mean_absolute_error, 1),
                                                 format::percent(accelerator.catalog.worst_absolute_error, 1)))
            + cell(held_out) + QStringLiteral("</tr>");
    }
    accelerator_label_->setText(QStringLiteral("<table>%1</table>").arg(rows));
    accelerator_label_->setToolTip(tr("Fitted: the runs predicted with the catalog's factors, which were fitted to "
                                      "them. Held out: each source's runs predicted with factors fitted on the "
                                      "accelerator's other sources only, the error to expect on a new setup.")
                                   + QStringLiteral("<br>") + PredictionBandText::formula());
}

void ValidationPage::refreshOperators()
{
    const std::vector<ValidationRow> &rows = runs_model_->table().rows;
    const auto selected = std::find_if(rows.begin(), rows.end(), [&](const ValidationRow &row) { return row.id == selected_id_; });
    if (selected == rows.end()) {
        operators_label_->setText(QString());
        operator_table_->setRowCount(0);
        return;
    }
    std::vector<performance::OperatorTime> operators = selected->prediction.operators;
    std::sort(operators.begin(), operators.end(),
              [](const performance::OperatorTime &a, const performance::OperatorTime &b) { return a.seconds > b.seconds; });
    const int shown = std::min<int>(kTopOperators, int(operators.size()));
    operators_label_->setText(tr("Slowest %n operator(s) of %1 (kernels of the busiest GPU over the whole step)", nullptr, shown)
                                  .arg(format::fromStd(selected->id)));
    operator_table_->setRowCount(shown);
    for (int row = 0; row < shown; ++row) {
        const performance::OperatorTime &op = operators[std::size_t(row)];
        const QStringList cells = {format::fromStd(op.name), operatorPassText(op.pass), operatorShapeText(op.shape),
                                   format::decimal(op.count, 0), format::decimal(op.seconds, 3),
                                   format::percent(op.efficiency, 1)};
        for (int column = 0; column < OpColumnCount; ++column) {
            auto *item = new QTableWidgetItem(cells[column]);
            if (column >= OpCalls)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            operator_table_->setItem(row, column, item);
        }
    }
    operator_table_->resizeColumnsToContents();
}

void ValidationPage::bindLessonControls()
{
    hint_label_->setObjectName(QStringLiteral("validation-hint"));
    operators_label_->setObjectName(QStringLiteral("validation-operators-heading"));
    lesson_controls_.addTab(QStringLiteral("tab"), tabs_, {QStringLiteral("training"), QStringLiteral("serving")});
    // The run whose operators the lower table shows, by its id in the published-runs table; set by
    // selecting its row, as a click does.
    auto run_ids = [this] {
        QStringList ids;
        for (int row = 0; row < runs_model_->rowCount(); ++row)
            ids << format::fromStd(runs_model_->row(row).id);
        return ids;
    };
    lesson_controls_.add(
        {QStringLiteral("selected_run"), [this] { return QJsonValue(format::fromStd(selected_id_)); },
         [run_ids](const QJsonValue &value) {
             if (!value.isString() || !run_ids().contains(value.toString()))
                 return tr("expected a published run id (%1)").arg(run_ids().join(QLatin1Char('|')));
             return QString();
         },
         [this, run_ids](const QJsonValue &value) {
             const int model_row = int(run_ids().indexOf(value.toString()));
             table_->selectRow(sorted_model_->mapFromSource(runs_model_->index(model_row, 0)).row());
         }});
}

QJsonObject ValidationPage::lessonSettings() const { return lesson_controls_.settings(); }

bool ValidationPage::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    return lesson_controls_.apply(settings, error);
}

}  // namespace lse::gui
