// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/architecture/atlas/atlas_table_model.h"

#include "enum_labels.h"
#include "pages/page_format.h"
#include "scenario/model_identity.h"

#include <QApplication>
#include <QFont>
#include <QPalette>

namespace lse::gui {

namespace {

QString yesNo(bool value)
{
    return value ? AtlasTableModel::tr("yes") : AtlasTableModel::tr("no");
}

QString biasText(const BiasConfig &biases)
{
    QStringList parts;
    if (biases.qkv)
        parts << AtlasTableModel::tr("QKV");
    if (biases.attn_output)
        parts << AtlasTableModel::tr("out");
    if (biases.mlp)
        parts << AtlasTableModel::tr("MLP");
    if (biases.lm_head)
        parts << AtlasTableModel::tr("head");
    return parts.isEmpty() ? AtlasTableModel::tr("none") : parts.join(QStringLiteral(", "));
}

QString dateText(const AtlasEntry &entry)
{
    return entry.month > 0 ? QStringLiteral("%1-%2").arg(entry.year).arg(entry.month, 2, 10, QLatin1Char('0'))
                           : QString::number(entry.year);
}

bool isNumeric(int column)
{
    switch (column) {
    case AtlasTableModel::Name:
    case AtlasTableModel::Organisation:
    case AtlasTableModel::Family:
    case AtlasTableModel::Norm:
    case AtlasTableModel::Placement:
    case AtlasTableModel::ActivationColumn:
    case AtlasTableModel::Positional:
    case AtlasTableModel::Parallel:
    case AtlasTableModel::Tied:
    case AtlasTableModel::Biases:
        return false;
    default:
        return true;
    }
}

}  // namespace

AtlasTableModel::AtlasTableModel(std::vector<AtlasEntry> atlas, QObject *parent)
    : QAbstractTableModel(parent), atlas_(std::move(atlas)), ffn_ratios_(ffnRatios(atlas_)), is_current_(atlas_.size(), false)
{
}

int AtlasTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(atlas_.size());
}

int AtlasTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

void AtlasTableModel::setCurrentModel(const ModelConfig &model)
{
    for (std::size_t row = 0; row < atlas_.size(); ++row) {
        const bool current = sameArchitecture(atlas_[row].model, model);
        if (current == is_current_[row])
            continue;
        is_current_[row] = current;
        emit dataChanged(index(int(row), 0), index(int(row), ColumnCount - 1));
    }
}

int AtlasTableModel::currentRow() const
{
    for (std::size_t row = 0; row < is_current_.size(); ++row)
        if (is_current_[row])
            return int(row);
    return -1;
}

void AtlasTableModel::retranslate()
{
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (!atlas_.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

QVariant AtlasTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const std::size_t row = std::size_t(index.row());
    const AtlasEntry &entry = atlas_[row];
    switch (role) {
    case Qt::DisplayRole:
        return display(entry, row, index.column());
    case kSortRole:
        return sortValue(entry, row, index.column());
    case Qt::ToolTipRole:
        return toolTip(entry, row);
    case Qt::TextAlignmentRole:
        return int((isNumeric(index.column()) ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    case kCurrentModelRole:
        return bool(is_current_[row]);
    case Qt::FontRole:
        if (is_current_[row]) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::BackgroundRole:
        if (is_current_[row]) {
            QColor tint = QApplication::palette().color(QPalette::Highlight);
            tint.setAlpha(60);
            return tint;
        }
        return {};
    default:
        return {};
    }
}

QVariant AtlasTableModel::display(const AtlasEntry &entry, std::size_t row, int column) const
{
    const ModelConfig &model = entry.model;
    const bool moe = model.moe.enabled();
    const QString none = QStringLiteral("–");
    switch (column) {
    case Name: return format::fromStd(model.name);
    case Organisation: return format::fromStd(entry.organisation);
    case Family: return format::fromStd(entry.family);
    case Date: return dateText(entry);
    case Layers: return format::integer(model.n_layers);
    case DModel: return format::integer(model.d_model);
    case Heads: return format::integer(model.n_heads);
    case KvHeads: return format::integer(model.n_kv_heads);
    case HeadDim: return format::integer(model.head_dim);
    case DFf: return format::integer(model.d_ff);
    case FfnRatio: {
        const FfnRatioPoint &ratio = ffn_ratios_[row];
        return moe ? tr("%1 per expert").arg(format::decimal(ratio.ratio, 2)) : format::decimal(ratio.ratio, 2);
    }
    case ExpertDFf: return moe ? format::integer(model.moe.expert_d_ff) : none;
    case Experts:
        return moe ? tr("%1 / top-%2 / %3 shared").arg(model.moe.n_experts).arg(model.moe.top_k).arg(model.moe.n_shared_experts)
                   : none;
    case Vocabulary: return format::integer(model.vocab_size);
    case Context: return format::integer(model.max_seq_len);
    case Norm: return displayName(model.norm);
    case Placement: return displayName(model.norm_placement);
    case ActivationColumn: return displayName(model.activation);
    case Positional: return displayName(model.positional_encoding);
    case Parallel: return yesNo(model.parallel_block);
    case Tied: return yesNo(model.tied_embeddings);
    case Biases: return biasText(model.biases);
    case EngineParameters: return format::count(double(entry.engine_parameters));
    case PublishedParameters:
        return entry.published_parameters ? format::count(double(*entry.published_parameters)) : none;
    case Difference: {
        const std::optional<double> difference = entry.parameterDifferenceFraction();
        if (!difference)
            return none;
        return (*difference > 0 ? QStringLiteral("+") : QString()) + format::percent(*difference, 2);
    }
    default: return {};
    }
}

QVariant AtlasTableModel::sortValue(const AtlasEntry &entry, std::size_t row, int column) const
{
    const ModelConfig &model = entry.model;
    switch (column) {
    case Date: return entry.fractionalYear();
    case Layers: return model.n_layers;
    case DModel: return qlonglong(model.d_model);
    case Heads: return model.n_heads;
    case KvHeads: return model.n_kv_heads;
    case HeadDim: return model.head_dim;
    case DFf: return qlonglong(model.d_ff);
    case FfnRatio: return ffn_ratios_[row].ratio;
    case ExpertDFf: return model.moe.enabled() ? QVariant(qlonglong(model.moe.expert_d_ff)) : QVariant();
    case Experts: return model.moe.enabled() ? QVariant(model.moe.n_experts) : QVariant();
    case Vocabulary: return qlonglong(model.vocab_size);
    case Context: return qlonglong(model.max_seq_len);
    case EngineParameters: return qlonglong(entry.engine_parameters);
    case PublishedParameters:
        return entry.published_parameters ? QVariant(qlonglong(*entry.published_parameters)) : QVariant();
    case Difference: {
        const std::optional<double> difference = entry.parameterDifferenceFraction();
        return difference ? QVariant(*difference) : QVariant();
    }
    default: return display(entry, row, column);
    }
}

QString AtlasTableModel::toolTip(const AtlasEntry &entry, std::size_t row) const
{
    QString text = QStringLiteral("<b>%1</b> (%2, %3)").arg(format::fromStd(entry.model.name).toHtmlEscaped(),
                                                            format::fromStd(entry.organisation).toHtmlEscaped(),
                                                            dateText(entry));
    text += QStringLiteral("<p>") + tr("Engine: %1 parameters").arg(format::integer(entry.engine_parameters));
    if (entry.model.moe.enabled())
        text += tr(" (%1 active per token)").arg(format::integer(entry.engine_active_parameters));
    text += QStringLiteral("<br>")
        + (entry.published_parameters ? tr("Published: %1").arg(format::integer(*entry.published_parameters))
                                      : tr("Published: no count given"))
        + QStringLiteral("</p>");
    text += QStringLiteral("<p><b>") + tr("Source:") + QStringLiteral("</b> ")
        + format::fromStd(entry.source).toHtmlEscaped() + QStringLiteral("</p>");
    if (!entry.note.empty())
        text += QStringLiteral("<p><b>") + tr("Note:") + QStringLiteral("</b> ")
            + format::fromStd(entry.note).toHtmlEscaped() + QStringLiteral("</p>");
    if (is_current_[row])
        text += QStringLiteral("<p><i>") + tr("This is the current scenario's model.") + QStringLiteral("</i></p>");
    return text;
}

QVariant AtlasTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case FfnRatio:
            return tr("d_ff / d_model (a MoE model: one routed expert's width / d_model). A gated FFN (SwiGLU, GeGLU) has "
                      "three matrices instead of two, so 8/3 ≈ 2.67 gated has the parameters of 4 ungated.");
        case EngineParameters: return tr("The cost engine's exact count of the row's shapes (core/cost/parameters).");
        case PublishedParameters: return tr("The count the authors publish (model card, paper table or checkpoint).");
        case Difference: return tr("(engine − published) / published");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name: return tr("Model");
    case Organisation: return tr("Organisation");
    case Family: return tr("Family");
    case Date: return tr("Date");
    case Layers: return tr("Layers");
    case DModel: return tr("d_model");
    case Heads: return tr("Heads");
    case KvHeads: return tr("KV heads");
    case HeadDim: return tr("Head dim");
    case DFf: return tr("d_ff");
    case FfnRatio: return tr("FFN ratio");
    case ExpertDFf: return tr("Expert d_ff");
    case Experts: return tr("Experts");
    case Vocabulary: return tr("Vocabulary");
    case Context: return tr("Context");
    case Norm: return tr("Norm");
    case Placement: return tr("Norm placement");
    case ActivationColumn: return tr("Activation");
    case Positional: return tr("Positions");
    case Parallel: return tr("Parallel block");
    case Tied: return tr("Tied embeddings");
    case Biases: return tr("Biases");
    case EngineParameters: return tr("Engine params");
    case PublishedParameters: return tr("Published params");
    case Difference: return tr("Difference");
    default: return {};
    }
}

}  // namespace lse::gui
