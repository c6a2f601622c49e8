// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/parallel/collective_where_text.h"

#include <QCoreApplication>

#include <algorithm>
#include <iterator>

namespace lse::gui {

namespace {

constexpr char kContext[] = "lse::gui::CollectiveWhere";

// Every "where" of core/parallel/model_parallel_communication.cpp.
const char *const kWhere[] = {
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "LM head backward: input gradient (column-parallel over the vocabulary)"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "LM head backward: input gradient to the sequence shards"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "LM head forward: input rows from the sequence shards"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "MLP backward: gradient of down-proj output"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "MLP backward: input gradient of up-proj"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "MLP backward: input gradient of up-proj (column-parallel)"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "MLP forward: after down-proj (row-parallel)"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "MLP forward: after down-proj (tensor -> sequence parallel)"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "MLP forward: before up-proj (sequence -> tensor parallel)"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "MoE backward: gradients of the combine"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "MoE backward: gradients of the dispatch"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "MoE forward: combine expert outputs"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "MoE forward: dispatch tokens to experts"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "after backward: gradients of the weights every tp rank holds whole (norms)"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "after the optimizer step: updated parameter shards"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "attention backward: gradient of out-proj output"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "attention backward: input gradient of QKV"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "attention backward: input gradient of QKV (column-parallel)"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "attention forward: after out-proj (row-parallel)"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "attention forward: after out-proj (tensor -> sequence parallel)"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "attention forward: before QKV (sequence -> tensor parallel)"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "backward: gradient buckets (overlaps with backward)"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "backward: gradient buckets to their shard owners"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "backward: gradient shards"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "backward: parameters of each layer again"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "backward: this rank's 1/tp slice of the activation gradients to the previous stage"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "embedding backward: output gradient from the sequence shards"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "embedding forward: partial rows of the vocabulary-parallel lookup"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "embedding forward: partial rows to the sequence shards"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "loss forward: logit of the target (vocabulary-parallel cross-entropy)"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "loss forward: row maximum of the logits (vocabulary-parallel cross-entropy)"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "loss forward: sum of exponentials (vocabulary-parallel cross-entropy)"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "forward: parameters of each layer (ZeRO-3 prefetch)"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "forward: this rank's 1/tp slice of the activations to the next stage"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "recomputed MLP forward: after down-proj"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "recomputed MLP forward: before up-proj"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "recomputed attention forward: after out-proj"),
    QT_TRANSLATE_NOOP("lse::gui::CollectiveWhere", "recomputed attention forward: before QKV"),
};

}  // namespace

QString collectiveWhereText(const std::string &where)
{
    return QCoreApplication::translate(kContext, where.c_str());
}

bool isKnownCollectiveWhere(const std::string &where)
{
    return std::any_of(std::begin(kWhere), std::end(kWhere),
                       [&where](const char *known) { return where == known; });
}

}  // namespace lse::gui
