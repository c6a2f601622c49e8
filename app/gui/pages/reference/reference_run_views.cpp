// SPDX-License-Identifier: GPL-3.0-or-later
// The Reference run page's views of a run: the loss chart, the per-operator times, the
// predicted-vs-measured table and the stats line.
#include "pages/reference/reference_run_page.h"

#include "reference/engine_scenario.h"
#include "reference/peak_utilisation.h"
#include "reference/step_time_comparison.h"
#include "reference/training_text.h"

#include "charts/chart_view.h"
#include "common/file_bytes.h"
#include "cost/estimate.h"
#include "cost/parameters.h"
#include "pages/page_format.h"
#include "pages/roofline/machine_warnings.h"
#include "reference/token_data.h"
#include "tokenizer/bpe_tokenizer.h"
#include "tokenizer/bpe_trainer.h"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QApplication>
#include <QFontMetrics>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QVBoxLayout>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

namespace lse::gui {

using reference::OpRecord;
using reference::StepReport;
using reference::TrainConfig;

namespace {

// A bytes quantity or FLOP count of the comparison table.
QString tableValue(double value, bool bytes)
{
    return bytes ? format::bytes(value) : format::si(value, QStringLiteral("FLOP"));
}

QTableWidgetItem *item(const QString &text, const QString &tip = QString())
{
    auto *i = new QTableWidgetItem(text);
    if (!tip.isEmpty())
        i->setToolTip(tip);
    return i;
}

}  // namespace

void ReferenceRunPage::refreshLossChart()
{
    ChartData chart;
    chart.title = tr("Training and validation loss");
    chart.x_label = tr("Step");
    chart.y_label = tr("Loss (nats/token)");
    chart.x_unit = QStringLiteral("step");
    chart.y_unit = QStringLiteral("nats/token");
    ChartSeries train;
    train.name = tr("Training loss (batch)");
    train.x = loss_x_;
    train.y = loss_y_;
    ChartSeries validation;
    validation.name = tr("Validation loss");
    validation.kind = val_x_.size() > 1 ? ChartSeries::Kind::Line : ChartSeries::Kind::Marker;
    validation.x = val_x_;
    validation.y = val_y_;
    chart.series = {train, validation};
    if (run_) {
        const double uniform = std::log(double(run_->config.model.vocab_size));
        chart.reference_lines.push_back({uniform, tr("ln V = %1 (uniform guess)").arg(format::decimal(uniform, 2)), QColor()});
    }
    chart.formula.inputs = run_ ? tr("batch %1 × context %2 tokens per step, vocabulary %3")
                                     .arg(run_->config.batch_size)
                                     .arg(format::integer(run_->config.model.max_seq_len))
                                     .arg(format::integer(run_->config.model.vocab_size))
                               : QString();
    chart.formula.formula = tr("loss = mean over the batch of −ln softmax(logits)[next token]; validation: mean over "
                              "fixed windows of the held-out last 10% of the tokens");
    chart.formula.source = tr("Reference trainer (core/reference/trainer), CS336 assignment 1");
    loss_chart_->setData(chart);
}

void ReferenceRunPage::refreshOpsChart()
{
    ChartData chart;
    chart.title = tr("Time per op in one training step");
    chart.x_label = tr("Operator");
    chart.y_label = tr("Time (ms)");
    chart.y_unit = QStringLiteral("ms");
    ChartSeries forward, backward;
    forward.name = tr("Forward");
    backward.name = tr("Backward");
    forward.kind = backward.kind = ChartSeries::Kind::Bar;
    forward.stack_group = backward.stack_group = 0;
    if (last_profile_) {
        std::map<QString, int> index;
        double total = 0;
        for (const OpRecord &r : last_profile_->ops)
            total += r.seconds;
        for (const OpRecord &r : last_profile_->ops) {
            const QString name = QString::fromLatin1(r.name);
            if (!index.count(name)) {
                index[name] = int(chart.categories.size());
                chart.categories << name;
                for (ChartSeries *s : {&forward, &backward}) {
                    s->x.push_back(index[name]);
                    s->y.push_back(0);
                    s->point_tooltips.push_back(QString());
                }
            }
            ChartSeries &s = r.phase == reference::OpPhase::Forward ? forward : backward;
            const int i = index[name];
            s.y[i] += r.seconds * 1e3;
            s.point_tooltips[i] = tr("<b>%1 (%2)</b><br>%3 ms, %4 of the step's op time<br>%5 in %6 calls%7")
                                      .arg(name, s.name, format::decimal(s.y[i], 3),
                                           format::percent(total > 0 ? r.seconds / total : 0),
                                           format::si(r.flops, QStringLiteral("FLOP")), format::integer(r.calls),
                                           r.matmul ? tr(" (matmul)") : QString());
        }
        // The ops' own time, not the step's: the status line and the table give the step's (issue 28
        // item 18: three step times, none said which it was).
        chart.formula.inputs = tr("%1 ops, %2 ms of op time in the last step (forward and backward ops; the optimizer "
                                  "and the time between ops make up the rest of the step)")
                                   .arg(chart.categories.size())
                                   .arg(format::decimal(total * 1e3, 2));
    }
    chart.series = {forward, backward};
    chart.formula.formula = tr("Wall time of each op's calls in the last training step without validation, measured "
                              "with a steady clock around every forward and backward op");
    chart.formula.source = tr("Op profiler (core/reference/op_profiler); op names are the cost engine's");
    ops_chart_->setData(chart);
}

void ReferenceRunPage::refreshTable()
{
    table_->clearContents();
    const QStringList rows = {tr("FLOPs per step (matmuls)"), tr("FLOPs per step (all operators)"),
                              tr("Parameters"),               tr("Gradients"),
                              tr("Optimizer states"),         tr("Saved activations"),
                              tr("Workspace (scratch)"),      tr("Step time (median)")};
    for (int r = 0; r < rows.size(); ++r)
        table_->setItem(r, 0, item(rows[r]));
    if (!run_)
        return;
    const TrainConfig &c = run_->config;
    // The engine's view of the same step (core/reference/engine_scenario.h): this CPU as the one
    // device, fp32 AdamW, no recomputation, the non-fused attention path, one step's tokens. Its
    // FLOPs and bytes do not depend on the run; the step time comes from the roofline (row 7).
    const Scenario scenario = engineScenarioFor(c, peak_flops_);
    const Result<Estimate> predicted = lse::estimate(scenario);
    if (!predicted) {
        table_->setItem(0, 1, item(QString::fromStdString(formatProblems(predicted.problems())).trimmed()));
        return;
    }
    const Estimate &e = predicted.value();
    const QString shape = tr("batch %1, sequence %2, fp32, AdamW").arg(c.batch_size).arg(c.model.max_seq_len);

    auto setRow = [this](int row, std::optional<double> engine, std::optional<double> measured, bool bytes,
                         const QString &engine_tip, const QString &measured_tip) {
        table_->setItem(row, 1, item(engine ? tableValue(*engine, bytes) : QStringLiteral("–"), engine_tip));
        table_->setItem(row, 2, item(measured ? tableValue(*measured, bytes) : QStringLiteral("–"), measured_tip));
        QString diff = QStringLiteral("–");
        if (engine && measured && *engine != 0)
            diff = (*measured >= *engine ? QStringLiteral("+") : QString()) + format::percent((*measured - *engine) / *engine, 2);
        table_->setItem(row, 3, item(diff, tr("(measured − predicted) / predicted")));
    };
    std::optional<double> measured_flops;
    if (last_profile_)
        measured_flops = last_profile_->matmul_flops;
    setRow(0, e.flops.total_train, measured_flops, false,
           tr("Cost engine: (forward + backward) matmul FLOPs per token × tokens per step, 2·m·n·k per product, "
              "backward = 2 × forward, full s² attention products (%1).")
               .arg(shape),
           tr("Op profiler: sum of the matmul FLOPs every forward and backward op of the last training step "
              "counted from its actual dimensions."));
    std::optional<double> measured_all_flops;
    if (last_profile_)
        measured_all_flops = last_profile_->total_flops;
    setRow(1, e.flops.all_ops_train_per_token * double(scenario.training.tokens), measured_all_flops, false,
           tr("Cost engine: every operator's forward and backward FLOPs (core/ops/flop_rules.h: norms, softmax, "
              "RoPE, activations, residual adds, cross-entropy, the embedding's scatter-add) plus the matmuls."),
           tr("Op profiler: sum of every op's FLOPs in the last training step, by the same rules."));
    setRow(2, double(e.memory.params), run_->memory.parameters, true,
           tr("Cost engine: parameters × 4 bytes (fp32 weights)."),
           tr("Reference model: size of the parameter arena."));
    setRow(3, double(e.memory.grads), run_->memory.gradients, true,
           tr("Cost engine: parameters × 4 bytes (fp32 gradients)."),
           tr("Reference model: size of the gradient arena (same layout as the parameters)."));
    setRow(4, double(e.memory.optimizer), run_->optimizer_bytes, true,
           tr("Cost engine: AdamW's two moments, 8 bytes per parameter, no master copy in fp32."),
           tr("Trainer: bytes of AdamW's first and second moments."));
    setRow(5, double(e.memory.activations), run_->memory.activations, true,
           tr("Cost engine: saved activations per layer × layers (Korthikanti et al. 2022, Table 2, fp32, no "
              "recomputation, attention probabilities kept) plus the head."),
           tr("Reference model: buffers saved for the backward pass (per-layer buffers, final norm, logits)."));
    setRow(6, std::nullopt, run_->memory.workspace, true, tr("The cost engine does not model scratch buffers."),
           tr("Reference model: backward scratch and the attention probability gradient."));
    // Step time predicted by the operator-level predictor from this CPU's kernel factors alone
    // (never from the run), against the median measured step time (typicalStepSeconds).
    std::optional<double> engine_time;
    QString engine_tip;
    if (!run_->roofline) {
        engine_tip = tr("Needs this machine's measured roofline: press \"Measure this machine\" before Start.");
    } else if (!run_->kernels) {
        engine_tip = tr("This CPU's kernel factors could not be measured.");
    } else if (Result<reference::ReferenceStepPrediction> prediction = reference::predictReferenceStep(c, *run_->kernels)) {
        engine_time = prediction->seconds;
        engine_tip = tr("Operator-level step predictor (the GPUs' predictor) with this CPU's kernel factors at %n "
                        "thread(s), measured %1: each operator's kernels timed from the measured matrix-product rates "
                        "by shape, element-wise rates and bandwidth, call and parallel-region costs. %2 ms on idle cores "
                        "+ %3 ms while other processes held the cores (%4 of them ours while measuring). It does not use the run.",
                        nullptr, run_->kernels->threads)
                         .arg(QString::fromStdString(run_->kernels->measured_at),
                              format::decimal(prediction->idle_seconds * 1e3, 2),
                              format::decimal(prediction->other_processes_seconds * 1e3, 2),
                              format::percent(prediction->cpu_share));
        if (!run_->kernels_note.isEmpty())
            engine_tip += QLatin1Char(' ') + run_->kernels_note;
    } else {
        engine_tip = QString::fromStdString(formatProblems(prediction.problems())).trimmed();
    }
    std::optional<double> measured_time;
    if (!step_seconds_.empty())
        measured_time = reference::typicalStepSeconds(step_seconds_);
    table_->setItem(7, 1, item(engine_time ? format::decimal(*engine_time * 1e3, 2) + tr(" ms") : QStringLiteral("–"),
                               engine_tip));
    table_->setItem(7, 2, item(measured_time ? format::decimal(*measured_time * 1e3, 2) + tr(" ms") : QStringLiteral("–"),
                               tr("Trainer: median wall time of forward + backward + optimizer over the latest %1 steps, "
                                  "leaving out the first (which pays page faults and cold caches).")
                                   .arg(kTimedSteps)));
    QString diff = QStringLiteral("–");
    if (engine_time && measured_time)
        if (const std::optional<double> d = reference::signedDifference(*measured_time, *engine_time))
            diff = (*d >= 0 ? QStringLiteral("+") : QString()) + format::percent(*d, 2);
    table_->setItem(7, 3, item(diff, tr("(measured − predicted) / predicted")));
}

void ReferenceRunPage::refreshOperatorsTable()
{
    operators_table_->clearContents();
    operators_table_->setRowCount(0);
    if (!run_ || !run_->kernels || !last_profile_)
        return;
    const Result<reference::ReferenceStepPrediction> prediction = reference::predictReferenceStep(run_->config, *run_->kernels);
    if (!prediction)
        return;
    const double measured_step = step_seconds_.empty() ? 0 : step_seconds_.back();
    const std::vector<reference::OperatorComparison> rows =
        reference::compareOperators(*prediction, {}, last_profile_->ops, 1, measured_step);
    operators_table_->setRowCount(int(rows.size()));
    for (int r = 0; r < int(rows.size()); ++r) {
        const reference::OperatorComparison &row = rows[std::size_t(r)];
        const bool rest = row.name == reference::kOptimizerAndRestName;
        operators_table_->setItem(r, 0, item(rest ? tr("optimizer and the rest") : QString::fromStdString(row.name),
                                             rest ? tr("AdamW, gradient zeroing, norm and clipping, the finite check and "
                                                       "batch sampling: measured as the step less the timed operators")
                                                  : QString()));
        operators_table_->setItem(r, 1, item(QString::fromStdString(row.pass)));
        operators_table_->setItem(r, 2, item(format::decimal(row.predicted_seconds * 1e3, 3)));
        operators_table_->setItem(r, 3, item(format::decimal(row.measured_seconds * 1e3, 3)));
        QString diff = QStringLiteral("–");
        if (row.predicted_seconds > 0)
            diff = (row.difference_fraction >= 0 ? QStringLiteral("+") : QString()) + format::percent(row.difference_fraction, 1);
        operators_table_->setItem(r, 4, item(diff, tr("(measured − predicted) / predicted")));
    }
}

void ReferenceRunPage::refreshStats()
{
    if (!last_report_) {
        stats_label_->setText(run_ ? tr("Model: %1 parameters, %2 tokens from %3 bytes of text (BPE in %4 s).")
                                         .arg(format::count(double(run_->parameters)), format::integer(run_->tokens),
                                              format::integer(run_->text_bytes), format::decimal(run_->bpe_seconds, 2))
                                   : tr("Press Start to tokenize the text and train the model."));
        return;
    }
    const StepReport &r = *last_report_;
    QString text = tr("<b>Step %1 of %2</b> · loss %3").arg(r.step).arg(run_ ? run_->config.steps : 0).arg(format::decimal(r.loss, 3));
    if (!val_y_.isEmpty())
        text += tr(" · validation %1").arg(format::decimal(val_y_.back(), 3));
    // The last step's time, and the median the table compares with the prediction.
    text += tr(" · %1 tokens/s · last step %2 ms (median %5 ms) · %3 · lr %4")
                .arg(format::integer(std::int64_t(std::llround(r.tokens_per_s))), format::decimal(r.seconds * 1e3, 1),
                     format::si(r.achieved_flops_per_s, QStringLiteral("FLOP/s")), QString::number(r.learning_rate, 'g', 3),
                     step_seconds_.empty() ? QStringLiteral("–")
                                           : format::decimal(reference::typicalStepSeconds(step_seconds_) * 1e3, 2));
    if (reference::exceedsMeasuredPeak(r.mfu))
        text += tr(" · MFU exceeds the measured peak — re-measure this machine");
    else
        text += r.mfu > 0 ? tr(" · MFU %1").arg(format::percent(r.mfu)) : tr(" · MFU: no measured peak");
    if (run_)
        text += tr(" · %n thread(s)", nullptr, run_->threads.threads)
                + (run_->threads.requested ? tr(" (requested)")
                   : run_->threads.busy_cores >= 0
                       ? tr(" (%1 of %n core(s) busy with other work)", nullptr, run_->threads.logical_cores)
                             .arg(format::decimal(run_->threads.busy_cores, 1))
                       : QString());
    if (run_)
        text += QStringLiteral("<br>") + tr("Model: %1 parameters, %2 tokens from %3 bytes of text (BPE in %4 s).")
                                             .arg(format::count(double(run_->parameters)), format::integer(run_->tokens),
                                                  format::integer(run_->text_bytes), format::decimal(run_->bpe_seconds, 2));
    stats_label_->setText(text);
}

}  // namespace lse::gui
