// SPDX-License-Identifier: GPL-3.0-or-later
// The Distributed run page's text and results: labels, status, the per-step and memory tables
// (measured beside the engine's prediction) and the timeline chart.
#include "pages/distributed/distributed_run_page.h"
#include "pages/distributed/distributed_table_cell.h"

#include "charts/chart_view.h"
#include "pages/page_format.h"
#include "pages/distributed/distributed_run_timeline.h"
#include "pages/parallel/pipeline_measured_panel.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>

namespace lse::gui {


void DistributedRunPage::retranslateUi()
{
    intro_->setText(tr("Train the reference transformer with several processes on this machine, as a cluster does "
                       "across GPUs: mpiexec starts one llm-explorer-cli per rank. Data parallelism gives each rank "
                       "a slice of the global batch and averages gradients (all-reduce, or ZeRO's reduce-scatter + "
                       "all-gather); tensor parallelism splits every layer over the ranks; pipeline parallelism "
                       "gives each rank a stage of layers; dp × tp and dp × pp combine them. Each step's bytes sent "
                       "per rank are set beside the cost engine's communication volume."));
    setup_box_->setTitle(tr("Setup"));
    ranks_label_->setText(tr("Ranks:"));
    mode_label_->setText(tr("Mode:"));
    mode_box_->setItemText(0, tr("naive DP"));
    mode_box_->setItemData(0, tr("One all-reduce of every gradient after backward."), Qt::ToolTipRole);
    mode_box_->setItemText(1, tr("bucketed DP"));
    mode_box_->setItemData(1, tr("All-reduce gradients in buckets while backward still runs (PyTorch DDP)."), Qt::ToolTipRole);
    mode_box_->setItemText(2, tr("ZeRO-1"));
    mode_box_->setItemData(2, tr("Optimizer states sharded: reduce-scatter gradients, all-gather parameters."), Qt::ToolTipRole);
    mode_box_->setItemText(3, tr("ZeRO-2"));
    mode_box_->setItemData(3, tr("Gradients sharded too: each rank keeps only its shard after the reduce-scatter."), Qt::ToolTipRole);
    mode_box_->setItemText(4, tr("ZeRO-3"));
    mode_box_->setItemData(4, tr("Parameters sharded too: each layer is all-gathered before its forward and again before "
                                 "its backward, its gradients reduce-scattered: 1.5× the traffic of DP (ZeRO §7.2.2)."),
                           Qt::ToolTipRole);
    bucket_label_->setText(tr("Bucket:"));
    bucket_spin_->setSuffix(tr(" MiB"));
    bucket_spin_->setToolTip(tr("Bucketed mode: gradients are all-reduced in buckets of this size as backward produces "
                                "them (PyTorch DDP's bucket_cap_mb, default 25)."));
    steps_label_->setText(tr("Steps:"));
    batch_label_->setText(tr("Global batch:"));
    preset_label_->setText(tr("Model:"));
    text_label_->setText(tr("Text:"));
    file_button_->setText(tr("File…"));
    tokenizer_label_->setText(tr("Tokenizer:"));
    tokenizer_box_->setItemText(0, tr("bytes"));
    tokenizer_box_->setItemData(0, tr("256 byte ids and <|endoftext|>: no merges."), Qt::ToolTipRole);
    tokenizer_box_->setItemText(1, tr("BPE (%1 ids)").arg(DistributedRunSetup{}.bpe_vocab));
    tokenizer_box_->setItemData(1, tr("A byte-level BPE trained on the text, as the Reference run page does."), Qt::ToolTipRole);
    start_button_->setText(tr("Start"));
    cancel_button_->setText(tr("Cancel"));
    retranslateLayoutControls();

    QString launcher;
    if (mpiexec_.isEmpty())
        launcher = tr("mpiexec was not found: install Open MPI (apt-get install openmpi-bin) to run distributed training.");
    else if (cli_.isEmpty())
        launcher = tr("llm-explorer-cli was not found next to the app or on PATH; the ranks run it.");
    else
        launcher = tr("Runs %1 with %2.").arg(QFileInfo(mpiexec_).fileName(), QFileInfo(cli_).fileName());
    launcher_label_->setToolTip(mpiexec_.isEmpty() || cli_.isEmpty()
                                    ? QString()
                                    : QStringLiteral("%1\n%2").arg(QDir::toNativeSeparators(mpiexec_), QDir::toNativeSeparators(cli_)));
    launcher_label_->setText(launcher);
    start_button_->setToolTip(mpiexec_.isEmpty() || cli_.isEmpty() ? launcher : tr("Check the setup and start the ranks."));

    QString status;
    switch (state_) {
    case State::Idle:
        status = tr("Set up a run and press Start.");
        break;
    case State::Preparing:
        status = tr("Tokenizing the text and writing the run's files…");
        break;
    case State::Running:
        status = tr("Running %n rank(s): step %1 of %2", nullptr, running_setup_.ranks).arg(steps_done_).arg(steps_total_);
        break;
    case State::Finished:
        status = tr("Finished %n step(s).", nullptr, steps_total_);
        break;
    case State::Cancelled:
        status = tr("Cancelled: the run was stopped.");
        break;
    case State::Failed:
        status = tr("Failed: %1").arg(message_);
        break;
    }
    if ((state_ == State::Running || state_ == State::Finished) && !message_.isEmpty())
        status += QStringLiteral(" (%1)").arg(message_);
    status_label_->setText(status);

    const QString layout = results_ ? results_->layout : QString();
    if (layout == QLatin1String("tp") || layout == QLatin1String("dp_tp"))
        steps_table_label_->setText(tr("Per step (rank 0): bytes of every tensor-parallel collective (the layers', "
                                       "the embedding's, the LM head's and the loss's) sent per rank, measured and as "
                                       "the engine predicts"));
    else if (layout == QLatin1String("pp") || layout == QLatin1String("dp_pp"))
        steps_table_label_->setText(tr("Per step: bytes rank 0 (the first stage) sent to the next stage, measured and "
                                       "as the engine predicts for those sends"));
    else
        steps_table_label_->setText(tr("Per step (rank 0): bytes sent per rank, measured and as the engine predicts"));
    step_table_->setHorizontalHeaderLabels({tr("Step"), tr("Loss"), tr("Step (ms)"), tr("Sent per rank"), tr("Engine"),
                                            tr("Equal"), tr("Exposed (ms)")});
    // A receive's row counts the bytes that rank received.
    traffic_table_->setHorizontalHeaderLabels({tr("Rank"), tr("Purpose"), tr("Collective"), tr("Transfers"),
                                               tr("Bytes"), tr("Engine"), tr("Equal")});
    memory_table_label_->setText(tr("Memory per rank (last step)"));
    memory_table_->setHorizontalHeaderLabels({tr("Category"), tr("Measured"), tr("Engine"), tr("Equal")});
    pipeline_panel_->retranslate();
    refreshResults();
}

void DistributedRunPage::refreshResults()
{
    fillStepTable();
    fillTrafficTable();
    fillMemoryTable();
    applyFonts();
    ChartData chart = distributedTimelineChart(results_.value_or(DistributedRunResults{}), palette());
    timeline_chart_->setData(chart);
    refreshPipelinePanel();
    // Empty tables and an empty chart say nothing: the results appear with the first finished run.
    const bool have = results_ && !results_->steps.empty();
    for (QWidget *widget : std::initializer_list<QWidget *>{steps_table_label_, step_table_, traffic_table_label_, traffic_table_})
        widget->setVisible(have);
    // A pipeline run shows stage 0's memory; the timeline reads a data-parallel run's exposed times
    // (tensor and pipeline collectives block: the Gantt chart shows a pipeline's waiting instead).
    memory_table_label_->setText(have && results_->pipeline ? tr("Memory of rank 0, pipeline stage 0 (last step)")
                                                            : tr("Memory per rank (last step)"));
    memory_table_label_->setVisible(have);
    memory_table_->setVisible(have);
    timeline_chart_->setVisible(have && results_->isDataParallel());
    pipeline_panel_->setVisible(have && results_->pipeline.has_value());
    if (!have) {
        summary_label_->setText(tr("No results yet: the tables and the charts fill when a run finishes."));
        return;
    }
    const DistributedRunResults &r = *results_;
    int equal = 0;
    for (const distributed::DataParallelStepReport &step : r.steps)
        equal += step.measured_bytes_per_rank == step.predicted_bytes_per_rank ? 1 : 0;
    QString facts;
    if (r.isDataParallel())
        facts = tr("%1 ranks, mode %2, global batch %3 (%4 per rank).")
                    .arg(r.ranks)
                    .arg(r.mode)
                    .arg(r.global_batch)
                    .arg(r.ranks > 0 ? r.global_batch / r.ranks : 0);
    else if (r.pipeline)
        facts = tr("%1 ranks: dp %2 × pp %3, schedule %4, %5 micro-batches, global batch %6.")
                    .arg(r.ranks)
                    .arg(r.dp)
                    .arg(r.pp)
                    .arg(QString::fromUtf8(parallel::displayName(r.pipeline->schedule).data()))
                    .arg(r.pipeline->micro_batches)
                    .arg(r.global_batch);
    else
        facts = tr("%1 ranks: dp %2 × tp %3%4, global batch %5.")
                    .arg(r.ranks)
                    .arg(r.dp)
                    .arg(r.tp)
                    .arg(r.sequence_parallel ? tr(" with sequence parallelism") : QString())
                    .arg(r.global_batch);
    summary_label_->setText(facts + QLatin1Char(' ') +
                            tr("%n step(s) of %1 sent exactly the bytes per rank the engine predicts.", nullptr, equal)
                                .arg(r.steps.size()));
}

void DistributedRunPage::fillStepTable()
{
    const std::size_t rows = results_ ? results_->steps.size() : 0;
    step_table_->setRowCount(int(rows));
    for (std::size_t i = 0; i < rows; ++i) {
        const distributed::DataParallelStepReport &step = results_->steps[i];
        const int row = int(i);
        const bool equal = step.measured_bytes_per_rank == step.predicted_bytes_per_rank;
        step_table_->setItem(row, 0, distributedTableCell(QString::number(step.step), Qt::AlignLeft | Qt::AlignVCenter));
        step_table_->setItem(row, 1, distributedTableCell(format::decimal(step.loss, 4)));
        step_table_->setItem(row, 2, distributedTableCell(format::decimal(step.seconds * 1e3, 1)));
        step_table_->setItem(row, 3, distributedTableCell(format::bytesExact(step.measured_bytes_per_rank)));
        step_table_->setItem(row, 4, distributedTableCell(format::bytesExact(step.predicted_bytes_per_rank)));
        step_table_->setItem(row, 5, distributedTableCell(equal ? QStringLiteral("✓") : QStringLiteral("≠"), Qt::AlignCenter));
        // Only a data-parallel run records how long it waited (the others' collectives block).
        step_table_->setItem(row, 6, distributedTableCell(results_->isDataParallel() ? format::decimal(exposedSeconds(step) * 1e3, 2)
                                                                     : QStringLiteral("—")));
    }
}

void DistributedRunPage::fillMemoryTable()
{
    const bool have = results_ && !results_->steps.empty();
    // A tensor-parallel run reports the activations saved for backward beside the engine's; a
    // data-parallel one its gradient arena, which the engine does not have.
    const std::optional<std::pair<double, double>> activations = have ? results_->activations : std::nullopt;
    // A pipeline run: stage 0's own parameters, gradients and moments beside the engine's figures
    // for that stage, and the stage inputs it keeps for backward (the engine has no such figure).
    const std::optional<double> stage_inputs = have ? results_->stage_inputs_bytes : std::nullopt;
    const QStringList names = {tr("parameters"), tr("gradients"), tr("optimizer states (AdamW m, v)"),
                               activations    ? tr("activations (saved for backward)")
                               : stage_inputs ? tr("stage inputs kept for backward")
                                              : tr("gradient arena (backward)")};
    const distributed::DataParallelStepReport last = have ? results_->steps.back() : distributed::DataParallelStepReport{};
    const double measured[] = {last.memory.params, last.memory.grads, last.memory.optimizer_states,
                               activations ? activations->first : stage_inputs ? *stage_inputs : last.memory.gradient_arena};
    const double predicted[] = {last.predicted_memory.params, last.predicted_memory.grads,
                                last.predicted_memory.optimizer_states, activations ? activations->second : 0.0};
    // ZeRO-3: the step's peak of the model state as the kernel held it (resident pages of the
    // parameter and gradient arenas, plus the optimizer's shard); the engine has no working copy.
    const bool resident = have && last.memory.resident_model_state_peak > 0;
    memory_table_->setRowCount(resident ? 5 : 4);
    if (resident) {
        memory_table_->setItem(4, 0, distributedTableCell(tr("resident peak (ZeRO-3)"),
                                                          Qt::AlignLeft | Qt::AlignVCenter));
        memory_table_->setItem(4, 1, distributedTableCell(format::bytesExact(last.memory.resident_model_state_peak)));
        memory_table_->setItem(4, 2, distributedTableCell(QStringLiteral("—")));
        memory_table_->setItem(4, 3, distributedTableCell(QString(), Qt::AlignCenter));
        memory_table_->item(4, 0)->setToolTip(
            tr("What the kernel held at the step's peak: the resident pages of the parameter and gradient arenas "
               "(mincore) plus the optimizer's shard. Each layer's gathered copy is handed back after use "
               "(madvise), so this falls as ranks grow; accounted by elements it is %1.")
                .arg(format::bytesExact(last.memory.model_state_peak)));
    }
    for (int row = 0; row < names.size(); ++row) {
        memory_table_->setItem(row, 0, distributedTableCell(names[row], Qt::AlignLeft | Qt::AlignVCenter));
        // The engine has no gradient arena: the whole arena is this implementation's buffer for backward.
        const bool predicts = row < 3 || activations.has_value();
        memory_table_->setItem(row, 1, distributedTableCell(have ? format::bytesExact(measured[row]) : QString()));
        memory_table_->setItem(row, 2, distributedTableCell(have && predicts ? format::bytesExact(predicted[row]) : QStringLiteral("—")));
        memory_table_->setItem(row, 3, distributedTableCell(have && predicts ? (measured[row] == predicted[row] ? QStringLiteral("✓") : QStringLiteral("≠"))
                                                             : QString(),
                                            Qt::AlignCenter));
    }
}

}  // namespace lse::gui
