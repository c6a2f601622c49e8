// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/validation/serving_validation_view.h"

#include "charts/chart_palette.h"
#include "charts/chart_view.h"
#include "pages/page_format.h"
#include "pages/table_key_columns.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMetaObject>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>

namespace lse::gui {

namespace {

enum Column { ColFigure, ColMetric, ColAccelerator, ColPublished, ColPredicted, ColError, ColHeldOut, ColumnCount };

std::string comparisonKey(const ServingComparison &comparison) { return comparison.row_id + '\n' + comparison.metric; }

QString metricName(const std::string &metric)
{
    if (metric == "first_token_latency_ms")
        return ServingValidationView::tr("first-token latency (ms)");
    if (metric == "throughput_output_tokens_per_s_per_gpu")
        return ServingValidationView::tr("output tokens/s per GPU");
    if (metric == "per_token_decode_latency_ms")
        return ServingValidationView::tr("decode latency per token (ms)");
    return format::fromStd(metric);
}

}  // namespace

ServingValidationView::ServingValidationView(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(addScrollingContent(this));
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(8);
    intro_ = new QLabel;
    intro_->setWordWrap(true);
    layout->addWidget(intro_);
    summary_label_ = new QLabel;
    summary_label_->setObjectName(QStringLiteral("validation.servingSummary"));
    summary_label_->setWordWrap(true);
    summary_label_->setTextFormat(Qt::RichText);
    layout->addWidget(summary_label_);
    accelerator_label_ = new QLabel;
    accelerator_label_->setObjectName(QStringLiteral("validation.servingAccelerators"));
    accelerator_label_->setWordWrap(true);
    accelerator_label_->setTextFormat(Qt::RichText);
    layout->addWidget(accelerator_label_);
    progress_ = new QProgressBar;
    progress_->setObjectName(QStringLiteral("validation.servingHeldOutProgress"));
    progress_->setVisible(false);
    held_out_button_ = new QPushButton;
    held_out_button_->setObjectName(QStringLiteral("validation.servingHeldOutButton"));
    auto *row = new QHBoxLayout;
    row->addWidget(progress_, 1);
    row->addWidget(held_out_button_);
    row->addStretch(0);
    layout->addLayout(row);
    connect(held_out_button_, &QPushButton::clicked, this, [this] {
        if (running_)
            cancelHeldOut();
        else
            startHeldOut();
    });
    connect(this, &ServingValidationView::heldOutProgress, this, [this](int done, int total) {
        progress_->setRange(0, total);
        progress_->setValue(done);
    });
    scatter_chart_ = new ChartView(QStringLiteral("validation-serving-predicted-vs-published"), this);
    scatter_chart_->setMinimumHeight(kChartMinimumHeight);
    layout->addWidget(scatter_chart_, 1);
    table_ = new QTableWidget(0, ColumnCount);
    table_->setObjectName(QStringLiteral("validation.servingTable"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSortingEnabled(true);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setMinimumHeight(kChartMinimumHeight);
    setKeyColumns(table_, {ColFigure, ColPublished, ColPredicted, ColError, ColHeldOut});
    setElidedKeyColumn(table_, ColFigure, 14);
    layout->addWidget(table_);
    retranslate();
}

ServingValidationView::~ServingValidationView()
{
    if (job_) {
        job_->cancelled = true;
        if (job_->thread.joinable())
            job_->thread.join();  // stops before the next source's fit
    }
}

void ServingValidationView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    ensureComputed();
    if (!held_out_started_)
        startHeldOut();
}

void ServingValidationView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    if ((event->type() == QEvent::FontChange || event->type() == QEvent::ApplicationFontChange) && table_->rowCount() > 0) {
        table_->resizeColumnsToContents();
        fitElidedKeyColumn(table_);
    }
}

void ServingValidationView::ensureComputed()
{
    if (validation_ || !error_.isEmpty())
        return;
    const Result<ServingValidation> validation = validateServing(false);
    if (validation)
        validation_ = *validation;
    else
        error_ = format::fromStd(formatProblems(validation.problems()));
    refresh();
}

void ServingValidationView::startHeldOut()
{
    ensureComputed();
    if (!validation_)
        return;
    cancelHeldOut();
    if (job_ && job_->thread.joinable())
        job_->thread.join();
    held_out_started_ = true;
    held_out_.reset();
    held_out_error_.clear();
    auto job = std::make_shared<Job>();
    job_ = job;
    running_ = true;
    progress_->setRange(0, 0);  // busy until the first report
    QObject *self = this;
    job->thread = std::thread([job, self] {
        job->result = validateServing(true, [job, self](int done, int total) {
            QMetaObject::invokeMethod(
                self, [self, done, total] { emit static_cast<ServingValidationView *>(self)->heldOutProgress(done, total); },
                Qt::QueuedConnection);
            return !job->cancelled.load();
        });
        job->done = true;
        QMetaObject::invokeMethod(self, [self, job] { static_cast<ServingValidationView *>(self)->deliver(job); },
                                  Qt::QueuedConnection);
    });
    refresh();
}

void ServingValidationView::cancelHeldOut()
{
    if (job_)
        job_->cancelled = true;
}

void ServingValidationView::deliver(const std::shared_ptr<Job> &job)
{
    if (job != job_ || !running_)
        return;  // an older run, or delivered already by waitForHeldOut
    if (job->thread.joinable())
        job->thread.join();
    running_ = false;
    if (job->result && job->result->ok()) {
        held_out_ = job->result->value();
    } else if (job->result) {
        held_out_error_ = job->result->problems().front().rule == "cancelled"
            ? tr("cancelled")
            : format::fromStd(formatProblems(job->result->problems()));
    }
    refresh();
    emit heldOutFinished();
}

bool ServingValidationView::waitForHeldOut(int timeout_ms)
{
    if (!running_)
        return true;
    QDeadlineTimer deadline(timeout_ms);
    const std::shared_ptr<Job> job = job_;
    while (!job->done.load()) {
        if (deadline.hasExpired())
            return false;
        QThread::msleep(5);
    }
    deliver(job);
    return true;
}

void ServingValidationView::retranslate()
{
    intro_->setText(tr("The serving model (the Serving page, `llm-explorer-cli infer`) against published inference "
                       "measurements: TensorRT-LLM's static-batch throughput and batch-1 first-token latency on "
                       "A100, H100, H200 and L40S, and kipply's FasterTransformer 13B latencies. Each figure is one "
                       "comparison; the serving factors are one set per accelerator and precision, fitted on these "
                       "figures, so the held-out error (each source predicted by factors fitted without it) is the "
                       "one to expect on a new setup."));
    table_->setHorizontalHeaderLabels({tr("Figure"), tr("Metric"), tr("Accelerator / precision"), tr("Published"),
                                       tr("Predicted"), tr("Error"), tr("Held out")});
    refresh();
}

void ServingValidationView::refresh()
{
    held_out_button_->setText(running_ ? tr("Cancel") : tr("Compute held-out errors"));
    held_out_button_->setToolTip(running_ ? tr("Stop the leave-one-source-out fits before the next source")
                                          : tr("Fit the serving factors once per source without that source's figures "
                                               "and predict them (about a second per source, in the background)"));
    held_out_button_->setVisible(validation_.has_value() && (running_ || !held_out_));
    progress_->setVisible(running_);
    progress_->setFormat(tr("Leave one source out: %v / %m sources"));
    if (!error_.isEmpty()) {
        summary_label_->setText(tr("The serving validation could not be computed: %1").arg(error_.toHtmlEscaped()));
        return;
    }
    if (!validation_) {
        summary_label_->setText(tr("Serving validation: computed when the tab is shown"));
        accelerator_label_->clear();
        ChartData empty;
        empty.title = tr("Predicted vs published serving figures: not computed yet");
        empty.formula.formula = tr("error = (predicted − published) / published");
        empty.formula.source = tr("resources/validation/published_inference.json");
        scatter_chart_->setData(empty);
        return;
    }
    const ServingValidation &v = *validation_;
    const QString fitted = tr("%n published figure(s): mean |error| %1, worst %2 (%3) with the catalog's serving factors "
                              "(fitted to these figures)",
                              nullptr, v.overall.comparisons)
                               .arg(format::percent(v.overall.mean_abs_error, 1),
                                    format::percent(v.overall.worst_abs_error, 1), format::fromStd(v.overall.worst_row));
    QString held;
    if (running_)
        held = tr("held out (leave one source out): computing…");
    else if (held_out_)
        held = tr("held out (leave one source out, %n figure(s)): mean %1, worst %2 (%3)", nullptr,
                  held_out_->held_out_overall.comparisons)
                   .arg(format::percent(held_out_->held_out_overall.mean_abs_error, 1),
                        format::percent(held_out_->held_out_overall.worst_abs_error, 1),
                        format::fromStd(held_out_->held_out_overall.worst_row));
    else
        held = tr("held out: not computed (%1)").arg(held_out_error_.isEmpty() ? tr("show this tab to start") : held_out_error_);
    summary_label_->setText(QStringLiteral("<span style=\"font-size: large; font-weight: bold\">%1;<br>%2</span>")
                                .arg(fitted.toHtmlEscaped(), held.toHtmlEscaped()));

    // Per accelerator and precision, and per held-out source.
    const auto cell = [](const QString &text) { return QStringLiteral("<td style=\"padding: 0 8px\">%1</td>").arg(text); };
    QString rows = QStringLiteral("<tr>") + cell(QStringLiteral("<b>%1</b>").arg(tr("Accelerator / precision")))
        + cell(QStringLiteral("<b>%1</b>").arg(tr("Figures"))) + cell(QStringLiteral("<b>%1</b>").arg(tr("Mean / worst")))
        + QStringLiteral("</tr>");
    for (const ServingErrorSummary &summary : v.per_accelerator)
        rows += QStringLiteral("<tr>") + cell(format::fromStd(summary.key).toHtmlEscaped())
            + cell(QString::number(summary.comparisons))
            + cell(QStringLiteral("%1 / %2").arg(format::percent(summary.mean_abs_error, 1),
                                                 format::percent(summary.worst_abs_error, 1)))
            + QStringLiteral("</tr>");
    if (held_out_)
        for (const HeldOutSource &source : held_out_->held_out)
            rows += QStringLiteral("<tr>") + cell(tr("held out: %1").arg(format::fromStd(source.source).toHtmlEscaped()))
                + cell(QString::number(source.summary.comparisons))
                + cell(QStringLiteral("%1 / %2").arg(format::percent(source.summary.mean_abs_error, 1),
                                                     format::percent(source.summary.worst_abs_error, 1)))
                + QStringLiteral("</tr>");
    accelerator_label_->setText(QStringLiteral("<table>%1</table>").arg(rows));

    // The scatter: one colour per accelerator and precision, y = x and ±10 %.
    std::map<std::string, double> held_out_errors;
    if (held_out_)
        for (const HeldOutSource &source : held_out_->held_out)
            for (const ServingComparison &comparison : source.comparisons)
                held_out_errors[comparisonKey(comparison)] = comparison.error();
    ChartData chart;
    chart.title = tr("Serving: predicted vs published (%n figure(s))", nullptr, int(v.comparisons.size()));
    chart.x_label = tr("Published (ms or tokens/s, log scale)");
    chart.y_label = tr("Predicted (same unit, log scale)");
    chart.x_unit = QStringLiteral("published");
    chart.y_unit = QStringLiteral("predicted");
    chart.log_x = true;
    chart.log_y = true;
    chart.formula.formula = tr("error = (predicted − published) / published; the model: serve() with the catalog's "
                               "serving factors per accelerator and precision");
    chart.formula.source = tr("resources/validation/published_inference.json (TensorRT-LLM performance.md and blogs, "
                              "kipply 2022, LLM-Viewer issue #4); core/validation/serving_validation");
    std::map<std::string, ChartSeries> groups;
    double low = 1e300, high = 0;
    for (const ServingComparison &comparison : v.comparisons) {
        const std::string key = comparison.accelerator + "/" + comparison.precision;
        ChartSeries &series = groups[key];
        series.name = format::fromStd(key);
        series.kind = ChartSeries::Kind::Marker;
        series.x << comparison.published;
        series.y << comparison.predicted;
        const auto held_error = held_out_errors.find(comparisonKey(comparison));
        series.point_tooltips << tr("<b>%1</b><br>%2: published %3, predicted %4, error %5%6")
                                     .arg(format::fromStd(comparison.row_id).toHtmlEscaped(), metricName(comparison.metric),
                                          format::decimal(comparison.published, 1), format::decimal(comparison.predicted, 1),
                                          format::percent(comparison.error(), 1),
                                          held_error == held_out_errors.end()
                                              ? QString()
                                              : tr("; held out %1").arg(format::percent(held_error->second, 1)));
        low = std::min({low, comparison.published, comparison.predicted});
        high = std::max({high, comparison.published, comparison.predicted});
    }
    const QPalette palette = scatter_chart_->palette();
    int index = 0;
    for (auto &[key, series] : groups) {
        series.color = chartSeriesColor(index++, palette);
        chart.series << series;
    }
    if (high > 0) {
        for (const auto &[factor, name] : {std::pair{1.0, tr("y = x")}, std::pair{1.1, tr("±10 %")}, std::pair{0.9, QString()}}) {
            ChartSeries line;
            line.name = name;
            line.dashed = factor != 1.0;
            line.color = chartReferenceColor(palette);
            line.x << low / 1.5 << high * 1.5;
            line.y << low / 1.5 * factor << high * 1.5 * factor;
            chart.series << line;
        }
    }
    chart.formula.inputs = tr("%n figure(s) from %1 source(s)", nullptr, int(v.comparisons.size()))
                               .arg(held_out_ ? QString::number(held_out_->held_out.size()) : tr("several"));
    scatter_chart_->setData(chart);
    fillTable();
}

void ServingValidationView::fillTable()
{
    if (!validation_)
        return;
    std::map<std::string, double> held_out_errors;
    if (held_out_)
        for (const HeldOutSource &source : held_out_->held_out)
            for (const ServingComparison &comparison : source.comparisons)
                held_out_errors[comparisonKey(comparison)] = comparison.error();
    const std::vector<ServingComparison> &comparisons = validation_->comparisons;
    table_->setSortingEnabled(false);
    table_->setRowCount(int(comparisons.size()));
    for (int row = 0; row < int(comparisons.size()); ++row) {
        const ServingComparison &c = comparisons[std::size_t(row)];
        const auto held = held_out_errors.find(comparisonKey(c));
        const auto number = [](double value, const QString &text) {
            auto *item = new QTableWidgetItem(text);
            item->setData(Qt::UserRole, value);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            return item;
        };
        auto *figure = new QTableWidgetItem(format::fromStd(c.row_id));
        figure->setToolTip(tr("%1<br>source: %2").arg(format::fromStd(c.row_id).toHtmlEscaped(),
                                                      format::fromStd(c.source).toHtmlEscaped()));
        table_->setItem(row, ColFigure, figure);
        table_->setItem(row, ColMetric, new QTableWidgetItem(metricName(c.metric)));
        table_->setItem(row, ColAccelerator, new QTableWidgetItem(format::fromStd(c.accelerator + "/" + c.precision)));
        table_->setItem(row, ColPublished, number(c.published, format::decimal(c.published, 1)));
        table_->setItem(row, ColPredicted, number(c.predicted, format::decimal(c.predicted, 1)));
        table_->setItem(row, ColError, number(c.error(), format::percent(c.error(), 1)));
        table_->setItem(row, ColHeldOut,
                        held == held_out_errors.end()
                            ? new QTableWidgetItem(running_ ? tr("computing…") : QStringLiteral("–"))
                            : number(held->second, format::percent(held->second, 1)));
    }
    table_->setSortingEnabled(true);
    table_->resizeColumnsToContents();
    fitElidedKeyColumn(table_);
}

}  // namespace lse::gui
