// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/validation/validation_runs_model.h"

#include "enum_labels.h"
#include "pages/page_format.h"

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
        case Layout: return tr("Tensor · pipeline · data parallel degree");
        case Batch: return tr("Micro-batch / global batch (sequences)");
        case Published: return tr("The paper's iteration time, or its TFLOP/s per GPU converted with the paper's own FLOP formula");
        case Error: return tr("(predicted − published) / published; marked beyond ±%1").arg(format::percent(kErrorHighlight, 0));
        case Mfu: return tr("Model FLOPs (matmuls, no recomputation) / (GPUs · peak · predicted step time)");
        case Hfu: return tr("Executed matmul FLOPs (with recomputation) / (GPUs · peak · predicted step time)");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Run: return tr("Run");
    case Gpus: return tr("GPUs");
    case Layout: return tr("tp/pp/dp");
    case Batch: return tr("Micro/global batch");
    case Recomputation: return tr("Recomputation");
    case Published: return tr("Published (s)");
    case Predicted: return tr("Predicted (s)");
    case Error: return tr("Error");
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
        return int((index.column() == Run || index.column() == Recomputation ? Qt::AlignLeft : Qt::AlignRight)
                   | Qt::AlignVCenter);
    case Qt::BackgroundRole:
        // A translucent tint reads on light and dark themes alike.
        if (index.column() == Error && std::abs(table_.rows[row].error) > kErrorHighlight)
            return QColor(214, 39, 40, 90);
        return {};
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
    text += QStringLiteral("<br>") + tr("Published %1 s, predicted %2 s, error %3")
                                         .arg(format::decimal(result.published_seconds, 2),
                                              format::decimal(result.predicted_seconds, 2),
                                              format::percent(result.error, 1));
    return text;
}

}  // namespace lse::gui
