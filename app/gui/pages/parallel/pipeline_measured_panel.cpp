// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/parallel/pipeline_measured_panel.h"

#include "charts/chart_palette.h"
#include "charts/chart_view.h"
#include "pages/page_format.h"
#include "pages/parallel/parallel_labels.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <vector>

namespace lse::gui {

PipelineMeasuredPanel::PipelineMeasuredPanel(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *row = new QHBoxLayout;
    load_button_ = new QPushButton(this);
    load_button_->setObjectName(QStringLiteral("pipeline-load-measured"));
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    summary_->setObjectName(QStringLiteral("pipeline-measured-bubble"));
    row->addWidget(load_button_);
    row->addWidget(summary_, 1);
    layout->addLayout(row);
    chart_ = new ChartView(QStringLiteral("pipeline-measured-gantt"), this);
    chart_->setMinimumHeight(260);
    chart_->setVisible(false);
    layout->addWidget(chart_);
    connect(load_button_, &QPushButton::clicked, this, &PipelineMeasuredPanel::chooseFile);
    retranslate();
}

void PipelineMeasuredPanel::retranslate()
{
    load_button_->setText(tr("Load measured run…"));
    load_button_->setToolTip(tr("The JSON of `llm-explorer-cli train --pp P --json` (or dist-train --pp): its last "
                                "step's passes on every rank, drawn on the run's common clock"));
    refresh();
}

void PipelineMeasuredPanel::chooseFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Load a measured pipeline run"), QString(),
                                                      tr("Pipeline run JSON (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    loadRun(path, &error);  // a failure shows in the summary line
}

bool PipelineMeasuredPanel::loadRun(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        error_ = tr("%1: cannot be read (%2).").arg(path, file.errorString());
    } else {
        Result<distributed::MeasuredPipelineRun> read =
            distributed::readMeasuredPipelineRun(file.readAll(), QFileInfo(path).fileName().toStdString());
        if (read) {
            run_ = read.value();
            path_ = path;
            error_.clear();
        } else {
            error_ = QString::fromStdString(formatProblems(read.problems())).trimmed();
        }
    }
    if (error)
        *error = error_;
    refresh();
    if (error_.isEmpty() && run_)
        emit runLoaded(run_->schedule, run_->stages, run_->micro_batches);
    return error_.isEmpty();
}

void PipelineMeasuredPanel::setRun(const distributed::MeasuredPipelineRun &run, const QString &name)
{
    run_ = run;
    path_ = name;
    error_.clear();
    refresh();
}

void PipelineMeasuredPanel::setLoadButtonVisible(bool visible) { load_button_->setVisible(visible); }

QString PipelineMeasuredPanel::summaryText() const
{
    QString text;
    if (run_)
        text = tr("Measured %1, p = %2, m = %3 (%4, step %5): bubble (idle ÷ step time, mean over ranks) %6 "
                  "measured, %7 by (p − 1)/(m + p − 1).")
                   .arg(pipelineScheduleLabel(run_->schedule))
                   .arg(run_->stages)
                   .arg(run_->micro_batches)
                   .arg(QFileInfo(path_).fileName())
                   .arg(run_->step)
                   .arg(format::percent(run_->bubble.measured), format::percent(run_->bubble.formula));
    else
        text = tr("No measured run loaded: run `llm-explorer-cli dist-train --np P --pp P --json > run.json` and "
                  "load run.json to see its Gantt chart here.");
    if (!error_.isEmpty())
        text = error_ + QLatin1Char(' ') + text;
    return text;
}

void PipelineMeasuredPanel::refresh()
{
    summary_->setText(summaryText());
    chart_->setVisible(run_.has_value());
    if (run_)
        chart_->setData(chartData());
}

ChartData PipelineMeasuredPanel::chartData() const
{
    ChartData chart;
    if (!run_)
        return chart;
    const distributed::MeasuredPipelineRun &run = *run_;
    chart.title = tr("Measured: %1, p = %2, m = %3, step %4: bubble (idle ÷ step time) %5, formula %6")
                      .arg(pipelineScheduleLabel(run.schedule))
                      .arg(run.stages)
                      .arg(run.micro_batches)
                      .arg(run.step)
                      .arg(format::percent(run.bubble.measured), format::percent(run.bubble.formula));
    chart.x_label = tr("Time since the step's start (ms, common clock)");
    chart.x_unit = QStringLiteral("ms");
    chart.y_reversed = true;
    for (int rank = 0; rank < run.stages; ++rank)
        chart.y_categories << tr("rank %1").arg(rank);
    const QPalette pal = palette();
    const QColor forward = chartSeriesColor(0, pal), backward = chartSeriesColor(1, pal);
    const QColor idle = blendColors(pal.color(QPalette::Base), pal.color(QPalette::Text), 0.1);
    constexpr double half = 0.4;
    double first = run.passes.front().start_seconds, last = run.passes.front().end_seconds;
    for (const distributed::PipelinePass &pass : run.passes) {
        first = std::min(first, pass.start_seconds);
        last = std::max(last, pass.end_seconds);
    }
    const QString forward_group = tr("forward"), backward_group = tr("backward (recomputes its forward)");
    std::vector<std::vector<std::pair<double, double>>> busy(std::size_t(run.stages));
    for (const distributed::PipelinePass &pass : run.passes) {
        const bool is_forward = pass.pass == "forward";
        ChartRect rect;
        rect.x0 = pass.start_seconds * 1e3;
        rect.x1 = pass.end_seconds * 1e3;
        rect.y0 = pass.rank - half;
        rect.y1 = pass.rank + half;
        rect.color = is_forward ? forward : backward;
        rect.group = is_forward ? forward_group : backward_group;
        rect.label = QString::number(pass.micro_batch + 1);
        rect.tooltip = tr("<b>Rank %1: %2 of micro-batch %3</b><br>from %4 to %5 ms")
                           .arg(pass.rank)
                           .arg(is_forward ? forward_group : backward_group)
                           .arg(pass.micro_batch + 1)
                           .arg(format::decimal(pass.start_seconds * 1e3, 3), format::decimal(pass.end_seconds * 1e3, 3));
        chart.rects << rect;
        busy[std::size_t(pass.rank)].emplace_back(pass.start_seconds, pass.end_seconds);
    }
    // Each rank's idle gaps within the step's span: the measured bubble made visible.
    const QString idle_group = tr("idle (bubble, waiting for a neighbour)");
    for (int rank = 0; rank < run.stages; ++rank) {
        auto &intervals = busy[std::size_t(rank)];
        std::sort(intervals.begin(), intervals.end());
        double cursor = first;
        const auto gap = [&](double from, double to) {
            if (to - from <= 1e-9)
                return;
            ChartRect rect;
            rect.x0 = from * 1e3;
            rect.x1 = to * 1e3;
            rect.y0 = rank - half;
            rect.y1 = rank + half;
            rect.color = idle;
            rect.group = idle_group;
            rect.tooltip = tr("<b>Rank %1 idle</b> from %2 to %3 ms")
                               .arg(rank)
                               .arg(format::decimal(from * 1e3, 3), format::decimal(to * 1e3, 3));
            chart.rects << rect;
        };
        for (const auto &[from, to] : intervals) {
            gap(cursor, from);
            cursor = std::max(cursor, to);
        }
        gap(cursor, last);
    }
    chart.formula.inputs = tr("p = %1, m = %2, step time %3 ms").arg(run.stages).arg(run.micro_batches).arg(
        format::decimal(run.bubble.makespan_seconds * 1e3, 3));
    chart.formula.formula = tr("bubble = mean over ranks of (step time − the rank's busy time) / step time; "
                               "formula (p − 1)/(m + p − 1) = %1")
                                .arg(format::percent(run.bubble.formula));
    chart.formula.source = tr("Huang et al. 2019 §2.3 (GPipe); Narayanan et al. 2021 §2.2.1 (1F1B)");
    return chart;
}

}  // namespace lse::gui
