// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "architecture/atlas_statistics.h"
#include "architecture/model_atlas.h"

#include <QAbstractTableModel>

#include <vector>

namespace lse::gui {

// The model atlas as a table: one row per AtlasEntry, one column per architecture field, and the
// engine's and the published parameter counts. Qt::DisplayRole is formatted text; kSortRole is the
// raw value (a number for numeric columns, so sorting by parameters is numeric; nothing for an
// empty cell); the tooltip gives the row's source and note. The row whose architecture equals the
// current scenario's model is drawn bold on a tinted background.
class AtlasTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Name, Organisation, Family, Date, Layers, DModel, Heads, KvHeads, HeadDim, DFf, FfnRatio, ExpertDFf, Experts,
        Vocabulary, Context, Norm, Placement, ActivationColumn, Positional, Parallel, Tied, Biases, EngineParameters,
        PublishedParameters, Difference, ColumnCount
    };
    static constexpr int kSortRole = Qt::UserRole + 1;
    // true on the row of the current scenario's model.
    static constexpr int kCurrentModelRole = Qt::UserRole + 2;

    explicit AtlasTableModel(std::vector<AtlasEntry> atlas, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    const std::vector<AtlasEntry> &atlas() const { return atlas_; }
    const AtlasEntry &entry(int row) const { return atlas_.at(std::size_t(row)); }
    // Marks the row(s) with this architecture (names are ignored); -1 from currentRow() when none.
    void setCurrentModel(const ModelConfig &model);
    int currentRow() const;
    // Header texts follow the language.
    void retranslate();

private:
    QVariant display(const AtlasEntry &entry, std::size_t row, int column) const;
    QVariant sortValue(const AtlasEntry &entry, std::size_t row, int column) const;
    QString toolTip(const AtlasEntry &entry, std::size_t row) const;

    std::vector<AtlasEntry> atlas_;
    std::vector<FfnRatioPoint> ffn_ratios_;  // one per row, from core
    std::vector<bool> is_current_;
};

}  // namespace lse::gui
