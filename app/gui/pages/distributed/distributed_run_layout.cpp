// SPDX-License-Identifier: GPL-3.0-or-later
// The Distributed run page's layout controls (issue 33): which parallelism, its degrees, sequence
// parallelism, the pipeline schedule and micro-batches. A control the chosen layout does not use is
// disabled, and its tooltip says why; one it uses says its rule, with the model's figures.
#include "pages/distributed/distributed_run_page.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QSpinBox>

#include <algorithm>

namespace lse::gui {

DistributedParallelism DistributedRunPage::parallelism() const
{
    return static_cast<DistributedParallelism>(std::clamp(parallelism_box_->currentIndex(), 0, 4));
}

void DistributedRunPage::retranslateLayoutControls()
{
    parallelism_label_->setText(tr("Parallelism:"));
    const QStringList layouts = {tr("data parallel"), tr("tensor parallel"), tr("pipeline parallel"), tr("dp × tp"),
                                 tr("dp × pp")};
    const QStringList layout_tips = {
        tr("Every rank trains its slice of the global batch and the ranks average the gradients (train --dp N)."),
        tr("Megatron-LM's split of every layer over the ranks: each rank holds its heads and its slice of d_ff, and "
           "all-reduces the partial sums (train --tp T, T = ranks)."),
        tr("The layers split into stages, one per rank; micro-batches flow through them in the GPipe or 1F1B order "
           "(train --pp P, P = ranks)."),
        tr("dp replicas of a tp-way tensor-parallel split; ranks = dp × tp (train --dp D --tp T)."),
        tr("dp pipelines of pp stages; ranks = dp × pp (train --dp D --pp P).")};
    for (int i = 0; i < layouts.size(); ++i) {
        parallelism_box_->setItemText(i, layouts[i]);
        parallelism_box_->setItemData(i, layout_tips[i], Qt::ToolTipRole);
    }
    dp_label_->setText(tr("DP degree:"));
    tp_label_->setText(tr("TP degree:"));
    sp_check_->setText(tr("Sequence parallel"));
    pp_label_->setText(tr("PP stages:"));
    schedule_label_->setText(tr("Schedule:"));
    schedule_box_->setItemText(0, tr("GPipe"));
    schedule_box_->setItemData(0, tr("Every forward, then every backward (Huang et al. 2019)."), Qt::ToolTipRole);
    schedule_box_->setItemText(1, tr("1F1B"));
    schedule_box_->setItemData(1, tr("Stage s runs p − s − 1 warm-up forwards, then one forward and one backward in turn "
                                     "(Narayanan et al. 2021 §2.2)."),
                               Qt::ToolTipRole);
    micro_label_->setText(tr("Micro-batches:"));
    updateLayoutControls(isReady());
}

void DistributedRunPage::updateLayoutControls(bool idle)
{
    const DistributedParallelism layout = parallelism();
    const bool data_alone = layout == DistributedParallelism::Data;
    const bool tensor = usesTensorParallelism(layout);
    const bool pipeline = usesPipelineParallelism(layout);
    const bool combined = isCombinedLayout(layout);
    const bool bucketed = mode_box_->currentIndex() == 1;
    mode_box_->setEnabled(idle && data_alone);
    bucket_spin_->setEnabled(idle && data_alone && bucketed);
    dp_spin_->setEnabled(idle && combined);
    tp_spin_->setEnabled(idle && combined && tensor);
    sp_check_->setEnabled(idle && tensor);
    pp_spin_->setEnabled(idle && combined && pipeline);
    schedule_box_->setEnabled(idle && pipeline);
    micro_spin_->setEnabled(idle && pipeline);

    const int preset = preset_box_->currentIndex();
    const ModelConfig model = preset >= 0 && preset < int(presets_.size()) ? presets_[std::size_t(preset)].config.model : ModelConfig{};
    const QString combined_only = tr("Not used by data parallelism alone, nor by tensor or pipeline parallelism alone: "
                                     "there the Ranks field is the degree.");
    const QString dp_ranks_only = tr("Only dp × tp and dp × pp set the data-parallel degree here; data parallel alone "
                                     "runs dp = ranks, tensor or pipeline parallel alone dp = 1.");
    mode_box_->setToolTip(data_alone ? tr("How the ranks reduce their gradients.")
                               : tr("Tensor- and pipeline-parallel runs have no ZeRO or buckets here: dp × tp and dp × pp "
                                    "all-reduce the gradients over the dp group once after backward."));
    bucket_spin_->setToolTip(data_alone && bucketed ? tr("Bucketed mode: gradients are all-reduced in buckets of this size as "
                                                   "backward produces them (PyTorch DDP's bucket_cap_mb, default 25).")
                                              : tr("Only the bucketed data-parallel mode uses buckets."));
    dp_spin_->setToolTip(combined ? tr("Data-parallel replicas; ranks = dp × %1, and the global batch is split over the "
                                       "replicas.")
                                        .arg(tensor ? QStringLiteral("tp") : QStringLiteral("pp"))
                                  : dp_ranks_only);
    const QString tp_rule = tr("tp must divide n_heads (%1), n_kv_heads (%2) and d_ff (%3) of the model.")
                                .arg(model.n_heads)
                                .arg(model.n_kv_heads)
                                .arg(model.d_ff);
    tp_spin_->setToolTip(combined && tensor ? tr("Ranks per tensor-parallel group; ranks = dp × tp.") + QLatin1Char(' ') + tp_rule
                         : tensor          ? tr("Tensor parallel alone: tp = ranks.") + QLatin1Char(' ') + tp_rule
                                           : tr("Only the tensor-parallel layouts split the layers over ranks.") + QLatin1Char(' ')
                                                 + combined_only);
    sp_check_->setToolTip(tensor ? tr("Korthikanti et al. 2022 §4.2.2: the norms and residuals run on 1/tp of the tokens, "
                                      "and each all-reduce becomes an all-gather and a reduce-scatter of the same bytes. "
                                      "The context (%1) must be divisible by tp.")
                                       .arg(model.max_seq_len)
                                 : tr("Sequence parallelism comes with tensor parallelism: choose tensor parallel or dp × tp."));
    const QString pp_rule = tr("Every stage needs a layer: pp ≤ n_layers (%1).").arg(model.n_layers);
    pp_spin_->setToolTip(combined && pipeline ? tr("Stages per pipeline; ranks = dp × pp.") + QLatin1Char(' ') + pp_rule
                         : pipeline           ? tr("Pipeline parallel alone: pp = ranks.") + QLatin1Char(' ') + pp_rule
                                              : tr("Only the pipeline layouts split the layers into stages.") + QLatin1Char(' ')
                                                    + combined_only);
    schedule_box_->setToolTip(pipeline ? tr("The order of each stage's forwards and backwards, as the Pipeline page "
                                            "simulates it.")
                                       : tr("Only the pipeline layouts have a schedule."));
    micro_spin_->setToolTip(pipeline ? tr("m micro-batches per step: the global batch must be divisible by dp × m. "
                                          "Bubble (p − 1)/(m + p − 1): more micro-batches, a smaller bubble.")
                                     : tr("Only the pipeline layouts split the batch into micro-batches."));
    switch (layout) {
    case DistributedParallelism::Data:
        batch_spin_->setToolTip(tr("Sequences per step over all ranks; it must be divisible by the ranks."));
        ranks_spin_->setToolTip(tr("Processes (data-parallel ranks); they share this machine's cores, one thread each."));
        break;
    case DistributedParallelism::Tensor:
        batch_spin_->setToolTip(tr("Sequences per step; every rank runs all of them through its part of each layer."));
        ranks_spin_->setToolTip(tr("Processes: the tensor-parallel degree tp."));
        break;
    case DistributedParallelism::Pipeline:
        batch_spin_->setToolTip(tr("Sequences per step; it must be divisible by the micro-batches m."));
        ranks_spin_->setToolTip(tr("Processes: the pipeline stages pp."));
        break;
    case DistributedParallelism::DataTensor:
        batch_spin_->setToolTip(tr("Sequences per step over all replicas; it must be divisible by dp."));
        ranks_spin_->setToolTip(tr("Processes: they must equal dp × tp."));
        break;
    case DistributedParallelism::DataPipeline:
        batch_spin_->setToolTip(tr("Sequences per step over all replicas; it must be divisible by dp × m."));
        ranks_spin_->setToolTip(tr("Processes: they must equal dp × pp."));
        break;
    }
}

}  // namespace lse::gui
