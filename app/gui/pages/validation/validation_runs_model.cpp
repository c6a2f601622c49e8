// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/validation/validation_runs_model.h"

#include "enum_labels.h"
#include "pages/page_format.h"
#include "pages/prediction_band_text.h"

#include <QColor>

#include <algorithm>
#include <cmath>

namespace lse::gui {

ValidationRunsModel::ValidationRunsModel(QObject *parent) : QAbstractTableModel(parent) {}

void ValidationRunsModel::setTable(const ValidationTable &table, const std::vector<PublishedRun> &runs)
{
    beginResetModel();
    table_ = table;
    runs_.clear();
    for (const ValidationRow &row : table_.rows) {
        const auto found = std::find_if(runs.begin(), runs.end(), [&](const PublishedRun &run) { return run.id == row.id; });
        runs_.push_back(found == runs.end() ? std::nullopt : std::optional<PublishedRun>(*found));
    }
    endResetModel();
}

void ValidationRunsModel::setHeldOut(HeldOutState state, const std::map<std::string, double> &errors)
{
    held_out_state_ = state;
    held_out_ = errors;
    if (!table_.rows.empty())
        emit dataChanged(index(0, HeldOut), index(rowCount() - 1, HeldOut));
}

std::optional<double> ValidationRunsModel::heldOutError(int row) const
{
    if (row < 0 || row >= rowCount())
        return std::nullopt;
    const auto found = held_out_.find(table_.rows[std::size_t(row)].id);
    return found == held_out_.end() ? std::nullopt : std::optional<double>(found->second);
}

const PublishedRun *ValidationRunsModel::run(int row) const
{
    if (row < 0 || std::size_t(row) >= runs_.size() || !runs_[std::size_t(row)])
        return nullptr;
    return &*runs_[std::size_t(row)];
}

int ValidationRunsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(table_.rows.size());
}

int ValidationRunsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

void ValidationRunsModel::retranslate()
{
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (!table_.rows.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

QVariant ValidationRunsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Run: return tr("The run's id (hover a row for its name and source)");
        case Accelerator: return tr("The accelerator of the run, as in the hardware catalog");
        case Layout: return tr("Tensor · pipeline · data parallel degree");
        case Batch: return tr("Micro-batch / global batch (sequences)");
        case Published: return tr("The paper's iteration time, or its TFLOP/s per GPU converted with the paper's own FLOP formula");
        case Error:
            return tr("(predicted − published) / published with the catalog's factors, which were fitted to these runs; "
                      "marked beyond ±%1. The held-out error beside it is the one to expect on a new run.")
                .arg(format::percent(kErrorHighlight, 0));
        case HeldOut:
            return tr("Leave one source out: the run predicted with factors fitted on its accelerator's other sources "
                      "only (as `validate --leave-one-paper-out` prints); – when all of the accelerator's runs come "
                      "from one source");
        case Mfu: return tr("Model FLOPs (matmuls, no recomputation) / (GPUs · peak · predicted step time)");
        case Hfu: return tr("Executed matmul FLOPs (with recomputation) / (GPUs · peak · predicted step time)");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Run: return tr("Run");
    case Accelerator: return tr("Accelerator");
    case Gpus: return tr("GPUs");
    case Layout: return tr("tp/pp/dp");
    case Batch: return tr("Micro/global batch");
    case Recomputation: return tr("Recomputation");
    case Published: return tr("Published (s)");
    case Predicted: return tr("Predicted (s)");
    case Error: return tr("Error");
    case HeldOut: return tr("Held out");
    case Mfu: return tr("Predicted MFU");
    case Hfu: return tr("Predicted HFU");
    default: return {};
    }
}

QVariant ValidationRunsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const std::size_t row = std::size_t(index.row());
    switch (role) {
    case Qt::DisplayRole: return display(row, index.column());
    case kSortRole: return sortValue(row, index.column());
    case Qt::ToolTipRole: return toolTip(row);
    case Qt::TextAlignmentRole:
        return int((index.column() == Run || index.column() == Accelerator || index.column() == Recomputation
                        ? Qt::AlignLeft
                        : Qt::AlignRight)
                   | Qt::AlignVCenter);
    case Qt::BackgroundRole: {
        // A translucent tint reads on light and dark themes alike.
        if (index.column() == Error && std::abs(table_.rows[row].error) > kErrorHighlight)
            return QColor(214, 39, 40, 90);
        const std::optional<double> held_out = heldOutError(index.row());
        if (index.column() == HeldOut && held_out && std::abs(*held_out) > kErrorHighlight)
            return QColor(214, 39, 40, 90);
        return {};
    }
    default: return {};
    }
}

QVariant ValidationRunsModel::display(std::size_t row, int column) const
{
    const ValidationRow &result = table_.rows[row];
    const PublishedRun *published = run(int(row));
    const QString none = QStringLiteral("–");
    const ParallelConfig *parallel = published ? &published->scenario.training.parallel : nullptr;
    switch (column) {
    case Run: return format::fromStd(result.id);
    case Accelerator: return published ? format::fromStd(published->scenario.cluster.accelerator.id) : none;
    case Gpus: return published ? format::integer(published->scenario.cluster.gpus) : none;
    case Layout:
        return parallel ? QStringLiteral("%1/%2/%3").arg(parallel->tp).arg(parallel->pp).arg(parallel->dp) : none;
    case Batch:
        return published ? QStringLiteral("%1/%2").arg(format::integer(published->scenario.training.micro_batch),
                                                      format::integer(published->scenario.training.global_batch))
                         : none;
    case Recomputation: return published ? displayName(published->scenario.training.recomputation) : none;
    case Published: return format::decimal(result.published_seconds, 2);
    case Predicted: return format::decimal(result.predicted_seconds, 2);
    case Error: return (result.error > 0 ? QStringLiteral("+") : QString()) + format::percent(result.error, 1);
    case HeldOut: {
        if (held_out_state_ == HeldOutState::Computing)
            return tr("…");
        const std::optional<double> held_out = heldOutError(int(row));
        if (!held_out)
            return none;
        return (*held_out > 0 ? QStringLiteral("+") : QString()) + format::percent(*held_out, 1);
    }
    case Mfu: return format::percent(result.predicted_mfu, 1);
    case Hfu: return format::percent(result.predicted_hfu, 1);
    default: return {};
    }
}

QVariant ValidationRunsModel::sortValue(std::size_t row, int column) const
{
    const ValidationRow &result = table_.rows[row];
    const PublishedRun *published = run(int(row));
    switch (column) {
    case Gpus: return published ? QVariant(published->scenario.cluster.gpus) : QVariant();
    case Layout:
        return published ? QVariant(published->scenario.training.parallel.tp * 1'000'000
                                    + published->scenario.training.parallel.pp * 1'000
                                    + published->scenario.training.parallel.dp)
                         : QVariant();
    case Batch: return published ? QVariant(qlonglong(published->scenario.training.global_batch)) : QVariant();
    case Recomputation: return published ? QVariant(int(published->scenario.training.recomputation)) : QVariant();
    case Published: return result.published_seconds;
    case Predicted: return result.predicted_seconds;
    case Error: return std::abs(result.error);  // by size: the worst runs together at one end
    case HeldOut: {
        const std::optional<double> held_out = heldOutError(int(row));
        return held_out ? QVariant(std::abs(*held_out)) : QVariant();
    }
    case Mfu: return result.predicted_mfu;
    case Hfu: return result.predicted_hfu;
    default: return display(row, column);
    }
}

QString ValidationRunsModel::toolTip(std::size_t row) const
{
    const ValidationRow &result = table_.rows[row];
    const PublishedRun *published = run(int(row));
    QString text = QStringLiteral("<b>%1</b>").arg(format::fromStd(result.id).toHtmlEscaped());
    if (published) {
        text += QStringLiteral("<br>") + format::fromStd(published->name).toHtmlEscaped();
        text += QStringLiteral("<br>") + tr("Source: %1, %2").arg(format::fromStd(published->source).toHtmlEscaped(),
                                                                 format::fromStd(published->source_locator).toHtmlEscaped());
        text += QStringLiteral("<br>") + tr("Links: %1").arg(format::fromStd(published->links).toHtmlEscaped());
        if (!published->verification.empty())
            text += QStringLiteral("<br>") + tr("Verified: %1").arg(format::fromStd(published->verification).toHtmlEscaped());
    }
    if (published)
        text += QStringLiteral("<br>") + tr("Accelerator: %1").arg(format::fromStd(published->scenario.cluster.accelerator.name).toHtmlEscaped());
    const performance::StepPrediction &prediction = result.prediction;
    const QString predicted = PredictionBandText::withBand(tr("%1 s").arg(format::decimal(result.predicted_seconds, 2)),
                                                           prediction.band_fraction);
    text += QStringLiteral("<br>") + tr("Published %1 s, predicted %2, error %3 (catalog factors, fitted to these runs)")
                                         .arg(format::decimal(result.published_seconds, 2), predicted,
                                              format::percent(result.error, 1));
    if (const std::optional<double> held_out = heldOutError(int(row)))
        text += QStringLiteral("<br>") + tr("Held out (factors fitted without this run's source): error %1")
                                             .arg(format::percent(*held_out, 1));
    else if (held_out_state_ == HeldOutState::Computed)
        text += QStringLiteral("<br>") + tr("Held out: none (all of this accelerator's runs come from one source)");
    text += QStringLiteral("<br>")
        + PredictionBandText::toolTip(tr("%1 s").arg(format::decimal(prediction.low_seconds, 2)),
                                      tr("%1 s").arg(format::decimal(prediction.high_seconds, 2)),
                                      prediction.band_fraction, prediction.accuracy);
    return text;
}

}  // namespace lse::gui
